/**
 * Issue 42: a test the issue names that does not exist yet is a target the agent must write. Found in
 * the issue's text (pytest's id form) or its agent-loop block, judged from the suite run with the
 * agent's added tests (the maintainer's tests alone cannot hold it), and said to be the agent's to
 * write when it did not run. Pure.
 */
import { describe, expect, it } from '@jest/globals';
import { judge, targetsToCreate } from '../../src/verdict/judge.js';
import { pytestRun } from './pytestOutput.js';
import { emptyRun } from '../../src/verdict/results.js';
import { issueTargets, testsToWrite } from '../../src/verdict/targets.js';

const pytest = pytestRun;

const BASE = pytest([
  'PASSED tests/test_calc.py::test_sub',
  'FAILED tests/test_calc.py::test_add - assert -1 == 5',
  'PASSED tests/test_calc.py::test_p[1]',
]);

describe('a test the issue names that does not exist yet (issue 42)', () => {
  it("is a target: named in the issue's text in pytest's form, beside the tests the suite has", () => {
    const text = 'Add `tests/test_new.py::test_it` (and keep tests/test_calc.py::test_add passing).';
    expect(issueTargets(text, BASE)).toEqual({
      tests: ['tests/test_calc.py::test_add', 'tests/test_new.py::test_it'],
      verify: [],
    });
  });

  it('a test the suite has, named by the end of its path or as a parametrized test, is not one to write; a file the suite has is named as the suite names it', () => {
    expect(testsToWrite('test_calc.py::test_add and tests/test_calc.py::test_p', BASE)).toEqual([]);
    expect(testsToWrite('add test_calc.py::test_zero', BASE)).toEqual(['tests/test_calc.py::test_zero']);
    expect(testsToWrite('see tests/test_calc.py::TestAdd::test_big.', BASE)).toEqual([
      'tests/test_calc.py::TestAdd::test_big',
    ]);
  });

  it("only where the suite is read from pytest: the form is pytest's (another runner, or none read, takes none)", () => {
    expect(testsToWrite('tests/test_new.py::test_it', emptyRun(0))).toEqual([]);
    const jest = { ...BASE, reader: 'jest' };
    expect(testsToWrite('tests/test_new.py::test_it', jest)).toEqual([]);
  });

  it("targetsToCreate: the named targets the baseline did not run (an agent-loop block's too)", () => {
    expect(
      targetsToCreate(BASE, ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_p', 'tests/test_x.py::test_y']),
    ).toEqual(['tests/test_x.py::test_y']);
    expect(targetsToCreate(emptyRun(0), ['tests/test_x.py::test_y'])).toEqual([]);
  });

  it("is judged from the suite run with the added tests: passing there, the target passes; without that run it is the agent's to write", () => {
    const id = 'tests/test_new.py::test_it';
    const now = pytest([
      'PASSED tests/test_calc.py::test_sub',
      'FAILED tests/test_calc.py::test_add - assert -1 == 5',
      'PASSED tests/test_calc.py::test_p[1]',
    ]);
    const withAdded = pytest([
      'PASSED tests/test_calc.py::test_sub',
      'FAILED tests/test_calc.py::test_add - assert -1 == 5',
      'PASSED tests/test_calc.py::test_p[1]',
      `PASSED ${id}`,
    ]);
    expect(judge({ baseline: BASE, now, targetTests: [id], withAdded })).toMatchObject({
      kind: 'accepted',
      targets: [id],
      targetsFailing: [],
    });
    const alone = judge({ baseline: BASE, now, targetTests: [id] });
    expect(alone.kind).toBe('rejected');
    expect(alone.targetsFailing).toEqual([
      {
        id,
        message:
          "the issue names this test and the base does not have it: it is yours to write (in the project's test layout), and it did not run",
      },
    ]);
    const failing = pytest([`FAILED ${id} - assert 1 == 2`]);
    expect(judge({ baseline: BASE, now, targetTests: [id], withAdded: failing }).targetsFailing).toEqual([
      { id, message: 'assert 1 == 2' },
    ]);
  });

  it("a target the baseline has is still judged from the maintainer's tests alone, whatever the run with the added tests says", () => {
    const id = 'tests/test_calc.py::test_add';
    const now = pytest([`FAILED ${id} - assert -1 == 5`]);
    const withAdded = pytest([`PASSED ${id}`]);
    expect(judge({ baseline: BASE, now, targetTests: [id], withAdded }).targetsFailing.map((f) => f.id)).toEqual([id]);
  });
});
