/**
 * The iteration's verdict (the workflow's sub-machine asks, src/core/iteration.ts): whether the
 * cycle's issues are closed in the source, and the suite and the issues' verify: commands judged
 * against the baseline (a rejection for broken tests confirmed by a second run), run in a judge tree
 * (issue 42: src/loop/judgePlace.ts) where git is, with the judge's findings.
 */
import { surface } from '../../config/surface.js';
import { cycleInFlight } from '../../core/inFlight.js';
import { isClosed } from '../../issues/types.js';
import { type AddedRuns, type Evidence, evidenceOf } from '../../verdict/evidence.js';
import { type Verdict, type VerifyResult, judge as judgeRun, targetsToCreate } from '../../verdict/judge.js';
import { type SuiteRun, type TestOutcome, emptyRun, isReadable } from '../../verdict/results.js';
import type { IssueTargets } from '../../verdict/targets.js';
import { unverifiedBecause } from '../../verdict/unverified.js';
import type { TestPlace } from '../../judge/judgeRun.js';
import type { SliceDeps } from '../deps.js';
import { type JudgePlace, type OpenedPlace, judgeRules, openJudgePlace } from '../judgePlace.js';
import type { Handler } from './context.js';

export const readClosed: Handler<'readClosed'> = async (_effect, ctx) => {
  const { deps } = ctx;
  const ids = cycleInFlight(ctx.run.model.loop).issueIds;
  const closed = await Promise.all(
    ids.map(async (id) => {
      const issue = await deps.source.get(id);
      return issue && isClosed(issue) ? !(await reopenedIfAToken(deps, id)) : false;
    }),
  );
  return { type: 'closedRead', closed, now: deps.clock.now().getTime() };
};

/**
 * Issue 42: a cycle's issue found closed before the verdict, where closing is not the agent's word
 * for done (GitHub): only agent-loop closes, after its verdict. Closed by a token (the agent's), it is
 * reopened with a comment and judged as open; a person's close stands. Whether it was reopened.
 */
async function reopenedIfAToken(deps: SliceDeps, id: string): Promise<boolean> {
  if (!deps.source.reopenClosedByToken) return false;
  const by = await deps.source.reopenClosedByToken(
    id,
    'agent-loop: this issue was closed while agent-loop was working on it, before its verdict: reopened. ' +
      "agent-loop closes an issue itself once the maintainer's tests accept the work (or a person does).",
  );
  if (by === undefined) return false;
  deps.logger.warn(
    'issue.reopened',
    `Issue ${id} was closed by ${by} during its cycle, before the verdict (an agent holding a token can close it): ` +
      'reopened with a comment; the work is judged as for an open issue.',
    { issueId: id, closedBy: by },
  );
  return true;
}

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
    const proved = await proveFix(deps, effect.baseline, effect.targets, judged, gate);
    if (!proved) return { type: 'interrupted' };
    return {
      type: 'judged',
      changed,
      tests: gate.tests,
      verdict: proved.verdict,
      ...(proved.evidence ? { evidence: proved.evidence } : {}),
      // Issue 42: accepted work with no evidence, or with results the judged run counted but that were not
      // read one by one, is held for a person (unless --accept-unverified): only where a judge tree ran.
      ...unverifiedOf(deps, judged !== undefined, gate, proved),
      ...(judged?.findings.length ? { findings: judged.findings } : {}),
      ...(judged?.removedLinks.length ? { removedLinks: judged.removedLinks } : {}),
      now: deps.clock.now().getTime(),
    };
  } finally {
    await judged?.close();
  }
};

/** The judged event's `unverified`, where the accepted work is (src/verdict/unverified.ts). */
function unverifiedOf(
  deps: SliceDeps,
  judged: boolean,
  gate: Gate,
  proved: { verdict: Verdict; evidence?: Evidence },
): { unverified?: string } {
  const unverified = unverifiedBecause({
    verdict: proved.verdict,
    judged,
    ...(proved.evidence ? { evidence: proved.evidence } : {}),
    ...(gate.tests.run ? { run: gate.tests.run } : {}),
    say: surface(deps.settings.terms),
  });
  return unverified ? { unverified } : {};
}

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

/** The suite's run on the maintainer's tests, the verify: commands' results, and the verdict on them. */
interface Gate {
  tests: TestOutcome;
  verify: VerifyResult[];
  verdict: Verdict;
}

