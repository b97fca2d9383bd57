/**
 * A phase's test run against the cycle's baseline (issue 12): on a repository whose suite already
 * fails, RED's target is the test that newly fails, GREEN passes when nothing fails that did not
 * fail before, and a regression is a test that passed at baseline and fails now. Pure.
 */
import { GROUP_SEPARATOR, type SuiteRun, failedIds, failedIn, isReadable } from '../../verdict/results.js';
import type { TestsSeen } from './decide.js';

/** `seen` as the baseline sees it: only new failures; unchanged when either run cannot be read per test. */
export function againstBaseline(seen: TestsSeen, now: SuiteRun | undefined, baseline: SuiteRun | undefined): TestsSeen {
  if (!now || !baseline || !isReadable(now) || !isReadable(baseline)) return seen;
  if (now.cannotRun)
    return { passed: false, failing: [], compileError: true, summary: `${now.cannotRun}\n\n${seen.summary}` };
  const failing = failedIds(now).filter((id) => !failedIn(baseline, id));
  const loadErrors = failing.filter((id) => id.endsWith(`${GROUP_SEPARATOR}*`));
  const before = failedIds(baseline).length;
  const lines = failing
    .slice(0, 10)
    .map((id) => `- ${id}${now.messages[id] ? `: ${now.messages[id]!.split('\n')[0]}` : ''}`);
  return {
    passed: failing.length === 0 && (now.exitCode === 0 || baseline.exitCode !== 0),
    failing: failing.filter((id) => !loadErrors.includes(id)),
    compileError: loadErrors.length > 0 && loadErrors.length === failing.length,
    summary: [
      failing.length > 0
        ? `${failing.length} test(s) fail that did not fail before this cycle:\n${lines.join('\n')}`
        : 'No test fails that did not fail before this cycle.',
      before > 0 ? `(${before} test(s) already failed before this cycle; they are not this workflow's.)` : '',
      seen.summary.slice(-2000),
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}
