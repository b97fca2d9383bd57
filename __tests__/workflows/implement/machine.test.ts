/**
 * Issue 41, one machine: the implement workflow's iteration as a sub-machine of the core
 * (src/workflows/implement/machine.ts), driven through the core's own step (src/core/slice.ts):
 * its events and effects are the core's vocabulary, the slice model holds the iteration, and the
 * core folds its outcome into the loop state. No agent, no tests run, no files, no clock.
 */
import { describe, expect, it } from '@jest/globals';
import type { Effect, Event } from '../../../src/core/events.js';
import { type CoreConfig, type SliceModel, initialModel, step } from '../../../src/core/slice.js';
import { type LoopState, initialLoopState } from '../../../src/core/state.js';
import type { Verdict } from '../../../src/verdict/judge.js';
import { emptyRun } from '../../../src/verdict/results.js';
import { implementMachine } from '../../../src/workflows/implement/machine.js';
import { cycle, failed, implementSettings, ok } from '../../core/fixtures.js';

const T0 = Date.parse('2026-11-25T10:00:00Z');
const machine = implementMachine({
  settings: implementSettings,
  agentName: 'Claude Code',
  canMarkNoChange: false,
  sourceHint: 'issues.jsonl',
});
const config: CoreConfig = {
  settings: { maxIterations: 10, batch: false, maxConsecutiveEscalations: 3, testCommand: 'npm test' },
  checkpointId: 'cp-1',
  publishes: false,
  branches: true,
  machine,
};
const kinds = (effects: Effect[]) => effects.map((e) => (e.kind === 'log' ? `log:${e.event}` : e.kind));
const find = <K extends Effect['kind']>(effects: Effect[], kind: K) =>
  effects.find((e): e is Extract<Effect, { kind: K }> => e.kind === kind);
const loop = (over: Partial<LoopState> = {}): LoopState => ({
  ...initialLoopState(10),
  baseBranch: 'main',
  currentCycle: cycle(['a-1'], { iterations: 0, baselineKey: 'k' }),
  ...over,
});
const issues = (body: string): Event => ({
  type: 'cycleIssuesRead',
  issues: [{ id: 'a-1', title: 'Fix the parser', body }],
  now: T0,
});
const accepted: Verdict = {
  kind: 'accepted',
  summary: 'all tests pass',
  targets: [],
  broken: [],
  targetsFailing: [],
  verifyFailing: [],
  preexisting: [],
} as unknown as Verdict;

/** Feeds events in order from a model whose baseline was just had; returns every step. */
function drive(m: SliceModel, ...events: Event[]) {
  let s = step(m, { type: 'baselineRan', baseline: { key: 'k', source: 'seen', run: emptyRun(0) } }, config);
  const steps = [s];
  for (const e of events) {
    s = step(s.model, e, config);
    steps.push(s);
  }
  return steps;
}