/**
 * Proof of fix (issue 42): the targets the issue asks the agent to write judged from the suite run
 * with the agent's added tests, and the verdict's evidence (src/verdict/evidence.ts). The suite runs
 * again only where it must (users pay for runner minutes): with the added tests on the judge tree when
 * a target is to be written, or when nothing else can be evidence (no target, no failure of the base
 * fixed); and on the base with only those tests when the work is accepted so far, to see them fail
 * there. undefined: interrupted.
 */
async function proveFix(
  deps: SliceDeps,
  baseline: SuiteRun | undefined,
  targets: IssueTargets,
  judged: JudgePlace | undefined,
  gate: Gate,
): Promise<{ verdict: Verdict; evidence?: Evidence } | undefined> {
  const { logger, settings } = deps;
  const before = baseline ?? emptyRun(0);
  const created = targetsToCreate(before, targets.tests);
  const added = judged?.addedTests ?? [];
  const count = added.reduce((n, f) => n + f.names.length, 0);
  const named = targets.tests.length > 0 || targets.verify.length > 0;
  const first = gate.verdict;
  const runnable = judged !== undefined && count > 0 && first.kind !== 'cannot_run';
  const forTargets = runnable && created.length > 0;
  const forEvidence = runnable && !named && first.kind === 'accepted' && first.fixed.length === 0;
  let verdict = first;
  let runs: AddedRuns | undefined;
  if (judged && (forTargets || forEvidence)) {
    logger.info(
      'tests.added',
      `Running the suite with the ${count} test(s) the agent added (${addedFiles(added)}), on the judge tree` +
        `${forTargets ? `: ${created.length} of them the issue asks for (${created.slice(0, 3).join(', ')})` : ''}; ` +
        "and, if the work passes, on the cycle's base with only those tests, to see them fail there (up to 2 more suite runs).",
      { addedTests: added, created },
    );
    const withTests = await runIn(deps, judged.withAddedTests());
    if (!withTests) return undefined;
    if (forTargets)
      verdict = judgeRun({
        baseline: before,
        now: gate.tests.run ?? emptyRun(gate.tests.exitCode),
        targetTests: targets.tests,
        verify: gate.verify,
        say: surface(settings.terms),
        withAdded: withTests,
      });
    if (verdict.kind === 'accepted') {
      const baseWithTests = await runIn(deps, judged.baseWithAddedTests());
      if (!baseWithTests) return undefined;
      runs = { withTests, baseWithTests };
    }
  }
  if (verdict.kind !== 'accepted') return { verdict };
  const evidence = evidenceOf({
    verdict,
    named: targets,
    created,
    added,
    ...(runs ? { runs } : {}),
    ...(judged ? {} : { notRun: NO_JUDGE_TREE }),
    ...(!isReadable(before) || !gate.tests.run || !isReadable(gate.tests.run)
      ? { wholeSuite: { failedBefore: before.exitCode !== 0, passesNow: gate.tests.exitCode === 0 } }
      : {}),
  });
  const said = evidence.kind === 'none' ? `N${evidence.said.slice(1)}` : `Evidence of the fix: ${evidence.said}`;
  logger.info('tests.evidence', `${said}.`, { evidence });
  return { verdict, evidence };
}

/** Why added tests are not looked for without a judge tree. */
const NO_JUDGE_TREE =
  "the work is judged where it is (no git repository, so no judge tree): the agent's added tests cannot be run on the base";

/** The files of the agent's added tests, for the log. */
const addedFiles = (added: { path: string }[]): string =>
  `${added
    .slice(0, 3)
    .map((a) => a.path)
    .join(', ')}${added.length > 3 ? ', …' : ''}`;

/** The suite run in a tree opened for it, then closed; its run read per test (empty when not read). undefined: interrupted. */
async function runIn(deps: SliceDeps, opening: Promise<OpenedPlace>): Promise<SuiteRun | undefined> {
  const opened = await opening;
  try {
    const r = await deps.runTests(deps.settings.testCommand, deps.signal, 'verify', opened.place);
    if (deps.signal?.aborted) return undefined;
    return r.run ?? emptyRun(r.exitCode);
  } finally {
    await opened.close();
  }
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
): Promise<Gate | undefined> {
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
      verify,
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
