/**
 * Failures read from a test runner's console output, for the red/green/refactor workflow's retry
 * prompts when there is no JUnit XML: jest's, pytest's and go test's. The samples follow the
 * runners' real output (jest's was generated).
 */
import { describe, expect, it } from '@jest/globals';
import { failuresFromOutput } from '../../src/verdict/consoleFailures.js';
import { REPORT_LIMITS } from '../../src/verdict/testReport.js';

describe('failuresFromOutput', () => {
  // jest 29 --ci (generated): a console block, two failing tests, a suite that failed to run.
  const jestOutput = `FAIL ./calc.test.js
  ● Console

    console.log
      hello

      at Object.log (calc.test.js:7:13)

  ● Calculator › adds numbers

    expect(received).toBe(expected) // Object.is equality

    Expected: 3
    Received: 2

      2 | describe('Calculator', () => {
      3 |   it('adds numbers', () => {
    > 4 |     expect(add(1, 1)).toBe(3);
        |                       ^
      5 |   });

      at Object.toBe (calc.test.js:4:23)

  ● Calculator › division › throws on zero

    expect(received).toThrow(expected)

    Expected substring: "division by zero"

    Received function did not throw

      10 |   describe('division', () => {
    > 12 |       expect(() => 1 / 0).toThrow('division by zero');
         |                           ^

      at Object.toThrow (calc.test.js:12:27)

FAIL ./broken.test.js
  ● Test suite failed to run

    Cannot find module './missing' from 'broken.test.js'

    > 1 | const x = require('./missing');
        |                               ^

      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)

Test Suites: 2 failed, 2 total
Tests:       2 failed, 1 passed, 3 total
Snapshots:   0 total
Time:        0.355 s
Ran all test suites.`;

  it("reads jest's ● blocks (not the console block), each message up to its code frame", () => {
    expect(failuresFromOutput(jestOutput)).toEqual([
      {
        name: 'Calculator › adds numbers',
        message: 'expect(received).toBe(expected) // Object.is equality\n\nExpected: 3\nReceived: 2',
      },
      {
        name: 'Calculator › division › throws on zero',
        message:
          'expect(received).toThrow(expected)\n\nExpected substring: "division by zero"\n\nReceived function did not throw',
      },
      {
        name: './broken.test.js › Test suite failed to run',
        message: "Cannot find module './missing' from 'broken.test.js'",
      },
    ]);
  });

  it('reads jest\'s colored output the same, and drops the repeats of its "Summary of all failing tests"', () => {
    const esc = String.fromCharCode(27);
    const colored = `${esc}[1m${esc}[31m  ${esc}[1m● ${esc}[22m${esc}[1mCalculator › adds numbers${esc}[39m${esc}[22m\n\n    Expected: ${esc}[32m3${esc}[39m\n\n      at Object.toBe (calc.test.js:4:23)\n`;

    const found = failuresFromOutput(`${colored}\nSummary of all failing tests\n${colored}`);

    expect(found).toEqual([{ name: 'Calculator › adds numbers', message: 'Expected: 3' }]);
  });

  it("reads pytest's short test summary: FAILED and ERROR lines, with or without a message", () => {
    const output = `tests/test_user_login.py:17: AssertionError
------------------------------ Captured log call -------------------------------
ERROR    app.auth:auth.py:10 login failed for alice
=========================== short test summary info ============================
FAILED tests/test_user_login.py::test_login_with_valid_credentials - AssertionError: expected True but got False
FAILED tests/test_user_login.py::TestSession::test_expiry[utc offset] - assert 3600 == 7200
FAILED tests/test_user_login.py::test_compare
ERROR tests/test_broken.py - SyntaxError: invalid syntax
========================= 3 failed, 1 passed, 1 error in 0.52s =========================`;

    expect(failuresFromOutput(output)).toEqual([
      {
        name: 'tests/test_user_login.py::test_login_with_valid_credentials',
        message: 'AssertionError: expected True but got False',
      },
      { name: 'tests/test_user_login.py::TestSession::test_expiry[utc offset]', message: 'assert 3600 == 7200' },
      { name: 'tests/test_user_login.py::test_compare', message: '' },
      { name: 'tests/test_broken.py', message: 'SyntaxError: invalid syntax' },
    ]);
  });

  it("reads go test's --- FAIL lines with the log lines under them, subtests included", () => {
    const output = `--- FAIL: TestAdd (0.00s)
    calc_test.go:10: add(1, 1) = 2, want 3
--- FAIL: TestTable (0.00s)
    --- FAIL: TestTable/negative (0.00s)
        calc_test.go:25: add(-1, -1) = 0, want -2
        calc_test.go:26: second line
FAIL
FAIL	example.com/calc	0.002s
FAIL`;

    expect(failuresFromOutput(output)).toEqual([
      { name: 'TestAdd', message: 'calc_test.go:10: add(1, 1) = 2, want 3' },
      { name: 'TestTable', message: '' },
      {
        name: 'TestTable/negative',
        message: 'calc_test.go:25: add(-1, -1) = 0, want -2\ncalc_test.go:26: second line',
      },
    ]);
  });

  it('reads go test -v, where the log lines come before --- FAIL', () => {
    const output = `=== RUN   TestAdd
    calc_test.go:10: add(1, 1) = 2, want 3
--- FAIL: TestAdd (0.00s)
=== RUN   TestSub
--- PASS: TestSub (0.00s)
=== RUN   TestMul
--- FAIL: TestMul (1.20s)
FAIL
exit status 1
FAIL	example.com/calc	1.204s`;

    expect(failuresFromOutput(output)).toEqual([
      { name: 'TestAdd', message: 'calc_test.go:10: add(1, 1) = 2, want 3' },
      { name: 'TestMul', message: '' },
    ]);
  });

  it("reads a go package that does not build, with the compiler's lines", () => {
    const output = `# example.com/calc [example.com/calc.test]
./calc_test.go:12:9: undefined: Multiply
./calc_test.go:13:2: declared and not used: x
FAIL	example.com/calc [build failed]
FAIL`;

    expect(failuresFromOutput(output)).toEqual([
      {
        name: 'example.com/calc',
        message: './calc_test.go:12:9: undefined: Multiply\n./calc_test.go:13:2: declared and not used: x',
      },
    ]);
  });

  it('finds nothing in a passing run, and bounds what it returns', () => {
    expect(failuresFromOutput('PASS ./calc.test.js\nTests: 3 passed, 3 total\nok  \texample.com/calc\t0.002s')).toEqual(
      [],
    );

    const many = Array.from({ length: 80 }, (_, i) => `FAILED tests/test_x.py::test_${i} - ${'x'.repeat(3_000)}`).join(
      '\n',
    );
    const found = failuresFromOutput(many);
    expect(found).toHaveLength(REPORT_LIMITS.failed);
    expect(found[0]?.message).toHaveLength(REPORT_LIMITS.message);
  });
});
