import { describe, expect, it } from '@jest/globals';
import type { Checkpoint } from '../../src/checkpoint/types.js';
import { initialLoopState } from '../../src/core/state.js';
import { pickRunnable } from '../../src/core/resumable.js';

const now = new Date('2026-11-24T10:00:00Z');
const cp = (id: string, timestamp: string, loop: unknown, sequence = 1): Checkpoint => ({
  id,
  phase: 'beads_integration-complete',
  timestamp,
  sequence,
  state: { loop },
});

describe('what run resumes by itself, and status shows (issue 11)', () => {
  it('skips a checkpoint whose loop state has wrong types: status and run agree on the older valid one', () => {
    const good = cp('a', '2026-11-24T09:00:00Z', initialLoopState(100));
    const wrong = cp('b', '2026-11-24T09:30:00Z', { ...initialLoopState(100), iteration: 'many' });
    const choice = pickRunnable([good, wrong], now);
    expect(choice.checkpoint?.id).toBe('a');
    expect(choice.skipped.map((s) => [s.checkpoint.id, s.reason])).toEqual([
      ['b', expect.stringMatching(/state.loop is not a valid loop state \(iteration/)],
    ]);
  });

  it('skips a checkpoint dated in the future (a forged one at iteration 0), naming --resume', () => {
    const real = cp('a', '2026-11-24T09:59:00Z', { ...initialLoopState(100), iteration: 50 });
    const forged = cp('b', '2099-01-01T00:00:00Z', initialLoopState(100), 1e9);
    const choice = pickRunnable([real, forged], now);
    expect(choice.checkpoint?.id).toBe('a');
    expect(choice.skipped[0]?.reason).toMatch(/in the future.*--resume b/);
  });

  it('allows a few minutes of clock skew', () => {
    expect(pickRunnable([cp('a', '2026-11-24T10:03:00Z', initialLoopState(100))], now).checkpoint?.id).toBe('a');
  });
});
