/**
 * A phase's test run against the cycle's baseline (issue 12): on a repository whose suite already
 * fails, RED's target is the test that newly fails, GREEN passes when nothing fails that did not
 * fail before, and a regression is a test that passed at baseline and fails now, or is skipped or
 * gone now (as the implement workflow's verdict: src/verdict/judge.ts). Pure.
 */
import { noLongerPassing } from '../../verdict/judge.js';
import {
  GROUP_SEPARATOR,
  statusOf,
  type SuiteRun,
  failedIds,
  failedIn,
  isReadable,
  readCount,
  unjudgeableBecause,
} from '../../verdict/results.js';
import type { TestsSeen } from './decide.js';

/**
 * `seen` as the baseline sees it: only new failures, and the tests that passed at baseline and did
 * not run or were skipped now. Unchanged when the baseline cannot be read per test; a run that
 * cannot be read per test where the baseline could does not pass (its command, configuration or
 * runner changed, or it stopped before printing).
 */
export function againstBaseline(
  seen: TestsSeen,
  now: SuiteRun | undefined,
  baseline: SuiteRun | undefined,
  targets: readonly string[] = [],
): TestsSeen {
  if (!now || !baseline || !isReadable(baseline)) return seen;
  if (!isReadable(now)) {
    if (readCount(baseline) === 0) return seen;
    const why =
      `The test output can no longer be read per test (exit code ${now.exitCode}), where ${readCount(baseline)}` +
      ` test(s) were read before this cycle: the test command, its configuration or the runner may have been changed.`;
    return { passed: false, failing: [], compileError: true, summary: `${why}\n\n${seen.summary}` };
  }
  const cannotJudge = now.cannotRun ?? unjudgeableBecause(baseline, now);
  if (cannotJudge)
    return { passed: false, failing: [], compileError: true, summary: `${cannotJudge}\n\n${seen.summary}` };
  // The phase's targets (the tests RED wrote, from GREEN on) pass only when they ran and passed (issue
  // 42): one marked xfail or skipped, or deleted, is not made to pass.
  const regressed = noLongerPassing(baseline, now);
  const gone = [...regressed, ...notRunTargets(now, targets).filter((t) => !regressed.some((g) => g.id === t.id))];
  const failing = [...failedIds(now).filter((id) => !failedIn(baseline, id)), ...gone.map((g) => g.id)];
  const messages: Record<string, string | undefined> = {
    ...now.messages,
    ...Object.fromEntries(gone.map((g) => [g.id, g.message])),
  };
  // A file that fails to load shows as `file::*` failing; one that is gone (`file::*` in `gone`) is a regression.
  const loadErrors = failing.filter((id) => id.endsWith(`${GROUP_SEPARATOR}*`) && !gone.some((g) => g.id === id));
  const before = failedIds(baseline).length;
  const lines = failing.slice(0, 10).map((id) => `- ${id}${messages[id] ? `: ${messages[id]!.split('\n')[0]}` : ''}`);
  return {
    passed: failing.length === 0 && (now.exitCode === 0 || baseline.exitCode !== 0),
    failing: failing.filter((id) => !loadErrors.includes(id)),
    compileError: loadErrors.length > 0 && loadErrors.length === failing.length,
    preexisting: failedIds(now).filter((id) => failedIn(baseline, id)),
    summary: [
      failing.length > 0
        ? `${failing.length} test(s) fail${gone.length ? ', are skipped or did not run,' : ''} that did not fail before this cycle:\n${lines.join('\n')}`
        : 'No test fails that did not fail before this cycle.',
      before > 0 ? `(${before} test(s) already failed before this cycle; they are not this workflow's.)` : '',
      seen.summary.slice(-2000),
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

/** The targets that neither pass nor fail in `now` (skipped, xfail, or not run), each with why. */
function notRunTargets(now: SuiteRun, targets: readonly string[]): Array<{ id: string; message: string }> {
  return targets.flatMap((id) => {
    const status = statusOf(now, id);
    if (status === 'skipped')
      return [{ id, message: `the phase's test is ${now.reasons?.[id] ?? 'skipped: a skipped test is not a pass'}` }];
    if (status === 'absent') return [{ id, message: "the phase's test did not run (deleted or renamed?)" }];
    return [];
  });
}
