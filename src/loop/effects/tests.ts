/**
 * The iteration's test run by test name (the workflow's sub-machine asks, src/core/iteration.ts;
 * --workflow tdd): the test command's run, and what it says (the JUnit report, else the runner's
 * output), not yet against the baseline.
 */
import { failuresFromOutput } from '../../verdict/consoleFailures.js';
import { parseJUnitXml } from '../../verdict/junit.js';
import type { TestOutcome, TestsSeen } from '../../verdict/results.js';
import { summariseFailures } from '../../verdict/testReport.js';
import type { Handler } from './context.js';

export const runTests: Handler<'runTests'> = async (_effect, ctx) => {
  const { deps } = ctx;
  const { settings } = deps;
  // The test command's runner removes a stale report before the run and reads the new one, masked
  // where it enters the engine (src/loop/testGate.ts): what it read is in the outcome, never read again.
  const tests = await deps.runTests(settings.testCommand, deps.signal, 'verify');
  if (deps.signal?.aborted) return { type: 'interrupted' };
  return {
    type: 'testsRan',
    tests,
    seen: testsSeen(tests, settings.junitFile ? tests.junit : undefined),
    now: deps.clock.now().getTime(),
  };
};

/** What a test run says: the failing tests by name (the JUnit report, else the runner's output). */
function testsSeen(run: TestOutcome, xml: string | undefined): TestsSeen {
  if (xml !== undefined) {
    const report = parseJUnitXml(xml);
    const failing = report.failed.map((f) =>
      f.classname && !f.name.startsWith(f.classname) ? `${f.classname} › ${f.name}` : f.name,
    );
    // A run that failed with no failing testcase in the report: it did not compile, or nothing ran
    // (jest-junit leaves a suite that fails to compile out of the report).
    return {
      passed: run.passed,
      failing,
      compileError: !run.passed && report.failed.length === 0,
      summary: report.failed.length > 0 ? summariseFailures(report) : run.tail.slice(-4000),
    };
  }
  const failures = run.passed ? [] : failuresFromOutput(run.tail);
  return {
    passed: run.passed,
    failing: failures.map((f) => f.name),
    compileError: !run.passed && failures.length === 0,
    summary:
      failures.length > 0
        ? `${failures.length} failing test(s):\n${failures
            .slice(0, 10)
            .map((f) => `- ${f.name}: ${f.message.split('\n')[0]}`)
            .join('\n')}\n\n${run.tail.slice(-2000)}`
        : run.tail.slice(-4000),
  };
}
