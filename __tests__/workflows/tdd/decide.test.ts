/** Seed 003's summary table, row by row, on the pure decision function; the test list; the prompts. */
import { describe, expect, it } from '@jest/globals';
import {
  ROLLBACK_MESSAGE,
  TDD_FAILURE_TABLE,
  TDD_MAX_RETRIES,
  type PhaseObservation,
  decidePhase,
  phaseStart,
} from '../../../src/workflows/tdd/decide.js';
import { TDD_ERROR_TYPES } from '../../../src/workflows/tdd/notes.js';
import { DEFAULT_TEMPLATES, failureSection, renderPrompt } from '../../../src/workflows/tdd/prompts.js';
import { markTest, nextPending, parseTestList, renderTestList } from '../../../src/workflows/tdd/testList.js';

const failing = (...names: string[]) => ({
  passed: false,
  failing: names,
  compileError: false,
  summary: `${names.length} failing`,
});
const green = { passed: true, failing: [], compileError: false, summary: 'No failing tests.' };
const compileError = { passed: false, failing: [], compileError: true, summary: 'SyntaxError: Unexpected token' };
const observe = (over: Partial<PhaseObservation>): PhaseObservation => ({
  phase: 'RED',
  description: 'adds two numbers',
  changed: true,
  reportedDuplicate: false,
  tests: failing('calc › adds'),
  targetTests: [],
  retries: 0,
  ...over,
});

describe('seed 003 summary table', () => {
  it("lists every row with the seed's limits, and only the seed's error types", () => {
    expect(TDD_FAILURE_TABLE.map((r) => [r.scenario, r.maxRetries, r.onExhaustion])).toEqual([
      ['Non-compiling test', 5, 'Abort'],
      ['Test passes immediately', null, 'Continue'],
      ['Duplicate test', null, 'Continue'],
      ["Can't make test pass", null, 'Manual intervention'],
      ['Implementation breaks tests', 5, 'Abort'],
      ['Refactoring breaks tests', 5, 'Rollback & continue'],
      ['API rate limit', null, '—'],
      ['Network timeout', 3, 'Abort'],
    ]);
    for (const row of TDD_FAILURE_TABLE) expect(TDD_ERROR_TYPES).toContain(row.error);
  });

  it('RED: a failing new test is committed and GREEN comes next', () => {
    expect(decidePhase(observe({}))).toEqual({
      kind: 'commit',
      message: 'test: adds two numbers',
      next: 'GREEN',
      testResult: 'FAIL',
    });
  });

  it('non-compiling test: retried with the compiler error 5 times (6 attempts), then abort with COMPILATION_ERROR', () => {
    const d = decidePhase(observe({ tests: compileError, retries: 0 }));
    expect(d).toMatchObject({
      kind: 'retry',
      error: { type: 'COMPILATION_ERROR', details: 'SyntaxError: Unexpected token' },
    });
    expect(decidePhase(observe({ tests: compileError, retries: TDD_MAX_RETRIES - 1 })).kind).toBe('retry');
    expect(decidePhase(observe({ tests: compileError, retries: TDD_MAX_RETRIES }))).toMatchObject({
      kind: 'abort',
      error: { type: 'COMPILATION_ERROR', message: 'The new test still does not compile after 6 attempts' },
    });
  });

  it('test passes immediately: skipped and marked problematic (TEST_UNEXPECTED_PASS), whatever the retries', () => {
    expect(decidePhase(observe({ tests: green }))).toMatchObject({
      kind: 'skip',
      mark: 'problematic',
      error: { type: 'TEST_UNEXPECTED_PASS' },
    });
  });

  it('duplicate test: nothing written, or the agent says so: skipped (DUPLICATE_TEST)', () => {
    expect(decidePhase(observe({ changed: false }))).toMatchObject({
      kind: 'skip',
      mark: 'duplicate',
      error: { type: 'DUPLICATE_TEST' },
    });
    expect(decidePhase(observe({ reportedDuplicate: true, tests: green }))).toMatchObject({
      kind: 'skip',
      mark: 'duplicate',
      error: { type: 'DUPLICATE_TEST' },
    });
  });

  it('GREEN: all tests pass → committed, REFACTOR next', () => {
    expect(decidePhase(observe({ phase: 'GREEN', tests: green, targetTests: ['calc › adds'] }))).toEqual({
      kind: 'commit',
      message: 'feat: adds two numbers',
      next: 'REFACTOR',
      testResult: 'PASS',
    });
  });

  it("can't make the test pass: retried while attempts remain, then abort with IMPLEMENTATION_FAILED", () => {
    const still = { phase: 'GREEN' as const, tests: failing('calc › adds'), targetTests: ['calc › adds'] };
    expect(decidePhase(observe({ ...still, retries: 2 }))).toMatchObject({
      kind: 'retry',
      error: { type: 'TEST_UNEXPECTED_FAIL' },
    });
    expect(decidePhase(observe({ ...still, retries: TDD_MAX_RETRIES }))).toMatchObject({
      kind: 'abort',
      error: { type: 'IMPLEMENTATION_FAILED', message: 'Could not make test pass after 6 attempts' },
    });
  });

  it('implementation breaks tests: retried with the broken tests named, then abort with REGRESSION', () => {
    const broken = { phase: 'GREEN' as const, tests: failing('calc › subtracts'), targetTests: ['calc › adds'] };
    expect(decidePhase(observe(broken))).toMatchObject({
      kind: 'retry',
      error: { type: 'REGRESSION', message: 'The implementation breaks 1 test(s) that passed: calc › subtracts' },
    });
    expect(decidePhase(observe({ ...broken, retries: TDD_MAX_RETRIES }))).toMatchObject({
      kind: 'abort',
      error: { type: 'REGRESSION' },
    });
  });

  it('REFACTOR: green → committed (or "no changes"), then the next test', () => {
    expect(decidePhase(observe({ phase: 'REFACTOR', tests: green }))).toEqual({
      kind: 'commit',
      message: 'refactor: adds two numbers',
      next: 'next-test',
      testResult: 'PASS',
    });
    expect(decidePhase(observe({ phase: 'REFACTOR', tests: green, changed: false }))).toMatchObject({
      kind: 'commit',
      message: 'refactor: no changes',
    });
  });

  it('refactoring breaks tests: retried with the failures 5 times, then rolled back with "refactor: no changes (tests would break)"', () => {
    const broken = { phase: 'REFACTOR' as const, tests: failing('calc › adds') };
    expect(decidePhase(observe(broken))).toMatchObject({ kind: 'retry', error: { type: 'REGRESSION' } });
    expect(decidePhase(observe({ ...broken, retries: TDD_MAX_RETRIES }))).toMatchObject({
      kind: 'rollback',
      message: ROLLBACK_MESSAGE,
      error: { type: 'REGRESSION' },
    });
    expect(ROLLBACK_MESSAGE).toBe('refactor: no changes (tests would break)');
  });
});

