/**
 * The git side of `run --parallel N` (issue 16): a linked worktree per job, on its own branch cut
 * from the base, removed when the job's work is merged; and the merge of a job's branch into the
 * base branch in the main checkout, one at a time. The issue file's own conflicts (jobs closing
 * neighbouring issues) are merged issue by issue (src/issues/mergeLines.ts); any other conflict
 * aborts the merge and names the files, so the issue can be worked again on the new base.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { GitRunner } from './git.js';
import { mergeIssueLines } from '../issues/mergeLines.js';
import { untrackedInTheWay } from './messages.js';

export type MergeOutcome =
  | { kind: 'merged'; commit: string; issuesFileResolved: boolean }
  /** Nothing to merge: the base already holds the branch (a resumed run merged it before it died). */
  | { kind: 'up_to_date' }
  | { kind: 'conflict'; files: string[]; detail: string }
  /**
   * git would not start the merge because of the main checkout's own state (a staged or modified
   * file, an untracked file where the branch adds one): not the job's conflict, nothing was merged.
   */
  | { kind: 'refused'; detail: string };

export interface Worktrees {
  /** A worktree at `dir` on `branch`, created at `base` (reset there when it exists). */
  add(dir: string, branch: string, base: string): Promise<void>;
  /** Removes the worktrees at `dirs` (their files with them) and forgets them; no error when one is gone. */
  remove(...dirs: string[]): Promise<void>;
  /** The directories of the linked worktrees git knows (the main checkout not included). */
  list(): Promise<string[]>;
  branchExists(branch: string): Promise<boolean>;
  /** Deletes the local branches; no error for one that does not exist. */
  deleteBranches(...branches: string[]): Promise<void>;
  /** Merges `branch` into the branch checked out in the main checkout (a merge commit). */
  merge(branch: string, message: string, issuesFile: string | undefined): Promise<MergeOutcome>;
}

export class WorktreeError extends Error {}

export function worktrees(top: string, runner: GitRunner): Worktrees {
  const git = async (...args: string[]) => {
    const r = await runner.run(args);
    if (r.code !== 0)
      throw new WorktreeError(`git ${args.join(' ')} failed (exit ${r.code}): ${(r.stderr || r.stdout).trim()}`);
    return r.stdout.trim();
  };
  const tryGit = async (...args: string[]) => (await runner.run(args)).code === 0;
  const show = async (spec: string) => {
    const r = await runner.run(['show', spec]);
    return r.code === 0 ? r.stdout : '';
  };
  return {
    async add(dir, branch, base) {
      await fs.mkdir(path.dirname(dir), { recursive: true });
      // -B: a branch left by a run that died is reset to the base, never worked on from its old tip.
      await git('worktree', 'add', '--quiet', '-B', branch, dir, base);
    },
    async remove(...dirs) {
      for (const dir of dirs) {
        if (existsSync(dir)) await tryGit('worktree', 'remove', '--force', '--force', dir);
        await fs.rm(dir, { recursive: true, force: true });
      }
      await tryGit('worktree', 'prune');
    },
    async list() {
      const out = await git('worktree', 'list', '--porcelain');
      const dirs = out
        .split('\n')
        .filter((l) => l.startsWith('worktree '))
        .map((l) => l.slice('worktree '.length));
      return dirs.slice(1);
    },
    branchExists: (branch) => tryGit('rev-parse', '--verify', '--quiet', `refs/heads/${branch}`),
    async deleteBranches(...branches) {
      if (branches.length === 0) return;
      // One at a time only when one of them is gone already (git stops at the first it cannot delete).
      if (!(await tryGit('branch', '-D', ...branches))) for (const b of branches) await tryGit('branch', '-D', b);
    },
    merge: (job, message, issuesFile) => mergeJob({ top, runner, git, tryGit, show }, job, message, issuesFile),
  };
}

/** git in the main checkout, as worktrees() has it. */
interface MainCheckout {
  top: string;
  runner: GitRunner;
  git: (...args: string[]) => Promise<string>;
  tryGit: (...args: string[]) => Promise<boolean>;
  show: (spec: string) => Promise<string>;
}

/**
 * The files the merged branch adds that the checkout holds untracked or ignored: git overwrites an
 * ignored file without a word when the merged branch adds one at its path (a job's worktree has none of
 * the user's ignored files, so its agent cannot see it). One the base tracks (another job of the wave
 * added it first) is git's own add/add conflict, not in the way.
 */
async function inTheWayOf({ top, runner }: MainCheckout, branch: string): Promise<string[]> {
  const added = (
    await runner.run(['diff', '--name-only', '--no-renames', '--diff-filter=A', 'HEAD...' + branch, '--'])
  ).stdout
    .split('\n')
    .filter((f) => f !== '');
  const present = added.filter((f) => existsSync(path.join(top, f)));
  const tracked = new Set(
    present.length > 0
      ? (await runner.run(['ls-files', '--', ...present])).stdout.split('\n').filter((f) => f !== '')
      : [],
  );
  return present.filter((f) => !tracked.has(f));
}

/** Worktrees.merge: `job`'s branch into the main checkout's, the issues file's conflict resolved line by line. */
async function mergeJob(
  main: MainCheckout,
  job: string,
  message: string,
  issuesFile: string | undefined,
): Promise<MergeOutcome> {
  const { top, runner, git, tryGit, show } = main;
  // The branch by its full name: git reads a tag of the same name (an agent's) first.
  const branch = `refs/heads/${job}`;
  if (await tryGit('merge-base', '--is-ancestor', branch, 'HEAD')) return { kind: 'up_to_date' };
  const inTheWay = await inTheWayOf(main, branch);
  if (inTheWay.length > 0) return { kind: 'refused', detail: untrackedInTheWay(inTheWay) };
  const r = await runner.run(['merge', '--quiet', '--no-ff', '--no-edit', '-m', message, branch]);
  if (r.code === 0) return { kind: 'merged', commit: await git('rev-parse', 'HEAD'), issuesFileResolved: false };
  const conflicted = (await runner.run(['diff', '--name-only', '--diff-filter=U'])).stdout
    .split('\n')
    .filter((l) => l !== '');
  const abort = async (files: string[], detail: string): Promise<MergeOutcome> => {
    await tryGit('merge', '--abort');
    return { kind: 'conflict', files, detail };
  };
  // Not a conflict git could record: the checkout itself is in the way (the user staged or
  // changed a file, or made one the branch adds, during the run). Nothing was merged; working the
  // issue again would meet the same refusal, so it is not a conflict of the job's.
  if (conflicted.length === 0) {
    await tryGit('merge', '--abort'); // no merge to abort: a no-op
    return { kind: 'refused', detail: (r.stderr || r.stdout).trim() };
  }
  const others = conflicted.filter((f) => f !== issuesFile);
  if (others.length > 0 || !issuesFile)
    return abort(conflicted, `conflicting changes in ${(others.length > 0 ? others : conflicted).join(', ')}`);
  const merged = mergeIssueLines(
    await show(`:1:${issuesFile}`),
    await show(`:2:${issuesFile}`),
    await show(`:3:${issuesFile}`),
  );
  if (!merged.ok)
    return abort(conflicted, `both sides changed issue(s) ${merged.conflicts.join(', ')} in ${issuesFile}`);
  await fs.writeFile(path.join(top, issuesFile), merged.text);
  await git('add', '--', issuesFile);
  await git('commit', '--quiet', '--no-edit');
  return { kind: 'merged', commit: await git('rev-parse', 'HEAD'), issuesFileResolved: true };
}
