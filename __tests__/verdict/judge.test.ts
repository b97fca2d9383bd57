/** Issue 12: verdicts against the baseline, test by test (SWE-bench's FAIL_TO_PASS / PASS_TO_PASS). */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baselineProblem } from '../../src/verdict/baseline.js';
import { judge } from '../../src/verdict/judge.js';
import { rejectionDetails } from '../../src/verdict/rejectionDetails.js';
import { readJUnit, readSuiteOutput } from '../../src/verdict/readers/index.js';
import { type SuiteRun, emptyRun, junitIdOfPytest } from '../../src/verdict/results.js';
import { issueTargets, joinIssueTexts } from '../../src/verdict/targets.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'runners');

const run = (tests: Record<string, 'passed' | 'failed' | 'skipped'>, extra: Partial<SuiteRun> = {}): SuiteRun => ({
  ...emptyRun(Object.values(tests).includes('failed') ? 1 : 0),
  reader: 'pytest',
  tests,
  ...extra,
});

// A red repository: three open bugs (a, b, c), each with its failing test, and two passing tests.
const BASELINE = run({ 't::a': 'failed', 't::b': 'failed', 't::c': 'failed', 't::ok1': 'passed', 't::ok2': 'passed' });

describe('judge', () => {
  it('accepts a fix of one issue although the others still fail: they were there before, reported, not blocking', () => {
    const v = judge({
      baseline: BASELINE,
      now: run({ 't::a': 'passed', 't::b': 'failed', 't::c': 'failed', 't::ok1': 'passed', 't::ok2': 'passed' }),
      targetTests: ['t::a'],
    });
    expect(v.kind).toBe('accepted');
    expect(v.preexisting).toEqual(['t::b', 't::c']);
    expect(v.fixed).toEqual(['t::a']);
    expect(v.summary).toBe('1 target(s) pass; 2 failure(s) that were there before, not targeted');
  });

  it('rejects a fix that breaks a test that passed, naming it with its message', () => {
    const v = judge({
      baseline: BASELINE,
      now: run(
        { 't::a': 'passed', 't::b': 'failed', 't::c': 'failed', 't::ok1': 'failed', 't::ok2': 'passed' },
        { messages: { 't::ok1': 'AssertionError: 1 != 2' } },
      ),
      targetTests: ['t::a'],
    });
    expect(v.kind).toBe('rejected');
    expect(v.broken).toEqual([{ id: 't::ok1', message: 'AssertionError: 1 != 2' }]);
  });

  it('rejects a new test that fails, and a target that still fails or did not run', () => {
    expect(
      judge({ baseline: BASELINE, now: run({ ...BASELINE.tests, 't::new': 'failed' }), targetTests: [] }).broken.map(
        (f) => f.id,
      ),
    ).toEqual(['t::new']);
    const v = judge({
      baseline: BASELINE,
      now: run({ 't::b': 'failed', 't::ok1': 'passed' }),
      targetTests: ['t::a', 't::b'],
    });
    expect(v.kind).toBe('rejected');
    expect(v.targetsFailing).toEqual([
      { id: 't::a', message: 'it did not run' },
      { id: 't::b', message: 'it fails' },
    ]);
  });

  it('without named targets, the baseline failures fixed now are the targets; a change that fixes nothing and breaks nothing is accepted', () => {
    const fixedOne = judge({ baseline: BASELINE, now: run({ ...BASELINE.tests, 't::b': 'passed' }), targetTests: [] });
    expect(fixedOne).toMatchObject({ kind: 'accepted', targets: ['t::b'] });
    expect(judge({ baseline: BASELINE, now: BASELINE, targetTests: [] })).toMatchObject({
      kind: 'accepted',
      targets: [],
      summary: 'no test broken; 3 failure(s) that were there before, not targeted',
    });
  });

  it('a group that no longer loads breaks every test that passed in it; one that did not load before blocks nothing', () => {
    const base = {
      ...emptyRun(1),
      reader: 'jest',
      groups: { 'a.test.js': 'passed' as const, 'b.test.js': 'error' as const },
    };
    const now = {
      ...emptyRun(1),
      reader: 'jest',
      groups: { 'a.test.js': 'error' as const, 'b.test.js': 'error' as const },
      messages: { 'a.test.js::*': 'SyntaxError' },
    };
    const v = judge({ baseline: base, now, targetTests: [] });
    expect(v.broken).toEqual([{ id: 'a.test.js::*', message: 'SyntaxError' }]);
    expect(v.preexisting).toEqual(['b.test.js::*']);
  });

  it('a suite that cannot run is no verdict on the work (a bounce), whatever the exit code', () => {
    expect(
      judge({
        baseline: BASELINE,
        now: {
          ...emptyRun(2),
          reader: 'pytest',
          cannotRun: 'pytest stopped before running any test: 1 error during collection',
        },
        targetTests: [],
      }),
    ).toMatchObject({
      kind: 'cannot_run',
      summary: 'the tests cannot run: pytest stopped before running any test: 1 error during collection',
    });
  });

  it('exit codes alone: a green run is accepted, a red one rejected; output that can no longer be read is no verdict', () => {
    expect(judge({ baseline: emptyRun(0), now: emptyRun(0), targetTests: [] }).kind).toBe('accepted');
    expect(judge({ baseline: emptyRun(0), now: emptyRun(1), targetTests: [] }).kind).toBe('rejected');
    expect(judge({ baseline: BASELINE, now: emptyRun(1), targetTests: [] }).kind).toBe('cannot_run');
  });

  it('a test that passed at baseline and is skipped or gone now is broken (PASS_TO_PASS): an agent cannot pass by skipping, deleting or renaming it, or by a run that stops before it', () => {
    const v = judge({
      baseline: BASELINE,
      // ok1 skipped, ok2 gone (the run stopped early, or the test was deleted or renamed); a fixed.
      now: run({
        't::a': 'passed',
        't::b': 'failed',
        't::c': 'failed',
        't::ok1': 'skipped',
        't::ok2-renamed': 'passed',
      }),
      targetTests: ['t::a'],
    });
    expect(v.kind).toBe('rejected');
    expect(v.broken).toEqual([
      { id: 't::ok1', message: 'it passed before and is skipped now' },
      {
        id: 't::ok2',
        message: 'it passed before and did not run now (deleted, renamed, or the run stopped before it)',
      },
    ]);
    // A test that failed at baseline and is gone now blocks nothing it did not block before.
    expect(
      judge({
        baseline: BASELINE,
        now: run({ 't::a': 'passed', 't::ok1': 'passed', 't::ok2': 'passed' }),
        targetTests: [],
      }).kind,
    ).toBe('accepted');
  });

  it('pytest (it lists every passing test): a test deleted from a file that still runs did not run, it did not pass: a failing target deleted is not fixed, a passing test deleted with the code it covered broken is broken', () => {
    // pytest -rA's summary, as the real pytest 9 prints it, on the base and after each change.
    const pytest = (lines: string[], exitCode = 1) =>
      readSuiteOutput(
        [
          '============================= test session starts ==============================',
          'collected 3 items',
          '=========================== short test summary info ============================',
          ...lines,
          '========================= 1 failed, 1 passed in 0.10s ==========================',
        ].join('\n'),
        exitCode,
      );
    const baseline = pytest([
      'PASSED tests/test_calc.py::test_sub',
      'FAILED tests/test_calc.py::test_add - assert -1 == 5',
      "FAILED tests/test_calc.py::test_legacy - AssertionError: assert 'broken' == '...",
    ]);
    // The failing target deleted, add not fixed.
    const targetGone = pytest([
      'PASSED tests/test_calc.py::test_sub',
      "FAILED tests/test_calc.py::test_legacy - AssertionError: assert 'broken' == '...",
    ]);
    const named = judge({ baseline, now: targetGone, targetTests: ['tests/test_calc.py::test_add'] });
    expect(named.kind).toBe('rejected');
    expect(named.targetsFailing).toEqual([{ id: 'tests/test_calc.py::test_add', message: 'it did not run' }]);
    expect(judge({ baseline, now: targetGone, targetTests: [] })).toMatchObject({ kind: 'accepted', fixed: [] });
    // add fixed, sub broken, and its passing test deleted.
    const passingGone = pytest([
      'PASSED tests/test_calc.py::test_add',
      "FAILED tests/test_calc.py::test_legacy - AssertionError: assert 'broken' == '...",
    ]);
    const v = judge({ baseline, now: passingGone, targetTests: ['tests/test_calc.py::test_add'] });
    expect(v.kind).toBe('rejected');
    expect(v.broken.map((b) => b.id)).toEqual(['tests/test_calc.py::test_sub']);
    // add fixed, sub broken, and its test marked skipped: pytest's summary names a skip by its line only.
    const skipped = pytest([
      'PASSED tests/test_calc.py::test_add',
      'SKIPPED [1] tests/test_calc.py:5: later',
      "FAILED tests/test_calc.py::test_legacy - AssertionError: assert 'broken' == '...",
    ]);
    const s = judge({ baseline, now: skipped, targetTests: ['tests/test_calc.py::test_add'] });
    expect(s.kind).toBe('rejected');
    expect(s.broken.map((b) => b.id)).toEqual(['tests/test_calc.py::test_sub']);
  });

  it('pytest whose short summary the agent turned off (--no-summary in pytest.ini): it names no test, only files that ran; no verdict, never a target passing on its file', () => {
    const baseline = readSuiteOutput(
      [
        '============================= test session starts ==============================',
        'collected 3 items',
        '',
        'tests/test_calc.py .FF                                                   [100%]',
        '=========================== short test summary info ============================',
        'PASSED tests/test_calc.py::test_sub',
        'FAILED tests/test_calc.py::test_add - assert -1 == 5',
        "FAILED tests/test_calc.py::test_legacy - AssertionError: assert 'broken' == '...",
        '========================= 2 failed, 1 passed in 0.10s ==========================',
      ].join('\n'),
      1,
    );
    // Nothing fixed: the summary is off, and the file's progress line is all that is printed.
    const now = readSuiteOutput(
      [
        '============================= test session starts ==============================',
        'collected 3 items',
        '',
        'tests/test_calc.py .FF                                                   [100%]',
        '========================= 2 failed, 1 passed in 0.10s ==========================',
      ].join('\n'),
      1,
    );
    const v = judge({ baseline, now, targetTests: ['tests/test_calc.py::test_add'] });
    expect(v.kind).toBe('cannot_run');
    expect(v.summary).toMatch(/^pytest's output no longer names its tests/);
    expect(judge({ baseline, now, targetTests: [] }).kind).toBe('cannot_run');
  });

  it('vitest (a file that passed is one line, one with a failure lists its tests): a file fixed now lists none, and its tests pass', () => {
    const vitest = (tests: SuiteRun['tests'], groups: SuiteRun['groups']) => run(tests, { reader: 'vitest', groups });
    const baseline = vitest(
      {
        'a.test.ts::a1': 'passed',
        'a.test.ts::a2': 'failed',
        'b.test.ts::b1': 'passed',
        'b.test.ts::legacy': 'failed',
      },
      { 'a.test.ts': 'failed', 'b.test.ts': 'failed' },
    );
    const now = vitest(
      { 'b.test.ts::b1': 'passed', 'b.test.ts::legacy': 'failed' },
      { 'a.test.ts': 'passed', 'b.test.ts': 'failed' },
    );
    expect(judge({ baseline, now, targetTests: ['a.test.ts::a2'] })).toMatchObject({
      kind: 'accepted',
      broken: [],
      fixed: ['a.test.ts::a2'],
      preexisting: ['b.test.ts::legacy'],
    });
    // The limit left (README): b1 gone from b.test.ts, which now lists no passing test, cannot be told from b1 passing.
    const gone = vitest({ 'b.test.ts::legacy': 'failed' }, { 'a.test.ts': 'passed', 'b.test.ts': 'failed' });
    expect(judge({ baseline, now: gone, targetTests: ['a.test.ts::a2'] }).kind).toBe('accepted');
  });

  it('a file that ran before and is gone now is named once; one whose tests all failed is not', () => {
    const base = {
      ...emptyRun(1),
      reader: 'jest',
      groups: { 'a.test.js': 'passed' as const, 'b.test.js': 'failed' as const, 'c.test.js': 'passed' as const },
      tests: { 'b.test.js::x': 'failed' as const },
    };
    const now = { ...emptyRun(0), reader: 'jest', groups: { 'c.test.js': 'passed' as const } };
    expect(judge({ baseline: base, now, targetTests: [] }).broken.map((f) => f.id)).toEqual([
      'a.test.js::*',
      'b.test.js::*', // jest lists only failures: b had passing tests too, as far as can be told
    ]);
    const listed = run(
      { 'f.py::a': 'failed', 'g.py::b': 'passed' },
      { groups: { 'f.py': 'failed', 'g.py': 'passed' } },
    );
    expect(
      judge({ baseline: listed, now: run({ 'g.py::b': 'passed' }, { groups: { 'g.py': 'passed' } }), targetTests: [] })
        .kind,
    ).toBe('accepted');
  });

  it('output read per test before and not now is no verdict, also with exit code 0 (a test command replaced by `exit 0`)', () => {
    expect(judge({ baseline: BASELINE, now: emptyRun(0), targetTests: ['t::a'] })).toMatchObject({
      kind: 'cannot_run',
      summary: expect.stringContaining('the test output can no longer be read per test (exit code 0'),
    });
    // Before, nothing was read either (an empty suite): a green exit is a pass.
    expect(judge({ baseline: { ...emptyRun(0), reader: 'jest' }, now: emptyRun(0), targetTests: [] }).kind).toBe(
      'accepted',
    );
  });

  it('a suite that dies mid-run (tape, a test threw) is a rejection naming the crash and the tests it left unrun, not a suite that cannot run (a bounce); a red baseline that dies the same way is a baseline, not a halt', () => {
    const crashed = readSuiteOutput(readFileSync(path.join(FIXTURES, 'tape-5.10.2-crash.txt'), 'utf8'), 1);
    const green = {
      ...emptyRun(0),
      reader: 'tape',
      tests: { adds: 'passed', crashes: 'passed', after: 'passed' },
    } as SuiteRun;
    const v = judge({ baseline: green, now: crashed, targetTests: [] });
    expect(v.kind).toBe('rejected');
    expect(v.broken.map((f) => f.id)).toEqual(['crashes', 'after']);
    expect(v.broken[0]?.message).toContain("TypeError: Cannot read properties of null (reading 'x')");
    // The crash was there before this cycle: it blocks nothing, and the baseline holds.
    expect(baselineProblem(crashed, 'tape test/*.js')).toBeUndefined();
    expect(judge({ baseline: crashed, now: crashed, targetTests: [] })).toMatchObject({
      kind: 'accepted',
      preexisting: ['crashes'],
    });
  });

  it('a test command that exited 0 before and fails now with no test failing (a linter or a coverage threshold after the tests) is broken', () => {
    const green = run({ 't::ok1': 'passed' });
    const v = judge({ baseline: green, now: { ...run({ 't::ok1': 'passed' }), exitCode: 1 }, targetTests: [] });
    expect(v.kind).toBe('rejected');
    expect(v.broken).toEqual([
      {
        id: '(the suite)',
        message: expect.stringContaining('the test command exited 1, where it exited 0 before this cycle'),
      },
    ]);
    // Red before: the exit code says nothing more than the tests do.
    expect(judge({ baseline: BASELINE, now: { ...BASELINE, exitCode: 2 }, targetTests: [] }).kind).toBe('accepted');
  });

  it('tests the issue names, with output that cannot be read per test: not known to pass, so never accepted on the exit code', () => {
    const v = judge({ baseline: emptyRun(0), now: emptyRun(0), targetTests: ['tests/test_dates.py::test_week'] });
    expect(v).toMatchObject({ kind: 'rejected', targetsFailing: [{ id: 'tests/test_dates.py::test_week' }] });
    expect(v.targetsFailing[0]?.message).toContain('--junit-file');
    // Read per test now (the baseline was not): the target is judged on the run.
    const now = run({ 'tests/test_dates.py::test_week': 'passed' });
    expect(judge({ baseline: emptyRun(0), now, targetTests: ['tests/test_dates.py::test_week'] }).kind).toBe(
      'accepted',
    );
  });

  it('verify: commands that do not exit 0 reject', () => {
    const v = judge({
      baseline: BASELINE,
      now: BASELINE,
      targetTests: [],
      verify: [{ command: 'make check', exitCode: 2, tail: 'no' }],
    });
    expect(v).toMatchObject({
      kind: 'rejected',
      summary: 'verify failed: `make check` exited 2; 3 failure(s) that were there before, not targeted',
    });
  });
});

describe('issue 42: only a test that ran and passed is a pass', () => {
  const read = (name: string, exitCode = 1) =>
    readSuiteOutput(readFileSync(path.join(FIXTURES, name), 'utf8'), exitCode);
  // The real pytest 9 on a suite with parametrized ids (spaces, brackets, " - ", unicode), an xfail, an
  // xpass and a skip; then after an agent dropped three cases of test_words (two of them failing) and
  // made the xfail-marked test pass (XPASS).
  const base = read('pytest-9.0.3-rA-ids.txt');
  const after = read('pytest-9.0.3-rA-ids-fewer.txt');

  it('a target marked xfail (XFAIL, or XPASS: it passes under the mark) fails as a target, and says why', () => {
    const xfail = judge({ baseline: base, now: base, targetTests: ['tests/test_ids.py::test_marked_xfail'] });
    expect(xfail.kind).toBe('rejected');
    expect(xfail.targetsFailing).toEqual([
      {
        id: 'tests/test_ids.py::test_marked_xfail',
        message: 'marked xfail (it failed as its mark expects): an expected failure is not a pass',
      },
    ]);
    const xpass = judge({ baseline: base, now: after, targetTests: ['tests/test_ids.py::test_marked_xfail'] });
    expect(xpass.targetsFailing.map((f) => f.message)).toEqual([
      'marked xfail and passed (XPASS): a test marked to fail is not a pass',
    ]);
    // The old fixture's xfail too (it read as passed until issue 42).
    const old = read('pytest-9.0.3-rA.txt');
    expect(judge({ baseline: old, now: old, targetTests: ['tests/test_math.py::test_xfail'] }).kind).toBe('rejected');
  });

  it('a skipped target fails as a target ("it was skipped"); a passing test now marked xfail is broken, and says so', () => {
    const baseline = run({ 't::a': 'failed', 't::ok': 'passed' });
    const now = run(
      { 't::a': 'skipped', 't::ok': 'skipped' },
      { reasons: { 't::ok': 'marked xfail (it failed as its mark expects): an expected failure is not a pass' } },
    );
    const v = judge({ baseline, now, targetTests: ['t::a'] });
    expect(v.targetsFailing).toEqual([{ id: 't::a', message: 'it was skipped' }]);
    expect(v.broken).toEqual([
      {
        id: 't::ok',
        message:
          'it passed before and is now marked xfail (it failed as its mark expects): an expected failure is not a pass',
      },
    ]);
  });

  it("a target naming a parametrized test by its name: every case must pass, and none of the baseline's cases may be gone", () => {
    const gone = judge({ baseline: base, now: after, targetTests: ['tests/test_ids.py::test_words'] });
    expect(gone.targetsFailing).toEqual([
      {
        id: 'tests/test_ids.py::test_words',
        message:
          'it ran 2 time(s) where the baseline ran it 5 time(s) (cases gone: tests/test_ids.py::test_words[\\u65e5\\u672c], tests/test_ids.py::test_words[a b], tests/test_ids.py::test_words[x - y]): a case that does not run is not a pass',
      },
    ]);
    const failing = judge({ baseline: base, now: base, targetTests: ['tests/test_ids.py::test_spaced'] });
    expect(failing.targetsFailing).toEqual([
      {
        id: 'tests/test_ids.py::test_spaced',
        message: '1 of its 2 case(s) do not pass (tests/test_ids.py::test_spaced[three]: assert 2 == 1)',
      },
    ]);
    const baseline = run({ 't.py::test_p[1]': 'failed', 't.py::test_p[2]': 'passed' });
    const fixed = run({ 't.py::test_p[1]': 'passed', 't.py::test_p[2]': 'passed' });
    expect(judge({ baseline, now: fixed, targetTests: ['t.py::test_p'] }).kind).toBe('accepted');
  });

  it('a pre-existing failing test that is gone is removed, not "still failing" nor fixed; a passing test gone is broken, as before', () => {
    const v = judge({ baseline: base, now: after, targetTests: [] });
    expect(v.removed).toEqual(['tests/test_ids.py::test_words[a b]', 'tests/test_ids.py::test_words[x - y]']);
    expect(v.preexisting).toEqual(['tests/test_ids.py::test_spaced[three]']);
    expect(v.fixed).toEqual([]);
    expect(v.broken).toEqual([
      {
        id: 'tests/test_ids.py::test_words[\\u65e5\\u672c]',
        message: 'it passed before and did not run now (deleted, renamed, or the run stopped before it)',
      },
    ]);
    expect(v.summary).toContain(
      '2 failing test(s) that were there before no longer run (tests/test_ids.py::test_words[a b], tests/test_ids.py::test_words[x - y]): removed, not fixed',
    );
    expect(rejectionDetails(v)).toContain('Tests that failed before this cycle and no longer run (removed, not fixed)');
    // A whole file of failing tests gone (its group): removed too.
    const groups = (g: SuiteRun['groups']): SuiteRun => ({ ...emptyRun(1), reader: 'jest', groups: g });
    const files = judge({
      baseline: groups({ 'a.test.js': 'error', 'b.test.js': 'passed' }),
      now: groups({ 'b.test.js': 'passed' }),
      targetTests: [],
    });
    expect(files).toMatchObject({ kind: 'accepted', removed: ['a.test.js::*'], preexisting: [] });
  });

  it('results the runner counted and the reader could not read are said in the verdict, not judged silently', () => {
    const unread = read('pytest-9.0.3-rA-newline-id.txt', 0);
    const v = judge({ baseline: unread, now: unread, targetTests: [] });
    expect(v.kind).toBe('accepted');
    expect(v.unread).toBe(1);
    expect(v.summary).toBe(
      'no test broken; 1 test result(s) the runner counted in its summary could not be read one by one and are not judged (an id the reader does not take: the full output is in the log; a JUnit report, named with the junit-file option, is read whole)',
    );
    expect(judge({ baseline: base, now: base, targetTests: [] }).unread).toBeUndefined();
  });
});

describe('issueTargets', () => {
  it('issue 42: allowed: paths in the block, a list or comma-separated, from every block and issue; the named tests still the targets', () => {
    const suite = run({ 'tests/test_dates.py::test_parse_iso_week': 'failed' });
    const one = issueTargets(
      'test_parse_iso_week fails.\n\n```agent-loop\nallowed: tests/__snapshots__/**, tests/fixtures/*.json\n```\n',
      suite,
    );
    expect(one).toEqual({
      tests: ['tests/test_dates.py::test_parse_iso_week'],
      verify: [],
      allowed: ['tests/__snapshots__/**', 'tests/fixtures/*.json'],
    });
    const two = issueTargets(
      joinIssueTexts([
        '```agent-loop\ntests: t::a\nallowed:\n  - a/**\n```',
        '```agent-loop\nallowed: [b.txt, a/**]\n```',
      ]),
      BASELINE,
    );
    expect(two.allowed).toEqual(['a/**', 'b.txt']);
    expect(issueTargets('```agent-loop\ntests: t::a\n```', BASELINE).allowed).toBeUndefined();
    expect(issueTargets('```agent-loop\nallowed: [3]\n```', BASELINE).unreadable).toContain(
      'allowed: must be a string or a list of strings',
    );
  });

  it('an agent-loop block: tests and verify, a string or a list', () => {
    const text = 'Fix it.\n\n```agent-loop\ntests:\n  - t::a\n  - t::b\nverify: make check\n```\n';
    expect(issueTargets(text, BASELINE)).toEqual({ tests: ['t::a', 't::b'], verify: ['make check'] });
  });

  it('a block with a key agent-loop does not know (a mistyped verify:) or an entry that is not a string cannot be taken: unreadable, no fallback to named tests', () => {
    const suite = run({ 'tests/x.py::test_something_long': 'failed' });
    const typo = issueTargets('```agent-loop\ntests: [t::a]\nverfy: make check\n```\nsee test_something_long', suite);
    expect(typo).toEqual({
      tests: [],
      verify: [],
      unreadable:
        'the agent-loop block cannot be taken as written: a key agent-loop does not know: verfy (did you mean verify?); it knows tests: and verify:, each a string or a list of strings',
    });
    expect(issueTargets('```agent-loop\nnotes: later\n```', suite).unreadable).toContain(
      'a key agent-loop does not know: notes;',
    );
    expect(issueTargets('```agent-loop\ntests: [t::a, 3]\n```', suite).unreadable).toContain(
      'tests: must be a string or a list of strings',
    );
  });

  it("a block that is not valid YAML (a verify: command holding ': ' written unquoted) cannot be read: unreadable, with the error and how to quote, and no fallback to named tests", () => {
    const suite = run({ 'tests/x.py::test_something_long': 'failed' });
    const unquoted =
      '```agent-loop\nverify: node -e "process.exit(require(\'./sum\')(1, 2) === 3 ? 0 : 1)"\n```\ntest_something_long';
    const t = issueTargets(unquoted, suite);
    expect(t.unreadable).toMatch(
      /^the agent-loop block is not valid YAML \(.+\); .*must be quoted in YAML: verify: 'node -e/,
    );
    expect(t).toMatchObject({ tests: [], verify: [] });
    // Quoted as the message says (a ' inside single quotes is written twice): read, and enforced.
    const quoted = "```agent-loop\nverify: 'node -e \"process.exit(require(''./sum'')(1, 2) === 3 ? 0 : 1)\"'\n```";
    expect(issueTargets(quoted, suite)).toEqual({
      tests: [],
      verify: [`node -e "process.exit(require('./sum')(1, 2) === 3 ? 0 : 1)"`],
    });
    expect(issueTargets('```agent-loop\n- make check\n```', suite).unreadable).toBe(
      'the agent-loop block must be a mapping with tests: and/or verify: (it is a list)',
    );
  });

  it('an issue written with CRLF line ends (a GitHub body from the web editor): its block is read, its verify enforced', () => {
    const text = 'Fix it.\r\n\r\n```agent-loop\r\ntests: [t::a]\r\nverify: make check\r\n```\r\n';
    expect(issueTargets(text, BASELINE)).toEqual({ tests: ['t::a'], verify: ['make check'] });
    const typo = issueTargets('```agent-loop\r\nverfy: make check\r\n```\r\n', BASELINE);
    expect(typo.unreadable).toContain('a key agent-loop does not know: verfy');
  });

  it('every agent-loop block counts (two issues of a --batch cycle, each with its own): the second one is not dropped', () => {
    const text = ['A\n```agent-loop\ntests: [t::a]\n```', 'B\n```agent-loop\nverify: make check\n```'].join('\n\n');
    expect(issueTargets(text, BASELINE)).toEqual({ tests: ['t::a'], verify: ['make check'] });
    const second = issueTargets(`${text}\n\n\`\`\`agent-loop\nverfy: make lint\n\`\`\``, BASELINE);
    expect(second.unreadable).toContain('a key agent-loop does not know: verfy');
  });

  it("issue 42: --batch unions every issue's targets: one issue's agent-loop block does not drop the tests another issue names", () => {
    const suite = run({ 'tests/a.py::test_parse_dates': 'failed', 'tests/b.py::test_render_page': 'failed' });
    const text = joinIssueTexts([
      'Parse dates\n```agent-loop\ntests: [tests/a.py::test_parse_dates]\nverify: make check\n```',
      'Render pages\ntest_render_page fails since the upgrade',
    ]);
    expect(issueTargets(text, suite)).toEqual({
      tests: ['tests/a.py::test_parse_dates', 'tests/b.py::test_render_page'],
      verify: ['make check'],
    });
    // One issue's block that cannot be taken still makes the whole unreadable.
    const bad = joinIssueTexts(['A\n```agent-loop\nverfy: x\n```', 'test_render_page']);
    expect(issueTargets(bad, suite).unreadable).toContain('verfy');
  });

  it('tests the text names: a whole id, or a distinctive last part that only one test has', () => {
    const suite = run({
      'tests/test_dates.py::test_parse_iso_week': 'failed',
      'tests/a.py::test_same': 'failed',
      'tests/b.py::test_same': 'passed',
      'tests/c.py::t_x': 'passed',
      'tests/c.py::test_exact': 'passed',
    });
    const t = issueTargets(
      'parse fails: test_parse_iso_week is red; test_same too; t_x; also tests/c.py::test_exact',
      suite,
    );
    expect(t.tests.sort()).toEqual(['tests/c.py::test_exact', 'tests/test_dates.py::test_parse_iso_week']);
    expect(issueTargets('test_parse_iso_weekday', suite).tests).toEqual([]); // a longer word is another name
  });

  it("a test whose name is punctuation or a short word (tape's `-`, a test `a`) is not named by prose that happens to hold it", () => {
    const suite = run({ '-': 'passed', a: 'failed', 'whole name': 'failed', 'test/dash.js::-': 'passed' });
    const t = issueTargets('Arguments after -- are lost: a fix is needed; see whole name', suite);
    expect(t.tests).toEqual(['whole name']);
    // A whole id bound inside a longer word is not named either.
    expect(issueTargets('the whole names list', suite).tests).toEqual([]);
  });
});

describe('baselineProblem', () => {
  it('a suite that cannot run on the base branch (pytest stopped at collection) is no verdict, before any agent run', () => {
    const run = readSuiteOutput(readFileSync(path.join(FIXTURES, 'pytest-9.0.3-collection-error.txt'), 'utf8'), 2);
    expect(run.cannotRun).toBeDefined();
    expect(baselineProblem(run, 'pytest')?.message).toMatch(
      /^the test command `pytest` cannot run on the base branch: /,
    );
    expect(baselineProblem(run, 'pytest')?.advice).toContain('--continue-on-collection-errors');
  });

  it('an empty suite (pytest collected no tests) is a baseline, not a halt: the agent may write the first tests; a command not found is no verdict', () => {
    const empty = readSuiteOutput(readFileSync(path.join(FIXTURES, 'pytest-9.0.3-no-tests.txt'), 'utf8'), 5);
    expect(empty).toMatchObject({ cannotRun: 'pytest collected no tests', noTests: true });
    expect(baselineProblem(empty, 'pytest')).toBeUndefined();
    expect(baselineProblem(readSuiteOutput('sh: 1: pytest: not found', 127), 'pytest')?.message).toMatch(
      /cannot run on the base branch: .*command not found/,
    );
  });

  it('a red suite read per test, or a green one read by its exit code, is a baseline', () => {
    expect(
      baselineProblem(readSuiteOutput(readFileSync(path.join(FIXTURES, 'pytest-9.0.3-rA.txt'), 'utf8'), 1), 'pytest'),
    ).toBeUndefined();
    expect(baselineProblem(readSuiteOutput('all good', 0), 'make test')).toBeUndefined();
    expect(baselineProblem(readSuiteOutput('something failed', 1), 'make test')?.message).toMatch(
      /could not be read per test/,
    );
  });
});

describe('a target named by its pytest id, judged from a JUnit report (pytest names tests there by classname)', () => {
  const xml = readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'runners', 'pytest-9.0.3-ids-junit.xml'),
    'utf8',
  );
  const report = () => readJUnit(xml, 1)!;

  it('maps pytest ids to the report’s (module dotted, classes after it), and leaves any other id alone', () => {
    expect(junitIdOfPytest('tests/test_ids.py::test_plain')).toBe('tests.test_ids::test_plain');
    expect(junitIdOfPytest('tests/test_ids.py::TestThing::test_method[é b]')).toBe(
      'tests.test_ids.TestThing::test_method[é b]',
    );
    expect(junitIdOfPytest('test_top.py::test_x[a::b]')).toBe('test_top::test_x[a::b]');
    for (const other of ['t::a', 'src/a.test.js::adds', 'tests.test_ids::test_plain', 'plain'])
      expect(junitIdOfPytest(other)).toBe(other);
  });

  it('finds the target and its parametrized cases: passing targets pass (before the fix: "still failing", the work rejected), a failing case is named', () => {
    const passing = judge({
      baseline: report(),
      now: report(),
      targetTests: ['tests/test_ids.py::test_plain', 'tests/test_ids.py::TestThing::test_method'],
    });
    expect(passing.targetsFailing).toEqual([]);
    expect(passing.kind).toBe('accepted');
    // test_spaced has a failing case in the recording: found by its pytest id, and said by the report's.
    const failing = judge({ baseline: report(), now: report(), targetTests: ['tests/test_ids.py::test_spaced'] });
    expect(failing.targetsFailing.map((f) => f.id)).toEqual(['tests/test_ids.py::test_spaced']);
    expect(failing.targetsFailing[0]?.message).toMatch(
      /^1 of its 2 case\(s\) do not pass \(tests\.test_ids::test_spaced\[three\]/,
    );
  });
});
