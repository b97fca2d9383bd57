/**
 * TDD's view of a phase's test run against the cycle's baseline: as the implement workflow's verdict,
 * a test that passed before the cycle and is skipped or gone now is a regression, and output that can
 * no longer be read per test does not pass.
 */
import { describe, expect, it } from '@jest/globals';
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

  it('leaves the runner’s own view when the baseline cannot be read per test', () => {
    expect(againstBaseline(green, unreadable(0), unreadable(0))).toBe(green);
  });
});
