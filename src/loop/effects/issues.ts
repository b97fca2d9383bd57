/** Reading the issues (less those waiting in a pull request or on a finished branch), the source's health, closing them. */
import type { Halt } from '../../core/events.js';
import type { LoopState } from '../../core/state.js';
import { toReadyIssue } from '../../issues/fingerprint.js';
import { ListingError, listingFailed } from '../../issues/listing.js';
import type { Issue } from '../../issues/types.js';
import type { SliceDeps } from '../deps.js';
import { finishedBranchMessage, finishedBranches } from '../finishedBranches.js';
import { tick } from '../issueWork.js';
import type { CyclePublisher } from '../publish.js';
import type { Handler } from './context.js';

export const readIssues: Handler<'readIssues'> = async (_effect, ctx) => {
  const { deps, run } = ctx;
  let listed: Issue[];
  try {
    listed = await withoutOpenPullRequests(deps, await deps.source.ready(), run.toldInReview);
  } catch (error) {
    // A listing GitHub did not answer: never taken for "no issues" (the run would end complete).
    if (!(error instanceof ListingError)) throw error;
    run.deferral = { what: error.what, status: error.status, message: ctx.redact(error.message) };
    return { type: 'issuesUnlisted', failed: run.deferral };
  }
  return {
    type: 'issuesRead',
    ready: (await withoutFinishedBranches(deps, run.model.loop, listed, run.onBranch)).map(toReadyIssue),
  };
};

export const checkSource: Handler<'checkSource'> = async (_effect, ctx) => {
  const unreadable = await ctx.unreadableSource();
  return { type: 'sourceChecked', ...(unreadable ? { unreadable } : {}) };
};

export const updateIssues: Handler<'updateIssues'> = async (effect, ctx) => {
  const { source } = ctx.deps;
  for (const action of effect.actions) {
    if (action.kind === 'tick') await tick(ctx, action);
    else if (action.kind === 'markNoChange' && source.markNoChange)
      await source.markNoChange(action.id, action.note, action.close);
    else await source.close(action.id, action.note);
  }
  return undefined;
};

/**
 * The ready issues less those whose work waits in an open pull request of agent-loop's (beads issues
 * in the action: closed on the branch, still open on the base), each told once per slice. When the
 * pull requests cannot be listed, none is started (none may get a second pull request): a
 * ListingError, which defers the run; the next run looks again.
 */
async function withoutOpenPullRequests(deps: SliceDeps, ready: Issue[], told: Set<string>): Promise<Issue[]> {
  const publisher = deps.publisher;
  if (!publisher?.inReview || ready.length === 0) return ready;
  let open: Awaited<ReturnType<NonNullable<CyclePublisher['inReview']>>>;
  try {
    open = await publisher.inReview(ready.map((i) => i.id));
  } catch (error) {
    throw listingFailed(error, `listing the open pull requests (${publisher.description})`);
  }
  for (const [id, pr] of open) {
    if (told.has(id)) continue;
    told.add(id);
    deps.logger.info(
      'issue.in_review',
      `Skipping ${id}: its pull request #${pr.number} (${pr.url}) is open. Merge it (the issue is closed ` +
        `on its branch), or close it and delete its branch to have agent-loop work on the issue again.`,
      { issueId: id, number: pr.number, url: pr.url },
    );
  }
  return ready.filter((i) => !open.has(i.id));
}

/**
 * With --on-success branch (nothing published): the ready issues less those whose cycle finished on
 * their own branch, not merged into the base (src/loop/finishedBranches.ts). Each is told once per
 * slice; `seen` keeps what was looked up (the branch, or undefined).
 */
async function withoutFinishedBranches(
  deps: SliceDeps,
  loop: LoopState,
  ready: Issue[],
  seen: Map<string, string | undefined>,
): Promise<Issue[]> {
  const { git, settings, logger } = deps;
  const base = loop.baseBranch;
  if (!git || deps.publisher || settings.onSuccess !== 'branch' || !base || ready.length === 0) return ready;
  // The cycle in flight is the core's to resume, whatever its branch holds.
  const inFlight = new Set(loop.currentCycle?.issueIds ?? []);
  const unseen = ready.map((i) => i.id).filter((id) => !inFlight.has(id) && !seen.has(id));
  const found = await finishedBranches(git, base, unseen);
  for (const id of unseen) {
    const branch = found.get(id);
    seen.set(id, branch);
    if (branch) logger.info('issue.on_branch', finishedBranchMessage(id, branch, base), { issueId: id, branch });
  }
  return ready.filter((i) => inFlight.has(i.id) || seen.get(i.id) === undefined);
}

/**
 * The source's health as the slice starts, and a check against it: the halt when the issues had
 * readable records and have none now (the agent garbled the file).
 */
export async function sourceWatch(source: SliceDeps['source']): Promise<() => Promise<Halt | undefined>> {
  const startHealth = await source.health?.();
  return async () => {
    const health = await source.health?.();
    if (!health || health.valid > 0 || (health.unreadable === 0 && (startHealth?.valid ?? 0) === 0)) return undefined;
    return {
      reason: 'source_unreadable',
      message:
        `ISSUES UNREADABLE: ${source.description} had ${startHealth?.valid ?? 'some'} issue(s) when the slice ` +
        `started and now has no readable one (${health.unreadable} malformed line(s))`,
    };
  };
}
