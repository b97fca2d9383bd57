/**
 * The verdict on the agent's work, as SWE-bench grades a patch: against the suite as it stood
 * before the cycle (the baseline), test by test. Accepted when every test that passed at baseline
 * still passes (not failing, not skipped, not gone), no new test fails, the issue's targets pass
 * and its `verify:` commands exit 0. Tests that failed at baseline and still fail, untargeted,
 * never block: they are reported. Pure.
 */
import { type Surface, surface } from '../config/surface.js';
import {
  GROUP_SEPARATOR,
  type SuiteRun,
  casesOf,
  failedIds,
  failedIn,
  groupOf,
  isReadable,
  passedIn,
  readCount,
  statusOf,
  unjudgeableBecause,
  unreadCount,
} from './results.js';
import { VERDICT_MESSAGES as SAY, firstIds } from './messages.js';

export interface Failure {
  id: string;
  message?: string;
}

export interface VerifyResult {
  command: string;
  exitCode: number | null;
  tail: string;
}

export interface Verdict {
  kind: 'accepted' | 'rejected' | 'cannot_run';
  /** One line: for the log, the history and the prompt's heading. */
  summary: string;
  /**
   * Passed at baseline (or did not exist then) and fail now: regressions and new failures; and tests
   * that passed at baseline and are skipped or did not run now (a test cannot pass by being removed).
   */
  broken: Failure[];
  /** Targets that do not pass now (failing, or not run). */
  targetsFailing: Failure[];
  /** `verify:` commands that did not exit 0. */
  verifyFailing: VerifyResult[];
  /** Failed at baseline, pass now. */
  fixed: string[];
  /** Failed at baseline and still fail, not targeted: reported, never blocking. */
  preexisting: string[];
  /**
   * Failed at baseline and did not run now (deleted, renamed, left out of the run), not targeted:
   * reported as removed, never as still failing nor as fixed; not blocking (a target that is gone
   * fails as a target). A test that passed at baseline and is gone is `broken`, as before.
   */
  removed?: string[];
  /** Results the runner counted that the reader could not read one by one (not judged); absent when none. */
  unread?: number;
  /** The targets judged: the issue's named tests, else the baseline failures fixed now. */
  targets: string[];
  /**
   * The own failure text (results.ts `failureText`) of a broken test or failing target, by its id
   * here, where the run read one: what rejectionDetails gives the agent. Absent when none was read.
   */
  failureText?: Record<string, string>;
}

export interface JudgeInput {
  baseline: SuiteRun;
  now: SuiteRun;
  /** Test ids the issue names (targets.ts); empty: the baseline failures fixed now are the targets. */
  targetTests: readonly string[];
  /**
   * The suite run on the judge tree with the agent's added tests (issue 42): the targets the baseline
   * does not have (targetsToCreate: tests the issue asks the agent to write) are judged from it, since
   * `now` (the maintainer's tests alone) cannot hold them. Absent: they are judged from `now`.
   */
  withAdded?: SuiteRun;
  /** The issue's `verify:` commands, as run after the suite. */
  verify?: readonly VerifyResult[];
  /** Whose words name an option in a failure's message (default: the CLI's). */
  say?: Surface;
}

