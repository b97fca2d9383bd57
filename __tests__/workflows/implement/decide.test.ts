/**
 * The implement workflow's iteration, pure (src/workflows/implement/decide.ts), driven event by
 * event: no agent, no tests run, no files, no clock. Each test feeds what the iteration observed
 * and checks what it asks for next and the outcome it ends with; the last block checks the
 * protocol over every event in many states.
 */
import { describe, expect, it } from '@jest/globals';
import type { AgentResult, ReportBlock } from '../../../src/agents/types.js';
import { initialProgress } from '../../../src/core/cycle.js';
import { type CycleState, type IterationRecord, type LoopState, initialLoopState } from '../../../src/core/state.js';
import type { IterationOutcome } from '../../../src/core/events.js';
import {
  type IterationContext,
  type IterationEffect,
  type IterationEvent,
  type IterationModel,
  cannotVerify,
  escalateUnverifiable,
  stepIteration,
} from '../../../src/workflows/implement/decide.js';
import type { Verdict } from '../../../src/verdict/judge.js';
import type { TestOutcome } from '../../../src/loop/deps.js';
import { cycle, failed, implementSettings, ok, turnRecord } from '../../core/fixtures.js';

const T0 = Date.parse('2026-11-25T10:00:00Z');

function before(over: Partial<LoopState> = {}, c: Partial<CycleState> = {}): LoopState {
  return { ...initialLoopState(10), baseBranch: 'main', currentCycle: cycle(['a-1'], c), ...over };
}

function ctx(
  over: Partial<IterationContext> = {},
  settings: Partial<IterationContext['settings']> = {},
): IterationContext {
  return {
    settings: { ...implementSettings, ...settings },
    agentName: 'Claude Code',
    before: before(),
    targets: { tests: [], verify: [] },
    canMarkNoChange: false,
    startedAt: T0,
    ...over,
  };
}

const record = (s: LoopState): IterationRecord => turnRecord(s, T0);

/** The agent's report block (seed 004). */
const report = (over: Partial<ReportBlock> = {}): ReportBlock => ({
  workRemainingEmpty: over.workRemaining === undefined,
  fields: {},
  ...over,
});
const done = report({ requiresContinuation: false, summary: 'fixed it' });

/** The agent ran: the state as the turn leaves it (iteration counted). */
function agentRan(
  c: IterationContext,
  result: AgentResult,
  over: Partial<Extract<IterationEvent, { type: 'agentRan' }>> = {},
): IterationEvent {
  const state = { ...c.before, iteration: c.before.iteration + 1 };
  return {
    type: 'agentRan',
    result,
    state,
    record: record(c.before),
    deniedEverything: false,
    now: T0 + 5000,
    ...over,
  };
}

const tests = (over: Partial<TestOutcome> = {}): TestOutcome => ({
  passed: true,
  exitCode: 0,
  durationMs: 2000,
  tail: 'all good',
  ...over,
});
const verdict = (over: Partial<Verdict> = {}): Verdict => ({
  kind: 'accepted',
  summary: '3 passed',
  broken: [],
  targetsFailing: [],
  verifyFailing: [],
  fixed: [],
  preexisting: [],
  targets: [],
  ...over,
});
const judged = (over: Partial<Extract<IterationEvent, { type: 'judged' }>> = {}): IterationEvent => ({
  type: 'judged',
  changed: true,
  tests: tests(),
  verdict: verdict(),
  now: T0 + 9000,
  ...over,
});
const closedRead = (...closed: boolean[]): IterationEvent => ({ type: 'closedRead', closed, now: T0 + 6000 });

/** Feeds events in order from the iteration's start; returns the last step. */
function run(c: IterationContext, ...events: IterationEvent[]) {
  let s: { model: IterationModel; effects: IterationEffect[] } = {
    model: { state: c.before, record: record(c.before) },
    effects: [],
  };
  for (const e of events) s = stepIteration(c, s.model, e);
  return s;
}

const kinds = (effects: IterationEffect[]) => effects.map((e) => (e.kind === 'log' ? `log:${e.event}` : e.kind));
function outcomeOf(effects: IterationEffect[]): IterationOutcome {
  const last = effects.at(-1);
  if (last?.kind !== 'finish') throw new Error(`no finish: ${kinds(effects).join(', ')}`);
  return last.outcome;
}
const lastRecord = (o: IterationOutcome) => o.state.history.at(-1) as IterationRecord;
const cycleOf = (o: IterationOutcome) => o.state.currentCycle as CycleState;

