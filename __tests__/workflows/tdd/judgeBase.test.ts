/**
 * Issue 42: where --workflow tdd's test runs are judged (src/workflows/tdd/judgeBase.ts), what the
 * judge's findings make of a phase, and the tdd iteration (src/workflows/tdd/step.ts) carrying it
 * out: the judge tree asked for with the test run, a finding retried with what to restore, GREEN's
 * passing work that changed a protected path held for a person, and the commit later phases are
 * judged by. Pure: no git, no agent, no test run.
 */
import { describe, expect, it } from '@jest/globals';
import type { IterationOutcome } from '../../../src/core/events.js';
import { type CycleState, type LoopState, type TddCycle, initialLoopState } from '../../../src/core/state.js';
import type { Finding } from '../../../src/judge/protectedPaths.js';
import { type PhaseDecision, TDD_MAX_RETRIES, type TestsSeen } from '../../../src/workflows/tdd/decide.js';
import { judgeBaseOf, treeJudge, withFindings } from '../../../src/workflows/tdd/judgeBase.js';
import { resumeFromNote } from '../../../src/workflows/tdd/resume.js';
import {
  type TddContext,
  type TddEffect,
  type TddEvent,
  type TddModel,
  initialTddModel,
  stepTdd,
} from '../../../src/workflows/tdd/step.js';
import { cycle, ok, turnRecord } from '../../core/fixtures.js';

const T0 = Date.parse('2026-11-25T10:00:00Z');
const TEST = 'adds two numbers';
const EDITED: Finding = {
  path: 'tests/test_add.py',
  kind: 'test-changed',
  detail: 'test_add: its body changed',
};
const CONFTEST: Finding = {
  path: 'tests/conftest.py',
  kind: 'infrastructure-added',
  detail: "pytest's conftest.py (hooks, fixtures and plugins for every test under it)",
};

const commitDecision: PhaseDecision = { kind: 'commit', message: 'feat: x', next: 'REFACTOR', testResult: 'PASS' };
const stillFails: PhaseDecision = {
  kind: 'retry',
  error: {
    type: 'TEST_UNEXPECTED_FAIL',
    message: 'The test for "x" still fails (attempt 1 of 6)',
    details: 'FAILED t',
  },
};

describe('treeJudge: where a phase is judged', () => {
  const cyc = { git: true, baseTip: 'base0', issueBody: 'mul() multiplies' };

  it("RED before any phase commit: a tree of the cycle's base, the agent's added tests run (they are the phase's aim)", () => {
    expect(treeJudge({ phase: 'RED' }, cyc)).toEqual({ base: 'base0', addedTests: 'run', allowed: [] });
  });

  it("GREEN and REFACTOR: a tree of the last phase commit (RED's), the agent's added tests left out", () => {
    expect(treeJudge({ phase: 'GREEN', lastCommit: 'red1' }, cyc)).toEqual({
      base: 'red1',
      addedTests: 'leftOut',
      allowed: [],
    });
    expect(treeJudge({ phase: 'REFACTOR', lastCommit: 'green1' }, cyc)?.base).toBe('green1');
  });

  it("after an abort's wip: commit, the commit before it still judges", () => {
    expect(treeJudge({ phase: 'GREEN', lastCommit: 'wip1', judgeBase: 'red1' }, cyc)?.base).toBe('red1');
    expect(judgeBaseOf({ lastCommit: 'wip1', judgeBase: 'red1' }, 'base0')).toBe('red1');
    expect(judgeBaseOf({}, 'base0')).toBe('base0');
  });

  it("the issue's allowed: paths travel with it", () => {
    const body = 'mul\n\n```agent-loop\nallowed: [tests/fixtures/**]\n```\n';
    expect(treeJudge({ phase: 'GREEN', lastCommit: 'red1' }, { ...cyc, issueBody: body })?.allowed).toEqual([
      'tests/fixtures/**',
    ]);
  });

  it('without git, or with no commit to judge by: none (the tests run where they are)', () => {
    expect(treeJudge({ phase: 'RED' }, { ...cyc, git: false })).toBeUndefined();
    expect(treeJudge({ phase: 'RED' }, { git: true, issueBody: '' })).toBeUndefined();
  });
});

