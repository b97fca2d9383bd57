/**
 * Issue 41, one machine: the core folds what a baseline and an iteration produced into the loop
 * state itself (no event carries a whole loop state), and decides the baseline's halt.
 */
import { describe, expect, it } from '@jest/globals';
import type { BaselineDelta, Effect } from '../../src/core/events.js';
import { foldIteration, iterationDelta } from '../../src/core/fold.js';
import { type CoreConfig, initialModel, step } from '../../src/core/slice.js';
import { type LoopState, initialLoopState } from '../../src/core/state.js';
import { emptyRun } from '../../src/verdict/results.js';
import { cycle, stubMachine } from './fixtures.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const config = (rest: Partial<CoreConfig> = {}): CoreConfig => ({
  settings: { maxIterations: 10, batch: false, maxConsecutiveEscalations: 2, testCommand: 'make test' },
  checkpointId: 'cp-1',
  publishes: false,
  branches: true,
  machine: stubMachine,
  ...rest,
});
const loop = (over: Partial<LoopState> = {}): LoopState => ({
  ...initialLoopState(10),
  baseBranch: 'main',
  currentCycle: cycle(['a-1'], { iterations: 0, startedAtIteration: 1 }),
  ...over,
});
const find = <K extends Effect['kind']>(effects: Effect[], kind: K) =>
  effects.find((e): e is Extract<Effect, { kind: K }> => e.kind === kind);
const baselineRan = (baseline: BaselineDelta, cfg = config(), l = loop()) =>
  step(initialModel(l, T0), { type: 'baselineRan', baseline }, cfg);

describe('the core folds an iteration: only the parts an iteration writes', () => {
  it('hands over what changed, and the fold gives back the state the iteration ended with', () => {
    const before = loop();
    const after: LoopState = { ...before, iteration: 1, costUsd: 0.5, lastAgentOutput: 'done' };
    const delta = iterationDelta(before, after);
    expect(delta).toEqual({ iteration: 1, costUsd: 0.5, lastAgentOutput: 'done' });
    expect(foldIteration(before, delta)).toEqual(after);
  });

  it('a cycle the iteration removed is removed', () => {
    const before = loop();
    const { currentCycle: _gone, ...after } = before;
    expect(foldIteration(before, iterationDelta(before, after)).currentCycle).toBeUndefined();
  });

  it('refuses an iteration that wrote a part only the core writes (the outbox, the halt, …)', () => {
    const before = loop();
    expect(() => iterationDelta(before, { ...before, notices: [] })).toThrow(/notices, which only the core writes/);
    expect(() => iterationDelta(before, { ...before, halt: { reason: 'budget', message: 'x' } })).toThrow(
      /halt, which only the core writes/,
    );
  });

  it("what the core holds and the iteration did not touch stays the core's (a parked branch)", () => {
    const held = loop({ parkedBranch: 'agent-loop/x' });
    expect(foldIteration(held, { iteration: 3 })).toEqual({ ...held, iteration: 3 });
  });
});

describe('the core judges the baseline (baseline_unreadable decided here, not in src/loop/)', () => {
  it('a red suite not read per test halts, names the command, and leaves the loop as it was', () => {
    const l = loop({ currentCycle: cycle(['a-1'], { iterations: 0, startedAtIteration: 2 }), iteration: 3 });
    const s = baselineRan({ key: 'k', source: 'ran', run: emptyRun(1), digest: 'd' }, config(), l);
    const halt = find(s.effects, 'recordHalt')?.halt;
    expect(halt?.reason).toBe('baseline_unreadable');
    expect(halt?.message).toMatch(/^NO VERDICT POSSIBLE: the test command `make test` fails on the base branch/);
    expect(halt?.advice).not.toMatch(/--parallel/);
    expect(find(s.effects, 'keepBaseline')).toBeUndefined();
    expect(s.model.loop.baselines).toBeUndefined();
    expect(s.model.loop.currentCycle?.baselineKey).toBeUndefined();
  });

  it("a job of run --parallel says why a suite that runs in the user's checkout may not run in its worktree", () => {
    const s = baselineRan(
      { key: 'k', source: 'ran', run: { ...emptyRun(1), cannotRun: 'no module named x' } },
      config({ waveJob: true }),
    );
    expect(find(s.effects, 'recordHalt')?.halt.advice).toMatch(/This is a job of run --parallel/);
  });

  it('a sound baseline run now is kept (before the save), its key, digest and failing tests folded in', () => {
    const run = emptyRun(0);
    const s = baselineRan({
      key: 'k',
      source: 'ran',
      run,
      digest: 'd',
      ownTree: true,
      lastFailing: { key: 'cmd', digest: 'f' },
    });
    expect(s.effects.map((e) => e.kind)).toEqual(['keepBaseline', 'save', 'readCycleIssues']);
    expect(find(s.effects, 'keepBaseline')).toEqual({ kind: 'keepBaseline', key: 'k', run, ownTree: true });
    expect(s.model.loop.currentCycle?.baselineKey).toBe('k');
    expect(s.model.loop.baselines).toEqual({ k: 'd' });
    expect(s.model.loop.lastFailing).toEqual({ cmd: 'f' });
  });

  it('one read from the state directory is not kept again; none at all (the tree moved on) judges by exit code', () => {
    const kept = baselineRan({ key: 'k', source: 'kept', run: emptyRun(0), digest: 'd' });
    expect(kept.effects.map((e) => e.kind)).toEqual(['save', 'readCycleIssues']);
    expect(kept.model.loop.baselines).toEqual({ k: 'd' });
    const none = baselineRan({ key: 'k', source: 'none' });
    expect(none.model.iteration?.sub).toEqual({ baseline: undefined });
    expect(none.model.loop.currentCycle?.baselineKey).toBe('k');
    expect(none.model.loop.baselines).toBeUndefined();
  });
});
