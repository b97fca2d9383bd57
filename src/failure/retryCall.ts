/**
 * The executor of the outside calls' rows (OUTSIDE_CALL_POLICIES in policy.ts): an operation
 * tried until the caller's `classify` says its outcome is final, the row's attempts are used up,
 * or the next wait would go past the row's wait budget. The decision (`nextRetry`) is pure; the
 * loop only runs the operation and sleeps through the injected `sleep`.
 *
 * A retry-after is waited as given (it is the server's own answer, and may be shorter than the
 * backoff), bounded by the budget, and does not advance the backoff; an agent failure's
 * retry-after (decideFailure) is a floor instead, since it is read from the agent's output.
 */
import { type CallPolicy, backoffMs, exhausted } from './policy.js';

/** One attempt's outcome: what the operation returned, or what it threw. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** The caller's reading of an attempt: final (success or a permanent failure), or worth another try. */
export type RetryVerdict = { retry: false } | { retry: true; retryAfterMs?: number };

/** Where a call stands after an attempt. */
export interface RetryProgress {
  /** Attempts made, the last one included. */
  attempts: number;
  /** Waits the backoff has timed so far (a retry-after does not count). */
  backoffSteps: number;
  /** Time spent waiting so far (or elapsed since the call began, when longer and a clock is given). */
  spentMs: number;
}

/** Why a call stopped; on `over_budget`, the wait it would have needed and what was left of the budget. */
export type RetryStop = { end: 'final' | 'exhausted' } | { end: 'over_budget'; waitMs: number; leftMs: number };

/** The next step: stop, or wait `retryInMs` and try again. */
export type RetryStep = RetryStop | { retryInMs: number; backoffSteps: number };

/** What the row says after an attempt with this verdict. Pure. */
export function nextRetry(policy: CallPolicy, progress: RetryProgress, verdict: RetryVerdict): RetryStep {
  if (!verdict.retry) return { end: 'final' };
  if (exhausted(policy, progress.attempts)) return { end: 'exhausted' };
  const timed = verdict.retryAfterMs !== undefined;
  const backoffSteps = progress.backoffSteps + (timed ? 0 : 1);
  const waitMs = timed ? Math.max(0, verdict.retryAfterMs ?? 0) : backoffMs(policy, backoffSteps);
  const leftMs = policy.waitBudgetMs - progress.spentMs;
  if (waitMs > leftMs) return { end: 'over_budget', waitMs, leftMs };
  return { retryInMs: waitMs, backoffSteps };
}

export interface RetryCallOptions<T> {
  policy: CallPolicy;
  classify: (attempt: Attempt<T>) => RetryVerdict;
  sleep: (ms: number) => Promise<void>;
  /** A clock in ms: the budget then also counts the time the attempts took. Without it, only the waits count. */
  now?: () => number;
  /** Told before each wait. */
  onRetry?: (retry: { attempt: number; waitMs: number; last: Attempt<T> }) => void;
}

/** How a call ended: its last attempt, how many were made, and why it stopped. */
export type RetryEnd<T> = RetryStop & { last: Attempt<T>; attempts: number };

/** Runs `op` under the row: never throws for the operation (its error is in `last`); a throwing `sleep` or `classify` does. */
export async function retryCall<T>(op: () => Promise<T>, options: RetryCallOptions<T>): Promise<RetryEnd<T>> {
  const { policy, classify, sleep, now } = options;
  const started = now?.();
  let attempts = 0;
  let backoffSteps = 0;
  let waited = 0;
  for (;;) {
    const last = await settle(op);
    attempts += 1;
    const spentMs = now && started !== undefined ? Math.max(waited, now() - started) : waited;
    const step = nextRetry(policy, { attempts, backoffSteps, spentMs }, classify(last));
    if (!('retryInMs' in step)) return { ...step, last, attempts };
    options.onRetry?.({ attempt: attempts, waitMs: step.retryInMs, last });
    backoffSteps = step.backoffSteps;
    waited += step.retryInMs;
    await sleep(step.retryInMs);
  }
}

/** The last attempt's value, or its error thrown again. */
export function lastValue<T>(end: RetryEnd<T>): T {
  if (end.last.ok) return end.last.value;
  throw end.last.error;
}

async function settle<T>(op: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await op() };
  } catch (error) {
    return { ok: false, error };
  }
}