describe('after the agent ran', () => {
  it('a moved repository halts with nothing judged and nothing read', () => {
    const c = ctx();
    const halt = { reason: 'repository_moved' as const, message: 'REPOSITORY MOVED: main moved' };
    const s = run(c, agentRan(c, ok({ report: done }), { moved: halt }));
    expect(kinds(s.effects)).toEqual(['finish']);
    const o = outcomeOf(s.effects);
    expect(o.halt).toEqual(halt);
    expect(lastRecord(o).outcome).toBe('repository_moved');
    expect(lastRecord(o).durationMs).toBe(5000);
  });

  it('a rate limit waits the policy backoff and does not use up a step retry', () => {
    const c = ctx();
    const s = run(c, agentRan(c, failed({ class: 'transient', reason: 'rate_limit', message: 'slow down' })));
    expect(kinds(s.effects)).toEqual(['log:iteration.failed', 'finish']);
    const o = outcomeOf(s.effects);
    expect(o.waitMs).toBe(1000);
    expect(o.escalate).toBeUndefined();
    expect(cycleOf(o).rateLimitAttempts).toBe(1);
    expect(cycleOf(o).progress).toEqual(initialProgress());
    expect(lastRecord(o).outcome).toBe('agent_failed');
    expect(o.state.failedIterations).toBe(1);
    expect(cycleOf(o).lastFailure).toEqual({ kind: 'agent', message: 'slow down', tail: 'boom' });
  });

  it('the fourth timeout in a row escalates the cycle (3 retries with the same timeout)', () => {
    const c = ctx({ before: before({}, { timeoutRetries: 3 }) });
    const o = outcomeOf(
      run(c, agentRan(c, failed({ class: 'transient', reason: 'timeout', message: 'no answer in 30 min' }))).effects,
    );
    expect(o.escalate?.reason).toBe(
      'timed out 4 times in a row (3 retries with the same timeout): no answer in 30 min',
    );
    expect(o.halt).toBeUndefined();
  });

  it('a second environment failure in a row halts the run with the advice, no issue blamed', () => {
    const c = ctx({ before: before({ environmentFailures: 1 }) });
    const s = run(c, agentRan(c, failed({ class: 'permanent', reason: 'auth', message: 'invalid API key' })));
    const o = outcomeOf(s.effects);
    expect(o.halt?.reason).toBe('agent_unavailable');
    expect(o.halt?.advice).toBeTruthy();
    expect(o.escalate).toBeUndefined();
    expect(s.effects[0]).toMatchObject({ kind: 'log', event: 'iteration.failed', level: 'error' });
  });

  it('a run denied every edit that changed nothing is a permission failure, not success', () => {
    const c = ctx();
    const s = run(c, agentRan(c, ok({ report: done, permissionDenials: 3 }), { deniedEverything: true }));
    const o = outcomeOf(s.effects);
    expect(lastRecord(o).outcome).toBe('agent_failed');
    expect(lastRecord(o).agent.failure?.reason).toBe('permission_denied');
    expect(lastRecord(o).agent.failure?.message).toBe('the agent was denied 3 tool use(s) and changed nothing');
    expect(o.state.successfulIterations).toBe(0);
  });

  it('transient failures use up the step retries, then escalate', () => {
    const crash = failed({ class: 'transient', reason: 'crashed', message: 'segfault' });
    const c = ctx({ before: before({}, { progress: { ...initialProgress(), retries: { implement: 2 } } }) });
    const o = outcomeOf(run(c, agentRan(c, crash)).effects);
    expect(o.escalate).toEqual({ reason: expect.stringContaining('segfault'), bounceLoop: false });
  });

  it('success resets the failure counters and asks whether the issues are closed', () => {
    const c = ctx({ before: before({ environmentFailures: 1 }, { timeoutRetries: 2, rateLimitAttempts: 3 }) });
    const s = run(c, agentRan(c, ok({ report: report({ requiresContinuation: true, workRemaining: 'tests' }) })));
    expect(kinds(s.effects)).toEqual(['readClosed']);
    expect(s.model.state.successfulIterations).toBe(1);
    expect(s.model.state.environmentFailures).toBe(0);
    expect((s.model.state.currentCycle as CycleState).timeoutRetries).toBe(0);
    expect((s.model.state.currentCycle as CycleState).rateLimitAttempts).toBe(0);
    expect(s.model.record.workRemaining).toBe('tests');
  });

  it('--strict halts on a contract violation, recorded for errors.jsonl at the event time', () => {
    const c = ctx({}, { strict: true });
    const lie = report({ requiresContinuation: false, workRemaining: 'half of it' });
    const s = run(c, agentRan(c, ok({ report: lie })));
    expect(kinds(s.effects)).toEqual(['log:validation.violation', 'finish']);
    const o = outcomeOf(s.effects);
    expect(o.halt?.reason).toBe('contract_violation');
    expect(o.violation).toMatchObject({
      timestamp: '2026-11-25T10:00:05Z',
      type: 'validation_error',
      iteration: 1,
      details: { work_remaining: 'half of it', override: 'halt' },
    });
  });

  it('without --strict, a contract violation is overridden: the iteration goes on, the violation carried to its outcome', () => {
    const c = ctx();
    const lie = report({ requiresContinuation: false, workRemaining: 'half of it' });
    const s = run(c, agentRan(c, ok({ report: lie })));
    expect(kinds(s.effects)).toEqual(['log:validation.override', 'readClosed']);
    const o = outcomeOf(run(c, agentRan(c, ok({ report: lie })), closedRead(false)).effects);
    expect(o.violation).toMatchObject({ details: { override: 'forced_true' } });
    expect(o.halt).toBeUndefined();
  });

  it('the same work_remaining twice in a row escalates as stuck', () => {
    const c = ctx({ before: before({}, { lastWorkRemaining: 'the parser', sameWorkRemainingCount: 1 }) });
    const s = run(c, agentRan(c, ok({ report: report({ requiresContinuation: true, workRemaining: 'the parser' }) })));
    expect(kinds(s.effects)).toEqual(['log:cycle.stuck', 'finish']);
    const o = outcomeOf(s.effects);
    expect(o.escalate?.reason).toMatch(/^stuck: work_remaining unchanged for 2 consecutive iterations/);
    expect(lastRecord(o).outcome).toBe('stuck');
  });
});

