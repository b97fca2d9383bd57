/**
 * What must hold in the repository before any agent runs (zero agent cost): the user's own work is
 * never swept into a commit, and the run's work never lands on a detached commit or in the middle
 * of someone's merge. `preconditionProblems` decides from gathered facts (pure); `gatherRepoFacts`
 * asks git and the file system (thin).
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { execGit } from '../git/exec.js';
import { type GitOperation, SAFETY_MESSAGES as SAY } from './messages.js';

export type { GitOperation } from './messages.js';

export interface RefLock {
  path: string;
  /** When it was made (its mtime, ISO 8601). */
  since: string;
}

export interface RepoFacts {
  /** A `.git` found at or above the working directory while `git` itself cannot be run. */
  gitMissing?: { dotGit: string; error: string };
  /** Not in a git repository at all: nothing to check (the loop works in place). */
  notARepository?: boolean;
  topLevel?: string;
  noCommits?: boolean;
  /** The checked-out branch; undefined when HEAD is detached. */
  branch?: string;
  /** The commit HEAD points at when detached. */
  detachedAt?: string;
  operation?: GitOperation;
  /** Absolute path of an existing index.lock. */
  indexLock?: string;
  /** Ref locks a git process holds or a killed one left (HEAD.lock, packed-refs.lock, refs/…/*.lock): path and mtime. */
  refLocks?: RefLock[];
  /** Paths (relative to the top level) with uncommitted changes or untracked, non-ignored. */
  dirty: string[];
}

const SHOWN = 10;

/** The first paths, and how many more. */
function shownPaths(paths: string[]): string {
  const more = paths.length > SHOWN ? ` and ${paths.length - SHOWN} more` : '';
  return paths.slice(0, SHOWN).join(', ') + more;
}

/** Every reason the run must not start, each naming what is wrong and the command that fixes it. Pure. */
export function preconditionProblems(f: RepoFacts): string[] {
  if (f.gitMissing) {
    return [SAY.gitMissing(f.gitMissing.dotGit, f.gitMissing.error)];
  }
  if (f.notARepository) return [];
  const problems: string[] = [];
  if (f.indexLock) problems.push(SAY.indexLock(f.indexLock));
  if (f.refLocks?.length) problems.push(SAY.refLocks(f.refLocks.slice(0, SHOWN), f.refLocks.length));
  if (f.noCommits) problems.push(SAY.noCommits(f.topLevel));
  if (f.operation) problems.push(SAY.operation(f.operation, f.topLevel));
  if (!f.noCommits && f.branch === undefined)
    problems.push(SAY.detached(f.detachedAt?.slice(0, 12) ?? 'an unknown commit'));
  // The previous run's own work in flight (a cycle branch) is the resumed run's to commit or park.
  const ownCycle = f.branch?.startsWith('agent-loop/') ?? false;
  if (f.dirty.length > 0 && !ownCycle) {
    problems.push(SAY.dirty(f.topLevel, shownPaths(f.dirty)));
  }
  return problems;
}

/**
 * What a resumed run takes as its own: on a cycle branch, the uncommitted changes are the
 * interrupted run's work in flight and are committed with the cycle. Nothing tells them from a file
 * the user made there after the crash, so they are named (a warning), never taken silently. Pure.
 */
export function adoptedChanges(f: RepoFacts): string | undefined {
  if (!f.branch?.startsWith('agent-loop/') || f.dirty.length === 0) return undefined;
  return SAY.adopted(f.branch, shownPaths(f.dirty));
}

type Exec = (args: string[]) => Promise<{ code: number; stdout: string; error?: string }>;

/**
 * git through the one runner (src/git/exec.ts, with its hardening: no hooks, no fsmonitor, which
 * `git status` would otherwise run), as a look that takes no optional lock (the person's own git may
 * be at work), reading up to 64 MiB (the status of a large tree). Code -1: git could not be started.
 */
function execGitLook(cwd: string, env: NodeJS.ProcessEnv): Exec {
  return async (args) => {
    const r = await execGit(cwd, env, args, { readOnly: true, maxOutput: 64 * 1024 * 1024 });
    return { code: r.code, stdout: r.stdout, ...(r.startError !== undefined ? { error: r.startError } : {}) };
  };
}

/** The nearest `.git` (directory or worktree file) at or above `dir`, or undefined. */
function findDotGit(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const candidate = path.join(d, '.git');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(d) === d) return undefined;
  }
}

/**
 * The facts `preconditionProblems` decides on. `ignore` lists paths (absolute) whose changes are
 * the run's own: the state directory when it lies inside the tree, and agent-loop's temporary files.
 */
