/**
 * Issue 41, one machine: the tdd workflow's iteration as a sub-machine of the core
 * (src/workflows/tdd/machine.ts), driven through the core's own step: its effects are the core's,
 * the agent's run is counted from the state it started from, and the core folds the outcome in.
 * No git, no agent, no tests run.
 */
import { describe, expect, it } from '@jest/globals';
import type { Effect, Event } from '../../../src/core/events.js';
import { type CoreConfig, type SliceModel, initialModel, step } from '../../../src/core/slice.js';
import { type LoopState, initialLoopState } from '../../../src/core/state.js';
import { tddMachine } from '../../../src/workflows/tdd/machine.js';
import { cycle, failed, ok } from '../../core/fixtures.js';

const T0 = Date.parse('2026-11-25T10:00:00Z');
const config: CoreConfig = {
  settings: { maxIterations: 10, batch: false, maxConsecutiveEscalations: 3, testCommand: 'npm test' },
  checkpointId: 'cp-1',
  publishes: false,
  branches: false,
  machine: tddMachine({
    settings: { maxIterations: 10, maxRetriesPerStep: 2, testCommand: 'npm test', onSuccess: 'merge' },
    agentName: 'Claude Code',
    git: false,
  }),
};
const find = <K extends Effect['kind']>(effects: Effect[], kind: K) =>
  effects.find((e): e is Extract<Effect, { kind: K }> => e.kind === kind);
const loop = (over: Partial<LoopState> = {}): LoopState => ({
  ...initialLoopState(10),
  currentCycle: cycle(['t-1'], { iterations: 0, baselineKey: 'k', branch: undefined }),
  ...over,
});
const issue: Event = {
  type: 'cycleIssuesRead',
  issues: [{ id: 't-1', title: 'Stack', body: '- [ ] push adds an item\n- [ ] pop removes it', labels: [] }],
  now: T0,
};

function drive(m: SliceModel, ...events: Event[]) {
  let s = step(m, { type: 'baselineRan', baseline: { key: 'k', source: 'seen' } }, config);
  for (const e of events) s = step(s.model, e, config);
  return s;
}

describe('the tdd iteration, a sub-machine of the core', () => {
  it("starts by reading the cycle's issue, then asks the test agent for RED of the checklist's first item", () => {
    const started = drive(initialModel(loop(), T0));
    expect(started.effects.map((e) => e.kind)).toEqual(['readCycleIssues']);
    const asked = drive(initialModel(loop(), T0), issue);
    const run = find(asked.effects, 'runAgent');
    expect(run?.tdd).toEqual({ phase: 'RED', test: 'push adds an item' });
    expect(run?.what).toBe('the RED work of iteration 1');
    expect(run).not.toHaveProperty('state');
    expect(asked.model.loop).toEqual(loop());
  });

  it("the agent's run is counted from the state it started from, and the core folds the outcome in", () => {
    const ran = drive(initialModel(loop(), T0), issue, {
      type: 'agentRan',
      result: failed({ class: 'permanent', reason: 'auth', message: 'not logged in' }),
      started: T0,
      deniedEverything: false,
      now: T0 + 1000,
    });
    expect(ran.model.iteration).toBeUndefined();
    expect(ran.model.loop.iteration).toBe(1);
    expect(ran.model.loop.failedIterations).toBe(1);
    expect(ran.model.loop.history.at(-1)?.agent.ok).toBe(false);
  });

  it('asks for the tests once the agent is done', () => {
    const ran = drive(initialModel(loop(), T0), issue, {
      type: 'agentRan',
      result: ok(),
      started: T0,
      deniedEverything: false,
      now: T0 + 1000,
    });
    expect(ran.effects.map((e) => e.kind)).toContain('runTests');
    expect(ran.model.iteration).toBeDefined();
  });
});
