/**
 * How a finished cycle's work lands in git: merged into the base, pushed onto it, published as a
 * pull request or left on its branch (--on-success); a cycle that needed no change dropped; an
 * escalated cycle's branch pushed to stay.
 */
import { type LandingMode, landingFor } from '../core/landing.js';
import { cycleProgress } from '../core/slice.js';
import type { CycleState, LoopState } from '../core/state.js';
import type { Held } from '../core/held.js';
import { heldLabel } from '../core/held.js';
import type { SliceDeps } from './deps.js';
import type { CycleWork } from './publish.js';

/**
 * A commit of a cycle's work, which is then merged or pushed with the branch: the commits the
 * agent made itself on it are scanned for secrets too (a token committed, then removed by a later
 * commit, is in the history that lands though in no diff of the tree).
 */
export const cycleCommit = (state: LoopState) =>
  state.baseBranch !== undefined ? { scanCommitsSince: state.baseBranch } : {};

/** The commit message of a finished cycle's work. */
export const cycleSubject = (cycle: CycleState) =>
  `agent-loop: ${cycle.issueIds.join(' ')} ${cycle.titles.join('; ')}`.slice(0, 120);

export async function finishCycleInGit(
  deps: SliceDeps,
  landing: LandingMode,
  state: LoopState,
  cycle: CycleState,
  committedBefore = false,
  /** Held for a person (issue 42): a draft pull request where work is published, else left on its branch; never merged. */
  held?: Held,
): Promise<LoopState['pullRequests'][number] | undefined> {
  const { git, logger } = deps;
  if (!git || !cycle.branch || !state.baseBranch) return undefined;
  const subject = cycleSubject(cycle);
  // Committed already (the commit recorded before the push) unless this is the first look at it.
  const committed = (await git.commitAll(subject, cycleCommit(state))) || committedBefore;
  // The iteration that finished the cycle: its verdict, its targets and the agent's own summary (issue 15).
  const last = state.history.at(-1);
  const own = last && last.n >= cycle.startedAtIteration ? last : undefined;
  const verdict = own?.verdict?.summary;
  const spent = cycleProgress(state, cycle, state.iteration);
  const work = {
    issueIds: cycle.issueIds,
    titles: cycle.titles,
    branch: cycle.branch,
    base: state.baseBranch,
    iteration: state.iteration,
    ...(verdict ? { verdict } : {}),
    preexisting: state.preexistingFailures,
    ...(own?.verdict?.targets ? { targets: own.verdict.targets } : {}),
    ...(own?.summary ? { summary: own.summary } : {}),
    ...spent,
    ...(held ? { held } : {}),
  };
  // Held for a person (issue 42): never merged nor pushed onto the base, whatever --on-success says.
  const how = landingFor(landing, held !== undefined, deps.publisher !== undefined);
  if (held)
    return holdForPerson(deps, { state, base: state.baseBranch, branch: cycle.branch }, work, committed, held, how);
  if (landing === 'pushToBase' && deps.publisher?.pushToBase) {
    // The runner is thrown away: the base branch that matters is the remote's.
    await deps.publisher.pushToBase(work);
    await git.checkout(state.baseBranch);
    await git.merge(cycle.branch, subject, { fastForwardOnly: true });
    await git.deleteBranch(cycle.branch);
    logger.info(
      'git.pushed',
      `Pushed the work on ${cycle.issueIds.join(', ')} from ${cycle.branch} onto ${state.baseBranch} (${deps.publisher.description}` +
        `)${committed ? '' : ' (the agent changed no files in this cycle)'}.`,
      { branch: cycle.branch, base: state.baseBranch },
    );
    return undefined;
  }
  if (landing === 'pullRequest' && deps.publisher) {
    const pr = await deps.publisher.publish(work);
    await git.checkout(state.baseBranch);
    logger.info(
      'git.pull_request',
      `${pr.reused ? 'Updated' : 'Opened'} pull request #${pr.number} (${pr.url}) from ${cycle.branch} ` +
        `for ${cycle.issueIds.join(', ')}${committed ? '' : ' (the agent changed no files in this cycle)'}.`,
      { number: pr.number, url: pr.url, reused: pr.reused, branch: cycle.branch },
    );
    return { issueIds: cycle.issueIds, number: pr.number, url: pr.url, reused: pr.reused, iteration: state.iteration };
  }
  await git.checkout(state.baseBranch);
  if (landing === 'merge') {
    if (committed || (await git.branchExists(cycle.branch))) {
      await git.merge(cycle.branch, `Merge ${cycle.branch}: ${subject}`);
      await git.deleteBranch(cycle.branch);
    }
    logger.info(
      'git.merged',
      `Merged ${cycle.branch} into ${state.baseBranch}${committed ? '' : ' (the agent changed no files)'}.`,
    );
  } else {
    logger.info('git.branch', `Left the work on branch ${cycle.branch}; ${state.baseBranch} is checked out again.`);
  }
  return undefined;
}