export async function gatherRepoFacts(
  cwd: string,
  env: NodeJS.ProcessEnv,
  ignore: { paths: string[]; isOwnFile?: (basename: string) => boolean; now?: () => Date },
): Promise<RepoFacts> {
  const git = execGitLook(cwd, env);
  const top = await git(['rev-parse', '--show-toplevel']);
  if (top.code === -1) {
    const dotGit = findDotGit(cwd);
    return dotGit
      ? { gitMissing: { dotGit, error: top.error ?? 'not found' }, dirty: [] }
      : { notARepository: true, dirty: [] };
  }
  if (top.code !== 0) return { notARepository: true, dirty: [] };
  const topLevel = top.stdout.trim();
  const gitDirOut = await git(['rev-parse', '--absolute-git-dir']);
  const gitDir = gitDirOut.stdout.trim();
  const facts: RepoFacts = { topLevel, dirty: [] };

  const lock = path.join(gitDir, 'index.lock');
  if (existsSync(lock)) facts.indexLock = lock;
  const common = await git(['rev-parse', '--git-common-dir']);
  const commonDir = common.code === 0 ? path.resolve(cwd, common.stdout.trim()) : gitDir;
  const refLocks = staleRefLocks(await findRefLocks(gitDir, commonDir), ignore.now?.() ?? new Date());
  if (refLocks.length > 0) facts.refLocks = refLocks;
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD']);
  if (head.code !== 0) facts.noCommits = true;
  const branch = await git(['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (branch.code === 0) facts.branch = branch.stdout.trim();
  else facts.detachedAt = head.stdout.trim();
  facts.operation = await operationInProgress(gitDir);

  const status = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=none']);
  const ignored = ignore.paths
    .map((p) => path.relative(topLevel, p))
    .filter((rel) => rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel));
  const entries = status.stdout.split('\0').filter((e) => e.length > 3);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as string;
    const code = entry.slice(0, 2);
    const file = entry.slice(3);
    if (code[0] === 'R' || code[0] === 'C') i++; // the rename's source follows
    const bare = file.replace(/\/$/, '');
    if (ignored.some((rel) => bare === rel || bare.startsWith(`${rel}/`))) continue;
    if (ignore.isOwnFile?.(path.basename(bare))) continue;
    facts.dirty.push(file);
  }
  return facts;
}

async function operationInProgress(gitDir: string): Promise<GitOperation | undefined> {
  const has = async (name: string) =>
    fs.stat(path.join(gitDir, name)).then(
      () => true,
      () => false,
    );
  if ((await has('rebase-merge')) || (await has('rebase-apply'))) return 'rebase';
  if (await has('MERGE_HEAD')) return 'merge';
  if (await has('CHERRY_PICK_HEAD')) return 'cherry-pick';
  if (await has('REVERT_HEAD')) return 'revert';
  if (await has('BISECT_LOG')) return 'bisect';
  return undefined;
}

/**
 * A ref lock younger than this is a git at work right now (another job of `run --parallel`, the
 * person's own fetch), which removes it within moments: only older ones are reported.
 */
export const REF_LOCK_STALE_MS = 60_000;

/** The ref locks old enough to have been left behind. Pure. */
export function staleRefLocks(locks: readonly RefLock[], now: Date): RefLock[] {
  return locks.filter((l) => now.getTime() - new Date(l.since).getTime() >= REF_LOCK_STALE_MS);
}

/** The top-level files of a git directory git locks while it rewrites them. */
const LOCKED_FILES = ['HEAD', 'ORIG_HEAD', 'FETCH_HEAD', 'packed-refs', 'config', 'shallow'];

/**
 * Every ref lock in the repository (issue 43): `<file>.lock` of HEAD, packed-refs … in the worktree's
 * and the common git directory, and every `*.lock` under refs/ (branches, tags, notes), bounded.
 */
async function findRefLocks(gitDir: string, commonDir: string): Promise<RefLock[]> {
  const found = new Set<string>();
  for (const dir of new Set([gitDir, commonDir]))
    for (const name of LOCKED_FILES) {
      const p = path.join(dir, `${name}.lock`);
      if (existsSync(p)) found.add(p);
    }
  let budget = 10_000; // entries read under refs/: a bound, not a limit any real repository meets
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (--budget < 0) return;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.lock')) found.add(p);
    }
  };
  for (const dir of new Set([path.join(commonDir, 'refs'), path.join(gitDir, 'refs')])) await walk(dir);
  const locks: RefLock[] = [];
  for (const p of [...found].sort()) {
    const st = await fs.stat(p).catch(() => undefined);
    if (st) locks.push({ path: p, since: new Date(st.mtimeMs).toISOString() });
  }
  return locks;
}