describe('the completion check', () => {
  it('work remains: the iteration ends, its duration counted to the event', () => {
    const c = ctx();
    const s = run(
      c,
      agentRan(c, ok({ report: report({ requiresContinuation: true, workRemaining: 'more' }) })),
      closedRead(false),
    );
    expect(kinds(s.effects)).toEqual(['log:iteration.end', 'finish']);
    const o = outcomeOf(s.effects);
    expect(lastRecord(o)).toMatchObject({ outcome: 'continuing', durationMs: 6000, workRemaining: 'more' });
    expect(o.cycleDone).toBeUndefined();
  });

  it('the issues closed in the source complete the implement step even without a report', () => {
    const c = ctx();
    const s = run(c, agentRan(c, ok()), closedRead(true));
    expect(kinds(s.effects)).toEqual(['log:tests.start', 'judge']);
    expect((s.model.state.currentCycle as CycleState).progress.index).toBe(1);
  });

  it('a third iteration in a row without a report, the issue still open: escalated as stuck, not run to max-iterations', () => {
    const c = ctx({ before: before({}, { silentIterations: 2 }) });
    const s = run(c, agentRan(c, ok()), closedRead(false));
    expect(kinds(s.effects)).toEqual(['log:cycle.stuck', 'finish']);
    const o = outcomeOf(s.effects);
    expect(o.escalate?.reason).toMatch(/^stuck: the agent ended 3 iterations in a row without a report block/);
    expect(lastRecord(o).outcome).toBe('stuck');
    expect(cycleOf(o).silentIterations).toBe(3);
  });

  it('a second iteration without a report goes on; a third that closed its issue in the source is judged, not stuck', () => {
    const second = ctx({ before: before({}, { silentIterations: 1 }) });
    const s2 = run(second, agentRan(second, ok()), closedRead(false));
    expect(kinds(s2.effects)).toEqual(['log:iteration.end', 'finish']);
    expect(cycleOf(outcomeOf(s2.effects)).silentIterations).toBe(2);
    const third = ctx({ before: before({}, { silentIterations: 2 }) });
    expect(kinds(run(third, agentRan(third, ok()), closedRead(true)).effects)).toEqual(['log:tests.start', 'judge']);
  });

  it('--max-iterations-per-issue: the N-th agent run of the cycle that ends with work still remaining escalates it as stuck, whatever words the report uses', () => {
    const says = (words: string) => ok({ report: report({ requiresContinuation: true, workRemaining: words }) });
    const atLimit = ctx({ before: before({}, { unfinishedRuns: 19, iterations: 25 }) });
    const s = run(atLimit, agentRan(atLimit, says('one more edge case')), closedRead(false));
    expect(kinds(s.effects)).toEqual(['log:cycle.stuck', 'finish']);
    const o = outcomeOf(s.effects);
    expect(o.escalate?.reason).toBe(
      'stuck: 20 agent runs on this cycle ended with work still remaining (now: one more edge case): the limit is --max-iterations-per-issue 20',
    );
    expect(lastRecord(o).outcome).toBe('stuck');
    expect(cycleOf(o).unfinishedRuns).toBe(20);

    // Below it: counted, going on. Failed runs and rejections (iterations: 25 above) do not count.
    const below = ctx({ before: before({}, { unfinishedRuns: 18, iterations: 40 }) });
    const going = run(below, agentRan(below, says('almost')), closedRead(false));
    expect(kinds(going.effects)).toEqual(['log:iteration.end', 'finish']);
    expect(cycleOf(outcomeOf(going.effects)).unfinishedRuns).toBe(19);
    const unlimited = ctx({ before: before({}, { unfinishedRuns: 500 }) }, { maxIterationsPerIssue: 0 });
    expect(kinds(run(unlimited, agentRan(unlimited, says('more')), closedRead(false)).effects)).toEqual([
      'log:iteration.end',
      'finish',
    ]);
    // At the limit, a finished cycle is judged as usual.
    expect(kinds(run(atLimit, agentRan(atLimit, ok({ report: done })), closedRead(false)).effects)).toEqual([
      'log:tests.start',
      'judge',
    ]);
  });

  it('--max-iterations-per-issue counts per issue of a --batch cycle: 3 issues get 3 times as many runs', () => {
    const says = ok({ report: report({ requiresContinuation: true, workRemaining: 'a-2 a-3' }) });
    const batch = (unfinishedRuns: number) =>
      ctx({ before: before({}, { issueIds: ['a-1', 'a-2', 'a-3'], titles: ['1', '2', '3'], unfinishedRuns }) });
    const under = batch(20);
    expect(kinds(run(under, agentRan(under, says), closedRead(false, false, false)).effects)).toEqual([
      'log:iteration.end',
      'finish',
    ]);
    const at = batch(59);
    expect(outcomeOf(run(at, agentRan(at, says), closedRead(false, false, false)).effects).escalate?.reason).toMatch(
      /^stuck: 60 agent runs on this cycle ended with work still remaining \(now: a-2 a-3\): the limit is --max-iterations-per-issue 20 × 3 issues$/,
    );
  });

  it('a failed agent run (a rate limit) neither counts toward --max-iterations-per-issue nor is stopped by it', () => {
    const c = ctx({ before: before({}, { unfinishedRuns: 19 }) });
    const limited = failed({ class: 'transient', reason: 'rate_limit', message: 'rate limited', retryAfterMs: 1000 });
    const s = run(c, agentRan(c, limited));
    const o = outcomeOf(s.effects);
    expect(o.escalate).toBeUndefined();
    expect(cycleOf(o).unfinishedRuns).toBe(19);
  });

  it('an agent-loop block that cannot be read: the agent says done (or closed the issue), nothing judged, never closed: escalated as cannot verify', () => {
    const unreadable = 'the agent-loop block is not valid YAML (Nested mappings are not allowed); quote it';
    const c = ctx({ targets: { tests: [], verify: [], unreadable } });
    for (const s of [
      run(c, agentRan(c, ok({ report: done })), closedRead(false)),
      run(c, agentRan(c, ok()), closedRead(true)),
    ]) {
      expect(kinds(s.effects)).toEqual(['log:issue.targets', 'finish']);
      const o = outcomeOf(s.effects);
      expect(o.escalate).toEqual({
        reason: expect.stringContaining(`cannot verify: ${unreadable}`),
        bounceLoop: false,
      });
      expect(o.escalate?.reason).toMatch(/Fix the block in the issue's text/);
      expect(o.cycleDone).toBeUndefined();
      expect(lastRecord(o).outcome).toBe('cannot_verify');
    }
    // Work that remains is not judged anyway: the iteration goes on as usual.
    const going = run(
      c,
      agentRan(c, ok({ report: report({ requiresContinuation: true, workRemaining: 'more' }) })),
      closedRead(false),
    );
    expect(kinds(going.effects)).toEqual(['log:iteration.end', 'finish']);
  });
});

describe('an agent-loop block that cannot be taken, known before the agent runs', () => {
  it('escalates the cycle at once: no iteration counted, nothing recorded in the history, the reason says how to unblock it', () => {
    const b = before({ iteration: 3 });
    const reason = cannotVerify(
      'the agent-loop block cannot be taken as written: a key agent-loop does not know: verfy',
    );
    expect(reason).toMatch(
      /^cannot verify: .*verfy\. Fix the block in the issue's text; the edit makes the issue eligible again$/,
    );
    const o = escalateUnverifiable(ctx().settings, b, reason);
    expect(o.escalate).toEqual({ reason, bounceLoop: false });
    expect(o.state).toMatchObject({ iteration: 3, history: b.history, successfulIterations: b.successfulIterations });
    expect((o.state.currentCycle as CycleState).progress).not.toEqual((b.currentCycle as CycleState).progress);
  });
});

describe('the verdict', () => {
  const toVerify = (c: IterationContext, ...closed: boolean[]) => [
    agentRan(c, ok({ report: done })),
    closedRead(...closed),
  ];

  it('accepted with a change: the cycle is done, the open issues closed with the evidence', () => {
    const c = ctx({ before: before({}, { issueIds: ['a-1', 'a-2'], titles: ['A', 'B'] }) });
    const s = run(c, ...toVerify(c, true, false), judged());
    expect(kinds(s.effects)).toEqual(['log:cycle.complete', 'finish']);
    const o = outcomeOf(s.effects);
    expect(o.cycleDone).toBe(true);
    expect(o.noChange).toBeUndefined();
    expect(o.issueActions).toEqual([
      { kind: 'close', id: 'a-2', note: 'agent-loop: accepted at iteration 1: 3 passed' },
    ]);
    expect(o.state.issuesClosed).toEqual(['a-1', 'a-2']);
    expect(o.state.completedIterations).toEqual([1]);
    expect(lastRecord(o)).toMatchObject({
      outcome: 'complete',
      tests: { passed: true, exitCode: 0, durationMs: 2000 },
      verdict: { kind: 'accepted', summary: '3 passed' },
      durationMs: 9000,
    });
  });

  it('issue 40: accepted while a test that failed before still fails: the tests passed (the verdict, not the exit code), the failure reported beside', () => {
    const c = ctx();
    const o = outcomeOf(
      run(
        c,
        ...toVerify(c, false),
        judged({
          tests: tests({ passed: false, exitCode: 1 }),
          verdict: verdict({
            summary: '1 target(s) pass; 1 failure(s) that were there before',
            preexisting: ['t::old'],
          }),
        }),
      ).effects,
    );
    expect(o.cycleDone).toBe(true);
    expect(o.state).toMatchObject({ testsPassed: true, testFailures: 0, preexistingFailures: ['t::old'] });
    // The record keeps what the command did: it exited 1.
    expect(lastRecord(o).tests).toMatchObject({ passed: false, exitCode: 1 });
  });

  it('issue 40: the tests cannot run: not passed', () => {
    const c = ctx();
    const o = outcomeOf(
      run(
        c,
        ...toVerify(c, false),
        judged({
          tests: tests({ passed: false, exitCode: 2 }),
          verdict: verdict({ kind: 'cannot_run', summary: 'the tests cannot run: no tests found' }),
        }),
      ).effects,
    );
    expect(o.state.testsPassed).toBe(false);
  });

  it("issue 15: the finishing record keeps the agent's own summary and the verdict's targets, for the pull request", () => {
    const c = ctx();
    const o = outcomeOf(
      run(c, ...toVerify(c, true, false), judged({ verdict: verdict({ targets: ['t/a > works', 't/b > works'] }) }))
        .effects,
    );
    expect(lastRecord(o)).toMatchObject({
      summary: 'fixed it',
      verdict: { kind: 'accepted', summary: '3 passed', targets: ['t/a > works', 't/b > works'] },
    });
  });

  it('with pull requests, nothing is closed: the merge of the pull request closes the issues', () => {
    const c = ctx({}, { onSuccess: 'pull-request' });
    const o = outcomeOf(run(c, ...toVerify(c, false), judged()).effects);
    expect(o.issueActions).toEqual([]);
    expect(o.cycleDone).toBe(true);
  });

  it('accepted with no change and named targets: closed with the evidence, never a bounce', () => {
    const c = ctx({ targets: { tests: ['t::a'], verify: ['make check'] }, canMarkNoChange: true });
    const o = outcomeOf(run(c, ...toVerify(c, false), judged({ changed: false })).effects);
    expect(o.noChange).toBe(true);
    expect(o.issueActions).toEqual([
      {
        kind: 'markNoChange',
        id: 'a-1',
        note: 'agent-loop: no change was needed: its targets pass (t::a, `make check`) (iteration 1).',
        close: true,
      },
    ]);
    expect(o.state.issuesClosed).toEqual(['a-1']);
    // Closed, and listed as found already satisfied (issue 40: it was not).
    expect(o.state.issuesNoChange).toEqual(['a-1']);
  });

  it('issue 40: accepted with no change where the source closes (beads): closed, and listed as needing no change', () => {
    const c = ctx({ before: before({ issuesNoChange: ['a-0'] }) });
    const o = outcomeOf(run(c, ...toVerify(c, false), judged({ changed: false })).effects);
    expect(o.noChange).toBe(true);
    expect(o.issueActions).toEqual([
      {
        kind: 'markNoChange',
        id: 'a-1',
        note: 'agent-loop: no change was needed: the agent reports `fixed it` (iteration 1).',
        close: false,
      },
    ]);
    expect(o.state.issuesClosed).toEqual(['a-1']);
    expect(o.state.issuesNoChange).toEqual(['a-0', 'a-1']);
  });

  it('accepted with no change and no targets where a person decides: labelled, left open', () => {
    const c = ctx({ canMarkNoChange: true });
    const o = outcomeOf(run(c, ...toVerify(c, false), judged({ changed: false })).effects);
    expect(o.issueActions).toEqual([
      {
        kind: 'markNoChange',
        id: 'a-1',
        note: 'agent-loop: no change was needed: the agent reports `fixed it` (iteration 1).',
        close: false,
      },
    ]);
    expect(o.state.issuesClosed).toEqual([]);
    expect(o.state.issuesNoChange).toEqual(['a-1']);
  });

  it('no change but every issue already closed by the agent: a plain completion', () => {
    const c = ctx();
    const o = outcomeOf(run(c, ...toVerify(c, true), judged({ changed: false })).effects);
    expect(o.noChange).toBeUndefined();
    expect(o.issueActions).toEqual([]);
  });

  it('rejected, read per test: the failures and their messages go to the next prompt; tests_failed', () => {
    const c = ctx();
    const v = verdict({ kind: 'rejected', summary: '1 broken', broken: [{ id: 't::b', message: 'expected 2' }] });
    const run1 = { reader: 'pytest', exitCode: 1, tests: {}, groups: {}, messages: {} };
    const s = run(
      c,
      ...toVerify(c, false),
      judged({ tests: tests({ passed: false, exitCode: 1, run: run1 }), verdict: v }),
    );
    expect(kinds(s.effects)).toEqual(['log:tests.failed', 'finish']);
    const o = outcomeOf(s.effects);
    expect(lastRecord(o).outcome).toBe('tests_failed');
    expect(o.state.testFailures).toBe(1);
    expect(o.state.testsPassed).toBe(false);
    expect(cycleOf(o).lastFailure?.message).toBe('1 broken');
    expect(cycleOf(o).lastFailure?.tail).toContain('t::b');
    expect(cycleOf(o).lastFailure?.tail).toContain('all good');
    // Back to implement for the next iteration.
    expect(cycleOf(o).progress.index).toBe(0);
    expect(o.cycleDone).toBeUndefined();
  });

  it('rejected on the exit code alone: the message names the command and its exit code', () => {
    const c = ctx();
    const v = verdict({ kind: 'rejected', summary: 'exit code 2' });
    const o = outcomeOf(
      run(c, ...toVerify(c, false), judged({ tests: tests({ passed: false, exitCode: 2 }), verdict: v })).effects,
    );
    expect(cycleOf(o).lastFailure).toEqual({
      kind: 'tests',
      message: '`npm test` exited with code 2',
      tail: 'all good',
    });
  });

  it('rejected again and again: the verify step retries run out and the cycle escalates', () => {
    const c = ctx({ before: before({}, { progress: { ...initialProgress(), retries: { verify: 2 } } }) });
    const v = verdict({ kind: 'rejected', summary: 'exit code 1' });
    const o = outcomeOf(run(c, ...toVerify(c, false), judged({ verdict: v })).effects);
    expect(o.escalate?.bounceLoop).toBe(false);
  });

  it('the tests cannot run: a step back to implement with the reason as context', () => {
    const c = ctx();
    const v = verdict({ kind: 'cannot_run', summary: 'no tests were collected' });
    const s = run(c, ...toVerify(c, false), judged({ verdict: v }));
    expect(kinds(s.effects)).toEqual(['log:step.bounce', 'finish']);
    const o = outcomeOf(s.effects);
    expect(lastRecord(o).outcome).toBe('bounced');
    expect(cycleOf(o).lastFailure?.message).toBe('`npm test`: no tests were collected');
    expect(cycleOf(o).progress.index).toBe(0);
    expect(o.escalate).toBeUndefined();
  });

  it('stepping back too often is a bounce loop', () => {
    const c = ctx({ before: before({}, { progress: { ...initialProgress(), bounces: 2 } }) });
    const v = verdict({ kind: 'cannot_run', summary: 'no tests were collected' });
    const o = outcomeOf(run(c, ...toVerify(c, false), judged({ verdict: v })).effects);
    expect(o.escalate?.bounceLoop).toBe(true);
  });

  it('interrupted while the tests ran: the state before the iteration, nothing recorded', () => {
    const c = ctx();
    const o = outcomeOf(run(c, ...toVerify(c, false), { type: 'interrupted' }).effects);
    expect(o).toEqual({ state: c.before, interrupted: true });
  });
});

describe("issue 42: the judge's findings (the agent changed what the maintainer owns)", () => {
  const toVerify = (c: IterationContext, ...closed: boolean[]) => [
    agentRan(c, ok({ report: done })),
    closedRead(...closed),
  ];
  const xfail = {
    path: 'tests/test_calc.py',
    kind: 'test-changed' as const,
    detail: 'test_add: a decorator was added (@pytest.mark.xfail)',
  };
  const config = {
    path: '.agent-loop.yml',
    kind: 'config-changed' as const,
    detail:
      "agent-loop's configuration file was changed by the agent: the run keeps the maintainer's configuration (the base's)",
  };

  // Issue 42's landing for a person: a rejected verdict with findings is rejected (retried, the restore
  // asked); an accepted one is held for a person (below). Until then any finding was rejected.
  const failing = verdict({
    kind: 'rejected',
    summary: '2 passed, 1 failed',
    targetsFailing: [{ id: 'tests/test_calc.py::test_add', message: 'assert 3 == 4' }],
  });

  it('a rejected verdict with a finding is rejected: nothing closed, the finding and what to do in the next prompt', () => {
    const c = ctx({ before: before({}, { issueIds: ['a-1'], titles: ['A'] }) });
    const s = run(c, ...toVerify(c, true), judged({ verdict: failing, findings: [xfail, config] }));
    expect(kinds(s.effects)).toEqual(['log:tests.failed', 'finish']);
    const o = outcomeOf(s.effects);
    expect(o.cycleDone).toBeUndefined();
    expect(o.held).toBeUndefined();
    expect(o.issueActions).toBeUndefined();
    expect(o.state.issuesClosed).toEqual([]);
    expect(o.state.testsPassed).toBe(false);
    expect(lastRecord(o).outcome).toBe('tests_failed');
    expect(lastRecord(o).verdict?.kind).toBe('rejected');
    const failure = cycleOf(o).lastFailure;
    // The whole of it in the message, which the prompt gives whole (the context is cut to its end).
    expect(failure?.message).toMatch(
      /^2 passed, 1 failed; the agent changed 2 path\(s\) the maintainer owns \(tests\/test_calc\.py \(test-changed\), \.agent-loop\.yml \(config-changed\)\): the work is not accepted while they differ from the base\n\nYou changed what judges the work/,
    );
    expect(failure?.message).toContain(
      '\n- tests/test_calc.py (test-changed: test_add: a decorator was added (@pytest.mark.xfail)): restore it as it was.\n',
    );
    expect(failure?.message).toContain('You may add tests');
    expect(failure?.tail).toBe('all good');
    const log = s.effects[0];
    expect(log?.kind === 'log' && log.data?.findings).toEqual([xfail, config]);
    expect(cycleOf(o).progress.index).toBe(0);
  });

  it('an accepted verdict with a finding is held for a person at once (tests-changed): no retry, nothing closed, the issue marked', () => {
    const c = ctx({
      before: before(
        { consecutiveEscalations: 1 },
        { issueIds: ['a-1', 'a-2'], titles: ['A', 'B'], branch: 'agent-loop/a-1' },
      ),
    });
    const s = run(c, ...toVerify(c, true, true), judged({ findings: [xfail, config] }));
    expect(kinds(s.effects)).toEqual(['log:cycle.held', 'finish']);
    const o = outcomeOf(s.effects);
    expect(o.cycleDone).toBe(true);
    expect(o.escalate).toBeUndefined();
    expect(o.held).toEqual({
      reason: 'tests-changed',
      why: expect.stringContaining(
        'it changed 2 path(s) the maintainer owns (tests/test_calc.py (test-changed), .agent-loop.yml (config-changed))',
      ),
      paths: ['tests/test_calc.py', '.agent-loop.yml'],
    });
    // Marked for a person, never closed (the agent closed both in the source: not counted closed either).
    expect(o.issueActions?.map((a) => [a.kind, a.id, a.kind === 'markHeld' ? a.label : ''])).toEqual([
      ['markHeld', 'a-1', 'agent-loop:tests-changed'],
      ['markHeld', 'a-2', 'agent-loop:tests-changed'],
    ]);
    const note = o.issueActions?.[0]?.kind === 'markHeld' ? o.issueActions[0].note : '';
    expect(note).toContain("the work changed the maintainer's tests");
    expect(note).toContain('`agent-loop/a-1`');
    expect(note).toContain('remove the `agent-loop:tests-changed` label');
    expect(o.state.issuesClosed).toEqual([]);
    expect(o.state.issuesHeld).toEqual([
      { id: 'a-1', reason: 'tests-changed' },
      { id: 'a-2', reason: 'tests-changed' },
    ]);
    // Neither a success nor an escalation: the escalations in a row stay as they were.
    expect(o.state.consecutiveEscalations).toBe(1);
    expect(o.state.testFailures).toBe(0);
    expect(o.state.testsPassed).toBe(true);
    expect(lastRecord(o).outcome).toBe('held');
    expect(lastRecord(o).verdict).toMatchObject({
      kind: 'accepted',
      summary: expect.stringMatching(/^3 passed; but it changed 2 path/),
    });
    const log = s.effects[0];
    expect(log?.kind === 'log' && log.level).toBe('warn');
    expect(log?.kind === 'log' && log.data).toMatchObject({ reason: 'tests-changed', issueIds: ['a-1', 'a-2'] });
  });

  it('a finding with no change else (the agent only edited the test): held for a person, never "no change needed"', () => {
    const c = ctx({ before: before({}, { issueIds: ['a-1'], titles: ['A'] }) });
    const o = outcomeOf(run(c, ...toVerify(c, false), judged({ changed: true, findings: [xfail] })).effects);
    expect(o.noChange).toBeUndefined();
    expect(o.state.issuesNoChange).toEqual([]);
    expect(lastRecord(o).outcome).toBe('held');
    expect(o.held?.reason).toBe('tests-changed');
  });

  it('a symlink out of the repository, removed by the judge, is not a pass either: held, the link named', () => {
    const c = ctx();
    const o = outcomeOf(run(c, ...toVerify(c, false), judged({ removedLinks: ['tests/data'] })).effects);
    expect(lastRecord(o).outcome).toBe('held');
    expect(o.held?.paths).toEqual(['tests/data']);
    expect(o.held?.why).toContain('1 symlink(s) of the work point outside the repository (tests/data)');
  });

  it('a symlink out of the repository with a rejected verdict: rejected, the agent told to remove it', () => {
    const c = ctx();
    const o = outcomeOf(
      run(c, ...toVerify(c, false), judged({ verdict: failing, removedLinks: ['tests/data'] })).effects,
    );
    expect(lastRecord(o).outcome).toBe('tests_failed');
    expect(cycleOf(o).lastFailure?.message).toContain('- tests/data: a symbolic link pointing outside the repository');
  });

  it('a finding on a suite that cannot run: rejected with the finding (the finding is the cause to fix), not a bounce', () => {
    const c = ctx();
    const v = verdict({ kind: 'cannot_run', summary: 'no tests were collected' });
    const o = outcomeOf(run(c, ...toVerify(c, false), judged({ verdict: v, findings: [config] })).effects);
    expect(lastRecord(o).outcome).toBe('tests_failed');
    expect(cycleOf(o).lastFailure?.message).toContain('.agent-loop.yml (config-changed)');
  });

  it('findings and failing tests again and again: the retries run out and the cycle escalates (its work kept as wip:, never merged)', () => {
    const c = ctx({ before: before({}, { progress: { ...initialProgress(), retries: { verify: 2 } } }) });
    const o = outcomeOf(run(c, ...toVerify(c, true), judged({ verdict: failing, findings: [xfail] })).effects);
    expect(o.escalate?.bounceLoop).toBe(false);
    expect(o.cycleDone).toBeUndefined();
  });

  it('no findings: the verdict as the tests gave it (accepted)', () => {
    const c = ctx();
    const o = outcomeOf(run(c, ...toVerify(c, false), judged({ findings: [], removedLinks: [] })).effects);
    expect(lastRecord(o).outcome).toBe('complete');
  });

  it('a finding and no evidence: held as tests-changed, the missing evidence said too', () => {
    const c = ctx();
    const o = outcomeOf(
      run(c, ...toVerify(c, false), judged({ findings: [xfail], unverified: 'no test failed before and passes now' }))
        .effects,
    );
    expect(o.held?.reason).toBe('tests-changed');
    expect(o.held?.why).toContain('and no test failed before and passes now');
  });
});

describe('issue 42: accepted work without evidence (unverified)', () => {
  const toVerify = (c: IterationContext) => [agentRan(c, ok({ report: done })), closedRead(false)];
  const why = 'the issue names no test, and no test that failed on the base passes now';

  it('is held for a person (unverified): not closed, labelled, never merged', () => {
    const c = ctx({ before: before({}, { issueIds: ['a-1'], titles: ['A'], branch: 'agent-loop/a-1' }) });
    const s = run(c, ...toVerify(c), judged({ unverified: why }));
    expect(kinds(s.effects)).toEqual(['log:cycle.held', 'finish']);
    const o = outcomeOf(s.effects);
    expect(o.cycleDone).toBe(true);
    expect(o.held).toEqual({ reason: 'unverified', why });
    expect(o.issueActions).toEqual([
      { kind: 'markHeld', id: 'a-1', label: 'agent-loop:unverified', note: expect.stringContaining(why) },
    ]);
    expect(o.state.issuesClosed).toEqual([]);
    expect(o.state.issuesHeld).toEqual([{ id: 'a-1', reason: 'unverified' }]);
    expect(lastRecord(o).outcome).toBe('held');
  });

  it('lands as today with --accept-unverified', () => {
    const c = ctx({}, { acceptUnverified: true });
    const o = outcomeOf(run(c, ...toVerify(c), judged({ unverified: why })).effects);
    expect(o.held).toBeUndefined();
    expect(lastRecord(o).outcome).toBe('complete');
    expect(o.state.issuesClosed).toEqual(['a-1']);
  });

  it('a rejected verdict stays a rejection (retried), whatever the evidence', () => {
    const c = ctx();
    const v = verdict({ kind: 'rejected', summary: '1 failed', broken: [{ id: 't/a > x', message: 'boom' }] });
    const o = outcomeOf(run(c, ...toVerify(c), judged({ verdict: v, unverified: why })).effects);
    expect(o.held).toBeUndefined();
    expect(lastRecord(o).outcome).toBe('tests_failed');
  });

  it('nothing changed: already satisfied as before (its own way to a person), not held', () => {
    const c = ctx();
    const o = outcomeOf(run(c, ...toVerify(c), judged({ changed: false, unverified: why })).effects);
    expect(o.held).toBeUndefined();
    expect(o.noChange).toBe(true);
  });

  it('results counted and not read one by one (src/verdict/unverified.ts): held as unverified with the counts; --accept-unverified lands it, one rule', () => {
    const unread =
      'the runner counted 3 test result(s) in its summary and agent-loop read 2 of them one by one: the 1 it could not read are not judged';
    const c = ctx({ before: before({}, { issueIds: ['a-1'], titles: ['A'], branch: 'agent-loop/a-1' }) });
    const s = run(c, ...toVerify(c), judged({ unverified: unread }));
    const o = outcomeOf(s.effects);
    expect(o.held).toEqual({ reason: 'unverified', why: unread });
    expect(o.state.issuesClosed).toEqual([]);
    const heldLog = s.effects.find((e) => e.kind === 'log' && e.event === 'cycle.held');
    expect(heldLog).toMatchObject({
      message: expect.stringContaining('but the judge could not verify the work: the runner counted 3'),
    });
    const accepting = ctx({}, { acceptUnverified: true });
    const landed = outcomeOf(run(accepting, ...toVerify(accepting), judged({ unverified: unread })).effects);
    expect(landed.held).toBeUndefined();
    expect(lastRecord(landed).outcome).toBe('complete');
  });

  it('with evidence (no unverified): complete as today', () => {
    const c = ctx();
    const o = outcomeOf(run(c, ...toVerify(c), judged()).effects);
    expect(o.held).toBeUndefined();
    expect(lastRecord(o).outcome).toBe('complete');
  });
});

describe('the protocol', () => {
  const events = (c: IterationContext): IterationEvent[][] => {
    const results = [
      ok(),
      ok({ report: done }),
      ok({ report: report({ requiresContinuation: false, workRemaining: 'x' }) }),
      ok({ report: report({ requiresContinuation: true, workRemaining: 'x', stuckDetected: true }) }),
      failed({ class: 'transient', reason: 'rate_limit', message: 'm', retryAfterMs: 60_000 }),
      failed({ class: 'transient', reason: 'timeout', message: 'm' }),
      failed({ class: 'permanent', reason: 'auth', message: 'm' }),
      failed({ class: 'permanent', reason: 'max_turns', message: 'm' }),
    ];
    const verdicts = [
      verdict(),
      verdict({ kind: 'rejected', summary: 's' }),
      verdict({ kind: 'cannot_run', summary: 's' }),
    ];
    const paths: IterationEvent[][] = [];
    for (const r of results)
      for (const closed of [true, false])
        for (const v of verdicts)
          for (const changed of [true, false])
            paths.push([agentRan(c, r), closedRead(closed), judged({ verdict: v, changed })]);
    return paths;
  };

  const contexts = [
    ctx(),
    ctx({}, { strict: true }),
    ctx({}, { onSuccess: 'pull-request' }),
    ctx({
      before: before(
        { environmentFailures: 1 },
        { progress: { ...initialProgress(), retries: { implement: 2, verify: 2 }, bounces: 2 } },
      ),
    }),
  ];

  it('every step ends in exactly one request or one finish, last; a finished iteration records exactly one history entry', () => {
    let finished = 0;
    for (const c of contexts)
      for (const path of events(c)) {
        let s: { model: IterationModel; effects: IterationEffect[] } = {
          model: { state: c.before, record: record(c.before) },
          effects: [],
        };
        for (const e of path) {
          s = stepIteration(c, s.model, e);
          const asks = s.effects.filter((x) => x.kind !== 'log');
          expect(asks).toHaveLength(1);
          const ask = asks[0] as IterationEffect;
          expect(s.effects.at(-1)).toBe(ask);
          if (ask.kind === 'finish') {
            const o = ask.outcome;
            expect(o.state.history).toHaveLength(c.before.history.length + 1);
            expect(o.state.iteration).toBe(c.before.iteration + 1);
            expect(o.halt === undefined || o.escalate === undefined).toBe(true);
            expect(o.cycleDone === undefined || (o.halt === undefined && o.escalate === undefined)).toBe(true);
            finished++;
            break;
          }
        }
      }
    expect(finished).toBe(contexts.length * 8 * 2 * 3 * 2);
  });
});
