/**
 * A state directory is bound to one repository (issue 43): two repositories sharing one
 * `--state-dir` resumed each other's checkpoints (repo B worked repo A's issue inside B). The
 * repository's identity is recorded in `<state-dir>/repository.json` on first use; a run from
 * another repository is refused, naming both.
 *
 * The identity is what survives the action's cache restore on a fresh runner, where the work tree's
 * path changes: the `origin` remote's URL (credentials cut, normalised) and the root commits, read
 * only from a full clone (a shallow clone's "root" is its cut-off commit, which moves every run).
 * A field either side does not know decides nothing; any known field that differs refuses.
 * `identityMismatch` decides (pure); `checkStateDirOwner` reads and records (thin).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { execGit } from '../git/exec.js';
import { printable } from '../util/printable.js';
import { writeFileAtomic } from '../util/atomicWrite.js';

export const OWNER_FILE = 'repository.json';

export interface RepositoryIdentity {
  /** The origin remote's URL as host/path, no credentials, no `.git`. */
  origin?: string;
  /** The root commits, sorted (a full clone only). */
  roots?: string[];
}

/**
 * `host/owner/repo` for the URL forms git takes (https, ssh://, scp-like user@host:path), with
 * user and password cut and `.git` and trailing slashes dropped; a local path as it is. Pure.
 */
export function normaliseOrigin(url: string): string {
  const trimmed = url.trim();
  const drop = (p: string) => p.replace(/\/+$/, '').replace(/\.git$/, '');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/:]+)(?::\d+)?(\/.*)?$/i.exec(trimmed);
  if (withScheme) return drop(`${withScheme[1]?.toLowerCase()}${withScheme[2] ?? ''}`);
  const scp = /^(?:[^@/]+@)?([^/:]+):(?!\/)(.*)$/.exec(trimmed);
  if (scp) return drop(`${scp[1]?.toLowerCase()}/${scp[2]}`);
  return drop(trimmed);
}

/** What differs between the recorded identity and this repository's, or undefined when nothing known does. Pure. */
export function identityMismatch(recorded: RepositoryIdentity, current: RepositoryIdentity): string | undefined {
  const differences: string[] = [];
  if (recorded.origin !== undefined && current.origin !== undefined && recorded.origin !== current.origin)
    differences.push(`origin ${printable(recorded.origin)}, this one's ${printable(current.origin)}`);
  if (recorded.roots?.length && current.roots?.length && !recorded.roots.some((r) => current.roots?.includes(r)))
    differences.push(
      `root commit ${recorded.roots.map((r) => r.slice(0, 12)).join(', ')}, this one's ${current.roots.map((r) => r.slice(0, 12)).join(', ')}`,
    );
  return differences.length > 0 ? differences.join('; ') : undefined;
}

/** The recorded identity completed with what this repository adds (a field it did not know). Pure. */
export function completed(recorded: RepositoryIdentity, current: RepositoryIdentity): RepositoryIdentity {
  return {
    ...((recorded.origin ?? current.origin) !== undefined ? { origin: recorded.origin ?? current.origin } : {}),
    ...(recorded.roots?.length || current.roots?.length
      ? { roots: recorded.roots?.length ? recorded.roots : current.roots }
      : {}),
  };
}

/** This repository's identity, read with git (read-only); undefined outside a repository. */
export async function readIdentity(cwd: string, env: NodeJS.ProcessEnv): Promise<RepositoryIdentity | undefined> {
  const git = (args: string[]) => execGit(cwd, env, args, { readOnly: true });
  const inside = await git(['rev-parse', '--is-inside-work-tree']);
  if (inside.code !== 0) return undefined;
  const identity: RepositoryIdentity = {};
  const origin = await git(['config', '--get', 'remote.origin.url']);
  if (origin.code === 0 && origin.stdout.trim() !== '') identity.origin = normaliseOrigin(origin.stdout);
  const shallow = await git(['rev-parse', '--is-shallow-repository']);
  if (shallow.stdout.trim() === 'false') {
    const roots = await git(['rev-list', '--max-parents=0', 'HEAD']);
    const listed = roots.stdout.split('\n').filter((l) => /^[0-9a-f]{40,64}$/.test(l));
    if (roots.code === 0 && listed.length > 0) identity.roots = listed.sort();
  }
  return identity;
}

function parseRecorded(text: string): RepositoryIdentity | undefined {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    const origin = typeof v.origin === 'string' ? v.origin : undefined;
    const roots = Array.isArray(v.roots) ? v.roots.filter((r): r is string => typeof r === 'string') : undefined;
    return { ...(origin !== undefined ? { origin } : {}), ...(roots?.length ? { roots } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * Refuses a state directory recorded for another repository (the message says which, and what to
 * do); else records this repository's identity there (first use, or a field learnt), unless `record`
 * is false (a check before the session: the halt that stands, the idle check). Undefined: fine.
 */
export async function checkStateDirOwner(
  stateDir: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  option: string,
  opts: { record?: boolean } = {},
): Promise<string | undefined> {
  const current = await readIdentity(cwd, env);
  if (!current || (current.origin === undefined && !current.roots?.length)) return undefined;
  const file = path.join(stateDir, OWNER_FILE);
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  const recorded = text === undefined ? undefined : parseRecorded(text);
  const differs = recorded ? identityMismatch(recorded, current) : undefined;
  if (differs)
    return (
      `${option}: the state directory ${printable(stateDir)} belongs to another repository (recorded in ${printable(file)}: ${differs}); ` +
      "its checkpoints are that repository's, not this one's to resume. Give this repository its own state directory " +
      `(another ${option}, or leave it out for the default), or, if this is the same repository re-cloned or its origin moved, ` +
      `remove ${printable(file)} and run again.`
    );
  if (opts.record === false) return undefined;
  const next = completed(recorded ?? {}, current);
  if (JSON.stringify(next) !== JSON.stringify(recorded)) {
    await fs.mkdir(stateDir, { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify(next)}\n`);
  }
  return undefined;
}
