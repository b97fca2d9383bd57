/**
 * TDD's view of a phase's test run against the cycle's baseline: as the implement workflow's verdict,
 * a test that passed before the cycle and is skipped or gone now is a regression, and output that can
 * no longer be read per test does not pass.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { readSuiteOutput } from '../../../src/verdict/readers/index.js';
import type { SuiteRun } from '../../../src/verdict/results.js';
import { againstBaseline } from '../../../src/workflows/tdd/baseline.js';
import type { TestsSeen } from '../../../src/workflows/tdd/decide.js';

const run = (exitCode: number, tests: SuiteRun['tests']): SuiteRun => ({
  reader: 'junit',
  exitCode,
  tests,
  groups: {},
  messages: {},
});
/** Output no reader understood: only its exit code counts. */
const unreadable = (exitCode: number): SuiteRun => ({ exitCode, tests: {}, groups: {}, messages: {} });
const baseline = run(1, { 'calc::add': 'passed', 'calc::sub': 'passed', 'calc::legacy': 'failed' });
const green: TestsSeen = { passed: true, failing: [], compileError: false, summary: 'ok' };

describe('againstBaseline', () => {
  it('passes a run where only the tests failing before still fail', () => {
    const now = run(1, {
      'calc::add': 'passed',
      'calc::sub': 'passed',
      'calc::legacy': 'failed',
      'calc::mul': 'passed',
    });
    expect(againstBaseline(green, now, baseline)).toMatchObject({ passed: true, failing: [] });
  });

  it('fails a run where a test that passed before the cycle is skipped now', () => {
    const now = run(1, { 'calc::add': 'passed', 'calc::sub': 'skipped', 'calc::legacy': 'failed' });
    const seen = againstBaseline(green, now, baseline);
    expect(seen).toMatchObject({ passed: false, failing: ['calc::sub'], compileError: false });
    expect(seen.summary).toContain('calc::sub: it passed before and is skipped now');
  });

  it('fails a run where a test that passed before the cycle did not run (deleted or renamed)', () => {
    const now = run(1, { 'calc::add': 'passed', 'calc::legacy': 'failed', 'calc::mul': 'passed' });
    expect(againstBaseline(green, now, baseline)).toMatchObject({ passed: false, failing: ['calc::sub'] });
  });

  it('does not pass output that can no longer be read per test, though the command exited 0 (e.g. replaced by exit 0)', () => {
    const seen = againstBaseline(green, unreadable(0), baseline);
    expect(seen).toMatchObject({ passed: false, compileError: true });
    expect(seen.summary).toMatch(/can no longer be read per test \(exit code 0\), where 3 test\(s\) were read before/);
  });

  it("issue 42: from GREEN on, the phase's test (RED's) passes only when it ran and passed: marked xfail, skipped or deleted, it does not", () => {
    const xfail = run(1, {
      'calc::add': 'passed',
      'calc::sub': 'passed',
      'calc::legacy': 'failed',
      'calc::mul': 'skipped',
    });
    xfail.reasons = { 'calc::mul': 'marked xfail (it failed as its mark expects): an expected failure is not a pass' };
    const seen = againstBaseline(green, xfail, baseline, ['calc::mul']);
    expect(seen).toMatchObject({ passed: false, failing: ['calc::mul'] });
    expect(seen.summary).toContain(
      "calc::mul: the phase's test is marked xfail (it failed as its mark expects): an expected failure is not a pass",
    );
    const deleted = run(1, { 'calc::add': 'passed', 'calc::sub': 'passed', 'calc::legacy': 'failed' });
    expect(againstBaseline(green, deleted, baseline, ['calc::mul'])).toMatchObject({
      passed: false,
      failing: ['calc::mul'],
    });
    const passing = run(1, {
      'calc::add': 'passed',
      'calc::sub': 'passed',
      'calc::legacy': 'failed',
      'calc::mul': 'passed',
    });
    expect(againstBaseline(green, passing, baseline, ['calc::mul'])).toMatchObject({ passed: true, failing: [] });
  });

  it('leaves the runner’s own view when the baseline cannot be read per test', () => {
    expect(againstBaseline(green, unreadable(0), unreadable(0))).toBe(green);
  });
});

describe('againstBaseline on pytest whose short summary the agent turned off (recorded pytest 9.0.3)', () => {
  const fixture = (name: string) => readFileSync(new URL(`../../fixtures/runners/${name}`, import.meta.url), 'utf8');
  // RED's baseline names every test (agent-loop adds -rA): test_legacy already failed, test_mul is the new target.
  const red = readSuiteOutput(fixture('pytest-9.0.3-rA-mul.txt'), 1);

  it('does not pass GREEN when the output names no test where the baseline named them (--no-summary in pytest.ini): test_sub broken and deleted, the files’ progress lines all that is left', () => {
    const now = readSuiteOutput(fixture('pytest-9.0.3-no-summary.txt'), 1);
    expect(Object.keys(now.tests)).toEqual([]);
    const seen = againstBaseline(green, now, red);
    expect(seen).toMatchObject({ passed: false, compileError: true });
    expect(seen.summary).toMatch(/^pytest's output no longer names its tests \(exit code 1; it named 4 before\)/);
  });

  it('does not pass it either when every file shows passing and pytest exits 0', () => {
    const now = readSuiteOutput(
      fixture('pytest-9.0.3-no-summary.txt').replace('test_calc.py .F ', 'test_calc.py .. '),
      0,
    );
    expect(againstBaseline(green, now, red)).toMatchObject({ passed: false, compileError: true });
  });
});
