/**
 * A test suite's run, read per test: what the verdicts (judge.ts) compare between the baseline and
 * the agent's work. Each test is `group::name` where the runner names a group (a file, a package,
 * a test binary), else `name`. A group's own outcome covers the tests the runner did not list in
 * it: jest, vitest and go name only the failing tests of a file or package, so there a test not
 * listed in a group that ran passed (or no longer exists), and every test of a group that passed
 * passed; in a group where the run lists a passing test, a test not listed did not run.
 * Pure data and pure functions.
 */
import { VERDICT_MESSAGES } from './messages.js';
export type Outcome = 'passed' | 'failed' | 'skipped';
/** A group also fails to load at all: a file that does not import, a package that does not build. */
export type GroupOutcome = Outcome | 'error';

export interface SuiteRun {
  /** The reader that understood the output ('pytest', 'jest', 'junit', …); undefined: only the exit code counts. */
  reader?: string;
  exitCode: number | null;
  /** Per test id. */
  tests: Record<string, Outcome>;
  /** Per group: how it ended, as a whole. */
  groups: Record<string, GroupOutcome>;
  /** Why a failed test or a group that did not load failed (its first lines, bounded), by id. */
  messages: Record<string, string>;
  /**
   * A failed test's (or a group's) own failure text, by id: the head of its failure section as the
   * runner printed it (assertion, diff, traceback head), bounded per test and per run
   * (failureText.ts). What the retry prompt gives the agent; absent where the reader read none.
   */
  failureText?: Record<string, string>;
  /** The suite could not run at all: nothing collected, the command not found, an error before any test. */
  cannotRun?: string;
  /** With cannotRun: the runner found no test at all (an empty suite), rather than failing before any test ran. */
  noTests?: true;
  /**
   * Why a test that ran is not a pass although it did not fail, by id, where the runner says
   * (pytest's XFAIL and XPASS: read as skipped, `marked xfail …`).
   */
  reasons?: Record<string, string>;
  /**
   * The runner's own count of the results it lists one by one (its summary line), and how many of
   * them the reader read (`read`), where the runner prints one: a difference is said in the verdict
   * (`unreadCount`), never a silent gap.
   */
  counted?: number;
  read?: number;
}

export const MESSAGE_MAX = 600;
export const GROUP_SEPARATOR = '::';

export function testId(group: string | undefined, name: string): string {
  return group ? `${group}${GROUP_SEPARATOR}${name}` : name;
}

/**
 * Records `outcome` for test `id`. A name that shows more than once (node's runner and mocha name a
 * test without its file, so two files may each have one by that name; a JUnit report or a run
 * repeated with go's -count) fails when any of them failed, else passes when any passed: the last
 * one read must not hide a failure.
 */
export function recordOutcome(run: Pick<SuiteRun, 'tests'>, id: string, outcome: Outcome): void {
  const before = run.tests[id];
  run.tests[id] =
    before === 'failed' || outcome === 'failed'
      ? 'failed'
      : before === 'passed' || outcome === 'passed'
        ? 'passed'
        : 'skipped';
}

/** The group a test id belongs to, when the run names one for it. */
export function groupOf(run: Pick<SuiteRun, 'groups'>, id: string): string | undefined {
  for (let at = id.indexOf(GROUP_SEPARATOR); at > 0; at = id.indexOf(GROUP_SEPARATOR, at + GROUP_SEPARATOR.length)) {
    const group = id.slice(0, at);
    if (group in run.groups) return group;
  }
  return undefined;
}

/**
 * What `run` says of test `id`: listed, covered by its group (passed; a group that failed to load
 * makes every test in it fail), presumed passed (its group ran and did not list it as failing), or
 * `absent` (the run did not run it, as far as can be told).
 */
export type Status = Outcome | 'absent';
/**
 * pytest's id of a test (`tests/test_x.py::TestA::test_b[p]`) as pytest's JUnit report names it, by
 * its classname (`tests.test_x.TestA::test_b[p]`): a target named by its pytest id is found in a
 * JUnit run. Any other id comes back as it is. Pure.
 */
