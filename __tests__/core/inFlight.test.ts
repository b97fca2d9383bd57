/** The cycle in flight (src/core/inFlight.ts): where the engine knows there is one, and a bug said as one where there is none. */
import { describe, expect, it } from '@jest/globals';
import { cycleInFlight } from '../../src/core/inFlight.js';
import { initialLoopState } from '../../src/core/state.js';
import { cycle } from './fixtures.js';

describe('cycleInFlight', () => {
  it('is the loop state’s current cycle', () => {
    const c = cycle();
    expect(cycleInFlight({ ...initialLoopState(10), currentCycle: c })).toBe(c);
  });

  it('throws, naming the bug, when the state holds no cycle (a cast let it through as undefined)', () => {
    expect(() => cycleInFlight(initialLoopState(10))).toThrow('no cycle in flight where one was expected');
  });
});