/**
 * Work held for a person (issue 42), whatever --on-success says: published as a draft pull request
 * labelled with the reason where work is published, else left on its branch; never merged, never
 * pushed onto the base. The base branch is checked out again.
 */
async function holdForPerson(
  deps: SliceDeps,
  { state, base, branch }: { state: LoopState; base: string; branch: string },
  work: CycleWork,
  committed: boolean,
  held: Held,
  how: ReturnType<typeof landingFor>,
): Promise<LoopState['pullRequests'][number] | undefined> {
  const { git, logger, publisher } = deps;
  const label = heldLabel(held.reason);
  if (how === 'draftPullRequest' && publisher) {
    const pr = await publisher.publish(work);
    await git?.checkout(base);
    logger.info(
      'git.pull_request',
      `${pr.reused ? 'Updated' : 'Opened'} ${pr.draft === false ? '' : 'draft '}pull request #${pr.number} (${pr.url}) from ${branch} for ` +
        `${work.issueIds.join(', ')}, labelled ${label}: held for a person, agent-loop does not merge it` +
        `${committed ? '' : ' (the agent changed no files in this cycle)'}.`,
      { number: pr.number, url: pr.url, reused: pr.reused, branch, held: held.reason },
    );
    return { issueIds: work.issueIds, number: pr.number, url: pr.url, reused: pr.reused, iteration: state.iteration };
  }
  await git?.checkout(base);
  logger.info(
    'git.held',
    `Left the work on ${work.issueIds.join(', ')} on branch ${branch}, held for a person (${label}): ` +
      `not merged; ${base} is checked out again. Review it (git diff ${base}...${branch}) ` +
      `and merge it yourself, or delete the branch to have the issue worked again with a fresh checkpoint.`,
    { branch, base, held: held.reason },
  );
  return undefined;
}

/** A cycle that needed no change: back to the base branch, and its branch deleted when it holds nothing. */
export async function dropEmptyCycle(
  deps: SliceDeps,
  landing: LandingMode,
  state: LoopState,
  cycle: CycleState,
): Promise<undefined> {
  const { git } = deps;
  if (!git || !cycle.branch || !state.baseBranch) return undefined;
  // The issue's close changed the repository's issues file: it lands like any cycle's work, never
  // carried onto the base uncommitted (the next run refused it as the user's change, and the next
  // cycle's commit took it along).
  if (!deps.publisher && (await git.currentRef()) === cycle.branch && (await git.hasWorkSince(await git.head()))) {
    await finishCycleInGit(deps, landing, state, cycle); // no publisher: nothing published
    return undefined;
  }
  await git.checkout(state.baseBranch);
  if ((await git.branchExists(cycle.branch)) && (await git.tipOf(cycle.branch)) === (await git.tipOf(state.baseBranch)))
    await git.deleteBranch(cycle.branch);
  deps.logger.info(
    'git.no_change',
    `Nothing to merge for ${cycle.issueIds.join(', ')}: no change was needed; back on ${state.baseBranch}.`,
  );
  return undefined;
}

/** Pushes an escalated cycle's branch; a failure is a warning (the escalation itself stands). */
export async function keepBranch(deps: SliceDeps, branch: string): Promise<void> {
  try {
    await deps.publisher?.keep(branch);
    deps.logger.info('git.kept', `Pushed ${branch} (its work as wip:) so that a later attempt continues from it.`);
  } catch (error) {
    deps.logger.warn(
      'git.keep_failed',
      `Could not push ${branch}: ${(error as Error).message}. Its work is only in this checkout.`,
    );
  }
}