export function junitIdOfPytest(id: string): string {
  const m = /^([^:]+)\.py((?:::[^:[]+)*)::(.+)$/.exec(id);
  if (!m) return id;
  const classes = (m[2] ?? '').split('::').filter(Boolean);
  return `${[(m[1] as string).split('/').join('.'), ...classes].join('.')}${GROUP_SEPARATOR}${m[3] as string}`;
}

/** The ids of `id`'s parametrized cases in `run` (`id[…]`), when `id` itself did not run; else none. Pure. */
export const casesOf = (run: SuiteRun, id: string): string[] => {
  if (id in run.tests) return [];
  const key =
    run.reader === 'junit' && !Object.keys(run.tests).some((t) => t.startsWith(`${id}[`)) ? junitIdOfPytest(id) : id;
  return key in run.tests ? [] : Object.keys(run.tests).filter((t) => t.startsWith(`${key}[`));
};

export function statusOf(run: SuiteRun, id: string): Status {
  const listed = run.tests[id] ?? (run.reader === 'junit' ? run.tests[junitIdOfPytest(id)] : undefined);
  if (listed) return listed;
  const group = groupOf(run, id);
  if (!group) return 'absent';
  const g = run.groups[group];
  if (g === 'error') return 'failed';
  if (g === 'skipped') return 'skipped';
  // A group in which the run lists a passing test lists its tests (pytest -rA, jest --verbose, a
  // vitest file with a failure, a JUnit report): one it does not list there did not run (deleted,
  // renamed). Until 2026-11-28 it was presumed passed because its file ran, so a failing target the
  // agent deleted "passed", and a passing test it deleted with the code it covered was not missed.
  if (listsPassesIn(run, group)) return 'absent';
  return 'passed';
}

const listing = new WeakMap<object, Set<string>>();
/**
 * Whether `run` lists a passing test in `group`: then it lists the group's tests (jest without
 * --verbose, go without -v and a vitest file that passed list none). Pure (remembered per run's tests).
 */
export function listsPassesIn(run: Pick<SuiteRun, 'tests' | 'groups'>, group: string): boolean {
  let groups = listing.get(run.tests);
  if (!groups) {
    groups = new Set();
    for (const [id, outcome] of Object.entries(run.tests)) {
      if (outcome !== 'passed') continue;
      const g = groupOf(run, id);
      if (g !== undefined) groups.add(g);
    }
    // Only a finished run is remembered (a reader still adding tests is never asked).
    listing.set(run.tests, groups);
  }
  return groups.has(group);
}

/** Ids that failed: listed failures, and the groups that did not load (as `group::*`). */
export function failedIds(run: SuiteRun): string[] {
  const tests = Object.entries(run.tests)
    .filter(([, o]) => o === 'failed')
    .map(([id]) => id);
  const groups = Object.entries(run.groups)
    .filter(([, o]) => o === 'error')
    .map(([g]) => `${g}${GROUP_SEPARATOR}*`);
  return [...tests, ...groups];
}

/** Whether `id` (a test, or `group::*` for a group that did not load) failed in `run`. */
export function failedIn(run: SuiteRun, id: string): boolean {
  return id.endsWith(`${GROUP_SEPARATOR}*`) ? run.groups[id.slice(0, -3)] === 'error' : statusOf(run, id) === 'failed';
}

/** Whether `id` (a test, or `group::*`: the group loaded) passed in `run`. */
export function passedIn(run: SuiteRun, id: string): boolean {
  return id.endsWith(`${GROUP_SEPARATOR}*`)
    ? id.slice(0, -3) in run.groups && run.groups[id.slice(0, -3)] !== 'error'
    : statusOf(run, id) === 'passed';
}

/** Marks `run` as an empty suite: the runner found no test at all (cannot run, but no halt at baseline). */
export function markNoTests(run: SuiteRun, message: string): void {
  run.cannotRun = message;
  run.noTests = true;
}

export function emptyRun(exitCode: number | null): SuiteRun {
  return { exitCode, tests: {}, groups: {}, messages: {} };
}

/** Whether the run was read per test. */
export const isReadable = (run: SuiteRun): boolean => run.reader !== undefined;

/** How many results the runner counted and the reader did not read (0 when all were, or the runner printed no count). */
export const unreadCount = (run: Pick<SuiteRun, 'counted' | 'read'>): number =>
  run.counted !== undefined && run.read !== undefined ? Math.max(0, run.counted - run.read) : 0;

/** How many tests (else groups) a run read: 0 when it read none. */
export const readCount = (run: SuiteRun): number => Object.keys(run.tests).length || Object.keys(run.groups).length;

/**
 * Why `now` cannot be judged test by test although it was read, or undefined when it can. pytest runs
 * with -rA (agent-loop adds it), so its short summary names every test that ran; a run that names none
 * where the baseline named some had its summary turned off (`--no-summary` in the configuration, which
 * the agent can edit), and its files' outcomes alone would count every test of a file that ran as
 * passing: a failing target, or a passing test deleted. Both workflows' verdicts read it.
 */
export function unjudgeableBecause(baseline: SuiteRun, now: SuiteRun): string | undefined {
  if (
    baseline.reader === 'pytest' &&
    now.reader === 'pytest' &&
    Object.keys(baseline.tests).length > 0 &&
    Object.keys(now.tests).length === 0 &&
    Object.values(now.groups).some((g) => g !== 'error')
  )
    return VERDICT_MESSAGES.pytestUnnamed(now.exitCode, Object.keys(baseline.tests).length);
  return undefined;
}

export function clipMessage(text: string): string {
  const t = text.trim();
  return t.length <= MESSAGE_MAX ? t : `${t.slice(0, MESSAGE_MAX - 1)}…`;
}

/** A run of the test command: whether it passed, its exit code, how long, its output's end, and the run read per test. */
export interface TestOutcome {
  passed: boolean;
  exitCode: number | null;
  durationMs: number;
  tail: string;
  /** The run read per test (absent: only the exit code counts). */
  run?: SuiteRun;
  /** The JUnit XML report the command wrote, as it entered the engine (masked there); absent when none was read. */
  junit?: string;
}

/** What a test run says, by test name (a tdd phase's run: the JUnit report, else the runner's output). */
export interface TestsSeen {
  /** The test command exited 0; against the baseline (againstBaseline), no test fails that did not fail before the cycle. */
  passed: boolean;
  /** Names of the failing tests (JUnit report, else the runner's output). */
  failing: string[];
  /** It failed without any failing test to name: the code does not compile, or no test ran. */
  compileError: boolean;
  /** The failures as text for the retry prompt. */
  summary: string;
  /** Read per test against the cycle's baseline: the tests that failed before the cycle and still fail (not this cycle's). */
  preexisting?: string[];
}