export function judge({ baseline, now, targetTests, verify = [], say = surface(), withAdded }: JudgeInput): Verdict {
  const verdict: Verdict = {
    kind: 'accepted',
    summary: '',
    broken: [],
    targetsFailing: [],
    verifyFailing: verify.filter((v) => v.exitCode !== 0),
    fixed: [],
    preexisting: [],
    removed: [],
    targets: [...targetTests],
  };
  if (now.cannotRun) return { ...verdict, kind: 'cannot_run', summary: `the tests cannot run: ${now.cannotRun}` };

  if (!isReadable(baseline) || !isReadable(now)) {
    // Only exit codes: a pass is a pass; a failure cannot be told apart from one that was there before.
    if (isReadable(baseline) && !isReadable(now) && now.exitCode !== 0) {
      return {
        ...verdict,
        kind: 'cannot_run',
        summary: `the test output can no longer be read per test (exit code ${now.exitCode}): the runner itself may be broken`,
      };
    }
    // A green exit that reads as no test at all, where tests were read before (the test command or its
    // configuration changed, the runner stopped before printing): nothing says they still pass.
    if (isReadable(baseline) && !isReadable(now) && readCount(baseline) > 0) {
      return {
        ...verdict,
        kind: 'cannot_run',
        summary: SAY.outputUnreadable(now.exitCode, readCount(baseline)),
      };
    }
    // Tests the issue names pass only when the output shows them passing: an exit code says nothing of one test.
    const targetsFailing = isReadable(now)
      ? failingTargets(baseline, now, targetTests)
      : targetTests.map((id) => ({
          id,
          message: SAY.targetUnreadable(say),
        }));
    if (now.exitCode !== 0)
      return finish({
        ...verdict,
        targetsFailing,
        broken: [{ id: '(the suite)', message: `exit code ${now.exitCode}` }],
      });
    return finish({ ...verdict, targetsFailing });
  }

  // Read, but not test by test (pytest with its short summary turned off): no test can be judged.
  const unjudgeable = unjudgeableBecause(baseline, now);
  if (unjudgeable) return { ...verdict, kind: 'cannot_run', summary: unjudgeable };

  const wasFailing = (id: string) => failedIn(baseline, id);
  const passesNow = (id: string) => passedIn(now, id);

  for (const id of failedIds(now)) if (!wasFailing(id)) verdict.broken.push(failureOf(now, id));
  verdict.broken.push(...noLongerPassing(baseline, now));
  // The command passed as a whole before and fails now, and no test explains it: what the command does
  // besides the tests (a linter, a coverage threshold, a teardown, a second suite) fails now.
  if (baseline.exitCode === 0 && now.exitCode !== 0 && verdict.broken.length === 0)
    verdict.broken.push({
      id: '(the suite)',
      message: SAY.suiteFailsBesideTests(now.exitCode),
    });
  const removed: string[] = [];
  for (const id of failedIds(baseline))
    (passesNow(id) ? verdict.fixed : goneFrom(now, id) ? removed : verdict.preexisting).push(id);
  const unread = unreadCount(now);
  if (unread > 0) verdict.unread = unread;
  if (targetTests.length > 0) {
    verdict.targetsFailing.push(...targetFailures(baseline, now, targetTests, withAdded));
    verdict.preexisting = verdict.preexisting.filter((id) => !targetTests.includes(id));
  } else {
    verdict.targets = [...verdict.fixed];
  }
  verdict.removed = removed.filter((id) => !targetTests.includes(id));
  return finish(withTexts(verdict, now));
}

/** Test `id` of `now` as a failure, with its message where the run has one. */
function failureOf(now: SuiteRun, id: string, message = now.messages[id]): Failure {
  return { id, ...(message ? { message } : {}) };
}

/** The verdict with the own failure text of each broken test and failing target, where `now` read one. */
function withTexts(verdict: Verdict, now: SuiteRun): Verdict {
  const texts: Record<string, string> = {};
  for (const { id } of verdict.broken) if (now.failureText?.[id]) texts[id] = now.failureText[id];
  for (const { id } of verdict.targetsFailing) {
    const text = textOfTarget(now, id);
    if (text) texts[id] = text;
  }
  return Object.keys(texts).length > 0 ? { ...verdict, failureText: texts } : verdict;
}

/** A target's own failure text in `now`: its own, else (a parametrized test named alone) its first failing case's. */
function textOfTarget(now: SuiteRun, id: string): string | undefined {
  const own = now.failureText?.[id];
  if (own) return own;
  const first = casesOf(now, id).find((c) => now.failureText?.[c] !== undefined);
  return first ? `${first}:\n${now.failureText?.[first] ?? ''}` : undefined;
}

