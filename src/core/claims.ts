/**
 * Claims and leases on a cycle's issues (issue 14): taken before a cycle opens, renewed each
 * iteration, released when it ends, saying how it went (issue 15). Part of the core
 * (src/core/slice.ts).
 */
import type { ClaimProgress } from '../issues/claims.js';
import { rfc3339 } from '../util/clock.js';
import { type Effect, type ReadyIssue, log } from './events.js';
import { issueRef } from '../report/diagnostic.js';
import { save } from './finish.js';
import type { CycleState, LoopState } from './state.js';
import { type CoreConfig, type SliceModel, type Step } from './model.js';

/** The lease taken or renewed now ends at this time (RFC 3339, whole seconds up). */
export function leaseEnd(model: SliceModel, leaseMs: number): string {
  return rfc3339(new Date(Math.ceil((model.now + leaseMs) / 1000) * 1000));
}

/** `ownEarlier`: a run of this loop claimed these issues before it was killed: that claim is taken on in place. */
export function claim(
  model: SliceModel,
  config: CoreConfig,
  issueIds: string[],
  claiming: 'new' | 'resumed',
  ownEarlier = false,
): Step {
  return {
    model: { ...model, claiming },
    effects: [
      {
        kind: 'claimIssues',
        issueIds,
        expires: leaseEnd(model, config.leaseMs ?? 0),
        resuming: claiming === 'resumed' || ownEarlier,
        progress: working(model, claiming === 'resumed' ? model.loop.currentCycle : undefined),
      },
    ],
  };
}

/** The claims of a finished cycle's issues released (where the source claims), saying how it ended. */
export function release(issueIds: string[], model: SliceModel, config: CoreConfig, progress: ClaimProgress): Effect[] {
  return config.leaseMs !== undefined
    ? [{ kind: 'releaseClaim', issueIds, at: rfc3339(new Date(model.now)), progress }]
    : [];
}

/**
 * A cycle's iterations and spend up to iteration `upTo` (issue 15, the claim comment): one cycle
 * runs at a time, so the loop's iterations from the cycle's first are its own; the spend is what
 * the agent reported for them in the history.
 */
export function cycleProgress(
  loop: LoopState,
  cycle: CycleState,
  upTo: number,
): { iterations: number; costUsd?: number } {
  const from = cycle.startedAtIteration;
  const spent = loop.history
    .filter((h) => h.n >= from && h.n <= upTo && h.agent.costUsd !== undefined)
    .reduce((sum, h) => sum + (h.agent.costUsd ?? 0), 0);
  return { iterations: Math.max(0, upTo - from + 1), ...(spent > 0 ? { costUsd: spent } : {}) };
}

/** The claim comment while the cycle runs: its iterations and spend so far (none before it opens). */
export function working(model: SliceModel, cycle: CycleState | undefined): ClaimProgress {
  return { state: 'working', ...(cycle ? cycleProgress(model.loop, cycle, model.loop.iteration) : { iterations: 0 }) };
}

/**
 * Issue 14: the listed issues another run's live claim holds (or that one held earlier in this
 * slice: `skipped`) are left alone; `newly`: those not logged yet. Pure.
 */
export function leaveClaimed(
  listed: readonly ReadyIssue[],
  skipped: readonly string[],
  ownCheckpoint?: string,
): { free: ReadyIssue[]; claimed: ReadyIssue[]; newly: ReadyIssue[] } {
  // A claim of this loop's own checkpoint (a run of it killed after claiming) is this run's to take on.
  const elsewhere = (i: ReadyIssue) => i.claimedBy !== undefined && i.claimedBy.checkpoint !== ownCheckpoint;
  const claimed = listed.filter((i) => elsewhere(i) || skipped.includes(i.id));
  return {
    free: listed.filter((i) => !claimed.includes(i)),
    claimed,
    newly: claimed.filter((i) => !skipped.includes(i.id)),
  };
}

/**
 * The claim found taken: a new cycle's issue is left to the run that claimed it first; a resumed
 * cycle whose lease expired and was taken over is dropped from this loop (saved), theirs now.
 */
export function claimLost(m: SliceModel, lost: { id: string; run: string; expires: string }, resumed: boolean): Step {
  const claimedElsewhere = [...new Set([...(m.claimedElsewhere ?? []), lost.id])];
  if (!resumed)
    return {
      model: { ...m, next: undefined, claimedElsewhere },
      effects: [
        log(
          'info',
          'claim.lost',
          `Left ${issueRef(lost.id)} to run ${lost.run}, which claimed it first (its lease runs until ${lost.expires}).`,
          { issueId: lost.id, run: lost.run, expires: lost.expires },
        ),
        { kind: 'next' },
      ],
    };
  // This loop's lease had expired and another run took the cycle over: it is theirs now.
  const dropped: SliceModel = {
    ...m,
    cycle: undefined,
    claimedElsewhere,
    loop: { ...m.loop, currentCycle: undefined },
  };
  return {
    model: dropped,
    effects: [
      log(
        'warn',
        'claim.lost',
        `The cycle on ${issueRef(lost.id)} was taken over by run ${lost.run} after this loop's lease expired ` +
          `(its lease runs until ${lost.expires}); this loop leaves it to that run.`,
        { issueId: lost.id, run: lost.run, expires: lost.expires },
      ),
      save(dropped),
      { kind: 'next' },
    ],
  };
}
