/**
 * Moving between branches: switching, checking a ref out over a test run's leftovers (Git.checkout with
 * `discard`), merging a branch with a merge commit, a conflict undone (Git.merge), resetting, deleting.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { GitContext } from './context.js';
import type { Git } from './operations.js';
import { GitError, MergeConflictError } from './errors.js';
import { withMessage } from './message.js';

/** `files` as literal pathspecs, at most 200 to a git command line. Pure. */
export function literalBatches(files: readonly string[]): string[][] {
  const batches: string[][] = [];
  for (let i = 0; i < files.length; i += 200)
    batches.push(files.slice(i, i + 200).map((file) => `:(top,literal)${file}`));
  return batches;
}

/** The paths `git diff --name-only -z <args>` lists. */
export async function diffNames(ctx: GitContext, ...args: string[]): Promise<string[]> {
  const full = ['diff', '--name-only', '-z', '--no-renames', ...args];
  const r = await ctx.runner.run(full);
  if (r.code !== 0) throw new GitError(full, r.code, r.stderr || r.stdout);
  return r.stdout.split('\0').filter((file) => file !== '');
}

/**
 * Before checking `ref` out: puts back, from HEAD, every tracked file that differs from it (in the
 * tree or the index), and only those: not `checkout --force` nor `reset --hard`, which also rewrite
 * a file the person told git to leave alone (update-index --assume-unchanged, e.g. their own
 * settings) that no diff shows. And removes what stands where `ref` has a file HEAD has not (not
 * tracked here, so written since the checkout of HEAD: the test run's).
 */
export async function discardChangesBefore(ctx: GitContext, ref: string): Promise<void> {
  const files = [...new Set([...(await diffNames(ctx, 'HEAD')), ...(await diffNames(ctx, '--cached', 'HEAD'))])];
  for (const specs of literalBatches(files))
    await ctx.git('restore', '--source=HEAD', '--staged', '--worktree', '--', ...specs);
  // Untracked files only, as git lists them (never through a symlinked directory); ignored ones git overwrites itself.
  for (const specs of literalBatches(await diffNames(ctx, '--diff-filter=A', 'HEAD', ref))) {
    const args = ['ls-files', '-z', '--others', '--exclude-standard', '--', ...specs];
    const r = await ctx.runner.run(args);
    if (r.code !== 0) throw new GitError(args, r.code, r.stderr || r.stdout);
    for (const file of r.stdout.split('\0').filter((f) => f !== ''))
      await fs.rm(path.join(ctx.topLevel, file), { force: true }).catch(() => undefined); // a directory: git says so
  }
}

/** Git.merge over `ctx` (see its contract in git.ts); `currentRef` names the branch merged into. */
export async function mergeBranch(
  ctx: GitContext,
  currentRef: () => Promise<string>,
  branch: string,
  message: string,
  mergeOptions: { fastForwardOnly?: boolean } = {},
): Promise<void> {
  // The branch by its full name: git reads a tag of the same name first (an agent's
  // `git tag agent-loop/x` would be merged instead of the cycle's work).
  const ref = `refs/heads/${branch}`;
  if (mergeOptions.fastForwardOnly) {
    await ctx.git('merge', '--quiet', '--ff-only', ref);
    return;
  }
  try {
    await withMessage(ctx, message, (file) => ['merge', '--quiet', '--no-ff', '--no-edit', '-F', file, ref]);
  } catch (error) {
    // A merge that stopped on a conflict is undone: the checkout is never left half-merged.
    const conflicted = await diffNames(ctx, '--diff-filter=U').catch(() => [] as string[]);
    await ctx.runner.run(['merge', '--abort']);
    if (conflicted.length === 0) throw error;
    throw new MergeConflictError(branch, await currentRef(), conflicted);
  }
}

export type CheckoutOps = Required<
  Pick<Git, 'switchToBranch' | 'checkout' | 'merge' | 'resetHard' | 'deleteBranch' | 'renameBranch'>
>;

/** The Git operations that move HEAD or a branch, over `ctx`. */
export function checkoutOps(ctx: GitContext, currentRef: () => Promise<string>): CheckoutOps {
  const { git } = ctx;
  return {
    async switchToBranch(branch, from) {
      if (await ctx.tryGit('show-ref', '--verify', '--quiet', `refs/heads/${branch}`))
        await git('checkout', '--quiet', branch);
      else await git('checkout', '--quiet', '-b', branch, from);
    },
    async checkout(ref, options) {
      if (options?.discard) await discardChangesBefore(ctx, ref);
      await git('checkout', '--quiet', ref);
    },
    merge: (branch, message, mergeOptions) => mergeBranch(ctx, currentRef, branch, message, mergeOptions),
    async resetHard(ref) {
      await git('reset', '--quiet', '--hard', ref);
      await git('clean', '--quiet', '-fd');
    },
    async deleteBranch(branch) {
      await git('branch', '--quiet', '-D', branch);
    },
    async renameBranch(from, to) {
      await git('branch', '--quiet', '-m', from, to);
    },
  };
}