/**
 * The targets the baseline does not have (issue 42: a test the issue names that does not exist yet is
 * one the agent must write): not run at baseline, by id or as a parametrized test's cases. None when
 * the baseline was not read per test (nothing says what it has). Pure.
 */
export function targetsToCreate(baseline: SuiteRun, targetTests: readonly string[]): string[] {
  if (!isReadable(baseline)) return [];
  return targetTests.filter(
    (id) =>
      !id.endsWith(`${GROUP_SEPARATOR}*`) && statusOf(baseline, id) === 'absent' && casesOf(baseline, id).length === 0,
  );
}

/**
 * The named targets that do not pass: those the baseline has judged from `now`, those it does not
 * (to write) from `withAdded` when the suite ran with the agent's added tests, else from `now`, where
 * one that did not run is said to be the agent's to write.
 */
function targetFailures(
  baseline: SuiteRun,
  now: SuiteRun,
  targetTests: readonly string[],
  withAdded: SuiteRun | undefined,
): Failure[] {
  const toCreate = targetsToCreate(baseline, targetTests);
  const existing = failingTargets(
    baseline,
    now,
    targetTests.filter((id) => !toCreate.includes(id)),
  );
  const created =
    withAdded && isReadable(withAdded)
      ? failingTargets(baseline, withAdded, toCreate)
      : failingTargets(baseline, now, toCreate).map((f) =>
          statusOf(now, f.id) === 'absent' ? { id: f.id, message: SAY.targetToCreate } : f,
        );
  // In the order the issue names them.
  const failing = new Map([...existing, ...created].map((f) => [f.id, f]));
  return targetTests.flatMap((id) => failing.get(id) ?? []);
}

/** Whether `id` (a test, or `group::*`) did not run in `now` at all. */
const goneFrom = (now: SuiteRun, id: string): boolean =>
  id.endsWith(`${GROUP_SEPARATOR}*`) ? !(id.slice(0, -3) in now.groups) : statusOf(now, id) === 'absent';

/** The cases of a parametrized test `id` (`id[…]`) that `run` lists, when it lists none by `id` itself. */
/**
 * The targets that do not pass in `now` (read per test), each with why: only a test that ran and
 * passed passes (skipped, xfail, xpass and not run do not). A target that names a parametrized test
 * by its name alone passes when every case of it passes and none of the baseline's cases is gone.
 */
function failingTargets(baseline: SuiteRun, now: SuiteRun, targetTests: readonly string[]): Failure[] {
  const out: Failure[] = [];
  for (const id of targetTests) {
    const cases = casesOf(now, id);
    const before = casesOf(baseline, id);
    if (cases.length > 0 || before.length > 0) {
      const failing = parametrizedFailure(now, cases, before);
      if (failing) out.push({ id, message: failing });
      continue;
    }
    if (passedIn(now, id)) continue;
    const status = statusOf(now, id);
    out.push(
      failureOf(
        now,
        id,
        now.messages[id] ??
          now.reasons?.[id] ??
          (status === 'absent' ? 'it did not run' : status === 'skipped' ? 'it was skipped' : 'it fails'),
      ),
    );
  }
  return out;
}

/** Why a parametrized target's cases (`cases` now, `before` at baseline) are not a pass, or undefined when they pass. */
function parametrizedFailure(now: SuiteRun, cases: string[], before: string[]): string | undefined {
  const gone = before.filter((c) => !cases.includes(c));
  if (cases.length === 0) return 'none of its parametrized cases ran: a test that does not run is not a pass';
  if (gone.length > 0) return SAY.casesGone(cases.length, before.length, firstIds(gone, 3));
  const notPassing = cases.filter((c) => now.tests[c] !== 'passed');
  if (notPassing.length === 0) return undefined;
  const first = notPassing[0] as string;
  const why = now.messages[first] ?? now.reasons?.[first] ?? (now.tests[first] === 'skipped' ? 'skipped' : 'it fails');
  return `${notPassing.length} of its ${cases.length} case(s) do not pass (${firstIds(notPassing, 3)}: ${why})`;
}