describe('the implement iteration, a sub-machine of the core', () => {
  it("starts by reading the cycle's issues, then asks the agent with the prompt built from them", () => {
    const [start, read] = drive(initialModel(loop(), T0), issues('Make `parse` accept empty input.'));
    expect(kinds(start!.effects)).toEqual(['readCycleIssues']);
    expect(start!.model.iteration?.before).toBe(start!.model.loop);
    expect(kinds(read!.effects)).toEqual(['log:iteration.start', 'runAgent']);
    const run = find(read!.effects, 'runAgent');
    expect(run?.prompt).toContain('## a-1: Fix the parser');
    expect(run?.what).toBe('the work of iteration 1');
    // The loop state is the core's until the iteration ends: nothing folded in yet.
    expect(read!.model.loop).toEqual(loop());
  });

  it("work remaining: the outcome is folded in by the core (the iteration counted, the issues' text kept as the targets' source)", () => {
    const steps = drive(
      initialModel(loop(), T0),
      issues('Make `parse` accept empty input.'),
      { type: 'agentRan', result: ok({ costUsd: 0.25 }), started: T0, deniedEverything: false, now: T0 + 1000 },
      { type: 'closedRead', closed: [false], now: T0 + 1000 },
    );
    const [, , ran, closed] = steps;
    expect(kinds(ran!.effects)).toEqual(['readClosed']);
    expect(closed!.model.iteration).toBeUndefined();
    expect(closed!.model.loop.iteration).toBe(1);
    expect(closed!.model.loop.costUsd).toBe(0.25);
    expect(closed!.model.loop.history.at(-1)?.durationMs).toBe(1000);
    expect(closed!.model.loop.currentCycle?.targetsText).toBe('Fix the parser\nMake `parse` accept empty input.');
    expect(kinds(closed!.effects)).toEqual(['log:iteration.end', 'verifyLane', 'save', 'next']);
  });

  it("the work done by the source: judged against the baseline with the issue's targets, then the finished cycle checked", () => {
    const steps = drive(
      initialModel(loop(), T0),
      issues('Fix it.\n\n```agent-loop\ntests: [test_parse]\n```'),
      { type: 'agentRan', result: ok(), started: T0, deniedEverything: false, now: T0 },
      { type: 'closedRead', closed: [true], now: T0 },
    );
    const judge = find(steps.at(-1)!.effects, 'judge');
    expect(judge?.targets.tests).toEqual(['test_parse']);
    expect(judge?.baseline).toEqual(emptyRun(0));
    const judged = step(
      steps.at(-1)!.model,
      {
        type: 'judged',
        changed: true,
        tests: { passed: true, exitCode: 0, durationMs: 10, tail: '' },
        verdict: accepted,
        now: T0,
      },
      config,
    );
    expect(kinds(judged.effects)).toEqual(['log:cycle.complete', 'verifyLane', 'checkSource']);
    expect(judged.model.loop.issuesClosed).toEqual(['a-1']);
  });

  it("issue 42, a --batch cycle: one issue's agent-loop block does not drop the test another issue names", () => {
    const baseline = { ...emptyRun(1), reader: 'pytest', tests: { 'tests/b.py::test_render_page': 'failed' as const } };
    const batch = loop({ currentCycle: cycle(['a-1', 'b-2'], { iterations: 0, baselineKey: 'k' }) });
    let s = step(
      initialModel(batch, T0),
      { type: 'baselineRan', baseline: { key: 'k', source: 'seen', run: baseline } },
      config,
    );
    const events: Event[] = [
      {
        type: 'cycleIssuesRead',
        issues: [
          { id: 'a-1', title: 'Fix the parser', body: 'Fix it.\n\n```agent-loop\ntests: [test_parse]\n```' },
          { id: 'b-2', title: 'Render pages', body: 'test_render_page fails since the upgrade' },
        ],
        now: T0,
      },
      { type: 'agentRan', result: ok(), started: T0, deniedEverything: false, now: T0 },
      { type: 'closedRead', closed: [true, true], now: T0 },
    ];
    for (const e of events) s = step(s.model, e, config);
    expect(find(s.effects, 'judge')?.targets.tests).toEqual(['test_parse', 'tests/b.py::test_render_page']);
  });

  it('an agent-loop block that cannot be read: escalated before any agent run, with the reason why', () => {
    const [, read] = drive(initialModel(loop(), T0), issues('```agent-loop\ns3cret: x\n```'));
    expect(kinds(read!.effects)).not.toContain('runAgent');
    expect(kinds(read!.effects)[0]).toBe('log:issue.targets');
    expect(kinds(read!.effects)).toContain('log:cycle.escalated');
    const reason = find(read!.effects, 'shelveCycle')?.reason ?? '';
    expect(reason).toMatch(/^cannot verify: /);
    expect(read!.model.loop.iteration).toBe(0);
  });

  it("a failed agent run's escalation reason reaches the note (masked where the agent's output entered)", () => {
    const m = initialModel(
      loop({ currentCycle: cycle(['a-1'], { iterations: 0, baselineKey: 'k', timeoutRetries: 3 }) }),
      T0,
    );
    const timeout = failed({ class: 'transient', reason: 'timeout', message: 'timed out printing s3cret' });
    const steps = drive(m, issues('Fix it.'), {
      type: 'agentRan',
      result: timeout,
      started: T0,
      deniedEverything: false,
      now: T0,
    });
    const last = steps.at(-1)!;
    const note = find(last.effects, 'shelveCycle')?.reason;
    expect(note).toMatch(/timed out printing s3cret/);
  });

  it('interrupted while the agent ran: the slice ends with the loop as it was', () => {
    const steps = drive(initialModel(loop(), T0), issues('Fix it.'), { type: 'interrupted' });
    const last = steps.at(-1)!;
    expect(find(last.effects, 'done')?.interrupted).toBe(true);
    expect(last.model.loop).toEqual(loop());
    expect(last.model.iteration).toBeUndefined();
  });
});