describe("a phase's precondition at its start (issue 12)", () => {
  const seen = (passed: boolean, failing: string[] = [], compileError = false) => ({
    passed,
    failing,
    compileError,
    summary: failing.join('\n'),
  });

  it('GREEN may start while a target fails (or, with no target known, anything fails; or it does not compile); else back to RED', () => {
    expect(phaseStart('GREEN', seen(false, ['t::add']), ['t::add'], 'add')).toBeUndefined();
    expect(phaseStart('GREEN', seen(false, ['t::other']), [], 'add')).toBeUndefined();
    expect(phaseStart('GREEN', seen(false, [], true), ['t::add'], 'add')).toBeUndefined();
    expect(phaseStart('GREEN', seen(true), ['t::add'], 'add')).toMatchObject({
      back: 'RED',
      error: { type: 'TEST_UNEXPECTED_PASS' },
    });
    expect(phaseStart('GREEN', seen(false, ['t::other']), ['t::add'], 'add')?.back).toBe('RED');
  });

  it('REFACTOR may start when nothing fails that did not fail at baseline; else back to GREEN with the failures', () => {
    expect(phaseStart('REFACTOR', seen(true), ['t::add'], 'add')).toBeUndefined();
    expect(phaseStart('REFACTOR', seen(false, ['t::add']), ['t::add'], 'add')).toMatchObject({
      back: 'GREEN',
      error: { type: 'REGRESSION', details: 't::add' },
    });
    expect(phaseStart('RED', seen(false, ['t::x']), [], 'add')).toBeUndefined();
  });
});

describe('test list', () => {
  it("reads the issue body's checklist; without one the issue is one test", () => {
    const tests = parseTestList(
      'Intro\n- [ ] adds two numbers\n* [x] already done\n  - [ ]   multiplies   two numbers  \nnot - [ ] an item',
      'title',
    );
    expect(tests).toEqual([
      { description: 'adds two numbers', status: 'pending' },
      { description: 'already done', status: 'done' },
      { description: 'multiplies two numbers', status: 'pending' },
    ]);
    expect(parseTestList('no checklist here', 'Add login')).toEqual([{ description: 'Add login', status: 'pending' }]);
    const marked = markTest(tests, 0, 'problematic');
    expect(nextPending(marked)).toBe(2);
    expect(renderTestList(marked)).toBe(
      '- [x] adds two numbers (problematic: skipped)\n- [x] already done\n- [ ] multiplies two numbers',
    );
    expect(nextPending(markTest(marked, 2, 'done'))).toBe(-1);
  });
});

describe('prompts', () => {
  it('fill every placeholder of the built-in templates, and leave unknown ones', () => {
    const values = {
      issue: 'bd-1: Calc',
      test: 'adds',
      tests: '- [ ] adds',
      testCommand: 'npm test',
      testFile: 'calc.test.js',
      failure: failureSection('it broke', 'FAIL calc › adds'),
      attempt: '2 of 6',
    };
    for (const template of Object.values(DEFAULT_TEMPLATES)) {
      const text = renderPrompt(template, values);
      expect(text).not.toMatch(/\{\{\w+\}\}/);
      expect(text).toContain('attempt 2 of 6');
      expect(text).toContain('The previous attempt of this phase failed: it broke');
    }
    expect(renderPrompt(DEFAULT_TEMPLATES.RED, values)).toContain('Write exactly ONE new failing test, for: adds');
    expect(renderPrompt('{{test}} {{unknown}}', values)).toBe('adds {{unknown}}');
  });
});
