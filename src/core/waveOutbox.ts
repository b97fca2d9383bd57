/**
 * Fan-out (issue 16), finished work a wave could not land: a work job whose push or pull request
 * failed leaves its cycle in its outbox (and its branch as a bundle), which the reduce adds to the
 * loop's. The serial loop lands its outbox first in every slice; a wave lands it in a job of its own
 * (the landing job, matrix entry `outbox`) that runs no agent: it takes the loop's outbox, lands
 * what it can, and hands back what is left. Meanwhile no wave works an issue whose work waits there.
 * Pure: the plan and the reduce call these.
 */
import { JOB_LOCAL_HALTS } from './haltReasons.js';
import { PULL_REQUESTS_KEPT, union } from './waveReduce.js';
import type { HaltReason, LoopState, OutboxEntry } from './state.js';

/** The landing job's entry in the wave's matrix (where an issue number goes: never one). */
export const LANDING_JOB = 'outbox';

/** One outbox entry's identity across the loop's checkpoint and a job's (a reduce renumbers iterations). */
export function outboxKey(entry: OutboxEntry): string {
  return [entry.recordedAt, entry.cycle.branch ?? '', ...entry.cycle.issueIds].join('|');
}

/** The issues whose finished work waits in the outbox: landed, never worked again. */
export function awaitingLanding(loop: Pick<LoopState, 'outbox'>): Set<string> {
  return new Set(loop.outbox.flatMap((e) => e.cycle.issueIds));
}

/**
 * The outbox entries a wave's landing job takes (their keys): all of them, unless the first waits
 * out a backoff after a transient failure (then none: a runner started for nothing is a cost).
 */
export function landingDue(loop: Pick<LoopState, 'outbox'>, now: number): string[] {
  const head = loop.outbox[0];
  if (!head) return [];
  if (head.notBefore !== undefined && Date.parse(head.notBefore) > now) return [];
  return loop.outbox.map(outboxKey);
}

/**
 * The loop's notices a wave's landing job sends (their ids): an escalated issue's label and note (and
 * its claim's release) or a tick that a work job could not send. No work job sends the loop's
 * notices (each starts from zero), so without it they would wait for ever: the issue left alone
 * unlabelled, with no note, its claim held until its lease ran out. The halt's Discord post is not
 * one: the reduce posts it.
 */
export function noticesOwed(loop: Pick<LoopState, 'notices'>): string[] {
  return loop.notices.filter((n) => n.what.kind !== 'notify').map((n) => n.id);
}

/** A wave with nothing else to do is planned for the owed notices alone only while each has failed fewer times than this. */
export const NOTICE_LANDINGS = 3;

/** What the landing job left: the keys of the entries it took, and its final loop state. */
export interface LandingPartial {
  took: readonly string[];
  loop: LoopState;
}

export interface LandingReduction {
  loop: LoopState;
  /** Entries landed (or found lost, their issues free to be worked again). */
  landed: number;
  /** Entries still to land. */
  left: number;
  /** Why the landing job's state was not counted (its entries stay, landed again: idempotent). */
  problem?: string;
  /** A landing refused (a halt of the run, as in a slice), with the fix it names. */
  halt?: { reason: HaltReason; message: string; advice?: string };
}

/**
 * The landing job's outcome in the loop: the entries it took and no longer holds leave the outbox
 * (landed: their issues counted closed, their pull requests recorded; or lost: free again), those
 * it still holds replace the loop's (attempts, backoff, last error); entries it did not take stay.
 */
export function reduceLanding(loop: LoopState, part: LandingPartial | undefined): LandingReduction {
  const unchanged = (problem: string): LandingReduction => ({ loop, landed: 0, left: loop.outbox.length, problem });
  if (!part) return unchanged('the landing job left no state (it died before it saved): a later wave lands the work');
  if (part.loop.iteration > 0 || part.loop.history.length > 0)
    return unchanged(`its state has ${part.loop.iteration} iteration(s): not a landing job's state (it runs no agent)`);
  const kept = new Map(part.loop.outbox.map((e) => [outboxKey(e), e]));
  const took = new Set(part.took);
  const held = new Map(part.loop.notices.map((n) => [n.id, n]));
  const landed = new Set(part.took.filter((k) => !kept.has(k)));
  const outbox = loop.outbox.filter((e) => !landed.has(outboxKey(e))).map((e) => kept.get(outboxKey(e)) ?? e);
  const halt =
    part.loop.halt && !JOB_LOCAL_HALTS.has(part.loop.halt.reason)
      ? {
          reason: part.loop.halt.reason,
          message: `landing earlier work: ${part.loop.halt.message}`,
          ...(part.loop.halt.advice ? { advice: part.loop.halt.advice } : {}),
        }
      : undefined;
  return {
    loop: {
      ...loop,
      outbox,
      issuesClosed: union(loop.issuesClosed, part.loop.issuesClosed),
      // Another run's landing job may have landed the same entry first (its pull request reused): recorded once.
      pullRequests: [
        ...loop.pullRequests,
        ...part.loop.pullRequests.filter((p) => !loop.pullRequests.some((q) => q.url === p.url)),
      ].slice(-PULL_REQUESTS_KEPT),
      // The notices it took and no longer holds were sent; those it still holds replace the loop's
      // (attempts, last error). The job's own halt post is not sent: the reduce posts once for the wave.
      notices: [
        ...loop.notices
          .filter((n) => !took.has(n.id) || held.has(n.id))
          .map((n) => (took.has(n.id) ? (held.get(n.id) ?? n) : n)),
        ...part.loop.notices.filter((n) => n.what.kind !== 'notify' && !loop.notices.some((m) => m.id === n.id)),
      ],
    },
    landed: loop.outbox.length - outbox.length,
    left: outbox.length,
    ...(halt ? { halt } : {}),
  };
}
