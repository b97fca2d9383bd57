/**
 * Issue 42, proof of fix: the evidence of a verdict (the issue's targets, the baseline's failures the
 * work fixes, else the agent's added tests FAIL_TO_PASS: failing or absent on the base with only those
 * tests, passing on the judge tree with them), read from real runners' output. Pure.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AddedRuns, type AddedTests, addedStatus, evidenceOf, failToPass } from '../../src/verdict/evidence.js';
import { judge } from '../../src/verdict/judge.js';
import { readSuiteOutput } from '../../src/verdict/readers/index.js';
import { pytestRun } from './pytestOutput.js';
import { type SuiteRun, emptyRun } from '../../src/verdict/results.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'runners');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

const pytest = pytestRun;

const BASE = pytest(['PASSED tests/test_calc.py::test_sub', 'PASSED tests/test_calc.py::test_mul']);
const noTargets = { tests: [], verify: [] };
const accepted = (now: SuiteRun, targetTests: string[] = []) => judge({ baseline: BASE, now, targetTests });

describe('the evidence of a verdict (issue 42)', () => {
  it('the issue names no test and fixes no failure of the base: its own new test, failing on the base and passing with the change, is the evidence', () => {
    const added: AddedTests[] = [{ path: 'tests/test_add.py', names: ['test_add', 'test_add_zero'] }];
    const runs: AddedRuns = {
      withTests: pytest([
        'PASSED tests/test_calc.py::test_sub',
        'PASSED tests/test_add.py::test_add',
        'PASSED tests/test_add.py::test_add_zero',
      ]),
      baseWithTests: pytest([
        'PASSED tests/test_calc.py::test_sub',
        'FAILED tests/test_add.py::test_add - assert -1 == 5',
        'PASSED tests/test_add.py::test_add_zero',
      ]),
    };
    const e = evidenceOf({ verdict: accepted(BASE), named: noTargets, created: [], added, runs });
    expect(e).toEqual({
      kind: 'added',
      tests: ['tests/test_add.py::test_add'],
      said:
        '1 test(s) the agent added fail on the base and pass with the change: tests/test_add.py::test_add; ' +
        'passing on the base too: tests/test_add.py::test_add_zero',
    });
  });

  it('added tests that pass on the base too, or do not pass with the change, are no evidence: none, with why', () => {
    const added: AddedTests[] = [{ path: 'tests/test_add.py', names: ['test_vacuous', 'test_red'] }];
    const runs: AddedRuns = {
      withTests: pytest(['PASSED tests/test_add.py::test_vacuous', 'FAILED tests/test_add.py::test_red - assert 1']),
      baseWithTests: pytest([
        'PASSED tests/test_add.py::test_vacuous',
        'FAILED tests/test_add.py::test_red - assert 1',
      ]),
    };
    expect(evidenceOf({ verdict: accepted(BASE), named: noTargets, created: [], added, runs })).toEqual({
      kind: 'none',
      tests: [],
      said:
        'no evidence of a fix: none of the 2 test(s) the agent added fails on the base and passes with the change; ' +
        'passing on the base too: tests/test_add.py::test_vacuous; not passing with the change: tests/test_add.py::test_red',
    });
    expect(evidenceOf({ verdict: accepted(BASE), named: noTargets, created: [], added: [] })).toMatchObject({
      kind: 'none',
      said: 'no evidence of a fix: no target, no failure of the base fixed, and the agent added no test that shows the fix',
    });
  });

  it("the issue's targets passing are the evidence (its verify: commands too); a failure of the base fixed, when it names none", () => {
    const red = pytest(['PASSED tests/test_calc.py::test_sub', 'FAILED tests/test_calc.py::test_add - assert -1 == 5']);
    const green = pytest(['PASSED tests/test_calc.py::test_sub', 'PASSED tests/test_calc.py::test_add']);
    const named = judge({ baseline: red, now: green, targetTests: ['tests/test_calc.py::test_add'] });
    expect(
      evidenceOf({
        verdict: named,
        named: { tests: ['tests/test_calc.py::test_add'], verify: ['make check'] },
        created: [],
        added: [],
      }),
    ).toEqual({
      kind: 'targets',
      tests: ['tests/test_calc.py::test_add', 'verify: make check'],
      said: "the issue's targets pass: tests/test_calc.py::test_add, verify: make check",
    });
    const fixed = judge({ baseline: red, now: green, targetTests: [] });
    expect(evidenceOf({ verdict: fixed, named: noTargets, created: [], added: [] })).toEqual({
      kind: 'fixed',
      tests: ['tests/test_calc.py::test_add'],
      said: '1 test(s) that failed before the change pass now: tests/test_calc.py::test_add',
    });
  });

  it('a test the issue asks the agent to write is evidence when it fails on the base and passes with the change; one that passes on the base too is not', () => {
    const id = 'tests/test_new.py::test_it';
    const withTests = pytest(['PASSED tests/test_calc.py::test_sub', `PASSED ${id}`]);
    const verdict = judge({ baseline: BASE, now: BASE, targetTests: [id], withAdded: withTests });
    expect(verdict.kind).toBe('accepted');
    const input = { verdict, named: { tests: [id], verify: [] }, created: [id], added: [] };
    const failsOnBase = pytest([`FAILED ${id} - assert 0`]);
    expect(evidenceOf({ ...input, runs: { withTests, baseWithTests: failsOnBase } })).toMatchObject({
      kind: 'targets',
      tests: [id],
    });
    expect(evidenceOf({ ...input, runs: { withTests, baseWithTests: withTests } })).toEqual({
      kind: 'none',
      tests: [],
      said: 'no evidence of a fix: the test(s) the issue asked for and the agent wrote pass on the base too, so they show nothing of the fix (tests/test_new.py::test_it)',
    });
  });

  it('without a judge tree (no git) the added tests are not looked for: none, saying so', () => {
    expect(
      evidenceOf({ verdict: accepted(BASE), named: noTargets, created: [], added: [], notRun: 'no judge tree' }),
    ).toEqual({ kind: 'none', tests: [], said: 'no evidence of a fix: no judge tree' });
  });

  it('runs not read per test cannot tell the added tests apart: none', () => {
    const added: AddedTests[] = [{ path: 'tests/test_add.py', names: ['test_add'] }];
    const runs = { withTests: emptyRun(0), baseWithTests: emptyRun(1) };
    expect(evidenceOf({ verdict: accepted(BASE), named: noTargets, created: [], added, runs }).kind).toBe('none');
  });
});

describe("an added test's outcome in a run, found by its file and name, whatever the runner (issue 42)", () => {
  it('pytest: by file and name, a class method, parametrized cases (any failing case fails it), a file that did not import (failed)', () => {
    const run = pytest([
      'PASSED tests/test_a.py::test_x',
      'PASSED tests/test_a.py::TestK::test_m',
      'PASSED tests/test_a.py::test_p[1]',
      'FAILED tests/test_a.py::test_p[2] - assert 0',
    ]);
    expect(addedStatus(run, 'tests/test_a.py', 'test_x')).toBe('passed');
    expect(addedStatus(run, 'tests/test_a.py', 'TestK::test_m')).toBe('passed');
    expect(addedStatus(run, 'tests/test_a.py', 'test_p')).toBe('failed');
    expect(addedStatus(run, 'tests/test_a.py', 'test_gone')).toBe('absent');
    expect(addedStatus(run, 'tests/test_b.py', 'test_x')).toBe('absent');
    const collection = readSuiteOutput(fixture('pytest-9.0.3-collection-error.txt'), 2);
    expect(addedStatus(collection, 'tests/test_broken_import.py', 'test_anything')).toBe('failed');
  });

  it('pytest run from a subdirectory names the file by a shorter path: still found', () => {
    const run = pytest(['PASSED test_a.py::test_x']);
    expect(addedStatus(run, 'pkg/test_a.py', 'test_x')).toBe('passed');
  });

  it('jest without --verbose names only failures: a test of a file that passed passed, one of a file that failed to run failed', () => {
    const run = readSuiteOutput(fixture('jest-29-default.txt'), 1);
    expect(addedStatus(run, 'test/other.test.js', 'anything')).toBe('passed');
    expect(addedStatus(run, 'test/math.test.js', 'add › adds wrongly')).toBe('failed');
    expect(addedStatus(run, 'test/broken.test.js', 'never')).toBe('failed');
    expect(addedStatus(run, 'test/none.test.js', 'never')).toBe('absent');
  });

  it("node's runner names tests without their file: by name; a file that did not load (named by its absolute path) fails its tests", () => {
    const run = readSuiteOutput(fixture('node-20-tap-load-error.txt'), 1);
    expect(addedStatus(run, 'test/calc.test.mjs', 'add adds')).toBe('passed');
    expect(addedStatus(run, 'test/mul.test.mjs', 'mul multiplies')).toBe('failed');
  });

  it('generated: every added test is exactly one of shown, passing on the base too, or not passing; shown iff it passes with the change and not on the base', () => {
    const outcome = fc.constantFrom('passed', 'failed', 'absent' as const);
    fc.assert(
      fc.property(fc.array(fc.tuple(outcome, outcome), { minLength: 1, maxLength: 8 }), (cases) => {
        const names = cases.map((_, i) => `test_${i}`);
        const lines = (k: 0 | 1) =>
          cases.flatMap((c, i) =>
            c[k] === 'absent' ? [] : [`${c[k] === 'passed' ? 'PASSED' : 'FAILED'} tests/t.py::${names[i]}`],
          );
        const runs = {
          withTests: pytest(['PASSED tests/t.py::keep', ...lines(0)]),
          baseWithTests: pytest(['PASSED tests/t.py::keep', ...lines(1)]),
        };
        const f = failToPass([{ path: 'tests/t.py', names }], runs);
        expect([...f.shown, ...f.passOnBase, ...f.notPassing].sort()).toEqual(
          names.map((n) => `tests/t.py::${n}`).sort(),
        );
        cases.forEach(([withChange, onBase], i) => {
          const id = `tests/t.py::${names[i]}`;
          expect(f.shown.includes(id)).toBe(withChange === 'passed' && onBase !== 'passed');
        });
      }),
    );
  });
});
