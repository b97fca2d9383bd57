/**
 * Proof of fix (issue 42): what shows that the agent's work fixes its issue. A test that fails on the
 * base and passes on the work, run where the agent never was: the targets (the maintainer's
 * tests it names, its verify: commands, and the tests it asks the agent to write when they fail on
 * the base), else the failures of the baseline that the work fixes, else the agent's own added tests
 * that fail (or do not run) on the base with only those tests added and pass on the judge tree with
 * them (SWE-bench's FAIL_TO_PASS: both runs with the maintainer's test infrastructure). No evidence:
 * `none`, with why. Pure: the runs are made by the judge (src/loop/effects/judge.ts).
 */
import { GROUP_SEPARATOR, type Status, type SuiteRun, casesOf, isReadable, statusOf } from './results.js';
import { firstIds } from './messages.js';
import type { Verdict } from './judge.js';

export interface Evidence {
  /** targets: the targets pass; fixed: failures of the baseline pass now; added: the agent's tests FAIL_TO_PASS; none. */
  kind: 'targets' | 'fixed' | 'added' | 'none';
  /** The tests (and verify: commands, as `verify: <command>`) that show it. */
  tests: string[];
  /** In words, for the log and a pull request's body. */
  said: string;
}

/** A test file the agent added tests to, and their names (protect's addedTests). */
export interface AddedTests {
  path: string;
  names: string[];
}

/** The suite with the agent's added tests: on the judge tree, and on the base with only those test files. */
export interface AddedRuns {
  withTests: SuiteRun;
  baseWithTests: SuiteRun;
}

export interface EvidenceInput {
  /** The verdict on the work (the maintainer's tests; created targets judged with the added tests). */
  verdict: Verdict;
  /** What the issue names: its tests and its verify: commands. */
  named: { tests: readonly string[]; verify: readonly string[] };
  /** The named tests the baseline does not have (targetsToCreate): FAIL_TO_PASS only when they fail on the base. */
  created: readonly string[];
  /** The tests the agent added (by file). */
  added: readonly AddedTests[];
  /** The suite with the added tests, both ways; absent when not run. */
  runs?: AddedRuns;
  /** Why the agent's added tests could not be looked for or run (no judge tree: the work judged in place). */
  notRun?: string;
  /**
   * A suite not read test by test (its output has no per-test lines and there is no JUnit report):
   * whether it failed on the baseline and passes now. Then the suite itself is the test that fails on
   * the base and passes with the change.
   */
  wholeSuite?: { failedBefore: boolean; passesNow: boolean };
}

const MAX_NAMED = 5;

/** The evidence's test when the suite is not read test by test: the whole suite. */
export const WHOLE_SUITE = '(the whole suite)';

/** The evidence of a verdict. Pure. */
export function evidenceOf(input: EvidenceInput): Evidence {
  const { verdict, named, created, added, runs } = input;
  const besides: string[] = [];
  if (named.tests.length > 0 || named.verify.length > 0) {
    const failing = new Set(verdict.targetsFailing.map((f) => f.id));
    const maintainers = named.tests.filter((id) => !created.includes(id) && !failing.has(id));
    const written = created.filter((id) => !failing.has(id));
    const shown = runs ? written.filter((id) => failsOnBase(runs.baseWithTests, id)) : [];
    const vacuous = written.filter((id) => !shown.includes(id));
    const verify = verdict.verifyFailing.length === 0 ? named.verify.map((c) => `verify: ${c}`) : [];
    const tests = [...maintainers, ...shown, ...verify];
    if (vacuous.length > 0)
      besides.push(
        runs
          ? `the test(s) the issue asked for and the agent wrote pass on the base too, so they show nothing of the fix (${firstIds(vacuous, MAX_NAMED)})`
          : `the test(s) the issue asked for and the agent wrote were not run on the base (${firstIds(vacuous, MAX_NAMED)})`,
      );
    if (tests.length > 0)
      return {
        kind: 'targets',
        tests,
        said: joined(`the issue's targets pass: ${firstIds(tests, MAX_NAMED)}`, besides),
      };
    // The tests the agent wrote for the issue are its added tests: they were weighed above.
    if (verdict.fixed.length === 0)
      return none(besides.length > 0 ? besides.join('; ') : "the issue's targets do not pass");
  }
  if (verdict.fixed.length > 0)
    return {
      kind: 'fixed',
      tests: [...verdict.fixed],
      said: joined(
        `${verdict.fixed.length} test(s) that failed before the change pass now: ${firstIds(verdict.fixed, MAX_NAMED)}`,
        besides,
      ),
    };
  if (input.wholeSuite?.failedBefore && input.wholeSuite.passesNow)
    return {
      kind: 'fixed',
      tests: [WHOLE_SUITE],
      said: joined('the suite (not read test by test) failed before the change and passes now', besides),
    };
  const total = added.reduce((n, f) => n + f.names.length, 0);
  if (!runs && input.notRun) return none(joined(input.notRun, besides));
  if (total === 0)
    return none(
      joined('no target, no failure of the base fixed, and the agent added no test that shows the fix', besides),
    );
  if (!runs) return none(joined(`the ${total} test(s) the agent added were not run`, besides));
  if (!isReadable(runs.withTests) || !isReadable(runs.baseWithTests))
    return none(
      joined(
        `the ${total} test(s) the agent added could not be told apart: the suite's output is not read per test`,
        besides,
      ),
    );
  const f = failToPass(added, runs);
  if (f.shown.length > 0)
    return {
      kind: 'added',
      tests: f.shown,
      said: joined(
        `${f.shown.length} test(s) the agent added fail on the base and pass with the change: ${firstIds(f.shown, MAX_NAMED)}`,
        [...besides, ...notShown(f)],
      ),
    };
  return none(
    joined(`none of the ${total} test(s) the agent added fails on the base and passes with the change`, [
      ...besides,
      ...notShown(f),
    ]),
  );
}

