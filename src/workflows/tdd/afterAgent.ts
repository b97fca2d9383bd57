/**
 * The red/green/refactor iteration from the agent's turn on, pure (step.ts dispatches to it): the
 * agent's own failures under the retry policy table (rate limits back off without limit, network
 * timeouts are retried 3 times, anything else is a failed attempt of the phase), the tests against
 * the baseline, and seed 003's decision (decide.ts) carried out: the phase's commit with its note, a
 * retry with the failure as context, a skipped test (reset), a rolled-back refactoring, an abort
 * that halts the run with the error type (its wip: commit noted with the error).
 */
import { noteOf } from './phaseNote.js';
import type { AgentResult } from '../../agents/types.js';
import { type IssueAction, log } from '../../core/events.js';
import type { IterationRecord, LoopState, TddCycle } from '../../core/state.js';
import { afterFailure, agentUnavailable } from '../../loop/turn.js';
import { rfc3339 } from '../../util/clock.js';
import { againstBaseline } from './baseline.js';
import { type PhaseError, type TestsSeen, TDD_MAX_RETRIES } from './decide.js';
import {
  type CommitDecision,
  type Ending,
  type TddContext,
  type TddEffect,
  type TddEvent,
  type TddModel,
  type TddStep,
  ask,
  close,
  cycleComplete,
  cycleOf,
  finish,
  n,
  runTestsOf,
  setTdd,
  stateOf,
  tagOf,
} from './model.js';
import { markTest, nextPending } from './testList.js';
import { hold, phaseDecision } from './judged.js';
import { judgeBaseOf } from './judgeBase.js';

export function afterAgent(ctx: TddContext, model: TddModel, e: Extract<TddEvent, { type: 'agentRan' }>): TddStep {
  const { result } = e;
  const m: TddModel = {
    ...model,
    state: { ...e.state, currentCycle: { ...cycleOf(e.state), tdd: model.tdd } },
    record: e.record,
    result,
    startedAt: e.startedAt,
    now: e.now,
  };
  // Moved behind the engine's back: the phase is not judged or committed.
  if (e.moved) return finish(m, [], { state: close(m, stateOf(m), 'repository_moved', 'halt'), halt: e.moved });
  if (result.failure) return afterAgentFailure(ctx, m);
  const state: LoopState = {
    ...stateOf(m),
    successfulIterations: stateOf(m).successfulIterations + 1,
    environmentFailures: 0,
    currentCycle: { ...cycleOf(stateOf(m)), timeoutRetries: 0, rateLimitAttempts: 0 },
  };
  // The tests, and what they say about this phase.
  return ask({ ...m, state }, 'tests', [
    log('info', 'tests.start', `${tagOf(ctx, m)} running the tests: ${ctx.settings.testCommand}`, {
      iteration: n(ctx),
      command: ctx.settings.testCommand,
    }),
    runTestsOf(ctx, m.tdd),
  ]);
}

