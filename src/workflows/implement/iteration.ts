/**
 * One iteration of a cycle, performed: the agent's turn (the implement step), then, when the agent
 * says the work is done, the verify step (its precondition, then the test gate). What to do after
 * each observation is decided by stepIteration (decide.ts, pure); this file only performs its
 * effects (log, read the issues, run the tests) and feeds back what happened.
 */
import { surface } from '../../config/surface.js';
import { isClosed } from '../../issues/types.js';
import { WORKFLOWS } from '../../core/cycle.js';
import type { SliceDeps, TestOutcome, Workflow } from '../../loop/deps.js';
import { buildPrompt } from './prompt.js';
import type { IterationOutcome } from '../../core/events.js';
import { agentRan, agentTurn } from '../../loop/turn.js';
import { interpret } from '../../loop/interpret.js';
import { describeTargets } from '../../core/describe.js';
import { type Verdict, type VerifyResult, judge } from '../../verdict/judge.js';
import { type SuiteRun, emptyRun, failedIds, isReadable } from '../../verdict/results.js';
import { type IssueTargets, issueTargets } from '../../verdict/targets.js';
import type { CycleState, LoopState } from '../../core/state.js';
import {
  type IterationContext,
  type IterationEffect,
  type IterationEvent,
  type IterationModel,
  cannotVerify,
  escalateUnverifiable,
  stepIteration,
} from './decide.js';

const WORKFLOW = WORKFLOWS.implement;

/** The default workflow: the agent works until the issue's tests pass (implement → verify). */
export const implementWorkflow: Workflow = {
  name: 'implement',
  batches: true,
  iterate: (deps, state, baseline) => runIteration(deps, state, baseline),
};

export async function runIteration(deps: SliceDeps, given: LoopState, baseline?: SuiteRun): Promise<IterationOutcome> {
  const { settings, logger, clock, source, git } = deps;
  const read = given.currentCycle as CycleState;
  const n = given.iteration + 1;
  const issues = await Promise.all(
    read.issueIds.map(async (id, i) => (await source.get(id)) ?? { id, title: read.titles[i] ?? id, body: '' }),
  );
  // What the issue must make pass: its agent-loop block, or the tests its text names, as the cycle's
  // first iteration read them. The agent can edit its own issue in a beads file: until 2026-11-28 an
  // agent that removed the test its issue named (or its verify:) had the next iteration's verdict
  // take no target, and the issue was closed with nothing fixed.
  const targetsText = read.targetsText ?? issues.map((i) => `${i.title}\n${i.body}`).join('\n\n');
  const cycle: CycleState = read.targetsText === undefined ? { ...read, targetsText } : read;
  const before: LoopState = cycle === read ? given : { ...given, currentCycle: cycle };
  const targets = issueTargets(targetsText, baseline);
  if (targets.unreadable) {
    // Nothing the agent does could be verified: escalated before an agent run is spent on it.
    const reason = cannotVerify(targets.unreadable);
    logger.error(
      'issue.targets',
      `[iteration ${n}/${settings.maxIterations}] ${describeTargets(cycle)}: ${reason}. Escalated before any agent run.`,
      { iteration: n },
    );
    return escalateUnverifiable(settings, before, reason);
  }
  // The previous failure's output goes back to the agent: masked where it entered the engine (the
  // test command's output and report, the agent's output, the issue's text), and prompt.md on its way out.
  const prompt = buildPrompt({
    issues,
    iteration: n,
    maxIterations: settings.maxIterations,
    testCommand: settings.testCommand,
    plan: settings.plan,
    lastFailure: cycle.lastFailure,
    sourceHint: source.description,
    ...(baseline ? { failingBefore: failedIds(baseline).filter((id) => !targets.tests.includes(id)) } : {}),
  });
  logger.info('iteration.start', `[iteration ${n}/${settings.maxIterations}] ${describeTargets(cycle)} …`, {
    iteration: n,
    issueIds: cycle.issueIds,
    step: WORKFLOW[cycle.progress.index],
  });

  const turn = await agentTurn(deps, before, prompt, `the work of iteration ${n}`);
  if (!turn) return { state: before, interrupted: true };
  const ctx: IterationContext = {
    settings,
    agentName: deps.agent.displayName,
    before,
    targets,
    canMarkNoChange: source.markNoChange !== undefined,
    startedAt: turn.started.getTime(),
  };
  const { result } = turn;
  const base = turn.state.baseBranch;
  // Asked only when it matters: a successful run that was denied edits.
  const deniedEverything =
    !turn.moved &&
    result.ok &&
    (result.permissionDenials ?? 0) > 0 &&
    git !== undefined &&
    base !== undefined &&
    !(await git.hasWorkSince(base));

  const perform = async (effect: IterationEffect): Promise<IterationEvent | IterationOutcome | undefined> => {
    switch (effect.kind) {
      case 'log':
        logger[effect.level](effect.event, effect.message, effect.data);
        return undefined;
      case 'readClosed': {
        const closed = await Promise.all(cycle.issueIds.map(async (id) => isClosedIn(deps, id)));
        return { type: 'closedRead', closed, now: clock.now().getTime() };
      }
      case 'judge': {
        const changed = !(git && base) || (await git.hasWorkSince(base));
        const gate = await judgeWork(deps, baseline, targets);
        if (!gate) return { type: 'interrupted' };
        return { type: 'judged', changed, ...gate, now: clock.now().getTime() };
      }
      case 'finish':
        return effect.outcome;
    }
  };
  return interpret<IterationModel, IterationEvent, IterationEffect, IterationOutcome>(
    (model, event) => stepIteration(ctx, model, event),
    {
      model: { state: before, record: turn.record },
      event: { ...agentRan(turn, clock.now().getTime()), deniedEverything },
    },
    perform,
    'an implement iteration',
  );
}

const isClosedIn = async (deps: SliceDeps, id: string): Promise<boolean> => {
  const issue = await deps.source.get(id);
  return issue ? isClosed(issue) : false;
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
      verdict: judge({ baseline: baseline ?? emptyRun(0), now, targetTests: targets.tests, verify, say }),
    };
  };
  const first = await once();
  if (
    !first ||
    first.verdict.kind !== 'rejected' ||
    first.verdict.broken.length === 0 ||
    !first.tests.run ||
    !isReadable(first.tests.run)
  )
    return first;
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