const none = (said: string): Evidence => ({ kind: 'none', tests: [], said: `no evidence of a fix: ${said}` });

const joined = (head: string, rest: string[]): string => [head, ...rest].join('; ');

/** What the added tests that show nothing did, in words. */
function notShown(f: FailToPass): string[] {
  return [
    f.passOnBase.length ? `passing on the base too: ${firstIds(f.passOnBase, MAX_NAMED)}` : '',
    f.notPassing.length ? `not passing with the change: ${firstIds(f.notPassing, MAX_NAMED)}` : '',
  ].filter(Boolean);
}

export interface FailToPass {
  /** Pass with the change and fail (or do not run) on the base: evidence. */
  shown: string[];
  /** Pass both ways: they show nothing of the fix. */
  passOnBase: string[];
  /** Do not pass with the change (failing, skipped, or not run at all). */
  notPassing: string[];
}

/** The agent's added tests, each by file and name, as the two runs ended them. Pure. */
export function failToPass(added: readonly AddedTests[], runs: AddedRuns): FailToPass {
  const out: FailToPass = { shown: [], passOnBase: [], notPassing: [] };
  for (const file of added)
    for (const name of file.names) {
      const id = `${file.path}${GROUP_SEPARATOR}${name}`;
      if (addedStatus(runs.withTests, file.path, name) !== 'passed') out.notPassing.push(id);
      else if (addedStatus(runs.baseWithTests, file.path, name) === 'passed') out.passOnBase.push(id);
      else out.shown.push(id);
    }
  return out;
}

/** Whether the test `id` (a created target, as the issue names it) does not pass in `run` (fails, is skipped or did not run). */
const failsOnBase = (run: SuiteRun, id: string): boolean => {
  const cases = casesOf(run, id);
  return cases.length > 0 ? cases.some((c) => run.tests[c] !== 'passed') : statusOf(run, id) !== 'passed';
};

/**
 * How `run` ended the test `name` of the file `path` (a path relative to the repository's top level):
 * under each group of the run that is that file (the runner may name it from another directory: the
 * one path ends with the other), as its cases when it is parametrized, or by its name alone where
 * the runner names tests without their file (node's runner, mocha). Failed when any of them failed,
 * else passed when any passed, else skipped when any was, else absent. Pure.
 */
export function addedStatus(run: SuiteRun, path: string, name: string): Status {
  const sameFile = (group: string) => group === path || group.endsWith(`/${path}`) || path.endsWith(`/${group}`);
  const ids = Object.keys(run.groups)
    .filter(sameFile)
    .map((g) => `${g}${GROUP_SEPARATOR}${name}`);
  if (name in run.tests) ids.push(name);
  const statuses = ids.flatMap((id) => {
    const cases = casesOf(run, id);
    return cases.length > 0 ? cases.map((c) => statusOf(run, c)) : [statusOf(run, id)];
  });
  for (const s of ['failed', 'passed', 'skipped'] as const) if (statuses.includes(s)) return s;
  return 'absent';
}
