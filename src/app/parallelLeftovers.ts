/**
 * Issue 43: what a killed `run --parallel` leaves in the repository, recovered by a later serial run.
 * Its jobs' worktrees (under `<state-dir>/parallel/`) keep their branches checked out — the job's
 * cycle branch `agent-loop/<id>` among them, which git then refuses to check out in the main checkout
 * ("already checked out at …/tree-<id>"). A serial run holds the repository's lock (no coordinator
 * runs) and has ended the process groups the dead run left (src/safety/session.ts), so a worktree
 * whose job's own lock is not held by a live process, and whose job had not finished, is removed; its
 * branches and the job's state are kept. A worktree whose job still runs is left, and said; one whose
 * job finished is left for `run --parallel` to merge (it holds only its wave branch).
 */
import { existsSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GitRunner } from '../git/git.js';
import { worktrees } from '../git/worktree.js';
import { LOCK_FILE, type LockDeps, deadHolder, describeHolder, readHolder } from '../safety/lock.js';
import { RUNTIME_DIR } from '../safety/processes.js';
import { printable } from '../util/printable.js';

/** The linked worktrees (as git lists them) that are jobs' worktrees under `parallelDir`. Pure. */
export function jobTrees(listed: readonly string[], parallelDir: string): string[] {
  const prefix = parallelDir.endsWith(path.sep) ? parallelDir : parallelDir + path.sep;
  return listed.filter((tree) => tree.startsWith(prefix));
}

/** The lock of the job whose worktree is `tree` (jobPlace: `<job dir>/tree-…` and `<job dir>/state`). Pure. */
export function jobLockOf(tree: string): string {
  return path.join(path.dirname(tree), 'state', RUNTIME_DIR, LOCK_FILE);
}

/** Removes the worktrees a killed --parallel run left whose jobs are not running; what was done, for the log. */
export async function recoverParallelTrees(
  top: string,
  stateDir: string,
  runner: GitRunner,
  lockDeps: LockDeps,
  /** Whether the job whose state directory this is finished (its work waits on its wave branch for `run --parallel` to merge). */
  finished: (jobStateDir: string) => Promise<boolean>,
): Promise<string[]> {
  const dir = path.join(stateDir, 'parallel');
  if (!existsSync(dir)) return [];
  const trees = worktrees(top, runner);
  const listed = await trees.list();
  const found = [...new Set([...jobTrees(listed, dir), ...jobTrees(listed, realpathSync(dir))])];
  const notes: string[] = [];
  for (const tree of found) {
    const holder = readHolder(jobLockOf(tree));
    if (typeof holder === 'object' && holder.host === os.hostname() && !deadHolder(holder, lockDeps)) {
      notes.push(
        `Left the worktree ${printable(tree)} of a --parallel run: its job (${describeHolder(holder)}) still runs. ` +
          `Stop that process, then run again to remove it.`,
      );
      continue;
    }
    // A finished job's worktree is on its wave branch, never checked out here: kept for the resumed wave to merge.
    if (await finished(path.join(path.dirname(tree), 'state'))) continue;
    await trees.remove(tree);
    notes.push(
      `Removed the worktree ${printable(tree)} a stopped --parallel run left (its job is not running), so its ` +
        `branches can be checked out here again; the branches and the job's state are kept.`,
    );
  }
  return notes;
}