/** The agent's own failures (seed 003: rate limits, network timeouts; anything else is a failed attempt). */
function afterAgentFailure(ctx: TddContext, m: TddModel): TddStep {
  const result = m.result as AgentResult;
  const failure = result.failure as NonNullable<AgentResult['failure']>;
  const { tdd } = m;
  const tag = tagOf(ctx, m);
  // The same policy table and executor as the implement workflow; seed 003's abort is this workflow's "escalate".
  const counted = afterFailure(stateOf(m), failure);
  const d = counted.decision;
  const effects: TddEffect[] = [
    log(
      failure.class === 'permanent' ? 'error' : 'warn',
      'iteration.failed',
      `${ctx.agentName} iteration ${n(ctx)} failed: ${failure.message} (${failure.class} ${failure.reason})`,
      { iteration: n(ctx), class: failure.class, reason: failure.reason, policy: d.kind },
    ),
  ];
  const state = counted.state;
  const at: TddModel = { ...m, state };
  if (d.exhausted === 'halt')
    return finish(at, effects, {
      state: close(at, state, 'agent_failed', 'halt'),
      halt: agentUnavailable(d.attempts, failure, ctx.settings.terms),
    });
  if (d.kind === 'rate_limit') {
    effects.push(log('warn', 'tdd.rate_limited', `${tag} API_RATE_LIMIT: retry ${d.attempts} after the backoff.`));
    return finish(at, effects, {
      state: close(at, state, 'agent_failed', 'backoff', {
        type: 'API_RATE_LIMIT',
        message: failure.message,
        details: '',
      }),
      waitMs: d.waitMs,
    });
  }
  if (d.kind === 'timeout') {
    const error: PhaseError = {
      type: 'NETWORK_TIMEOUT',
      message: `${failure.message} (${d.attempts} attempts with the same timeout)`,
      details: result.outputTail.slice(-2000),
    };
    if (d.exhausted === 'escalate') return abort(ctx, at, effects, error, d.attempts);
    return finish(at, effects, { state: close(at, state, 'agent_failed', 'retry', error) });
  }
  if (!d.countsTowardStep) return finish(at, effects, { state: close(at, state, 'agent_failed', 'retry') });
  const error: PhaseError = {
    type: 'WORKFLOW_ABORTED',
    message: `the ${tdd.phase} agent failed: ${failure.message}`,
    details: result.outputTail.slice(-2000),
  };
  if (tdd.retries >= TDD_MAX_RETRIES) return abort(ctx, at, effects, error, tdd.retries + 1);
  const retried = setTdd(at, state, { retries: tdd.retries + 1, lastError: error });
  return finish(at, effects, { state: close(at, retried, 'agent_failed', 'retry', error) });
}

export function afterTests(ctx: TddContext, model: TddModel, e: Extract<TddEvent, { type: 'testsRan' }>): TddStep {
  const { tests } = e;
  const record: IterationRecord = {
    ...(model.record as IterationRecord),
    tests: { passed: tests.passed, exitCode: tests.exitCode, durationMs: Math.round(tests.durationMs) },
  };
  const s = stateOf(model);
  // Judged against the cycle's baseline when both runs are read per test: only new failures count (issue 12).
  // From GREEN on, the test RED wrote must run and pass: marked xfail or skipped, or deleted, it does not.
  const targets = model.tdd.phase === 'RED' ? [] : model.tdd.targetTests;
  const seen = againstBaseline(e.seen, tests.run, ctx.baseline, targets);
  // RED's failing run is the phase's aim, not a test failure: only a run that should pass counts, and
  // only for a failure that was not there before the cycle (the exit code alone says nothing of that).
  const failed = !seen.passed && model.tdd.phase !== 'RED';
  const state: LoopState = {
    ...s,
    testsPassed: seen.passed,
    ...(failed ? { testFailures: s.testFailures + 1 } : {}),
    ...(seen.preexisting ? { preexistingFailures: seen.preexisting } : {}),
  };
  const found =
    e.findings?.length || e.removedLinks?.length
      ? { findings: e.findings ?? [], removedLinks: e.removedLinks ?? [] }
      : undefined;
  const m: TddModel = { ...model, record, state, seen, now: e.now, ...(found ? { found } : {}) };
  const base = m.tdd.phaseBase;
  if (ctx.git && base) return ask(m, 'changed', [{ kind: 'readWork', since: base }]);
  return apply(ctx, m, true);
}

