/** Reading the issues (and what already holds their work: src/core/waiting.ts decides), the source's health, closing them. */
import type { Halt, InReview, OnBranch } from '../../core/events.js';
import type { LoopState } from '../../core/state.js';
import { toReadyIssue } from '../../issues/fingerprint.js';
import { ListingError, listingFailed } from '../../issues/listing.js';
import type { Issue } from '../../issues/types.js';
import type { SliceDeps } from '../deps.js';
import { finishedBranches } from '../finishedBranches.js';
import { tick } from '../issueWork.js';
import type { CyclePublisher } from '../publish.js';
import type { Handler } from './context.js';

export const readIssues: Handler<'readIssues'> = async (effect, ctx) => {
  const { deps, run } = ctx;
  let ready: Issue[];
  let inReview: InReview[];
  try {
    ready = await deps.source.ready();
    inReview = await openPullRequests(deps, ready);
  } catch (error) {
    // A listing GitHub did not answer: never taken for "no issues" (the run would end complete).
    if (!(error instanceof ListingError)) throw error;
    run.deferral = { what: error.what, status: error.status, message: ctx.redact(error.message) };
    return { type: 'issuesUnlisted', failed: run.deferral };
  }
  const onBranch = effect.finishedBranches
    ? await finishedOnBranches(deps, run.model.loop, ready, effect.finishedBranches.except, run.onBranch)
    : [];
  return {
    type: 'issuesRead',
    ready: ready.map(toReadyIssue),
    ...(inReview.length > 0 ? { inReview } : {}),
    ...(onBranch.length > 0 ? { onBranch } : {}),
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
 * The open pull requests of agent-loop's that hold some of the ready issues' work (beads issues in
 * the action: closed on the branch, still open on the base); the core leaves those issues
 * (src/core/waiting.ts). When the pull requests cannot be listed, none is started (none may get a
 * second pull request): a ListingError, which defers the run; the next run looks again.
 */
async function openPullRequests(deps: SliceDeps, ready: Issue[]): Promise<InReview[]> {
  const publisher = deps.publisher;
  if (!publisher?.inReview || ready.length === 0) return [];
  let open: Awaited<ReturnType<NonNullable<CyclePublisher['inReview']>>>;
  try {
    open = await publisher.inReview(ready.map((i) => i.id));
  } catch (error) {
    throw listingFailed(error, `listing the open pull requests (${publisher.description})`);
  }
  return [...open].map(([id, pr]) => ({ id, number: pr.number, url: pr.url }));
}

/**
 * The ready issues whose cycle finished on their own branch, not merged into the base
 * (src/loop/finishedBranches.ts), but those in `except` (the cycle in flight). `seen` keeps what was
 * looked up in this slice (the branch, or undefined), so each issue is looked up once.
 */
async function finishedOnBranches(
  deps: SliceDeps,
  loop: LoopState,
  ready: Issue[],
  except: readonly string[],
  seen: Map<string, string | undefined>,
): Promise<OnBranch[]> {
  const base = loop.baseBranch;
  if (!deps.git || !base || ready.length === 0) return [];
  const skip = new Set(except);
  const ids = ready.map((i) => i.id).filter((id) => !skip.has(id));
  const unseen = ids.filter((id) => !seen.has(id));
  const found = await finishedBranches(deps.git, base, unseen, loop.cycleTips);
  for (const id of unseen) seen.set(id, found.get(id));
  return ids.flatMap((id) => {
    const branch = seen.get(id);
    return branch ? [{ id, branch }] : [];
  });
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
