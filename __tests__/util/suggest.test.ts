/** "Did you mean …?": the nearest known name by edit distance (issue 15). */
import { describe, expect, it } from '@jest/globals';
import { closest, editDistance } from '../../src/util/suggest.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions, and a swap of two neighbours as one edit', () => {
    expect(editDistance('status', 'status')).toBe(0);
    expect(editDistance('max-iteration', 'max-iterations')).toBe(1);
    expect(editDistance('stattus', 'status')).toBe(1);
    expect(editDistance('stavus', 'status')).toBe(1);
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(editDistance('', 'run')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('is symmetric', () => {
    for (const [a, b] of [
      ['cleanup', 'clenaup'],
      ['fresh', 'refresh'],
      ['plan', 'run'],
    ] as const)
      expect(editDistance(a, b)).toBe(editDistance(b, a));
  });
});

describe('closest', () => {
  const commands = ['run', 'plan', 'status', 'cleanup'];
  const flags = ['max-iterations', 'max-retries-per-step', 'iteration-delay', 'slice-iterations', 'state-dir', 'fresh'];

  it('names the known name a typo most likely meant', () => {
    expect(closest('stauts', commands)).toBe('status');
    expect(closest('clenaup', commands)).toBe('cleanup');
    expect(closest('rnu', commands)).toBe('run');
    expect(closest('max-iteration', flags)).toBe('max-iterations');
    expect(closest('iteration-dely', flags)).toBe('iteration-delay');
    expect(closest('State-Dir', flags)).toBe('state-dir');
  });

  it('names the one known name a word begins', () => {
    expect(closest('max-iter', flags)).toBe('max-iterations');
    expect(closest('slice', flags)).toBe('slice-iterations');
  });

  it('names nothing when no known name is near, or two are equally near', () => {
    expect(closest('deploy', commands)).toBeUndefined();
    expect(closest('bogus', flags)).toBeUndefined();
    expect(closest('max', flags)).toBeUndefined(); // the beginning of two
    expect(closest('', commands)).toBeUndefined();
    expect(closest('ab', ['ax', 'ay'])).toBeUndefined();
  });

  it('answers at once for a very long name (an argument of 120 000 characters took seconds)', () => {
    const names = Array.from({ length: 50 }, (_, i) => `option-number-${i}`);
    const started = Date.now();
    expect(closest('x'.repeat(120_000), names)).toBeUndefined();
    expect(closest(`option-number-7${'x'.repeat(120_000)}`, names)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