/** Seed 003's decision on the phase's attempt, carried out. */
export function apply(ctx: TddContext, m: TddModel, changed: boolean): TddStep {
  const { tdd, test } = m;
  const tag = tagOf(ctx, m);
  const state = stateOf(m);
  const base = ctx.git ? tdd.phaseBase : undefined;
  const d = phaseDecision(ctx, m, changed);
  switch (d.kind) {
    case 'hold':
      return hold(ctx, m, d.held);
    case 'retry': {
      const retried = setTdd(m, state, { retries: tdd.retries + 1, lastError: d.error });
      return finish(
        m,
        [
          log(
            'warn',
            'tdd.retry',
            `${tag} ${d.error.type}: ${d.error.message}; the agent tries again with the failures.`,
            {
              iteration: n(ctx),
              type: d.error.type,
            },
          ),
        ],
        { state: close(m, retried, 'tests_failed', 'retry', d.error) },
      );
    }
    case 'abort':
      return abort(ctx, m, [], d.error, tdd.retries + 1);
    case 'skip':
      return advance(
        ctx,
        m,
        [
          ...(base ? [{ kind: 'reset', to: base } as const] : []),
          log(
            'warn',
            'tdd.skipped',
            `${tag} ${d.error.type}: ${d.error.message}; "${test}" is marked ${d.mark} and skipped.`,
            {
              iteration: n(ctx),
              type: d.error.type,
            },
          ),
        ],
        markTest(tdd.tests, tdd.index, d.mark),
        'skip',
        d.error,
      );
    case 'rollback': {
      const note = noteOf(tdd, test, 'REFACTOR', 'RED', 'PASS', {
        ...d.error,
        retry_count: tdd.retries + 1,
        timestamp: rfc3339(new Date(m.now as number)),
      });
      if (base)
        return ask({ ...m, ending: { kind: 'rollback', decision: d, note } }, 'committed', [
          { kind: 'reset', to: base },
          { kind: 'commit', message: d.message },
          { kind: 'readHead' },
        ]);
      return end(ctx, { ...m, ending: { kind: 'rollback', decision: d, note } }, [], undefined);
    }
    case 'commit': {
      if (tdd.phase === 'RED' && base)
        return ask({ ...m, decision: d }, 'testFile', [{ kind: 'readChangedFiles', since: base }]);
      return commitPhase(ctx, m, d, tdd.phase === 'RED' ? '' : tdd.testFile);
    }
  }
}

/** The phase's commit and its note; RED's names the test file and the tests it left failing. */
export function commitPhase(ctx: TddContext, m: TddModel, decision: CommitDecision, testFile: string): TddStep {
  const { tdd, test } = m;
  const targetTests = tdd.phase === 'RED' ? (m.seen as TestsSeen).failing : tdd.targetTests;
  const note = noteOf(
    { ...tdd, testFile },
    test,
    tdd.phase,
    decision.next === 'next-test' ? 'RED' : decision.next,
    decision.testResult,
  );
  const at: TddModel = { ...m, ending: { kind: 'commit', decision, testFile, targetTests, note } };
  if (ctx.git) return ask(at, 'committed', [{ kind: 'commit', message: decision.message }, { kind: 'readHead' }]);
  return end(ctx, at, [], undefined);
}

/** The phase's end once its commit (if any) is made and noted. */
export function end(ctx: TddContext, m: TddModel, effects: TddEffect[], commit: string | undefined): TddStep {
  const ending = m.ending as Ending;
  const { tdd } = m;
  const tag = tagOf(ctx, m);
  switch (ending.kind) {
    case 'abort': {
      const { error, tddError } = ending;
      const aborted = commit ? wipCommitted(ctx, m, commit) : stateOf(m);
      return finish(
        m,
        [
          ...effects,
          log(
            'error',
            'tdd.aborted',
            `${tag} ${error.type}: ${error.message}. Commits and notes are kept for inspection.`,
            {
              iteration: n(ctx),
              type: error.type,
              phase: tdd.phase,
            },
          ),
        ],
        {
          state: close(m, { ...aborted, tddError }, 'stuck', 'abort', error),
          halt: {
            reason: 'workflow_aborted',
            message: `TDD WORKFLOW ABORTED (${error.type}) at ${tdd.phase} for "${m.test}": ${error.message}`,
          },
        },
      );
    }
    case 'rollback': {
      const d = ending.decision;
      return advance(
        ctx,
        m,
        [
          ...effects,
          log(
            'warn',
            'tdd.rolled_back',
            `${tag} ${d.error.message}: the refactoring is rolled back to ${tdd.phaseBase?.slice(0, 12)}; committed "${d.message}".`,
            { iteration: n(ctx) },
          ),
        ],
        markTest(tdd.tests, tdd.index, 'done'),
        'rollback',
        d.error,
        commit,
      );
    }
    case 'commit': {
      const { decision: d, testFile, targetTests } = ending;
      const logged: TddEffect[] = [
        ...effects,
        log(
          'info',
          'tdd.committed',
          `${tag} ${d.message}${commit ? ` (${commit.slice(0, 12)})` : ''}; next: ${d.next === 'next-test' ? 'the next test' : d.next}.`,
          { iteration: n(ctx), phase: tdd.phase, commit },
        ),
      ];
      if (d.next === 'next-test')
        return advance(ctx, m, logged, markTest(tdd.tests, tdd.index, 'done'), 'commit', undefined, commit);
      const state = setTdd(m, stateOf(m), {
        phase: d.next,
        retries: 0,
        phaseBase: undefined,
        lastError: undefined,
        targetTests,
        testFile,
        // The commit the judge passed: the next phase is judged by its tests (issue 42).
        ...(commit ? { lastCommit: commit, judgeBase: undefined } : {}),
      });
      return finish(m, logged, { state: close(m, state, 'continuing', 'commit') });
    }
  }
}

