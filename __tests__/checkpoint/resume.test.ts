import { describe, expect, it } from '@jest/globals';
import { planCleanup } from '../../src/checkpoint/cleanup.js';
import {
  ageInDays,
  describeAge,
  detectResumable,
  isResumable,
  newestFirst,
  pickResumable,
  resumePoint,
} from '../../src/checkpoint/resume.js';
import type { CheckpointPhase } from '../../src/checkpoint/types.js';
import { ID_A, ID_B, ID_C, checkpoint } from './fixtures.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString().replace('.000Z', 'Z');

describe('REQ_018.2.7 resume point from the phase', () => {
  it('retries a failed phase and moves on after a completed one', () => {
    const cases: [CheckpointPhase, string | undefined][] = [
      ['research-failed', 'research'],
      ['research-complete', 'decomposition'],
      ['decomposition-complete', 'planning'],
      ['planning-complete', 'phase_decomposition'],
      ['phase_decomposition-failed', 'phase_decomposition'],
      ['phase_decomposition-complete', 'beads_integration'],
      ['beads_integration-complete', 'implementation'],
      ['implementation-failed', 'implementation'],
      ['implementation-complete', undefined],
    ];
    for (const [phase, expected] of cases) expect([phase, resumePoint({ phase })]).toEqual([phase, expected]);
  });

  it('every checkpoint is resumable except implementation-complete', () => {
    expect(isResumable({ phase: 'implementation-failed' })).toBe(true);
    expect(isResumable({ phase: 'beads_integration-complete' })).toBe(true);
    expect(isResumable({ phase: 'research-failed' })).toBe(true);
    expect(isResumable({ phase: 'implementation-complete' })).toBe(false);
  });
});

describe('REQ_018.3.6 pickResumable: newest by timestamp, ties broken by sequence', () => {
  it('picks the newest timestamp regardless of the input order', () => {
    const older = checkpoint({ id: ID_A, timestamp: '2026-11-20T10:00:00Z', sequence: 9 });
    const newer = checkpoint({ id: ID_B, timestamp: '2026-11-21T10:00:00Z', sequence: 1 });
    expect(pickResumable([older, newer])?.id).toBe(ID_B);
    expect(pickResumable([newer, older])?.id).toBe(ID_B);
  });

  it('breaks equal timestamps by the higher sequence', () => {
    const first = checkpoint({ id: ID_A, timestamp: '2026-11-21T10:00:00Z', sequence: 4 });
    const second = checkpoint({ id: ID_B, timestamp: '2026-11-21T10:00:00Z', sequence: 5 });
    expect(pickResumable([second, first])?.id).toBe(ID_B);
    expect(pickResumable([first, second])?.id).toBe(ID_B);
  });

  it('REQ_018.3.8 compares instants, not strings, across timezone offsets', () => {
    // 12:00+02:00 is 10:00Z: earlier than 11:00Z although it sorts later as text.
    const offset = checkpoint({ id: ID_A, timestamp: '2026-11-21T12:00:00+02:00', sequence: 9 });
    const utc = checkpoint({ id: ID_B, timestamp: '2026-11-21T11:00:00Z', sequence: 1 });
    expect(pickResumable([offset, utc])?.id).toBe(ID_B);
    // The same instant written two ways is a tie, broken by sequence.
    const same = checkpoint({ id: ID_C, timestamp: '2026-11-21T06:00:00-05:00', sequence: 2 });
    expect(newestFirst([utc, same]).map((cp) => cp.id)).toEqual([ID_C, ID_B]);
  });

  it('skips a newer implementation-complete checkpoint, and finds nothing when all are complete', () => {
    const done = checkpoint({ id: ID_A, phase: 'implementation-complete', timestamp: '2026-11-22T10:00:00Z' });
    const failed = checkpoint({ id: ID_B, phase: 'implementation-failed', timestamp: '2026-11-21T10:00:00Z' });
    expect(pickResumable([done, failed])?.id).toBe(ID_B);
    expect(pickResumable([done])).toBeUndefined();
    expect(pickResumable([])).toBeUndefined();
  });

  it('REQ_018.5.8 detectResumable exposes the resume phase and the recorded errors in order', () => {
    const errors = ['Tests failed: 2 of 40', 'Max iterations (100) reached'];
    const decision = detectResumable([
      checkpoint({ id: ID_A, phase: 'implementation-failed', errors }),
      checkpoint({ id: ID_B, phase: 'implementation-complete', timestamp: '2026-11-19T00:00:00Z' }),
    ]);
    expect(decision).toEqual({ checkpoint: expect.objectContaining({ id: ID_A }), resumeAt: 'implementation', errors });
    expect(detectResumable([checkpoint({ id: ID_A, phase: 'implementation-complete' })])).toBeUndefined();
  });
});