describe('withFindings: a change to a protected path is no pass', () => {
  const found = (...findings: Finding[]) => ({ findings, removedLinks: [] });
  const o = (phase: TddCycle['phase'], retries: number, f = found(EDITED)) => ({
    phase,
    retries,
    found: f,
    testsSummary: '1 failing test(s)',
  });

  it('no finding: the decision stands', () => {
    expect(withFindings(commitDecision, o('GREEN', 0, found()))).toBe(commitDecision);
    expect(withFindings(stillFails, { ...o('GREEN', 0), found: undefined })).toBe(stillFails);
  });

  it("GREEN's or REFACTOR's tests pass with the paths as the judge base has them: held for a person (tests-changed)", () => {
    const held = withFindings(commitDecision, o('GREEN', 0));
    expect(held).toEqual({
      kind: 'hold',
      held: {
        reason: 'tests-changed',
        why: expect.stringContaining('it changed 1 path(s) the maintainer owns (tests/test_add.py (test-changed))'),
        paths: ['tests/test_add.py'],
      },
    });
    expect(withFindings({ ...commitDecision, next: 'next-test' }, o('REFACTOR', 3)).kind).toBe('hold');
  });

  it('a symlink leaving the repository counts as a finding', () => {
    const d = withFindings(commitDecision, { ...o('GREEN', 0), found: { findings: [], removedLinks: ['tests/x'] } });
    expect(d).toMatchObject({ kind: 'hold', held: { paths: ['tests/x'] } });
  });

  it('failing tests beside a finding: retried as TESTS_CHANGED, the agent told what to restore and what still fails', () => {
    const d = withFindings(stillFails, o('GREEN', 1, found(EDITED, CONFTEST)));
    expect(d.kind).toBe('retry');
    const error = (d as Extract<PhaseDecision, { kind: 'retry' }>).error;
    expect(error.type).toBe('TESTS_CHANGED');
    expect(error.message).toBe(
      'The agent changed 2 path(s) the maintainer owns (tests/test_add.py (test-changed), tests/conftest.py (infrastructure-added)): ' +
        'the work is not accepted while they differ from the base (attempt 2 of 6); and the test for "x" still fails (attempt 1 of 6)',
    );
    expect(error.details).toContain(
      '- tests/test_add.py (test-changed: test_add: its body changed): restore it as it was.',
    );
    expect(error.details).toContain('- tests/conftest.py (infrastructure-added: ');
    expect(error.details).toContain('): remove it.');
    expect(error.details).toMatch(/FAILED t$/);
  });

  it("RED's new failing test beside a finding (an existing test changed): retried, never committed; aborted with TESTS_CHANGED once the attempts are spent", () => {
    const red: PhaseDecision = { kind: 'commit', message: 'test: x', next: 'GREEN', testResult: 'FAIL' };
    expect(withFindings(red, o('RED', 0))).toMatchObject({ kind: 'retry', error: { type: 'TESTS_CHANGED' } });
    const spent = withFindings(red, o('RED', TDD_MAX_RETRIES));
    expect(spent).toMatchObject({ kind: 'abort', error: { type: 'TESTS_CHANGED' } });
    expect((spent as Extract<PhaseDecision, { kind: 'abort' }>).error.message).toMatch(
      /^The RED work still changes what the maintainer owns after 6 attempts: the agent changed 1 path/,
    );
  });

  it("once the attempts are spent any other decision stands: GREEN's abort, REFACTOR's rollback, RED's skip (both reset the paths)", () => {
    const abort: PhaseDecision = { kind: 'abort', error: { type: 'IMPLEMENTATION_FAILED', message: 'm', details: '' } };
    const rollback: PhaseDecision = {
      kind: 'rollback',
      message: 'r',
      error: { type: 'REGRESSION', message: 'm', details: '' },
    };
    const skip: PhaseDecision = {
      kind: 'skip',
      mark: 'problematic',
      error: { type: 'TEST_UNEXPECTED_PASS', message: 'm', details: '' },
    };
    expect(withFindings(abort, o('GREEN', TDD_MAX_RETRIES))).toBe(abort);
    expect(withFindings(rollback, o('REFACTOR', TDD_MAX_RETRIES))).toBe(rollback);
    expect(withFindings(skip, o('RED', TDD_MAX_RETRIES))).toBe(skip);
    // With attempts left, RED's skip (its test passes because the judge put back the test it changed) is a retry.
    expect(withFindings(skip, o('RED', 0)).kind).toBe('retry');
  });
});

