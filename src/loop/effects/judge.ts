/**
 * The iteration's verdict (the workflow's sub-machine asks, src/core/iteration.ts): whether the
 * cycle's issues are closed in the source, and the suite and the issues' verify: commands judged
 * against the baseline (a rejection for broken tests confirmed by a second run).
 */
import { surface } from '../../config/surface.js';
import { cycleInFlight } from '../../core/inFlight.js';
import { isClosed } from '../../issues/types.js';
import { type Verdict, type VerifyResult, judge as judgeRun } from '../../verdict/judge.js';
import { type SuiteRun, type TestOutcome, emptyRun, isReadable } from '../../verdict/results.js';
import type { IssueTargets } from '../../verdict/targets.js';
import type { SliceDeps } from '../deps.js';
import type { Handler } from './context.js';

export const readClosed: Handler<'readClosed'> = async (_effect, ctx) => {
  const { deps } = ctx;
  const ids = cycleInFlight(ctx.run.model.loop).issueIds;
  const closed = await Promise.all(
    ids.map(async (id) => {
      const issue = await deps.source.get(id);
      return issue ? isClosed(issue) : false;
    }),
  );
  return { type: 'closedRead', closed, now: deps.clock.now().getTime() };
};

export const judge: Handler<'judge'> = async (effect, ctx) => {
  const { deps } = ctx;
  const base = ctx.run.model.loop.baseBranch;
  const changed = !(deps.git && base) || (await deps.git.hasWorkSince(base));
  const gate = await judgeWork(deps, effect.baseline, effect.targets);
  if (!gate) return { type: 'interrupted' };
  return { type: 'judged', changed, ...gate, now: deps.clock.now().getTime() };
};

/**
 * Runs the suite and the issue's verify: commands and judges them against the baseline. A
 * rejection for broken tests is confirmed by a second run (a test broken in one run only is flaky
 * and does not count). undefined: interrupted.
 */
async function judgeWork(
  deps: SliceDeps,
  baseline: SuiteRun | undefined,
  targets: IssueTargets,
): Promise<{ tests: TestOutcome; verdict: Verdict } | undefined> {
  const { settings, logger } = deps;
  const once = async () => {
    const tests = await deps.runTests(settings.testCommand, deps.signal, 'verify');
    if (deps.signal?.aborted) return undefined;
    const verify: VerifyResult[] = [];
    for (const command of targets.verify) {
      const r = await deps.runTests(command, deps.signal, 'verify');
      if (deps.signal?.aborted) return undefined;
      verify.push({ command, exitCode: r.exitCode, tail: r.tail });
    }
    const now = tests.run ?? emptyRun(tests.exitCode);
    const say = surface(settings.terms);
    return {
      tests,
      verdict: judgeRun({ baseline: baseline ?? emptyRun(0), now, targetTests: targets.tests, verify, say }),
    };
  };
  const first = await once();
  if (!first || first.verdict.kind !== 'rejected' || first.verdict.broken.length === 0) return first;
  if (!first.tests.run || !isReadable(first.tests.run)) return first;
  logger.info(
    'tests.confirm',
    `${first.verdict.broken.length} test(s) that passed before fail now; running the tests once more to tell a regression from a flaky test.`,
  );
  const second = await once();
  if (!second) return undefined;
  const confirmed = new Set(second.verdict.broken.map((f) => f.id));
  const flaky = first.verdict.broken.filter((f) => !confirmed.has(f.id)).map((f) => f.id);
  if (flaky.length)
    logger.warn(
      'tests.flaky',
      `Flaky: ${flaky.join(', ')} failed once and passed on the second run; not counted against the agent.`,
      { flaky },
    );
  return second;
}
