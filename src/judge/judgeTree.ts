/**
 * The judge tree (issue 42): a fresh detached worktree at the cycle's base commit holding the agent's
 * work, with the maintainer's paths taken from the base (`restore`) and new test infrastructure
 * removed (`drop`), made after the agent's turn ended, in a temporary directory of the state
 * directory's (outside the repository's working tree), beside an empty report directory for the
 * runner's machine-readable report. Nothing is done in the agent's repository but reads and the
 * worktree's registration: its index, working tree, HEAD and refs stay as they are.
 *
 * The work is taken as a tree, not as a patch: the agent's working tree (its branch tip, the
 * uncommitted and the untracked changes, ignored files left out) is written into a temporary index
 * (`git add --all` with GIT_INDEX_FILE: the repository's own index and its skip-worktree flags are
 * never read) and checked out into the worktree with `git read-tree -u`: binary files, renames, mode
 * changes, deletions and symlinks come as they are, and nothing can fail to apply. A symlink the work
 * adds or changes that points outside the tree is removed (`leavingLinks`), so that nothing outside
 * (a conftest.py in a directory the agent linked in) is read as part of the tree.
 */
import { createHash } from 'node:crypto';
import { type Stats, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type GitCall, type Run, type WorkChange, readWorkChange, writeWorkTree } from '../git/workChange.js';
import { changedLinks, leavesTree, presentAt } from './treePaths.js';

/** One git call through the one runner (src/git/exec.ts's execGit). */
export type GitIn = GitCall;

export interface JudgeTreeRequest {
  /** The one git runner: execGit. */
  git: GitIn;
  env: NodeJS.ProcessEnv;
  /** The top level of the agent's repository. */
  repo: string;
  /** The cycle's base commit. */
  base: string;
  /**
   * The agent's work: `working-tree` is the repository's HEAD (the cycle branch's tip) with the
   * working tree's uncommitted and untracked changes as the agent left them; `{ commit }` is that
   * commit's tree alone (or that tree, given by its id: JudgeTrees.change's `tree`).
   */
  work: 'working-tree' | { commit: string };
  /** Paths (relative to the top level) taken as they are at the base: removed when the base has none. */
  restore: readonly string[];
  /** Paths removed from the tree. */
  drop: readonly string[];
  /**
   * Directories of the repository's top level that git does not hold (ignored: `node_modules`,
   * `.venv`) linked into the tree where it has none, so that the test command finds what it was
   * installed with (a judge tree outside the repository finds nothing by looking in parent directories).
   */
  link?: readonly string[];
  /** A directory outside the repository's working tree (the state directory's), used by one run at a time. */
  scratch: string;
}

export interface JudgeTree {
  /** The worktree: the base with the work, restored and dropped. */
  dir: string;
  /** An empty directory outside the tree, for the runner's report. */
  reportDir: string;
  /** The symlinks of the work that pointed outside the tree and were removed (relative paths). */
  removedLinks: string[];
  /** Removes the worktree (and git's record of it) and the temporary directories. */
  close(): Promise<void>;
}

/**
 * The scratch directory of a state directory's judge trees: in the system's temporary directory, one
 * per state directory (named by a hash of its path: one run's at a time, by the state directory's
 * lock), never published with the state. Not under the state directory: that is `.git/agent-loop` by
 * default, and test runners skip whatever lies under a `.git` directory (jest's file crawler and
 * vitest's default exclude), so a suite judged there found no tests at all.
 */
export const judgeScratch = (stateDir: string, tmp = os.tmpdir()) =>
  path.join(tmp, `agent-loop-judge-${createHash('sha256').update(path.resolve(stateDir)).digest('hex').slice(0, 16)}`);

/**
 * Makes `scratch` (private to this user: 0700) and checks that it is a directory of this user's, not
 * a symlink or another user's directory planted at the predictable name in a shared /tmp.
 */
async function ownScratch(scratch: string): Promise<void> {
  await fs.mkdir(scratch, { recursive: true, mode: 0o700 });
  const unsafe = unsafeScratch(await fs.lstat(scratch), process.getuid?.());
  if (unsafe)
    throw new JudgeTreeError(
      `agent-loop will not judge work in ${scratch}: it is ${unsafe}, and the tests that judge the work must run ` +
        `where no one else can write. Remove it, or set TMPDIR to a directory of your own.`,
    );
}

