/**
 * Each failing test's own failure text (issue 42), read from real runners' output
 * (__tests__/fixtures/runners, README.md there says how each was made): the head of the test's own
 * failure section, never another test's and never the passing tests' lines; bounded per test and
 * per run.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import {
  FAILURE_TEXT,
  OUTPUT_END,
  boundFailureText,
  boundRunTexts,
  condensePytestSection,
  outputEnd,
} from '../../src/verdict/failureText.js';
import { readJUnit, readSuiteOutput } from '../../src/verdict/readers/index.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/runners/${name}`, import.meta.url), 'utf8');
const textsOf = (name: string) => readSuiteOutput(fixture(name), 1).failureText ?? {};

describe('failure text per test (issue 42)', () => {
  it("pytest: each failed test's own section (its assertion, the E lines, the location), the one of its own file when two files have a test of that name", () => {
    const texts = textsOf('pytest-9.0.3-rA-tracebacks.txt');
    expect(Object.keys(texts).sort()).toEqual([
      'tests/test_calc.py::TestNested::test_dict',
      'tests/test_calc.py::test_parse_words',
      'tests/test_calc.py::test_ratio',
      'tests/test_calc.py::test_total',
      'tests/test_other.py::test_total',
    ]);
    expect(texts['tests/test_calc.py::test_total']).toBe(
      [
        '    def test_total():',
        '>       assert total("1,2,3") == 6',
        'E       AssertionError: assert 7 == 6',
        "E        +  where 7 = total('1,2,3')",
        '',
        'tests/test_calc.py:11: AssertionError',
      ].join('\n'),
    );
    expect(texts['tests/test_other.py::test_total']).toContain("E       AssertionError: the other file's test_total");
    expect(texts['tests/test_other.py::test_total']).not.toContain('assert 7 == 6');
    // A method of a class: its section is headed `TestNested.test_dict`; the diff is kept.
    expect(texts['tests/test_calc.py::TestNested::test_dict']).toContain("E         {'version': 2} != {'version': 3}");
    // A traceback through other functions: its head (the test's line) and its end (the error).
    const ratio = texts['tests/test_calc.py::test_ratio'] as string;
    expect(ratio).toContain('>           results.append(ratio(a, b))');
    expect(ratio).toContain('E       ZeroDivisionError: division by zero');
    for (const text of Object.values(texts)) expect(text).not.toMatch(/PASSED|short test summary/);
  });

  it('pytest: an error at setup and a file that cannot be collected have their sections too', () => {
    expect(textsOf('pytest-9.0.3-rA.txt')['tests/test_math.py::TestThing::test_method_error']).toContain(
      "E       fixture 'missing_fixture' not found",
    );
    expect(
      readSuiteOutput(fixture('pytest-9.0.3-collection-error.txt'), 2).failureText?.['tests/test_broken_import.py::*'],
    ).toContain("E   ModuleNotFoundError: No module named 'nonexistent_module_xyz'");
  });

  it('jest: each ● block, its diff and code frame, one stack frame; with or without --verbose', () => {
    for (const name of ['jest-29-failures.txt', 'jest-29-verbose-failures.txt']) {
      const texts = textsOf(name);
      expect(Object.keys(texts).sort()).toEqual([
        'test/calc.test.js::calc › config',
        'test/calc.test.js::calc › parses words',
        'test/calc.test.js::calc › totals',
      ]);
      const config = texts['test/calc.test.js::calc › config'] as string;
      expect(config).toContain('expect(received).toEqual(expected) // deep equality');
      expect(config).toContain('-   "version": 3,\n+   "version": 2,');
      expect(config).toContain('at Object.toEqual (test/calc.test.js:5:41)');
      expect(texts['test/calc.test.js::calc › totals']).toContain('Expected: 6\nReceived: 7');
      expect(texts['test/calc.test.js::calc › parses words']).toContain('TypeError: not a number in [null,null]');
      for (const text of Object.values(texts)) expect(text).not.toMatch(/✓|counts \d/);
    }
  });

  it('vitest: each failed test block from "Failed Tests", its diff included; a file that fails to load too', () => {
    const texts = textsOf('vitest-3.2.7-failures.txt');
    expect(texts['vt/calc.test.js::calc > totals']).toContain(
      'AssertionError: expected 7 to be 6 // Object.is equality\n\n- Expected\n+ Received\n\n- 6\n+ 7',
    );
    expect(texts['vt/calc.test.js::calc > config']).toContain('-   "version": 3,\n+   "version": 2,');
    expect(texts['vt/calc.test.js::calc > parses words']).toContain('TypeError: not a number in [null,null]');
    expect(texts['vt/calc.test.js::calc > parses words']).not.toContain('⎯');
    expect(textsOf('vitest-3.2.7-default.txt')['vt/broken.test.js::*']).toContain(
      "Error: Cannot find module './does-not-exist.js'",
    );
  });

  it("mocha: each numbered failure's details, its expected/actual diff", () => {
    const texts = textsOf('mocha-11-failures.txt');
    expect(texts['calc › totals']).toContain('7 !== 6\n\n+ expected - actual\n\n-7\n+6');
    expect(texts['calc › config']).toContain('Expected values to be strictly deep-equal:');
    expect(texts['calc › config']).toContain('-   version: 3');
    // An error that is not an assertion follows its title with no blank line.
    expect(texts['calc › parses words']).toBe(
      'TypeError: not a number in [null,null]\nat Context.<anonymous> (mt/calc.spec.js:9:41)',
    );
  });

  it("node's runner: TAP's YAML error, expected and actual without timings or the stack; spec's printed error", () => {
    const tap = textsOf('node-20-tap-failures.txt');
    expect(tap['calc › totals']).toBe(
      [
        'error: |-',
        '  Expected values to be strictly equal:',
        '',
        '  7 !== 6',
        '',
        "name: 'AssertionError'",
        'expected: 6',
        'actual: 7',
        "operator: 'strictEqual'",
      ].join('\n'),
    );
    expect(tap['calc › parses words']).toBe("error: 'not a number in [null,null]'\nname: 'TypeError'");
    // A suite that fails because a test in it does has no text of its own.
    expect(textsOf('node-20-tap-subtests.txt')).toEqual({
      'parent › child fails': expect.stringContaining('1 !== 2') as unknown as string,
    });
    const spec = textsOf('node-20-spec-failures.txt');
    expect(spec['calc › config']).toContain('-   version: 3');
    expect(spec['calc › config']).toContain("expected: { name: 'calc', version: 3, tags: [ 'a', 'b', 'c' ] }");
  });

  it('go: the log lines under a failing test', () => {
    expect(textsOf('go-1.19-test.txt')['example.com/rec/mathx::TestAddWrongly']).toBe(
      'mathx_test.go:13: two and two: got 4',
    );
  });

  it("JUnit: a failure's message, then its text", () => {
    const run = readJUnit(
      '<testsuite><testcase classname="calc" name="totals"><failure message="expected 7 to be 6">AssertionError: expected 7 to be 6\n    at calc.test.js:4:5</failure></testcase><testcase classname="calc" name="ok"/></testsuite>',
      1,
    );
    expect(run?.failureText).toEqual({
      'calc::totals': 'expected 7 to be 6\n\nAssertionError: expected 7 to be 6\n    at calc.test.js:4:5',
    });
  });

  it('bounded: a test at most 40 lines and 4 KB (what is cut said), a run 64 KB in all', () => {
    const many = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    const text = boundFailureText(['', ...many, '', '']);
    expect(text.split('\n')).toHaveLength(FAILURE_TEXT.lines + 1);
    expect(text.split('\n').at(-1)).toBe('… (60 more line(s))');
    expect(boundFailureText(['x'.repeat(10_000)])).toHaveLength(FAILURE_TEXT.chars);
    const run = { failureText: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`t${i}`, 'y'.repeat(4000)])) };
    boundRunTexts(run);
    expect(Object.keys(run.failureText)).toHaveLength(16);
  });

  it("a long pytest section: the test's head, then every failing line, E line and location, in order", () => {
    const frames = Array.from({ length: 30 }, (_, i) => [`lib.py:${i}: in f${i}`, `    return f${i + 1}()`]).flat();
    const text = condensePytestSection([
      '',
      '    def test_deep():',
      '>       f0()',
      ...frames,
      '>   raise ValueError("deep")',
      'E   ValueError: deep',
      '',
      'lib.py:30: ValueError',
    ]);
    expect(text.split('\n').length).toBeLessThanOrEqual(FAILURE_TEXT.lines + 1);
    expect(text.startsWith('    def test_deep():\n>       f0()')).toBe(true);
    expect(text).toContain('…\n>   raise ValueError("deep")\nE   ValueError: deep\n…\nlib.py:30: ValueError');
  });

  it("the output's end without the passing tests' lines, of any runner, bounded", () => {
    const end = outputEnd(fixture('pytest-9.0.3-rA-tracebacks.txt'));
    expect(end.split('\n')).toHaveLength(OUTPUT_END.lines);
    expect(end).not.toContain('PASSED');
    expect(end.split('\n').at(-1)).toMatch(/5 failed, 31 passed/);
    for (const name of [
      'jest-29-verbose-failures.txt',
      'vitest-3.2.7-failures.txt',
      'mocha-11-failures.txt',
      'node-20-tap-failures.txt',
      'go-1.19-test-v.txt',
    ])
      expect(outputEnd(fixture(name))).not.toMatch(/✓|✔|^ok \d+ |--- PASS|=== RUN/m);
    expect(outputEnd('x'.repeat(5000))).toHaveLength(OUTPUT_END.chars);
    expect(outputEnd('PASSED a::b\n\n')).toBe('');
  });
});
