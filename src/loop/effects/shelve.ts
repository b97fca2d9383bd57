/** Work that does not land now: an escalated cycle's shelved as wip:, the cycle still in flight at a slice's end kept; the lane checked. */
import { cycleCommit, keepBranch } from '../landing.js';
import { putBackOwnIssues } from '../ownIssues.js';
import { leftAt } from './branches.js';
import type { Handler } from './context.js';

export const shelveCycle: Handler<'shelveCycle'> = async (effect, ctx) => {
  const { deps, run } = ctx;
  const { git, publisher, logger } = deps;
  const loop = run.model.loop;
  const { cycle, reason } = effect;
  // Rejected work closes nothing: the agent's closing of the cycle's own issues is not kept with it.
  await putBackOwnIssues(deps, run.atCycleStart, cycle.issueIds);
  if (git && cycle.branch && loop.baseBranch) {
    const committed = await git.commitAll(
      `wip: ${cycle.issueIds.join(' ')} escalated: ${reason}`.slice(0, 120),
      cycleCommit(loop),
    );
    // Where the work is published, the machine is thrown away: the wip: branch is pushed to stay.
    if (publisher && (committed || (await git.branchExists(cycle.branch)))) await keepBranch(deps, cycle.branch);
    // Issue 42: the commit it is left at, the only one a later cycle of its issues continues from.
    if (await git.branchExists(cycle.branch)) await leftAt(ctx, cycle.branch);
    await git.checkout(loop.baseBranch);
    logger.info(
      'git.wip',
      `${committed ? `Committed the cycle's work to ${cycle.branch} as wip:` : `${cycle.branch} had no changes`}` +
        `; back on ${loop.baseBranch}${effect.halting ? '' : ' for the next cycle'}.`,
    );
  }
  return undefined;
};

export const keepOpenCycle: Handler<'keepOpenCycle'> = async (effect, ctx) => {
  const { deps, run } = ctx;
  const { git, publisher } = deps;
  if (publisher && git && (await git.currentRef()) === effect.branch) {
    await git.commitAll(effect.message, cycleCommit(run.model.loop));
    await keepBranch(deps, effect.branch);
    await leftAt(ctx, effect.branch);
  }
  return undefined;
};

export const verifyLane: Handler<'verifyLane'> = async (effect, { guard }) => {
  await guard?.verify(effect.what);
  return undefined;
};