// ------------------------------------------------------------------------------------------------
// The iteration carrying it out.

const tddOf = (over: Partial<TddCycle> = {}): TddCycle => ({
  tests: [
    { description: TEST, status: 'pending' },
    { description: 'subtracts', status: 'pending' },
  ],
  index: 0,
  phase: 'GREEN',
  round: 1,
  retries: 0,
  targetTests: ['tests/test_add.py::test_add'],
  testFile: 'tests/test_add.py',
  lastCommit: 'red1',
  phaseBase: 'red1',
  ...over,
});

function ctxOf(tdd: TddCycle): TddContext {
  const before: LoopState = {
    ...initialLoopState(10),
    baseBranch: 'main',
    currentCycle: cycle(['bd-1'], { tdd, baseTip: 'base0', branch: 'agent-loop/bd-1' }),
  };
  return {
    settings: { maxIterations: 10, maxRetriesPerStep: 2, testCommand: 'pytest', onSuccess: 'merge' },
    agentName: 'Claude Code',
    before,
    issue: { id: 'bd-1', title: 'Calculator', body: `- [ ] ${TEST}\n- [ ] subtracts`, labels: [] },
    git: true,
  };
}

const passing: TestsSeen = { passed: true, failing: [], compileError: false, summary: 'all pass' };
const failingTarget: TestsSeen = {
  passed: false,
  failing: ['tests/test_add.py::test_add'],
  compileError: false,
  summary: 'FAILED tests/test_add.py::test_add - assert 0 == 5',
};

/** From the agent's turn (the phase's base known) to the answer of its test run. */
function afterTurn(c: TddContext): { model: TddModel; effects: TddEffect[] } {
  let model = initialTddModel(c);
  model = { ...model, stage: 'agent', tdd: c.before.currentCycle?.tdd as TddCycle };
  const state = c.before;
  const cyc = state.currentCycle as CycleState;
  return stepTdd(c, model, {
    type: 'agentRan',
    result: ok(),
    state: { ...state, iteration: 1, currentCycle: { ...cyc, iterations: 1 } },
    record: turnRecord(state, T0),
    startedAt: T0,
    now: T0 + 1000,
  });
}

/** The test run answered (with `findings`), then every later request, until the iteration finishes. */
function finishWith(c: TddContext, seen: TestsSeen, findings: Finding[]) {
  let { model } = afterTurn(c);
  let event: TddEvent = {
    type: 'testsRan',
    tests: { passed: seen.passed, exitCode: seen.passed ? 0 : 1, durationMs: 10, tail: seen.summary },
    seen,
    ...(findings.length ? { findings } : {}),
    now: T0 + 2000,
  };
  const effects: TddEffect[] = [];
  for (let i = 0; i < 20; i++) {
    const step = stepTdd(c, model, event);
    model = step.model;
    effects.push(...step.effects);
    const last = step.effects.at(-1) as TddEffect;
    if (last.kind === 'finish') return { effects, outcome: last.outcome };
    if (last.kind === 'readWork') event = { type: 'workRead', changed: true };
    else if (last.kind === 'readHead') event = { type: 'headRead', head: `c${i}` };
    else if (last.kind === 'writeNote') event = { type: 'noteWritten', now: T0 + 3000 };
    else if (last.kind === 'readChangedFiles') event = { type: 'filesRead', files: ['tests/test_add.py'] };
    else throw new Error(`unexpected ${last.kind}`);
  }
  throw new Error('the iteration never finished');
}

const tddIn = (o: IterationOutcome) => (o.state.currentCycle as CycleState).tdd as TddCycle;