describe('REQ_018.3.9 ageInDays', () => {
  it('returns fractional days from the timestamp to now', () => {
    expect(ageInDays(checkpoint({ id: ID_A, timestamp: '2026-11-29T00:00:00Z' }), NOW)).toBeCloseTo(1.5, 10);
    expect(ageInDays(checkpoint({ id: ID_A, timestamp: '2026-11-30T12:00:00Z' }), NOW)).toBe(0);
  });

  it('is described for people: days with one decimal, a future date as such, an unknown one as unknown', () => {
    expect(describeAge(1.5)).toBe('1.5 days');
    expect(describeAge(-2)).toMatch(/^dated 2.0 days in the future/);
    expect(describeAge(Number.POSITIVE_INFINITY)).toBe('unknown');
  });

  it('REQ_018.3.8 respects the offset of the timestamp', () => {
    // 2026-11-29T02:00:00+02:00 is 2026-11-29T00:00:00Z.
    expect(ageInDays(checkpoint({ id: ID_A, timestamp: '2026-11-29T02:00:00+02:00' }), NOW)).toBeCloseTo(1.5, 10);
  });

  it('is negative for a timestamp in the future and throws for one that is not RFC 3339', () => {
    expect(ageInDays(checkpoint({ id: ID_A, timestamp: '2026-12-01T12:00:00Z' }), NOW)).toBeCloseTo(-1, 10);
    expect(() => ageInDays(checkpoint({ id: ID_A, timestamp: 'yesterday' }), NOW)).toThrow(
      `checkpoint ${ID_A}: timestamp "yesterday" is not RFC 3339`,
    );
  });
});

describe('REQ_018.3.7 planCleanup (CleanupByAge)', () => {
  const old = checkpoint({ id: ID_A, phase: 'implementation-failed', timestamp: daysAgo(40), sequence: 1 });
  const middle = checkpoint({ id: ID_B, phase: 'implementation-complete', timestamp: daysAgo(35), sequence: 2 });
  const recent = checkpoint({ id: ID_C, phase: 'implementation-failed', timestamp: daysAgo(2), sequence: 3 });

  it('removes checkpoints older than the given days and keeps the rest, newest first', () => {
    const plan = planCleanup([old, recent, middle], { olderThanDays: 30, all: false }, NOW);
    expect(plan.remove.map((cp) => cp.id)).toEqual([ID_B, ID_A]);
    expect(plan.keep.map((cp) => cp.id)).toEqual([ID_C]);
    expect(plan.keptNewestResumable?.id).toBe(ID_C);
    expect(plan.protectedNewestResumable).toBe(false);
  });

  it('only removes checkpoints strictly older than the limit', () => {
    const exactly = checkpoint({ id: ID_A, timestamp: daysAgo(30), phase: 'implementation-complete' });
    expect(planCleanup([exactly], { olderThanDays: 30, all: false }, NOW).remove).toEqual([]);
    expect(planCleanup([exactly], { olderThanDays: 29.9, all: false }, NOW).remove).toEqual([exactly]);
  });

  it('keeps the newest resumable checkpoint even when it is older than the limit', () => {
    const plan = planCleanup([old, middle], { olderThanDays: 30, all: false }, NOW);
    expect(plan.remove.map((cp) => cp.id)).toEqual([ID_B]);
    expect(plan.keep.map((cp) => cp.id)).toEqual([ID_A]);
    expect(plan.keptNewestResumable?.id).toBe(ID_A);
    expect(plan.protectedNewestResumable).toBe(true);
  });

  it('with all, removes every checkpoint including the newest resumable one', () => {
    const plan = planCleanup([old, middle, recent], { all: true }, NOW);
    expect(plan.remove.map((cp) => cp.id)).toEqual([ID_C, ID_B, ID_A]);
    expect(plan.keep).toEqual([]);
    expect(plan.keptNewestResumable).toBeUndefined();
  });

  it('removes nothing without a limit, and rejects a negative or non-numeric limit', () => {
    expect(planCleanup([old, middle], { all: false }, NOW).remove).toEqual([]);
    expect(() => planCleanup([old], { olderThanDays: -1, all: false }, NOW)).toThrow(
      'older-than must be a number of days, 0 or more; got -1',
    );
    expect(() => planCleanup([old], { olderThanDays: Number.NaN, all: false }, NOW)).toThrow(RangeError);
  });
});
