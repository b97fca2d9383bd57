/**
 * The agent's change as git holds it, for the judge (issue 42): the work written as a tree object
 * (HEAD plus the working tree's uncommitted and untracked changes, ignored files left out, through a
 * temporary index: the repository's own index, HEAD and refs untouched), what changed between the
 * cycle's base and that tree (renames found), the base's file list, and the texts of the changed
 * files the judge reads (only those it asks for, each bounded). Every call goes through the one git
 * runner (exec.ts), passed in. Plumbing only (diff-tree, ls-tree, cat-file): no diff setting of the
 * person's (colour, external diff, rename limits) changes what is read.
 */
import type { ExecGitOptions, GitResult } from './exec.js';

/** One git call through the one runner (exec.ts's execGit). */
export type GitCall = (
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: readonly string[],
  options?: ExecGitOptions,
) => Promise<GitResult>;

/** A path of the change, as git names it (relative to the top level, with `/`). */
export interface WorkFileChange {
  path: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  /** A renamed file's path at the base. */
  from?: string;
  /** Its text at the base (at `from` when renamed); absent when it did not exist, is binary, not asked for or over the bound. */
  base?: string;
  /** Its text in the work; absent when deleted, binary, not asked for or over the bound. */
  now?: string;
}

export interface WorkChange {
  /** The work's tree object (in the repository's object store). */
  tree: string;
  changed: WorkFileChange[];
  /** Every file of the base (relative paths). */
  baseFiles: string[];
}

/** A text read for the judge is at most this long; a longer one is not read (the judge then takes the file as changed). */
export const TEXT_BOUND = 1024 * 1024;

/** Runs a git call that must succeed: its stdout, or an error naming the call. */
export type Run = (cwd: string, args: string[], extraEnv?: NodeJS.ProcessEnv) => Promise<string>;

/**
 * The tree object of the work, written into the repository's object store (nothing else of it
 * changes): a commit's own, or HEAD's with the working tree added through the temporary index
 * `indexFile` (removed after).
 */
export async function writeWorkTree(
  run: Run,
  repo: string,
  work: 'working-tree' | { commit: string },
  indexFile: string,
  removeFile: (file: string) => Promise<void>,
): Promise<string> {
  if (work !== 'working-tree') return (await run(repo, ['rev-parse', '--verify', `${work.commit}^{tree}`])).trim();
  const index = { GIT_INDEX_FILE: indexFile };
  try {
    await run(repo, ['read-tree', 'HEAD'], index);
    await run(repo, ['add', '--all', '--', '.'], index);
    return (await run(repo, ['write-tree'], index)).trim();
  } finally {
    await removeFile(indexFile);
  }
}

/**
 * What changed from `base` (a commit) to `tree`, with the texts of the paths `wants` names (at the
 * base and in the work; a rename's text at its old path too), and the base's files.
 */
export async function readWorkChange(
  git: GitCall,
  env: NodeJS.ProcessEnv,
  repo: string,
  request: { base: string; tree: string; wants: (path: string) => boolean; bound?: number },
): Promise<{ changed: WorkFileChange[]; baseFiles: string[] }> {
  const plain = { ...env, GIT_LITERAL_PATHSPECS: '1' };
  const must = async (args: string[]): Promise<string> => {
    const r = await git(repo, plain, args);
    if (r.code !== 0)
      throw new Error(
        `agent-loop could not read the agent's change: git ${args.join(' ')} failed (exit ${r.code}) in ${repo}: ${(r.stderr || r.stdout).trim()}`,
      );
    return r.stdout;
  };
  const raw = await must(['diff-tree', '-r', '-z', '-M', '--no-ext-diff', '--no-textconv', request.base, request.tree]);
  const baseFiles = (await must(['ls-tree', '-r', '-z', '--name-only', request.base])).split('\0').filter(Boolean);
  const bound = request.bound ?? TEXT_BOUND;
  const text = async (blob: string | undefined): Promise<string | undefined> => {
    if (blob === undefined) return undefined;
    const r = await git(repo, plain, ['cat-file', 'blob', blob], { maxOutput: bound });
    // Over the bound (code 1), binary (a NUL byte), or not a blob (a submodule's commit): no text.
    if (r.code !== 0 || r.stdout.includes('\0')) return undefined;
    return r.stdout;
  };
  const changed: WorkFileChange[] = [];
  for (const entry of rawEntries(raw)) {
    const wanted = request.wants(entry.path) || (entry.from !== undefined && request.wants(entry.from));
    const base = wanted ? await text(entry.oldBlob) : undefined;
    const now = wanted ? await text(entry.newBlob) : undefined;
    changed.push({
      path: entry.path,
      status: entry.status,
      ...(entry.from !== undefined ? { from: entry.from } : {}),
      ...(base !== undefined ? { base } : {}),
      ...(now !== undefined ? { now } : {}),
    });
  }
  return { changed, baseFiles };
}

interface RawEntry {
  path: string;
  from?: string;
  status: WorkFileChange['status'];
  oldBlob?: string;
  newBlob?: string;
}

const NO_BLOB = /^0+$/;
const FILE_MODE = /^(100644|100755|120000)$/;

/** `git diff-tree -r -z -M` (raw) read: one entry per path, a rename with its old path. Pure. */
export function rawEntries(raw: string): RawEntry[] {
  const fields = raw.split('\0');
  const out: RawEntry[] = [];
  let i = 0;
  while (i < fields.length) {
    const meta = fields[i] as string;
    if (!meta.startsWith(':')) {
      i += 1;
      continue;
    }
    // ":<old mode> <new mode> <old id> <new id> <status>"
    const [oldMode, newMode, oldId, newId, letter] = meta.slice(1).split(' ') as [
      string,
      string,
      string,
      string,
      string,
    ];
    const blob = (mode: string, id: string) => (FILE_MODE.test(mode) && !NO_BLOB.test(id) ? id : undefined);
    const oldBlob = blob(oldMode, oldId);
    const newBlob = blob(newMode, newId);
    if (letter.startsWith('R') || letter.startsWith('C')) {
      const from = fields[i + 1] as string;
      const to = fields[i + 2] as string;
      out.push(
        letter.startsWith('R')
          ? { path: to, from, status: 'renamed', oldBlob, newBlob }
          : { path: to, status: 'added', newBlob },
      );
      i += 3;
      continue;
    }
    const path = fields[i + 1] as string;
    const status = letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
    out.push({
      path,
      status,
      ...(oldBlob !== undefined ? { oldBlob } : {}),
      ...(newBlob !== undefined ? { newBlob } : {}),
    });
    i += 2;
  }
  return out;
}