describe('the tdd iteration judged in a judge tree', () => {
  it("the phase's test run asks for its judge: RED on the cycle's base with the added tests, GREEN on RED's commit without", () => {
    const red = afterTurn(ctxOf(tddOf({ phase: 'RED', lastCommit: undefined, targetTests: [], testFile: '' })));
    expect(red.effects.at(-1)).toEqual({
      kind: 'runTests',
      judge: { base: 'base0', addedTests: 'run', allowed: [] },
    });
    const green = afterTurn(ctxOf(tddOf()));
    expect(green.effects.at(-1)).toEqual({
      kind: 'runTests',
      judge: { base: 'red1', addedTests: 'leftOut', allowed: [] },
    });
    const noGit = afterTurn({ ...ctxOf(tddOf()), git: false });
    expect(noGit.effects.at(-1)).toEqual({ kind: 'runTests' });
  });

  it("GREEN whose tests pass only on the judge tree's paths fail: retried with TESTS_CHANGED and what to restore; nothing committed", () => {
    const { effects, outcome } = finishWith(ctxOf(tddOf()), failingTarget, [EDITED]);
    expect(effects.some((e) => e.kind === 'commit')).toBe(false);
    expect(outcome.cycleDone).toBeUndefined();
    expect(tddIn(outcome)).toMatchObject({ phase: 'GREEN', retries: 1, lastError: { type: 'TESTS_CHANGED' } });
    expect(tddIn(outcome).lastError?.details).toContain('restore it as it was');
    expect(outcome.state.history.at(-1)).toMatchObject({
      outcome: 'tests_failed',
      tdd: { phase: 'GREEN', decision: 'retry', error: 'TESTS_CHANGED' },
    });
  });

  it('GREEN passing on the judge tree but with a finding: held for a person (tests-changed) — no commit, the issue labelled, never closed', () => {
    const { effects, outcome } = finishWith(ctxOf(tddOf()), passing, [EDITED]);
    expect(effects.some((e) => e.kind === 'commit' || e.kind === 'writeNote')).toBe(false);
    expect(outcome).toMatchObject({
      cycleDone: true,
      held: { reason: 'tests-changed', paths: ['tests/test_add.py'] },
    });
    expect(outcome.issueActions).toEqual([
      {
        kind: 'markHeld',
        id: 'bd-1',
        label: 'agent-loop:tests-changed',
        note: expect.stringContaining('`agent-loop/bd-1`'),
      },
    ]);
    expect(outcome.state.issuesHeld).toEqual([{ id: 'bd-1', reason: 'tests-changed' }]);
    expect(outcome.state.issuesClosed).toEqual([]);
    expect(outcome.state.history.at(-1)).toMatchObject({ outcome: 'held', tdd: { phase: 'GREEN', decision: 'hold' } });
    const said = effects.find((e) => e.kind === 'log' && e.event === 'cycle.held');
    expect(said).toMatchObject({ level: 'warn' });
    expect((said as { message: string }).message).toMatch(
      /bd-1 held for a person \(agent-loop:tests-changed\): the phase's tests pass, but it changed 1 path\(s\)/,
    );
  });

  it('a phase commit is what later phases are judged by; an abort keeps the commit before its wip: commit', () => {
    const committed = finishWith(ctxOf(tddOf({ judgeBase: 'red0' })), passing, []);
    expect(tddIn(committed.outcome)).toMatchObject({ phase: 'REFACTOR', lastCommit: 'c1' });
    expect(tddIn(committed.outcome).judgeBase).toBeUndefined();
    const aborted = finishWith(ctxOf(tddOf({ retries: TDD_MAX_RETRIES })), failingTarget, []);
    expect(aborted.outcome.halt?.reason).toBe('workflow_aborted');
    expect(tddIn(aborted.outcome)).toMatchObject({ lastCommit: 'c1', judgeBase: 'red1' });
  });

  it("resumed from a note: a phase commit's clears the judge base, an abort's keeps the commit before it", () => {
    const note = {
      phase: 'RED' as const,
      next_phase: 'GREEN' as const,
      cycle: 1,
      current_test: { description: TEST, test_file: 't' },
      test_result: 'FAIL' as const,
    };
    expect(resumeFromNote(tddOf({ phase: 'RED', lastCommit: 'r0' }), { commit: 'red2', note }, 'base0')).toMatchObject({
      lastCommit: 'red2',
      judgeBase: undefined,
    });
    const abortNote = {
      ...note,
      phase: 'GREEN' as const,
      error: {
        type: 'TESTS_CHANGED' as const,
        message: 'm',
        details: '',
        retry_count: 6,
        timestamp: '2026-11-25T10:00:00Z',
      },
    };
    expect(resumeFromNote(tddOf(), { commit: 'wip9', note: abortNote }, 'base0')).toMatchObject({
      lastCommit: 'wip9',
      judgeBase: 'red1',
    });
    expect(
      resumeFromNote(tddOf({ lastCommit: undefined }), { commit: 'wip9', note: abortNote }, 'base0')?.judgeBase,
    ).toBe('base0');
  });
});