/** Why a scratch directory is not safe to judge in (undefined: it is). Pure. */
export function unsafeScratch(st: Pick<Stats, 'isDirectory' | 'isSymbolicLink' | 'uid' | 'mode'>, uid?: number) {
  if (st.isSymbolicLink()) return 'a symlink';
  if (!st.isDirectory()) return 'not a directory';
  if (uid !== undefined && st.uid !== uid) return `owned by another user (uid ${st.uid})`;
  if ((st.mode & 0o022) !== 0) return `writable by other users (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

export class JudgeTreeError extends Error {}

/** The judge trees this process has open, by their temporary directory: never a leftover. */
const open = new Set<string>();

/** The name of a judge tree's temporary directory starts with this process's pid. */
const entryPrefix = () => `${process.pid}-`;

/** Opens a judge tree; leftovers of a killed run in `scratch` are removed first. */
export async function openJudgeTree(req: JudgeTreeRequest): Promise<JudgeTree> {
  const env = { ...req.env, GIT_LITERAL_PATHSPECS: '1' };
  const run = async (cwd: string, args: string[], extra: NodeJS.ProcessEnv = {}): Promise<string> => {
    const r = await req.git(cwd, { ...env, ...extra }, args);
    if (r.code !== 0)
      throw new JudgeTreeError(
        `agent-loop could not make the judge tree: git ${args.join(' ')} failed (exit ${r.code}) in ${cwd}: ${(r.stderr || r.stdout).trim()}`,
      );
    return r.stdout;
  };
  await clearJudgeTrees(req);
  await ownScratch(req.scratch);
  const entry = await fs.mkdtemp(path.join(req.scratch, entryPrefix()));
  open.add(entry);
  const dir = path.join(entry, 'tree');
  const reportDir = path.join(entry, 'report');
  let added = false;
  const close = async () => {
    if (added) await req.git(req.repo, env, ['worktree', 'remove', '--force', '--force', dir]);
    await fs.rm(entry, { recursive: true, force: true });
    await req.git(req.repo, env, ['worktree', 'prune']);
    open.delete(entry);
    // The scratch directory itself goes with its last tree: one per state directory would pile up in /tmp.
    if (open.size === 0) await fs.rmdir(req.scratch).catch(() => undefined);
  };
  try {
    await fs.mkdir(reportDir);
    const tree = await workTree(run, req, path.join(entry, 'index'));
    await run(req.repo, ['worktree', 'add', '--detach', '--no-checkout', '--quiet', dir, req.base]);
    added = true;
    await run(dir, ['read-tree', '--reset', '-u', tree]);
    const removedLinks = await linksLeaving(
      dir,
      // Plumbing: never coloured, never renames, whatever the person's diff settings.
      await run(dir, ['diff-index', '--cached', '-z', '--no-renames', req.base]),
    );
    const pathsFile = path.join(entry, 'paths');
    const remove = async (paths: readonly string[]) => {
      if (paths.length === 0) return;
      await fs.writeFile(pathsFile, paths.map((p) => `${p}\0`).join(''));
      await run(dir, [
        'rm',
        '-r',
        '-f',
        '-q',
        '--ignore-unmatch',
        '--pathspec-from-file',
        pathsFile,
        '--pathspec-file-nul',
      ]);
    };
    await remove([...removedLinks, ...req.restore, ...req.drop]);
    const atBase = presentAt(await run(dir, ['ls-tree', '-r', '-z', '--name-only', req.base]), req.restore);
    const restored = atBase.filter((p) => !req.drop.includes(p));
    if (restored.length > 0) {
      await fs.writeFile(pathsFile, restored.map((p) => `${p}\0`).join(''));
      await run(dir, ['checkout', req.base, '--pathspec-from-file', pathsFile, '--pathspec-file-nul']);
    }
    await linkInstalled(req.repo, dir, req.link ?? []);
    return { dir, reportDir, removedLinks, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** Each of `names` that is a directory in `repo` and absent from `dir`, linked there (JudgeTreeRequest.link). */
async function linkInstalled(repo: string, dir: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const from = path.join(repo, name);
    const to = path.join(dir, name);
    if (!(await fs.stat(from).catch(() => undefined))?.isDirectory()) continue;
    if (await fs.lstat(to).catch(() => undefined)) continue;
    await fs.symlink(from, to);
  }
}

/** The symlinks the work added or changed (`raw`: git diff --raw against the base) that point outside the tree. */
async function linksLeaving(dir: string, raw: string): Promise<string[]> {
  const leaving: string[] = [];
  for (const link of changedLinks(raw)) {
    const target = await fs.readlink(path.join(dir, link)).catch(() => undefined);
    if (target !== undefined && leavesTree(link, target)) leaving.push(link);
  }
  return leaving;
}

/** The tree object of the work (src/git/workChange.ts), through a temporary index at `indexFile`. */
const workTree = (run: Run, req: JudgeTreeRequest, indexFile: string): Promise<string> =>
  writeWorkTree(run, req.repo, req.work, indexFile, (file) => fs.rm(file, { force: true }));

/**
 * Removes the judge trees a killed run left in `scratch` (their worktrees, git's records of them
 * and their files); the ones this process has open stay. `scratch` is one run's at a time (the
 * state directory's lock), so any other entry is a leftover. A run killed inside `git worktree add`
 * leaves a record git itself locked ("initializing") and never prunes: it is unlocked first.
 */
export async function clearJudgeTrees(
  req: Omit<JudgeTreeRequest, 'base' | 'work' | 'restore' | 'drop' | 'link'>,
): Promise<string[]> {
  // Never through a planted symlink, nor in another user's directory: its entries are not ours to remove
  // (readdir follows the link, and every entry of its target would go). openJudgeTree refuses it with a message.
  const st = await fs.lstat(req.scratch).catch(() => undefined);
  if (!st || unsafeScratch(st, process.getuid?.()) !== undefined) return [];
  const names = await fs.readdir(req.scratch).catch(() => [] as string[]);
  const left = names.map((name) => path.join(req.scratch, name)).filter((entry) => !open.has(entry));
  const records = await recordsUnder(req, left);
  for (const tree of records) await req.git(req.repo, req.env, ['worktree', 'unlock', tree]);
  for (const entry of left) {
    const tree = path.join(entry, 'tree');
    if ((await fs.lstat(tree).catch(() => undefined))?.isDirectory())
      await req.git(req.repo, req.env, ['worktree', 'remove', '--force', '--force', tree]);
    await fs.rm(entry, { recursive: true, force: true });
  }
  if (left.length > 0 || records.length > 0) await req.git(req.repo, req.env, ['worktree', 'prune']);
  return left;
}

/** The worktrees git records in `entries` (leftover judge trees, as git names them), locked ones included. */
async function recordsUnder(req: Pick<JudgeTreeRequest, 'env' | 'repo'> & { git: GitIn }, entries: readonly string[]) {
  if (entries.length === 0) return [];
  const listed = await req.git(req.repo, req.env, ['worktree', 'list', '--porcelain', '-z']);
  if (listed.code !== 0) return [];
  const inside = await Promise.all(entries.map(async (e) => [e, await fs.realpath(e).catch(() => e)]));
  return listed.stdout
    .split('\0')
    .filter((field) => field.startsWith('worktree '))
    .map((field) => field.slice('worktree '.length))
    .filter((tree) => inside.some((names) => names.some((e) => tree.startsWith(`${e}${path.sep}`))));
}

/** The judge trees of one repository and state directory: what the engine is given (SliceDeps.judgeTrees). */
export interface JudgeTrees {
  /** openJudgeTree for this repository, in its scratch directory. */
  open(request: Pick<JudgeTreeRequest, 'base' | 'work' | 'restore' | 'drop' | 'link'>): Promise<JudgeTree>;
  /** clearJudgeTrees: the leftovers of a killed run removed; the directories removed, if any. */
  clear(): Promise<string[]>;
  /**
   * The agent's work as a tree object (HEAD and the working tree, as `open`'s `working-tree` takes
   * it) and its change from `base`: the texts of the paths `wants` names (bounded), the base's files.
   * `open({ work: { commit: tree } })` then judges exactly what was read.
   */
  change(request: { base: string; wants: (path: string) => boolean }): Promise<WorkChange>;
}

/** The judge trees of `repo`, made in `scratch` with `git` (execGit) and `env`. */
export function judgeTrees(bound: Omit<JudgeTreeRequest, 'base' | 'work' | 'restore' | 'drop' | 'link'>): JudgeTrees {
  return {
    open: (request) => openJudgeTree({ ...bound, ...request }),
    clear: () => clearJudgeTrees(bound),
    change: (request) => workChange(bound, request),
  };
}

/** JudgeTrees.change: the work's tree written through a temporary index in `scratch`, and its change read. */
async function workChange(
  bound: Omit<JudgeTreeRequest, 'base' | 'work' | 'restore' | 'drop' | 'link'>,
  request: { base: string; wants: (path: string) => boolean },
): Promise<WorkChange> {
  const env = { ...bound.env, GIT_LITERAL_PATHSPECS: '1' };
  const run: Run = async (cwd, args, extra = {}) => {
    const r = await bound.git(cwd, { ...env, ...extra }, args);
    if (r.code !== 0)
      throw new JudgeTreeError(
        `agent-loop could not read the agent's work: git ${args.join(' ')} failed (exit ${r.code}) in ${cwd}: ${(r.stderr || r.stdout).trim()}`,
      );
    return r.stdout;
  };
  await ownScratch(bound.scratch);
  const entry = await fs.mkdtemp(path.join(bound.scratch, entryPrefix()));
  open.add(entry);
  try {
    const tree = await writeWorkTree(run, bound.repo, 'working-tree', path.join(entry, 'index'), (file) =>
      fs.rm(file, { force: true }),
    );
    const read = await readWorkChange(bound.git, bound.env, bound.repo, {
      base: request.base,
      tree,
      wants: request.wants,
    });
    return { tree, ...read };
  } finally {
    await fs.rm(entry, { recursive: true, force: true });
    open.delete(entry);
    if (open.size === 0) await fs.rmdir(bound.scratch).catch(() => undefined);
  }
}
