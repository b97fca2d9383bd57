/**
 * Issue 12: the per-test readers, each on output recorded from the real runner
 * (__tests__/fixtures/runners/README.md says how each was made).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { readJUnit, readSuiteOutput } from '../../src/verdict/readers/index.js';
import { failedIds, statusOf, unreadCount } from '../../src/verdict/results.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/runners/${name}`, import.meta.url), 'utf8');

describe('pytest', () => {
  it('a run that died mid-run (a test called os._exit(0)): no file vouches for tests it did not list; with nothing listed, it cannot run', () => {
    const died = readSuiteOutput(fixture('pytest-9.0.3-died.txt'), 0);
    expect(died.reader).toBe('pytest');
    expect(died.tests).toEqual({});
    expect(died.groups).toEqual({});
    expect(died.cannotRun).toBe('pytest stopped before its summary (exit code 0): no test result could be read');
    expect(statusOf(died, 'tests/test_a.py::test_three')).toBe('absent');
    const verbose = readSuiteOutput(fixture('pytest-9.0.3-v-died.txt'), 0);
    expect(verbose.tests).toEqual({ 'tests/test_a.py::test_one': 'passed' });
    expect(verbose.cannotRun).toBeUndefined();
    expect(statusOf(verbose, 'tests/test_a.py::test_three')).toBe('absent');
  });

  it('-rA: every test by id with its outcome, the failure messages, files as groups', () => {
    const run = readSuiteOutput(fixture('pytest-9.0.3-rA.txt'), 1);
    expect(run.reader).toBe('pytest');
    expect(run.tests).toEqual({
      'tests/test_math.py::test_add': 'passed',
      'tests/test_math.py::test_param[1-1-2]': 'passed',
      'tests/test_math.py::TestThing::test_method_ok': 'passed',
      'tests/test_other.py::test_other_ok': 'passed',
      // Issue 42: an XFAIL is not a pass (until then this line read 'passed').
      'tests/test_math.py::test_xfail': 'skipped',
      'tests/test_math.py::TestThing::test_method_error': 'failed',
      'tests/test_math.py::test_add_broken': 'failed',
      'tests/test_math.py::test_param[2-3-6]': 'failed',
      'tests/test_other.py::test_other_fail': 'failed',
    });
    expect(run.messages['tests/test_math.py::test_add_broken']).toBe('AssertionError: two and two');
    expect(run.cannotRun).toBeUndefined();
  });

  it('issue 42: ids with spaces, brackets, " - " and escaped unicode in their parameters are read whole, as the final line counts them', () => {
    const run = readSuiteOutput(fixture('pytest-9.0.3-rA-ids.txt'), 1);
    expect(run.tests).toEqual({
      'tests/test_ids.py::test_words[[1]]': 'passed',
      'tests/test_ids.py::test_words[caf\\xe9]': 'passed',
      'tests/test_ids.py::test_words[\\u65e5\\u672c]': 'passed',
      'tests/test_ids.py::test_spaced[one two]': 'passed',
      'tests/test_ids.py::test_plain': 'passed',
      'tests/test_ids.py::test_marked_xfail': 'skipped',
      'tests/test_ids.py::test_marked_xpass': 'skipped',
      'tests/test_ids.py::test_words[a b]': 'failed',
      'tests/test_ids.py::test_words[x - y]': 'failed',
      'tests/test_ids.py::test_spaced[three]': 'failed',
    });
    expect(run.messages['tests/test_ids.py::test_words[x - y]']).toBe('AssertionError: a space');
    // `3 failed, 5 passed, 1 skipped, 1 deselected, 1 xfailed, 1 xpassed`: 11 ran (the deselected one did not), 11 read.
    expect({ counted: run.counted, read: run.read, unread: unreadCount(run) }).toEqual({
      counted: 11,
      read: 11,
      unread: 0,
    });
  });

  it('issue 42: with id escaping turned off (its ini option), non-ASCII ids are read as printed', () => {
    const run = readSuiteOutput(fixture('pytest-9.0.3-rA-ids-unescaped.txt'), 1);
    expect(run.tests['tests/test_ids.py::test_words[café]']).toBe('passed');
    expect(run.tests['tests/test_ids.py::test_words[日本]']).toBe('passed');
    expect(run.tests['tests/test_ids.py::test_words[a b]']).toBe('failed');
    expect(unreadCount(run)).toBe(0);
  });

  it('issue 42: XFAIL and XPASS are not passes: read as skipped, with why', () => {
    const run = readSuiteOutput(fixture('pytest-9.0.3-rA-ids.txt'), 1);
    expect(statusOf(run, 'tests/test_ids.py::test_marked_xfail')).toBe('skipped');
    expect(run.reasons).toEqual({
      'tests/test_ids.py::test_marked_xfail':
        'marked xfail (it failed as its mark expects): an expected failure is not a pass',
      'tests/test_ids.py::test_marked_xpass': 'marked xfail and passed (XPASS): a test marked to fail is not a pass',
    });
    // The -v line says the same.
    const verbose = readSuiteOutput(
      [
        '============================= test session starts ==============================',
        'tests/test_ids.py::test_marked_xfail XFAIL (not yet)                     [ 72%]',
        '============================== 1 xfailed in 0.01s ==============================',
      ].join('\n'),
      0,
    );
    expect(verbose.tests).toEqual({ 'tests/test_ids.py::test_marked_xfail': 'skipped' });
  });

  it('issue 42: a summary line the reader cannot take (an id over two lines) is counted as unread, not lost', () => {
    // A newline in a parameter, with id escaping turned off: pytest prints the id over two lines.
    const run = readSuiteOutput(fixture('pytest-9.0.3-rA-newline-id.txt'), 0);
    expect(run.tests).toEqual({
      'tests/test_nl.py::test_lines[three]': 'passed',
      'tests/test_nl.py::test_plain': 'passed',
    });
    expect({ counted: run.counted, read: run.read, unread: unreadCount(run) }).toEqual({
      counted: 3,
      read: 2,
      unread: 1,
    });
    // Without -rA only failures and errors are listed: only they are compared.
    const plain = readSuiteOutput(fixture('pytest-9.0.3-default.txt'), 1);
    expect(unreadCount(plain)).toBe(0);
  });

  it('the default output: the failures by id, the files that ran as groups (a test not listed in a file that ran passed)', () => {
    const run = readSuiteOutput(fixture('pytest-9.0.3-default.txt'), 1);
    expect(failedIds(run).sort()).toEqual([
      'tests/test_math.py::TestThing::test_method_error',
      'tests/test_math.py::test_add_broken',
      'tests/test_math.py::test_param[2-3-6]',
      'tests/test_other.py::test_other_fail',
    ]);
    expect(statusOf(run, 'tests/test_math.py::test_add')).toBe('passed');
    expect(statusOf(run, 'tests/test_gone.py::test_x')).toBe('absent');
  });

  it('a collection error interrupts the session: the suite cannot run; no tests collected: cannot run', () => {
    expect(readSuiteOutput(fixture('pytest-9.0.3-collection-error.txt'), 2).cannotRun).toMatch(
      /^pytest stopped before running any test: 1 error during collection \(tests\/test_broken_import.py\)/,
    );
    expect(readSuiteOutput(fixture('pytest-9.0.3-no-tests.txt'), 5).cannotRun).toBe('pytest collected no tests');
    expect(readSuiteOutput(fixture('pytest-9.0.3-quiet.txt'), 1).reader).toBe('pytest');
  });
});

describe('jest', () => {
  it('the default output: files as groups, failing tests by describe › name, a file that failed to run as an error', () => {
    const run = readSuiteOutput(fixture('jest-29-default.txt'), 1);
    expect(run.reader).toBe('jest');
    expect(run.groups).toEqual({
      'test/math.test.js': 'failed',
      'test/broken.test.js': 'error',
      'test/other.test.js': 'passed',
    });
    expect(failedIds(run).sort()).toEqual(['test/broken.test.js::*', 'test/math.test.js::add › adds wrongly']);
    expect(run.messages['test/math.test.js::add › adds wrongly']).toMatch(/expect\(received\)\.toBe\(expected\)/);
    expect(run.messages['test/broken.test.js::*']).toMatch(/Cannot find module '.\/does-not-exist'/);
    expect(statusOf(run, 'test/other.test.js::other ok')).toBe('passed');
    expect(statusOf(run, 'test/broken.test.js::never')).toBe('failed');
  });

  it('--verbose: every test under its describe blocks', () => {
    const run = readSuiteOutput(fixture('jest-29-verbose.txt'), 1);
    expect(run.tests).toMatchObject({
      'test/math.test.js::top level ok': 'passed',
      'test/math.test.js::add › adds': 'passed',
      'test/math.test.js::add › adds wrongly': 'failed',
      'test/math.test.js::add › skipped one': 'skipped',
      'test/other.test.js::other ok': 'passed',
    });
  });
});

describe("issue 42: the tests read beside the runner's own count", () => {
  const counts = (name: string) => {
    const run = readSuiteOutput(fixture(name), 1);
    return { counted: run.counted, read: run.read, unread: unreadCount(run) };
  };

  it('jest --verbose: every test line against `Tests: … N total`, a todo (✎) read as skipped; without --verbose nothing to compare', () => {
    const run = readSuiteOutput(fixture('jest-29-verbose-todo.txt'), 1);
    expect(run.tests).toMatchObject({
      'test/math.test.js::add › skipped one': 'skipped',
      'test/math.test.js::add › handles floats': 'skipped',
      'test/math.test.js::add › same 2 is 2': 'passed',
    });
    expect(counts('jest-29-verbose-todo.txt')).toEqual({ counted: 7, read: 7, unread: 0 });
    expect(counts('jest-29-verbose.txt')).toEqual({ counted: 5, read: 5, unread: 0 });
    expect(counts('jest-29-default.txt')).toEqual({ counted: undefined, read: undefined, unread: 0 });
  });

  it("node's runner (TAP and spec): every result, a test with subtests, a describe suite and a file that did not load among them, against `tests N` less `suites N`", () => {
    for (const name of ['node-20-tap-subtests.txt', 'node-20-spec-subtests.txt'])
      expect(counts(name)).toEqual({ counted: 6, read: 6, unread: 0 });
    expect(readSuiteOutput(fixture('node-20-spec-subtests.txt'), 1).tests).toEqual({
      'parent › child ok': 'passed',
      'parent › child fails': 'failed',
      'suite › in suite': 'passed',
      'suite › later': 'skipped',
      plain: 'passed',
    });
    for (const name of ['node-20-tap.txt', 'node-20-spec.txt'])
      expect(counts(name)).toEqual({ counted: 5, read: 5, unread: 0 });
    expect(counts('node-20-spec-duplicate-names.txt')).toEqual({ counted: 3, read: 3, unread: 0 });
  });

  it('mocha (passing + pending + failing) and vitest (`Tests … (N)`, a file that passed whole by its count)', () => {
    expect(counts('mocha-11-spec.txt')).toEqual({ counted: 5, read: 5, unread: 0 });
    expect(counts('vitest-3.2.7-default.txt')).toEqual({ counted: 5, read: 5, unread: 0 });
  });
});

describe('vitest', () => {
  it('files as groups; the tests of a failing file; a suite that could not load; the failure message', () => {
    const run = readSuiteOutput(fixture('vitest-3.2.7-default.txt'), 1);
    expect(run.reader).toBe('vitest');
    expect(run.groups).toEqual({
      'vt/math.test.js': 'failed',
      'vt/other.test.js': 'passed',
      'vt/broken.test.js': 'error',
    });
    expect(run.tests).toEqual({
      'vt/math.test.js::add > adds': 'passed',
      'vt/math.test.js::add > adds wrongly': 'failed',
      'vt/math.test.js::add > skipped one': 'skipped',
      'vt/math.test.js::top level ok': 'passed',
    });
    expect(run.messages['vt/math.test.js::add > adds wrongly']).toBe(
      'AssertionError: expected 4 to be 5 // Object.is equality',
    );
  });
});

describe('mocha', () => {
  it('the spec reporter: suites by indentation, passing, failing and pending tests, the failure message', () => {
    const run = readSuiteOutput(fixture('mocha-11-spec.txt'), 1);
    expect(run.reader).toBe('mocha');
    expect(run.tests).toEqual({
      'top level ok': 'passed',
      'add › adds': 'passed',
      'add › adds wrongly': 'failed',
      'add › skipped one': 'skipped',
      'add › nested › deep ok': 'passed',
    });
    expect(run.messages['add › adds wrongly']).toMatch(
      /^AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:/,
    );
  });

  it('an exception while loading: cannot run', () => {
    expect(readSuiteOutput(fixture('mocha-11-load-error.txt'), 1).cannotRun).toMatch(
      /^mocha stopped before running any test: Error: Cannot find module '.\/nope'/,
    );
  });
});

describe("node's test runner", () => {
  for (const [name, file] of [
    ['TAP', 'node-20-tap-duplicate-names.txt'],
    ['spec', 'node-20-spec-duplicate-names.txt'],
  ] as const) {
    it(`${name}: two files each with a test of the same name (node names no file), the first failing: the name fails, whichever is read last`, () => {
      const run = readSuiteOutput(fixture(file), 1);
      expect(run.tests).toEqual({ 'parses empty input': 'failed', 'only in a': 'passed' });
      expect(run.messages['parses empty input']).toContain('0 !== 1');
    });
  }

  for (const [name, file] of [
    ['TAP', 'node-20-tap.txt'],
    ['spec', 'node-20-spec.txt'],
  ] as const) {
    it(`${name}: the leaves of the subtest tree; a file that failed before defining tests is a group that did not load, with node's error`, () => {
      const run = readSuiteOutput(fixture(file), 1);
      expect(run.reader).toBe('node-test');
      expect(run.tests).toMatchObject({
        'add › adds': 'passed',
        'add › adds wrongly': 'failed',
        'add › skipped one': 'skipped',
        'top level ok': 'passed',
      });
      expect(run.tests['add']).toBeUndefined();
      expect(Object.keys(run.tests).filter((id) => id.endsWith('broken.test.mjs'))).toEqual([]);
      expect(run.groups).toEqual({ '/home/user/nt/broken.test.mjs': 'error' });
      expect(run.messages['/home/user/nt/broken.test.mjs::*']).toMatch(
        /^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module '\/home\/user\/nt\/does-not-exist.mjs'/,
      );
      expect(run.cannotRun).toBeUndefined();
    });
  }
  for (const [name, file] of [
    ['TAP', 'node-20-tap-load-error.txt'],
    ['spec', 'node-20-spec-load-error.txt'],
  ] as const) {
    it(`${name}: a test file that imports an export its module lacks (TDD's typical first RED) is a load error named with the SyntaxError and where`, () => {
      const run = readSuiteOutput(fixture(file), 1);
      expect(run.tests).toEqual({ 'add adds': 'passed' });
      expect(failedIds(run)).toEqual(['/home/user/calc/test/mul.test.mjs::*']);
      expect(run.messages['/home/user/calc/test/mul.test.mjs::*']).toBe(
        "SyntaxError: The requested module '../src/calc.mjs' does not provide an export named 'mul'\nfile:///home/user/calc/test/mul.test.mjs:3",
      );
    });
  }
  it('only files that did not load: cannot run, not an empty suite', () => {
    const tap = fixture('node-20-tap-load-error.txt')
      .split('\n')
      .filter((l) => !/add adds|duration_ms: 1\./.test(l))
      .join('\n');
    const run = readSuiteOutput(tap, 1);
    expect(run.cannotRun).toMatch(/^no test file could run \(\/home\/user\/calc\/test\/mul.test.mjs: SyntaxError: /);
    expect(run.noTests).toBeUndefined();
  });
  it("TAP: a failure's message given as a block scalar (error: |-) is its lines", () => {
    const run = readSuiteOutput(fixture('node-20-tap.txt'), 1);
    expect(run.messages['add › adds wrongly']).toMatch(/^Expected values to be strictly equal:\n\n?4 !== 5/);
  });
});

describe('go test', () => {
  it('packages as groups, failing tests and subtests named in their package, a package that did not build as an error', () => {
    const run = readSuiteOutput(fixture('go-1.19-build-failed.txt'), 1);
    expect(run.reader).toBe('go-test');
    expect(run.groups).toEqual({
      'example.com/rec/broken': 'error',
      'example.com/rec/mathx': 'failed',
      'example.com/rec/other': 'passed',
    });
    expect(run.tests).toEqual({
      'example.com/rec/mathx::TestAddWrongly': 'failed',
      'example.com/rec/mathx::TestTable': 'failed',
      'example.com/rec/mathx::TestTable/two': 'failed',
    });
    expect(run.messages['example.com/rec/mathx::TestAddWrongly']).toBe('mathx_test.go:13: two and two: got 4');
    expect(run.messages['example.com/rec/broken::*']).toMatch(/cannot use "s"/);
    expect(statusOf(run, 'example.com/rec/mathx::TestAdd')).toBe('passed');
  });

  it('-v: passing and skipped tests too', () => {
    const run = readSuiteOutput(fixture('go-1.19-test-v.txt'), 1);
    expect(run.tests).toMatchObject({
      'example.com/rec/mathx::TestAdd': 'passed',
      'example.com/rec/mathx::TestSkip': 'skipped',
      'example.com/rec/other::TestOther': 'passed',
    });
  });
});

describe('cargo test', () => {
  it('binaries as groups named by their source; the tests; the panic message', () => {
    const run = readSuiteOutput(fixture('cargo-1.95-no-fail-fast.txt'), 101);
    expect(run.reader).toBe('cargo-test');
    expect(run.tests).toEqual({
      'src/lib.rs::tests::adds': 'passed',
      'src/lib.rs::tests::ignored_one': 'skipped',
      'src/lib.rs::tests::adds_wrongly': 'failed',
      'tests/integration.rs::integration_ok': 'passed',
    });
    expect(run.messages['src/lib.rs::tests::adds_wrongly']).toMatch(/assertion `left == right` failed: two and two/);
  });

  it('fail-fast: the binaries after the failing one did not run (absent, not passed); a compile error: cannot run', () => {
    const run = readSuiteOutput(fixture('cargo-1.95-test.txt'), 101);
    expect(statusOf(run, 'tests/integration.rs::integration_ok')).toBe('absent');
    expect(readSuiteOutput(fixture('cargo-1.95-compile-error.txt'), 101).cannotRun).toMatch(
      /^cargo could not build the tests: error: could not compile `adder`/,
    );
  });
});

describe('no reader', () => {
  it('output no reader understands is judged by its exit code alone; 127 cannot run', () => {
    expect(readSuiteOutput('all good\n', 0).reader).toBeUndefined();
    expect(readSuiteOutput('sh: 1: nosuchcmd: not found\n', 127).cannotRun).toMatch(/command not found/);
  });

  it('JUnit XML, when given, wins over the console', () => {
    const xml =
      '<testsuite><testcase classname="a" name="ok"/><testcase classname="a" name="bad"><failure message="nope"/></testcase></testsuite>';
    const run = readSuiteOutput(fixture('mocha-11-spec.txt'), 1, xml);
    expect(run.reader).toBe('junit');
    expect(run.tests).toEqual({ 'a::ok': 'passed', 'a::bad': 'failed' });
    expect(run.messages['a::bad']).toBe('nope');
  });
});

describe('tape', () => {
  it('tests are the `# name` lines, each failing when one of its assertions fails (node --test does not claim it: it ran no tests of its own)', () => {
    const run = readSuiteOutput(fixture('tape-5.10.2.txt'), 1);
    expect(run.reader).toBe('tape');
    expect(run.cannotRun).toBeUndefined();
    expect(run.tests).toEqual({
      adds: 'passed',
      'merges functions': 'failed',
      'skipped one': 'skipped',
      inner: 'passed',
    });
    expect(run.messages['merges functions']).toBe(
      'merged copy\noperator: deepEqual\nexpected: { a: 2 }\nactual: { a: 1 }',
    );
  });

  it('a run that dies before its summary (a test threw): the test it died in fails with the crash, the tests after the crash are not read as passing (not listed), and it is a run, not one that cannot run', () => {
    const run = readSuiteOutput(fixture('tape-5.10.2-crash.txt'), 1);
    expect(run.reader).toBe('tape');
    expect(run.cannotRun).toBeUndefined();
    expect(run.tests).toEqual({ adds: 'passed', crashes: 'failed' });
    expect(run.messages['crashes']).toBe(
      "tape stopped in this test after 2 assertion(s), before its summary (exit code 1: TypeError: Cannot read properties of null (reading 'x'))",
    );
    expect(readSuiteOutput(fixture('tape-5.10.2.txt'), 1).cannotRun).toBeUndefined();
  });
});

describe('a test name that shows more than once', () => {
  it('in a JUnit report: fails when any of its cases failed, passes over skipped', () => {
    const xml = `<testsuites><testsuite name="s">
<testcase classname="c" name="dup"><failure message="boom">boom</failure></testcase>
<testcase classname="c" name="dup"/>
<testcase classname="c" name="twice"><skipped/></testcase>
<testcase classname="c" name="twice"/>
</testsuite></testsuites>`;
    const run = readSuiteOutput('', 1, xml);
    expect(run.tests).toEqual({ 'c::dup': 'failed', 'c::twice': 'passed' });
    expect(run.messages['c::dup']).toBe('boom');
  });
});

describe('issue 42: pytest ids with spaces, brackets and unicode, read by every reader that sees them, as many as pytest counts', () => {
  // pytest-9.0.3-*-ids*: test_x[a-b] (two parameters), test_words[a b], [x - y], [[1]], [é], [日本],
  // test_spaced[one two] (an ids= with a space), TestThing::test_method[é b], test_plain: 11, 3 failing.
  const escaped = [
    'test_x[a-b]',
    'test_x[c-d]',
    'test_words[a b]',
    'test_words[x - y]',
    'test_words[[1]]',
    'test_words[\\xe9]',
    'test_words[\\u65e5\\u672c]',
    'test_spaced[one two]',
    'test_spaced[three]',
    'TestThing::test_method[\\xe9 b]',
    'test_plain',
  ];
  const unescaped = escaped.map((id) => id.replaceAll('\\xe9', 'é').replace('\\u65e5\\u672c', '日本'));
  const failing = ['test_words[a b]', 'test_words[x - y]', 'test_spaced[three]'];
  const expected = (ids: string[], group: (id: string) => string) =>
    Object.fromEntries(ids.map((id) => [group(id), failing.includes(id) ? 'failed' : 'passed'] as const));
  const byFile = (id: string) => `tests/test_ids.py::${id}`;
  /** A fixture recorded with ids escaped (pytest's default) and its twin with escaping turned off, each with its ids. */
  const bothWays = (name: string, unescapedName: string) =>
    [
      [name, escaped],
      [unescapedName, unescaped],
    ] as const;
  /** pytest's own count, from its final line (`3 failed, 8 passed in 0.16s`). */
  const pytestCount = (output: string) => {
    const last = output.trim().split('\n').at(-1) ?? '';
    return [...last.matchAll(/(\d+) (failed|passed)/g)].reduce((n, m) => n + Number(m[1]), 0);
  };

  it('-v -rA (verbose lines and the short summary): all 11 read, as pytest counts them; escaped and unescaped', () => {
    for (const [name, ids] of bothWays('pytest-9.0.3-v-rA-ids.txt', 'pytest-9.0.3-v-rA-ids-unescaped.txt')) {
      const output = fixture(name);
      const run = readSuiteOutput(output, 1);
      expect(run.tests).toEqual(expected(ids, byFile));
      expect(pytestCount(output)).toBe(11);
      expect({ counted: run.counted, read: run.read, unread: unreadCount(run) }).toEqual({
        counted: 11,
        read: 11,
        unread: 0,
      });
    }
  });

  it('-v alone (no short summary of passes): every verbose line read, the 3 failures pytest lists compared', () => {
    const output = fixture('pytest-9.0.3-v-ids.txt');
    const run = readSuiteOutput(output, 1);
    expect(run.tests).toEqual(expected(escaped, byFile));
    expect(Object.keys(run.tests)).toHaveLength(pytestCount(output));
    expect(unreadCount(run)).toBe(0);
  });

  it('--junitxml: every testcase read whole, as many as the report declares', () => {
    for (const [name, ids] of bothWays('pytest-9.0.3-ids-junit.xml', 'pytest-9.0.3-ids-junit-unescaped.xml')) {
      const xml = fixture(name);
      const run = readJUnit(xml, 1);
      // JUnit names a test by its classname (the module, dotted; the class after it).
      const byClass = (id: string) => (id.startsWith('TestThing::') ? `tests.test_ids.${id}` : `tests.test_ids::${id}`);
      expect(run?.tests).toEqual(expected(ids, byClass));
      expect(xml).toContain('tests="11"');
      expect(unreadCount(run ?? { counted: 0, read: 0 })).toBe(0);
    }
  });
});