/**
 * What passed at baseline and neither passes nor fails now (SWE-bench's PASS_TO_PASS asks that it
 * pass): skipped now, or not run at all (deleted, renamed, left out by a changed test command or
 * configuration, or after the point where the run died). A file (group) that had passing tests and
 * is gone is named once, as `group::*`, rather than test by test; one whose tests all failed is not
 * named (what it loses never passed).
 */
export function noLongerPassing(baseline: SuiteRun, now: SuiteRun): Failure[] {
  const out: Failure[] = [];
  // Runners that list only failures (jest, vitest, go without -v): a group that failed had passing tests too, as far as can be told.
  const listsPasses = Object.values(baseline.tests).includes('passed');
  const withPass = new Set<string>();
  for (const [id, outcome] of Object.entries(baseline.tests)) {
    const group = groupOf(baseline, id);
    if (outcome === 'passed' && group !== undefined) withPass.add(group);
  }
  const gone = new Set<string>();
  for (const [group, outcome] of Object.entries(baseline.groups)) {
    const hadPass = outcome === 'passed' || withPass.has(group) || (outcome === 'failed' && !listsPasses);
    if (!hadPass) continue;
    const id = `${group}${GROUP_SEPARATOR}*`;
    if (now.groups[group] === undefined)
      out.push({ id, message: 'none of its tests ran now (deleted, renamed, or left out of the run)' });
    else if (now.groups[group] === 'skipped') out.push({ id, message: 'it is skipped now' });
    else continue;
    gone.add(group);
  }
  for (const [id, outcome] of Object.entries(baseline.tests)) {
    if (outcome !== 'passed') continue;
    const group = groupOf(baseline, id);
    if (group !== undefined && gone.has(group)) continue;
    const status = statusOf(now, id);
    if (status === 'skipped')
      out.push({
        id,
        message: `it passed before and is ${now.reasons?.[id] ? `now ${now.reasons[id]}` : 'skipped now'}`,
      });
    else if (status === 'absent')
      out.push({
        id,
        message: 'it passed before and did not run now (deleted, renamed, or the run stopped before it)',
      });
  }
  return out;
}

function finish(v: Verdict): Verdict {
  const blocking = v.broken.length + v.targetsFailing.length + v.verifyFailing.length;
  const parts = [
    v.broken.length
      ? `${v.broken.length} test(s) broken (${firstIds(
          v.broken.map((f) => f.id),
          3,
        )})`
      : '',
    v.targetsFailing.length
      ? `${v.targetsFailing.length} target(s) still failing (${firstIds(
          v.targetsFailing.map((f) => f.id),
          3,
        )})`
      : '',
    v.verifyFailing.length
      ? `verify failed: ${v.verifyFailing.map((f) => `\`${f.command}\` exited ${f.exitCode}`).join(', ')}`
      : '',
  ].filter(Boolean);
  const pre = [
    v.preexisting.length ? `; ${v.preexisting.length} failure(s) that were there before, not targeted` : '',
    v.removed?.length
      ? `; ${v.removed.length} failing test(s) that were there before no longer run (${firstIds(v.removed, 3)}): removed, not fixed`
      : '',
    v.unread ? `; ${SAY.unread(v.unread)}` : '',
  ].join('');
  if (blocking > 0) return { ...v, kind: 'rejected', summary: `${parts.join('; ')}${pre}` };
  const targets = v.targets.length ? `${v.targets.length} target(s) pass` : 'no test broken';
  const alsoFixed = v.fixed.filter((id) => !v.targets.includes(id)).length;
  return {
    ...v,
    kind: 'accepted',
    summary: `${targets}${alsoFixed ? `, ${alsoFixed} other failure(s) fixed` : ''}${pre}`,
  };
}