/** The state with an abort's wip: commit as the last commit; not judged, later phases are judged by the commit before it (issue 42). */
function wipCommitted(ctx: TddContext, m: TddModel, commit: string): LoopState {
  const judgedBy = judgeBaseOf(m.tdd, cycleOf(ctx.before).baseTip);
  return setTdd(m, stateOf(m), { lastCommit: commit, ...(judgedBy ? { judgeBase: judgedBy } : {}) });
}

/**
 * Seed 003's abort: the run halts with the error type. The failed attempt is kept as a wip: commit
 * of the cycle's branch, carrying the error's note (never a note on the base branch's commit, where
 * the next issue's cycle would find it).
 */
function abort(ctx: TddContext, m: TddModel, effects: TddEffect[], error: PhaseError, attempts: number): TddStep {
  const { tdd, test } = m;
  const tddError = { ...error, retry_count: attempts, timestamp: rfc3339(new Date(m.now as number)) };
  const at: TddModel = {
    ...m,
    ending: { kind: 'abort', error, tddError, note: noteOf(tdd, test, tdd.phase, tdd.phase, 'FAIL', tddError) },
  };
  if (ctx.git)
    return ask(at, 'committed', [
      ...effects,
      { kind: 'commit', message: `wip: ${tdd.phase} aborted (${error.type}): ${test}`.slice(0, 120) },
      { kind: 'readHead' },
    ]);
  return end(ctx, at, effects, undefined);
}

/** On to the next pending test (RED of the next round), or the cycle is done. */
function advance(
  ctx: TddContext,
  m: TddModel,
  effects: TddEffect[],
  tests: TddCycle['tests'],
  decision: string,
  error?: PhaseError,
  commit?: string,
): TddStep {
  const { tdd } = m;
  const next = nextPending(tests);
  const state = setTdd(m, stateOf(m), {
    tests,
    index: next === -1 ? tdd.index : next,
    phase: 'RED',
    round: tdd.round + 1,
    retries: 0,
    phaseBase: undefined,
    lastError: undefined,
    targetTests: [],
    testFile: '',
    ...(commit ? { lastCommit: commit, judgeBase: undefined } : {}),
  });
  // The test's red/green/refactor is done: its box in the issue's checklist is ticked (the list is the
  // issue's, not --plan's). With the cycle's last test, before the issue closes, with the work.
  const ticks: IssueAction[] =
    tests[tdd.index]?.status === 'done' && ctx.settings.plan === undefined
      ? [{ kind: 'tick', id: cycleOf(ctx.before).issueIds[0] ?? '', item: tests[tdd.index]?.description ?? '' }]
      : [];
  if (next !== -1)
    return finish(m, effects, {
      state: close(m, state, 'continuing', decision, error),
      ...(ticks.length ? { issueActions: ticks } : {}),
    });
  const done = cycleComplete(ctx, state);
  return finish(m, [...effects, ...done.effects], {
    ...done.outcome,
    state: close(m, done.outcome.state, 'complete', decision, error),
    issueActions: [...ticks, ...(done.outcome.issueActions ?? [])],
  });
}
