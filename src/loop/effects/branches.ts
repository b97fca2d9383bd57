/** A cycle's branch: opened (fetched, brought up to date with the base), entered again on resume, left when no agent worked on it. */
import { adoptable, asideName, foreignBranchMessage } from '../../core/cycleTips.js';
import { notesGit, readNote } from '../notes.js';
import type { Git } from '../../git/git.js';
import type { CycleState, LoopState } from '../../core/state.js';
import { MergeConflictError } from '../../git/git.js';
import type { SliceDeps } from '../deps.js';
import { ownRecords } from '../ownIssues.js';
import type { Handler, SliceContext } from './context.js';

export const openCycle: Handler<'openCycle'> = async (effect, ctx) => {
  const loop = ctx.run.model.loop;
  const cycle = await openBranch(ctx.deps, effect.cycle, loop.baseBranch, loop.cycleTips);
  // Its issues as the cycle finds them (on its branch): what an escalation puts back.
  ctx.run.atCycleStart = await ownRecords(ctx.deps, cycle.issueIds);
  return { type: 'cycleOpened', cycle };
};

export const enterCycleBranch: Handler<'enterCycleBranch'> = async (effect, ctx) => {
  const { deps, run } = ctx;
  const { git, publisher, logger } = deps;
  const loop = run.model.loop;
  // A resumed cycle: make sure its branch is checked out (once per slice, not per iteration),
  // the one an earlier run pushed when this checkout does not have it.
  const branch = effect.branch;
  if (git && (await git.currentRef()) !== branch) {
    if (publisher && !(await git.branchExists(branch)) && (await publisher.fetchBranch(branch))) {
      logger.info('git.fetched', `Continuing on ${branch} as the previous slice pushed it.`);
    }
    await git.switchToBranch(branch, loop.baseBranch ?? 'HEAD');
  }
  // A cycle opened by an earlier slice: its issues as this slice finds them, before its agent runs.
  run.atCycleStart = await ownRecords(deps, loop.currentCycle?.issueIds ?? []);
  return undefined;
};

export const leaveCycle: Handler<'leaveCycle'> = async (effect, ctx) => {
  const { deps, run } = ctx;
  const { git, logger } = deps;
  // A job of a wave works in its own worktree, removed at the wave's end: nothing to switch back.
  const base = run.model.loop.baseBranch;
  if (!git || !base || deps.waveJob || (await git.currentRef()) !== effect.branch) return undefined;
  await git.checkout(base);
  const own = await git.subjectsSince(base, effect.branch);
  if (own.length === 0) await git.deleteBranch(effect.branch);
  else await leftAt(ctx, effect.branch);
  logger.info(
    'git.left',
    `No agent worked on ${effect.branch}: back on ${base}, where the fix goes${own.length === 0 ? ` (${effect.branch} removed)` : ''}` +
      `; the run that resumes opens the cycle again from ${base} as it is then.`,
  );
  return undefined;
};

/** Issue 42: the commit agent-loop leaves `branch` at now, recorded in the checkpoint once the step's effects are done. */
export async function leftAt(ctx: Pick<SliceContext, 'deps' | 'run'>, branch: string): Promise<void> {
  const tip = await ctx.deps.git?.tipOf(branch);
  if (tip) ctx.run.tipsLeft.set(branch, tip);
}

/**
 * Whether `tip` is a phase commit of --workflow tdd that agent-loop noted (refs/notes/agent-loop): the
 * record that resumes a cycle whose checkpoints are lost (docs/tdd.md), so its branch is agent-loop's too.
 */
async function phaseNoted(git: Git, tip: string): Promise<boolean> {
  const note = await readNote(notesGit(git.topLevel, undefined, git.author), tip).catch(() => undefined);
  return note !== undefined && !('invalid' in note);
}

/**
 * A new cycle's branch: fetched when an earlier run pushed it, brought up to date with the base,
 * checked out. An existing one whose tip agent-loop did not leave it at is moved aside first
 * (src/core/cycleTips.ts): renamed, so that nothing on it is lost and nothing on it is landed.
 */
async function openBranch(
  deps: SliceDeps,
  cycle: CycleState,
  baseBranch: string | undefined,
  cycleTips: LoopState['cycleTips'],
): Promise<CycleState> {
  const { git, logger } = deps;
  if (!git || !cycle.branch || !baseBranch) return cycle;
  // The branch of an earlier cycle of these issues (escalated: its work kept as wip:; or its
  // pull request's, pushed by an earlier run) is brought up to date with the base first, so
  // that this cycle merges back cleanly. Its baseline is still the base tip's (src/loop/baseline.ts):
  // what the earlier work broke is this cycle's.
  // Issue 42: a branch fetched from the remote was pushed by agent-loop or a person (the agent holds no
  // push credentials); one this checkout already had, the agent may have made, so it is continued only
  // at the commit agent-loop left it at (src/core/cycleTips.ts), else moved aside.
  const fetch = async () => {
    const fetched = deps.publisher ? await deps.publisher.fetchBranch(cycle.branch!) : false;
    if (fetched) logger.info('git.fetched', `Continuing on ${cycle.branch} as an earlier run pushed it.`);
    return fetched;
  };
  let earlier = await git.branchExists(cycle.branch);
  const found = earlier ? await git.tipOf(cycle.branch) : undefined;
  if (!earlier) earlier = await fetch();
  else if (found && !adoptable(cycleTips, cycle.branch, found) && !(await phaseNoted(git, found))) {
    const aside = asideName(cycle.branch, found);
    if (!git.renameBranch)
      throw new Error(`${cycle.branch} exists at a commit agent-loop did not leave it at; move it aside and run again`);
    await git.renameBranch(cycle.branch, aside);
    logger.warn('git.foreign_branch', foreignBranchMessage(cycle.branch, found, aside, baseBranch), {
      branch: cycle.branch,
      tip: found,
      movedTo: aside,
    });
    // Where work is published, the remote's branch (an open pull request's) is the one to continue.
    earlier = await fetch();
  }
  const baseTip = await git.tipOf(baseBranch);
  await git.switchToBranch(cycle.branch, baseBranch);
  if (earlier) {
    try {
      await git.merge(baseBranch, `Merge ${baseBranch} into ${cycle.branch}: a new cycle on an earlier cycle's branch`);
    } catch (error) {
      if (!(error instanceof MergeConflictError)) throw error;
      // The run stops on the base, where it started: left on the branch, the next run read the
      // issues from its tree (an issue closed there was taken for done).
      await git.checkout(baseBranch);
      throw new Error(
        `merging ${baseBranch} into ${cycle.branch} conflicts in ${error.conflicted.join(', ')}; the merge ` +
          `was undone (git merge --abort) and ${baseBranch} is checked out again, as the run found it. Merge ` +
          `${baseBranch} into ${cycle.branch} by hand (git checkout ${cycle.branch}, git merge ${baseBranch}` +
          `, commit), check ${baseBranch} out again, then run again`,
      );
    }
  }
  return { ...cycle, baseTip };
}
