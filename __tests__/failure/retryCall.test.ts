/**
 * The outside calls' executor: a row's attempts, backoff, cap, wait budget and give-up, a
 * retry-after, and no retry on a final outcome; with a manual sleep that records the waits.
 */
import { describe, expect, it } from '@jest/globals';
import { CallPolicySchema, OUTSIDE_CALL_POLICIES, type CallPolicy } from '../../src/failure/policy.js';
import { type Attempt, type RetryVerdict, lastValue, nextRetry, retryCall } from '../../src/failure/retryCall.js';

const ROW: CallPolicy = {
  initialIntervalMs: 1000,
  backoffCoefficient: 2,
  maximumIntervalMs: 5000,
  maximumAttempts: 6,
  waitBudgetMs: 60_000,
};

/** An operation that answers from a script (an Error is thrown), then the last entry again; and a sleep that records. */
function harness(script: Array<string | Error>) {
  const waits: number[] = [];
  let calls = 0;
  const op = async () => {
    const next = script[Math.min(calls++, script.length - 1)]!;
    if (next instanceof Error) throw next;
    return next;
  };
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  return { op, sleep, waits, calls: () => calls };
}

/** 'ok' is final; 'busy' is retried; 'later:<ms>' is retried after a retry-after; a thrown 'network' error is retried. */
const classify = (a: Attempt<string>): RetryVerdict => {
  if (!a.ok) return { retry: a.error instanceof Error && a.error.message === 'network' };
  if (a.value.startsWith('later:')) return { retry: true, retryAfterMs: Number(a.value.slice(6)) };
  return { retry: a.value === 'busy' };
};

describe('retryCall', () => {
  it('returns the first final outcome without waiting', async () => {
    const h = harness(['ok']);
    const end = await retryCall(h.op, { policy: ROW, classify, sleep: h.sleep });
    expect(end).toEqual({ end: 'final', attempts: 1, last: { ok: true, value: 'ok' } });
    expect(h.waits).toEqual([]);
  });

  it('backs off exponentially up to the cap, then gives up after maximumAttempts', async () => {
    const h = harness(['busy']);
    const retries: number[] = [];
    const end = await retryCall(h.op, {
      policy: ROW,
      classify,
      sleep: h.sleep,
      onRetry: ({ attempt }) => retries.push(attempt),
    });
    expect(h.waits).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(end).toEqual({ end: 'exhausted', attempts: 6, last: { ok: true, value: 'busy' } });
    expect(h.calls()).toBe(6);
    expect(retries).toEqual([1, 2, 3, 4, 5]);
  });

  it('retries a thrown transient error and succeeds', async () => {
    const h = harness([new Error('network'), new Error('network'), 'ok']);
    const end = await retryCall(h.op, { policy: ROW, classify, sleep: h.sleep });
    expect(h.waits).toEqual([1000, 2000]);
    expect(lastValue(end)).toBe('ok');
    expect(end.attempts).toBe(3);
  });

  it('does not retry a permanent failure, and lastValue throws it', async () => {
    const refused = new Error('HTTP 403');
    const h = harness([refused, 'ok']);
    const end = await retryCall(h.op, { policy: ROW, classify, sleep: h.sleep });
    expect(end).toMatchObject({ end: 'final', attempts: 1 });
    expect(h.waits).toEqual([]);
    expect(() => lastValue(end)).toThrow(refused);
  });

  it('waits a retry-after as given, even below the backoff, without advancing the backoff', async () => {
    const h = harness(['later:300', 'busy', 'later:7000', 'busy', 'ok']);
    const end = await retryCall(h.op, { policy: ROW, classify, sleep: h.sleep });
    expect(h.waits).toEqual([300, 1000, 7000, 2000]);
    expect(end).toMatchObject({ end: 'final', attempts: 5 });
  });

  it('gives up before a wait that would go past the budget, saying what was left', async () => {
    const h = harness(['busy']);
    const end = await retryCall(h.op, {
      policy: { ...ROW, maximumAttempts: null, waitBudgetMs: 10_000 },
      classify,
      sleep: h.sleep,
    });
    expect(h.waits).toEqual([1000, 2000, 4000]); // 7 s waited; the next 5 s would make 12
    expect(end).toMatchObject({ end: 'over_budget', attempts: 4, waitMs: 5000, leftMs: 3000 });
  });

  it('counts the time the attempts took against the budget when given a clock', async () => {
    let clock = 0;
    const h = harness(['busy']);
    const op = async () => {
      clock += 4000; // each attempt takes 4 s
      return h.op();
    };
    const end = await retryCall(op, {
      policy: { ...ROW, maximumAttempts: null, waitBudgetMs: 10_000 },
      classify,
      sleep: async (ms) => {
        clock += ms;
        await h.sleep(ms);
      },
      now: () => clock,
    });
    // 4 s, wait 1 (5), 4 s (9): 1 s left, the 2 s wait is refused.
    expect(h.waits).toEqual([1000]);
    expect(end).toMatchObject({ end: 'over_budget', attempts: 2, waitMs: 2000, leftMs: 1000 });
  });

  it('refuses a retry-after longer than the whole budget at once', async () => {
    const h = harness(['later:120000']);
    const end = await retryCall(h.op, { policy: OUTSIDE_CALL_POLICIES.discord, classify, sleep: h.sleep });
    expect(h.waits).toEqual([]);
    expect(end).toMatchObject({ end: 'over_budget', attempts: 1, waitMs: 120_000, leftMs: 30_000 });
  });
});

describe('nextRetry', () => {
  it('is the whole decision: final, exhausted, over budget, or the wait', () => {
    const at = (attempts: number, backoffSteps = attempts - 1, spentMs = 0) => ({ attempts, backoffSteps, spentMs });
    expect(nextRetry(ROW, at(1), { retry: false })).toEqual({ end: 'final' });
    expect(nextRetry(ROW, at(6), { retry: true })).toEqual({ end: 'exhausted' });
    expect(nextRetry(ROW, at(1), { retry: true })).toEqual({ retryInMs: 1000, backoffSteps: 1 });
    expect(nextRetry(ROW, at(3), { retry: true })).toEqual({ retryInMs: 4000, backoffSteps: 3 });
    expect(nextRetry(ROW, at(3, 0), { retry: true, retryAfterMs: 250 })).toEqual({ retryInMs: 250, backoffSteps: 0 });
    expect(nextRetry(ROW, at(2, 1, 59_000), { retry: true })).toEqual({
      end: 'over_budget',
      waitMs: 2000,
      leftMs: 1000,
    });
  });
});

describe('OUTSIDE_CALL_POLICIES', () => {
  it('are valid rows', () => {
    for (const row of Object.values(OUTSIDE_CALL_POLICIES)) expect(CallPolicySchema.parse(row)).toEqual(row);
  });

  it("give Discord's 1, 2, 4, 8, 8 s over 6 attempts within 30 s, and the Actions storage 1 s then 2 s over 3", async () => {
    for (const [name, waits] of [
      ['discord', [1000, 2000, 4000, 8000, 8000]],
      ['actions_storage', [1000, 2000]],
    ] as const) {
      const h = harness(['busy']);
      const end = await retryCall(h.op, { policy: OUTSIDE_CALL_POLICIES[name], classify, sleep: h.sleep });
      expect(h.waits).toEqual(waits);
      expect(end).toMatchObject({ end: 'exhausted', attempts: waits.length + 1 });
    }
    expect(OUTSIDE_CALL_POLICIES.discord.waitBudgetMs).toBe(30_000);
  });
});
