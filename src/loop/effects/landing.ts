/** A finished cycle's work committed (recorded before it leaves the machine), then landed. */
import type { LandingFailure } from '../../core/events.js';
import type { CycleState, LoopState } from '../../core/state.js';
import type { SliceDeps } from '../deps.js';
import { performIssueActions } from '../issueWork.js';
import { cycleCommit, cycleSubject, dropEmptyCycle, finishCycleInGit } from '../landing.js';
import { LandingError } from '../publish.js';
import { leftAt } from './branches.js';
import type { Handler } from './context.js';

export const commitCycle: Handler<'commitCycle'> = async (effect, ctx) => {
  const { git, publisher } = ctx.deps;
  const loop = ctx.run.model.loop;
  const { cycle } = effect;
  try {
    await performIssueActions(ctx, effect.issueActions);
  } catch (error) {
    if (error instanceof LandingError) return { type: 'cycleFinished', failed: error.failure };
    throw error;
  }
  if (!git || !cycle.branch) return { type: 'cycleCommitted', committed: false };
  const committed = await git.commitAll(cycleSubject(cycle), cycleCommit(loop));
  const tip = await git.tipOf(cycle.branch);
  // The work travels with the state before it leaves the machine: a runner killed while pushing loses nothing.
  if (loop.baseBranch) await publisher?.stash?.(cycle.branch, loop.baseBranch);
  return { type: 'cycleCommitted', committed, ...(tip ? { tip } : {}) };
};

export const finishCycle: Handler<'finishCycle'> = async (effect, ctx) => {
  const { deps } = ctx;
  const loop = ctx.run.model.loop;
  let where: Awaited<ReturnType<typeof enterLanding>> | undefined;
  if (effect.resumed && !effect.noChange) {
    where = await enterLanding(deps, loop, effect.cycle, effect.tip);
    if (where === 'lost' || where === 'older')
      return { type: 'cycleFinished', failed: { class: 'lost', message: lostMessage(deps, effect, where) } };
    if (typeof where === 'object')
      return { type: 'cycleFinished', failed: { ...where, message: ctx.redact(where.message) } };
  }
  // Held for a person with nothing published (issue 42): the work stays on its branch, so the issue's
  // label and note go onto the base branch, where later runs read the issues (as an escalation's do).
  const markOnBase = effect.held !== undefined && !deps.publisher;
  try {
    if (!markOnBase) await performIssueActions(ctx, effect.issueActions);
    if (where === 'landed') return { type: 'cycleFinished' };
    const landing = ctx.config.landing ?? 'branch';
    const published = effect.noChange
      ? await dropEmptyCycle(deps, landing, loop, effect.cycle)
      : await finishCycleInGit(deps, landing, loop, effect.cycle, effect.committed, effect.held);
    // Left on its branch (--on-success branch, or held): agent-loop's own only at this commit (finishedBranches.ts).
    const { branch } = effect.cycle;
    if (branch && !effect.noChange && (landing === 'branch' || effect.held !== undefined)) await leftAt(ctx, branch);
    if (markOnBase) await markHeldOnBase(ctx, effect.issueActions, effect.cycle, loop.baseBranch);
    return { type: 'cycleFinished', ...(published ? { published } : {}) };
  } catch (error) {
    // GitHub refused or failed a step: the core keeps the work in the outbox (a refusal halts).
    if (error instanceof LandingError) return { type: 'cycleFinished', failed: error.failure };
    throw error;
  }
};

/**
 * The held cycle's issues labelled with the note on the base branch, checked out again by the landing,
 * and that bookkeeping committed there (the work itself stays on its branch): a later run, whatever its
 * checkpoint, leaves them to a person. Idempotent (the label and note are written once).
 */
async function markHeldOnBase(
  ctx: Parameters<Handler<'finishCycle'>>[1],
  actions: Parameters<typeof performIssueActions>[1],
  cycle: CycleState,
  base: string | undefined,
): Promise<void> {
  await performIssueActions(ctx, actions);
  const { git } = ctx.deps;
  if (git && base && (await git.currentRef()) === base)
    await git.commitAll(`agent-loop: ${cycle.issueIds.join(' ')} held for a person`.slice(0, 120));
}

/** Why an earlier run's finished cycle cannot be landed: its branch is nowhere, or holds only older work. */
function lostMessage(deps: SliceDeps, effect: { cycle: CycleState; tip?: string }, where: 'lost' | 'older'): string {
  const remote = deps.publisher?.description;
  const { cycle, tip } = effect;
  if (where === 'lost')
    return `its branch ${cycle.branch} is in neither this checkout nor ${remote ?? 'a remote'} (the run that did the work ended before pushing it)`;
  return tip
    ? `the branch ${cycle.branch} fetched from ${remote ?? 'the remote'} does not hold its commit ${tip.slice(0, 12)}` +
        `, only older work (the run that did it ended before pushing it)`
    : `the run that did it ended before committing it, and only that checkout had it (${cycle.branch} from ${remote ?? 'the remote'} holds older work at most)`;
}

/**
 * An earlier run's finished cycle, landed now: its branch checked out, fetched first where work is
 * published. `landed` when it is gone from a checkout where nothing is published: agent-loop deletes
 * a cycle branch only once it is merged; `lost` when it is nowhere; `older` when the fetched branch
 * does not hold the work's recorded commit (or none was recorded: the work was never committed, and
 * only the dead run's checkout had it); a transient failure when the remote cannot be reached.
 */
async function enterLanding(
  deps: SliceDeps,
  state: LoopState,
  cycle: CycleState,
  tip: string | undefined,
): Promise<'entered' | 'landed' | 'lost' | 'older' | LandingFailure> {
  const { git, publisher } = deps;
  if (!git || !cycle.branch || !state.baseBranch || (await git.currentRef()) === cycle.branch) return 'entered';
  if (!(await git.branchExists(cycle.branch))) {
    if (!publisher) return 'landed';
    // Pushed onto the base by a run that died before it could say so (on-success merge), or its pull request merged.
    if (tip && (await git.holds(state.baseBranch, tip))) return 'landed';
    let fetched: boolean;
    try {
      fetched = await publisher.fetchBranch(cycle.branch);
    } catch (error) {
      // The remote cannot be reached: a later run tries again.
      return { class: 'transient', message: `could not fetch ${cycle.branch}: ${(error as Error).message}` };
    }
    if (!fetched) return 'lost';
    if (!tip || !(await git.holds(cycle.branch, tip))) return 'older';
  }
  await git.checkout(cycle.branch);
  return 'entered';
}
