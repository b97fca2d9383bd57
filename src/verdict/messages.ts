/**
 * What the verdict says about a suite it cannot judge or a baseline it cannot use, one entry per
 * message: what was seen, and what to do. Pure text: the judge and the baseline decide, this words.
 */
import type { Surface } from '../config/surface.js';

/** Up to `max` ids, then an ellipsis when there are more. */
export function firstIds(ids: string[], max: number): string {
  return `${ids.slice(0, max).join(', ')}${ids.length > max ? ', …' : ''}`;
}

export const VERDICT_MESSAGES = {
  outputUnreadable: (exitCode: number | null, readBefore: number) =>
    `the test output can no longer be read per test (exit code ${exitCode}, but none of the ${readBefore} test(s) ` +
    'read before shows in it): the test command, its configuration or the runner may have been changed',
  targetUnreadable: (say: Surface) =>
    'its result cannot be read: the test output is not read per test ' +
    `(have the test command write a JUnit report and name it with ${say.option('junitFile')})`,
  suiteFailsBesideTests: (exitCode: number | null) =>
    `the test command exited ${exitCode}, where it exited 0 before this cycle, and no test in its output failed: ` +
    'something else it checks (a linter, a coverage threshold, a teardown, a step after the tests) fails now',
  unread: (count: number) =>
    `${count} test result(s) the runner counted in its summary could not be read one by one and are not judged ` +
    '(an id the reader does not take: the full output is in the log; a JUnit report, named with the junit-file option, is read whole)',
  /** Accepted work held for a person (unverified) because of results not read one by one. */
  unreadHeld: (counted: number, read: number, say: Surface) =>
    `the runner counted ${counted} test result(s) in its summary and agent-loop read ${read} of them one by one: ` +
    `the ${counted - read} it could not read are not judged, and one of them could be a broken test ` +
    `(the full output is in the log). Have the test command write a JUnit report and name it with ${say.option('junitFile')} ` +
    `(a JUnit report is read whole), or land such work with ${say.given('acceptUnverified')}`,
  /** Said once the baseline has results not read one by one: what accepted work on this suite comes to. */
  unreadAhead: (reader: string, counted: number, read: number, say: Surface) =>
    `${reader} counted ${counted} test result(s) on the cycle's base and agent-loop read ${read} of them one by one: ` +
    'work the tests accept on this suite is held for a person as unverified while results are not read ' +
    `(one could be a broken test). Have the test command write a JUnit report and name it with ${say.option('junitFile')} ` +
    `(a JUnit report is read whole), or land such work with ${say.given('acceptUnverified')}`,
  targetToCreate:
    "the issue names this test and the base does not have it: it is yours to write (in the project's test layout), " +
    'and it did not run',
  casesGone: (now: number, before: number, gone: string) =>
    `it ran ${now} time(s) where the baseline ran it ${before} time(s) (cases gone: ${gone}): a case that does not run is not a pass`,
  preexistingForAgent: (ids: string[]) =>
    `Failing before this cycle and not this issue's (leave them unless the issue asks): ${firstIds(ids, 10)}`,
  pytestUnnamed: (exitCode: number | null, namedBefore: number) =>
    `pytest's output no longer names its tests (exit code ${exitCode}; it named ${namedBefore} before): ` +
    'its short test summary was turned off (--no-summary, or -r, in its configuration or the test command?), ' +
    'so no test can be judged',
  baselineCannotRun: (command: string, why: string) =>
    `the test command \`${command}\` cannot run on the base branch: ${why}`,
  baselineCannotRunAdvice: (say: Surface) =>
    'Make the suite run before any agent works on it: install what it needs (the error above names it), ' +
    `or give a test command that runs here (${say.option('testCommand')}; ` +
    'e.g. pytest --continue-on-collection-errors runs the files that do import). No agent ran.',
  baselineUnreadable: (command: string, exitCode: number | null) =>
    `the test command \`${command}\` fails on the base branch (exit code ${exitCode}) and its output could not be ` +
    "read per test, so a failure after the agent's work could not be told apart from one that was already there",
  baselineUnreadableAdvice: (say: Surface) =>
    `Have the test command write a JUnit XML report and name it with ${say.option('junitFile')} ` +
    "(e.g. pytest --junitxml=junit.xml, jest-junit, go-junit-report), or make the base branch's suite green. No agent ran.",
  /** How to write a command YAML would misread. */
  quotingHint:
    "a command holding ': ' or ' #' (as `node -e \"…? 0 : 1)\"` does) must be quoted in YAML: " +
    'verify: \'node -e "…"\' (single quotes around double ones), ' +
    'or a block scalar (verify: |, the command on the next line, indented)',
};
