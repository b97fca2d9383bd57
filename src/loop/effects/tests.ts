/**
 * The iteration's test run by test name (the workflow's sub-machine asks, src/core/iteration.ts;
 * --workflow tdd): the test command's run, and what it says (the JUnit report, else the runner's
 * output), not yet against the baseline. With a `judge` (issue 42: src/workflows/tdd/judgeBase.ts)
 * it runs in a judge tree of the judge's base holding the work (src/loop/judgePlace.ts), every
 * protected path the work changed as the base has it, and the judge's findings come back with it.
 */
import { failuresFromOutput } from '../../verdict/consoleFailures.js';
import { parseJUnitXml } from '../../verdict/junit.js';
import type { TestOutcome, TestsSeen } from '../../verdict/results.js';
import { summariseFailures } from '../../verdict/testReport.js';
import type { TreeJudge } from '../../judge/judgeRun.js';
import type { SliceDeps } from '../deps.js';
import { type JudgePlace, judgeRules, openJudgePlace } from '../judgePlace.js';
import type { Handler } from './context.js';

export const runTests: Handler<'runTests'> = async (effect, ctx) => {
  const { deps } = ctx;
  const { settings } = deps;
  const judge = effect.judge;
  // What decides what git stages put back first, as a commit does: the tree judged is the tree committed.
  if (judge && deps.judgeTrees) await deps.git?.putBackStaging('judge');
  const judged =
    judge && deps.judgeTrees
      ? await openJudgePlace(
          deps.judgeTrees,
          judge.base,
          judgeRules(settings, { allowed: judge.allowed }),
          judge.addedTests === 'run' ? 'withAddedTests' : 'withoutAddedTests',
        )
      : undefined;
  try {
    if (judged && judge) sayJudgeTree(deps, judged, judge);
    // The test command's runner removes a stale report before the run and reads the new one, masked
    // where it enters the engine (src/loop/testGate.ts): what it read is in the outcome, never read again.
    const tests = judged
      ? await deps.runTests(settings.testCommand, deps.signal, 'verify', judged.place)
      : await deps.runTests(settings.testCommand, deps.signal, 'verify');
    if (deps.signal?.aborted) return { type: 'interrupted' };
    return {
      type: 'testsRan',
      tests,
      seen: testsSeen(tests, settings.junitFile ? tests.junit : undefined),
      ...(judged?.findings.length ? { findings: judged.findings } : {}),
      ...(judged?.removedLinks.length ? { removedLinks: judged.removedLinks } : {}),
      now: deps.clock.now().getTime(),
    };
  } finally {
    await judged?.close();
  }
};

/** What the phase's judge tree holds besides the work as it is: logged when anything. */
function sayJudgeTree(deps: SliceDeps, judged: JudgePlace, judge: TreeJudge): void {
  const added = judged.addedTests.reduce((n, f) => n + f.names.length, 0);
  if (judged.findings.length === 0 && judged.removedLinks.length === 0 && (added === 0 || judge.addedTests === 'run'))
    return;
  const parts = [
    judged.findings.length
      ? `${judged.findings.length} protected path(s) the agent changed taken from ${judge.base.slice(0, 12)} (${judged.findings.map((f) => f.path).join(', ')})`
      : '',
    added && judge.addedTests === 'leftOut'
      ? `${added} test(s) the agent added left out (the tests of ${judge.base.slice(0, 12)} judge the phase)`
      : '',
    judged.removedLinks.length
      ? `${judged.removedLinks.length} symlink(s) pointing outside the repository removed (${judged.removedLinks.join(', ')})`
      : '',
  ].filter(Boolean);
  deps.logger.info(
    'judge.tree',
    `The phase's tests run in a tree of ${judge.base.slice(0, 12)} holding the work: ${parts.join('; ')}.`,
    {
      base: judge.base,
      findings: judged.findings,
      addedTests: judged.addedTests,
      removedLinks: judged.removedLinks,
    },
  );
}

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
