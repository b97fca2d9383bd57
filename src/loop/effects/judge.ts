/**
 * The iteration's verdict (the workflow's sub-machine asks, src/core/iteration.ts): whether the
 * cycle's issues are closed in the source, and the suite and the issues' verify: commands judged
 * against the baseline (a rejection for broken tests confirmed by a second run), run in a judge tree
 * (issue 42: src/loop/judgePlace.ts) where git is, with the judge's findings.
 */
import { surface } from '../../config/surface.js';
import { cycleInFlight } from '../../core/inFlight.js';
import { isClosed } from '../../issues/types.js';
import { type Verdict, type VerifyResult, judge as judgeRun } from '../../verdict/judge.js';
import { type SuiteRun, type TestOutcome, emptyRun, isReadable } from '../../verdict/results.js';
import type { IssueTargets } from '../../verdict/targets.js';
import type { TestPlace } from '../../judge/judgeRun.js';
import type { SliceDeps } from '../deps.js';
import { type JudgePlace, judgeRules, openJudgePlace } from '../judgePlace.js';
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
  // Issue 42: judged in a tree of the cycle's base holding the work, the maintainer's paths as the base had them.
  const baseTip = cycleInFlight(ctx.run.model.loop).baseTip;
  // What decides what git stages put back first, as a commit does: the tree judged is the tree committed.
  if (deps.judgeTrees && baseTip) await deps.git?.putBackStaging('judge');
  const judged =
    deps.judgeTrees && baseTip
      ? await openJudgePlace(deps.judgeTrees, baseTip, judgeRules(deps.settings, effect.targets))
      : undefined;
  try {
    if (judged) sayJudgeTree(deps, judged);
    const gate = await judgeWork(deps, effect.baseline, effect.targets, judged?.place);
    if (!gate) return { type: 'interrupted' };
    return {
      type: 'judged',
      changed,
      ...gate,
      ...(judged?.findings.length ? { findings: judged.findings } : {}),
      ...(judged?.removedLinks.length ? { removedLinks: judged.removedLinks } : {}),
      now: deps.clock.now().getTime(),
    };
  } finally {
    await judged?.close();
  }
};

/** What the judge tree holds besides the work as it is: logged once per verdict, when anything. */
function sayJudgeTree(deps: SliceDeps, judged: JudgePlace): void {
  const added = judged.addedTests.reduce((n, f) => n + f.names.length, 0);
  if (judged.findings.length === 0 && added === 0 && judged.removedLinks.length === 0) return;
  const parts = [
    judged.findings.length
      ? `${judged.findings.length} protected path(s) the agent changed taken from the base (${judged.findings.map((f) => f.path).join(', ')})`
      : '',
    added ? `${added} test(s) the agent added left out (the maintainer's tests are judged alone)` : '',
    judged.removedLinks.length
      ? `${judged.removedLinks.length} symlink(s) pointing outside the repository removed (${judged.removedLinks.join(', ')})`
      : '',
  ].filter(Boolean);
  deps.logger.info('judge.tree', `The work is judged in a tree of the cycle's base: ${parts.join('; ')}.`, {
    findings: judged.findings,
    addedTests: judged.addedTests,
    removedLinks: judged.removedLinks,
  });
}

/**
 * Runs the suite and the issue's verify: commands and judges them against the baseline. A
 * rejection for broken tests is confirmed by a second run (a test broken in one run only is flaky
 * and does not count). undefined: interrupted.
 */
async function judgeWork(
  deps: SliceDeps,
  baseline: SuiteRun | undefined,
  targets: IssueTargets,
  place: TestPlace | undefined,
): Promise<{ tests: TestOutcome; verdict: Verdict } | undefined> {
  const { settings, logger } = deps;
  const run = (command: string) =>
    place ? deps.runTests(command, deps.signal, 'verify', place) : deps.runTests(command, deps.signal, 'verify');
  const once = async () => {
    const tests = await run(settings.testCommand);
    if (deps.signal?.aborted) return undefined;
    const verify: VerifyResult[] = [];
    for (const command of targets.verify) {
      const r = await run(command);
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
