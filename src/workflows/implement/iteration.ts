/**
 * One iteration of a cycle: the agent's turn (the implement step), then, when the agent says the
 * work is done, the verify step (its precondition, then the test gate). What happens after a
 * failure comes from the retry policy table; where the cycle goes next from the step machine.
 */
import type { AgentFailure } from '../../agents/types.js';
import { NO_CHANGE_LABEL, isClosed } from '../../issues/types.js';
import { rfc3339 } from '../../util/clock.js';
import { decideContinuation, isCycleComplete } from '../../core/continuation.js';
import { WORKFLOWS, type StepEvent, transition } from '../../core/cycle.js';
import type { SliceDeps, TestOutcome, Workflow } from '../../loop/deps.js';
import { buildPrompt } from './prompt.js';
import type { IssueAction, IterationOutcome } from '../../core/events.js';
import { afterFailure, agentTurn, agentUnavailable } from '../../loop/turn.js';
import { describeTargets, seconds } from '../../core/describe.js';
import { type Verdict, type VerifyResult, judge, rejectionDetails } from '../../verdict/judge.js';
import { type SuiteRun, emptyRun, failedIds, isReadable } from '../../verdict/results.js';
import { type IssueTargets, issueTargets } from '../../verdict/targets.js';
import { type CycleState, type IterationRecord, type LoopState, appendHistory } from '../../core/state.js';

const WORKFLOW = WORKFLOWS.implement;

/** The default workflow: the agent works until the issue's tests pass (implement → verify). */
export const implementWorkflow: Workflow = {
  name: 'implement',
  batches: true,
  iterate: (deps, state, baseline) => runIteration(deps, state, baseline),
};

export async function runIteration(deps: SliceDeps, before: LoopState, baseline?: SuiteRun): Promise<IterationOutcome> {
  const { settings, logger, clock, source, agent, git } = deps;
  const cycle = before.currentCycle as CycleState;
  const n = before.iteration + 1;
  const tag = `[iteration ${n}/${settings.maxIterations}]`;
  const issues = await Promise.all(
    cycle.issueIds.map(async (id, i) => (await source.get(id)) ?? { id, title: cycle.titles[i] ?? id, body: '' }),
  );
  // What the issue must make pass: its agent-loop block, or the tests its text names.
  const targets = issueTargets(issues.map((i) => `${i.title}\n${i.body}`).join('\n\n'), baseline);
  // The previous failure's output goes back to the agent: masked like every other output.
  const prompt = (deps.redact ?? ((t: string) => t))(
    buildPrompt({
      issues,
      iteration: n,
      maxIterations: settings.maxIterations,
      testCommand: settings.testCommand,
      plan: settings.plan,
      lastFailure: cycle.lastFailure,
      sourceHint: source.description,
      ...(baseline ? { failingBefore: failedIds(baseline).filter((id) => !targets.tests.includes(id)) } : {}),
    }),
  );
  logger.info('iteration.start', `${tag} ${describeTargets(cycle)} …`, {
    iteration: n,
    issueIds: cycle.issueIds,
    step: WORKFLOW[cycle.progress.index],
  });

  const turn = await agentTurn(deps, before, prompt, `the work of iteration ${n}`);
  if (!turn) return { state: before, interrupted: true };
  const { result, record, started } = turn;
  let state = turn.state;
  const close = (s: LoopState, r: IterationRecord): LoopState =>
    appendHistory(s, { ...r, durationMs: clock.now().getTime() - started.getTime() });
  // Moved behind the engine's back: nothing is judged, nothing closed.
  if (turn.moved) return { state: close(state, { ...record, outcome: 'repository_moved' }), halt: turn.moved };
  const setCycle = (s: LoopState, patch: Partial<CycleState>): LoopState => ({
    ...s,
    currentCycle: { ...(s.currentCycle as CycleState), ...patch },
  });
  const step = (s: LoopState, event: StepEvent) => {
    const c = s.currentCycle as CycleState;
    const t = transition(WORKFLOW, c.progress, event, settings.maxRetriesPerStep);
    return { state: setCycle(s, { progress: t.progress }), decision: t.decision };
  };

  // A run that was denied every edit and changed nothing is the environment's fault, not the issue's.
  let failure: AgentFailure | undefined = result.failure;
  if (
    result.ok &&
    (result.permissionDenials ?? 0) > 0 &&
    git &&
    state.baseBranch &&
    !(await git.hasWorkSince(state.baseBranch))
  ) {
    failure = {
      class: 'permanent',
      reason: 'permission_denied',
      message: `the agent was denied ${result.permissionDenials} tool use(s) and changed nothing`,
    };
  }

  if (failure) {
    const counted = afterFailure(state, failure);
    const d = counted.decision;
    const kind = d.kind;
    logger.event(
      'iteration.failed',
      failure.class === 'permanent' ? 'error' : 'warn',
      `${agent.displayName} iteration ${n} failed: ${failure.message} (${result.exitCode !== null ? `exit code ${result.exitCode}` : result.signal ? `killed by ${result.signal}` : 'no exit code'}, ${seconds(result.durationMs)}, ${failure.class} ${failure.reason})`,
      {
        iteration: n,
        exitCode: result.exitCode,
        signal: result.signal,
        elapsedMs: Math.round(result.durationMs),
        class: failure.class,
        reason: failure.reason,
        error: failure.message,
        retryAfterMs: failure.retryAfterMs ?? null,
        policy: kind,
      },
    );
    state = setCycle(counted.state, {
      lastFailure: { kind: 'agent', message: failure.message, tail: result.outputTail },
    });
    const failed = { ...record, agent: { ...record.agent, ok: false, failure }, outcome: 'agent_failed' as const };
    if (d.exhausted === 'halt') return { state: close(state, failed), halt: agentUnavailable(d.attempts, failure) };
    if (d.exhausted === 'escalate') {
      return {
        state: close(state, failed),
        escalate: {
          reason: `${failure.reason === 'timeout' ? 'timed out' : 'network errors'} ${d.attempts} times in a row (${d.attempts - 1} retries with the same timeout): ${failure.message}`,
          bounceLoop: false,
        },
      };
    }
    if (d.countsTowardStep) {
      // The step's retries, with the failure as context.
      const t = step(state, { type: 'failed', reason: failure.message });
      state = t.state;
      if (t.decision.kind === 'escalate')
        return { state: close(state, failed), escalate: { reason: t.decision.reason, bounceLoop: false } };
    }
    return { state: close(state, failed), ...(d.waitMs > 0 ? { waitMs: d.waitMs } : {}) };
  }

  state = setCycle(
    { ...state, successfulIterations: state.successfulIterations + 1, environmentFailures: 0 },
    { timeoutRetries: 0, rateLimitAttempts: 0 },
  );

  // Defensive validation of the report (seed 004).
  const current = state.currentCycle as CycleState;
  const decision = decideContinuation(result.report, {
    workRemaining: current.lastWorkRemaining,
    sameCount: current.sameWorkRemainingCount,
  });
  state = setCycle(state, {
    lastWorkRemaining: decision.workRemaining,
    sameWorkRemainingCount: decision.sameWorkRemainingCount,
  });
  record.workRemaining = decision.workRemaining;
  let violation: Record<string, unknown> | undefined;
  if (decision.contractViolation) {
    const { workRemaining } = decision.contractViolation;
    violation = {
      timestamp: rfc3339(clock.now()),
      type: 'validation_error',
      iteration: n,
      issueIds: cycle.issueIds,
      message: 'Agent contract violation: requires_continuation=false with work_remaining non-empty',
      details: {
        work_remaining: workRemaining,
        requires_continuation: false,
        override: settings.strict ? 'halt' : 'forced_true',
      },
    };
    if (settings.strict) {
      logger.error(
        'validation.violation',
        `${tag} the agent reported requires_continuation: false with work_remaining "${workRemaining}"; --strict halts.`,
      );
      return {
        state: close(state, { ...record, outcome: 'contract_violation' }),
        violation,
        halt: {
          reason: 'contract_violation',
          message: `Agent contract violation at iteration ${n}: requires_continuation=false with work_remaining "${workRemaining}" (--strict)`,
        },
      };
    }
    logger.warn(
      'validation.override',
      `${tag} the agent reported requires_continuation: false with work_remaining "${workRemaining}"; overriding to continue (logged to errors.jsonl).`,
      { iteration: n, workRemaining },
    );
  }
  if (decision.stuck) {
    logger.error('cycle.stuck', `${tag} stuck on ${describeTargets(cycle)}: ${decision.stuck}.`);
    const t = step(state, { type: 'escalate', reason: `stuck: ${decision.stuck}` });
    return {
      state: close(t.state, { ...record, outcome: 'stuck' }),
      violation,
      escalate: { reason: `stuck: ${decision.stuck}`, bounceLoop: false },
    };
  }

  // Completion check: the targets are closed in the source, or the report says no work remains.
  const closed = await Promise.all(
    cycle.issueIds.map(async (id) => {
      const i = await source.get(id);
      return i ? isClosed(i) : false;
    }),
  );
  if (!isCycleComplete(closed, decision.reportSaysDone)) {
    logger.info(
      'iteration.end',
      `${tag} agent ok in ${seconds(result.durationMs)}; work remains${decision.workRemaining ? `: ${decision.workRemaining}` : ''}.`,
      { iteration: n, outcome: 'continuing' },
    );
    return { state: close(state, record), violation };
  }

  // implement → verify: the suite (and the issue's verify: commands) judged against the baseline.
  state = step(state, { type: 'succeeded' }).state;
  const base = state.baseBranch;
  const changed = !(git && base) || (await git.hasWorkSince(base));
  for (const problem of targets.problems)
    logger.warn('issue.targets', `${tag} ${describeTargets(cycle)}: ${problem}; it is ignored.`, { iteration: n });
  logger.info('tests.start', `${tag} the agent says the work is done; running the tests: ${settings.testCommand}`, {
    iteration: n,
    command: settings.testCommand,
  });
  const gate = await judgeWork(deps, baseline, targets);
  if (!gate) return { state: before, interrupted: true };
  const { tests, verdict } = gate;
  record.tests = { passed: tests.passed, exitCode: tests.exitCode, durationMs: Math.round(tests.durationMs) };
  record.verdict = { kind: verdict.kind, summary: verdict.summary };
  state = { ...state, testsPassed: tests.passed };

  if (verdict.kind === 'cannot_run') {
    // A real step back: nothing could be verified.
    logger.warn('step.bounce', `${tag} verify cannot run: ${verdict.summary}; back to implement.`, {
      iteration: n,
      from: 'verify',
      to: 'implement',
    });
    const t = step(state, { type: 'precondition_failed', reason: verdict.summary });
    state = setCycle(t.state, {
      lastFailure: { kind: 'tests', message: `\`${settings.testCommand}\`: ${verdict.summary}`, tail: tests.tail },
    });
    const bounced = close(state, { ...record, outcome: 'bounced' });
    if (t.decision.kind === 'escalate')
      return { state: bounced, violation, escalate: { reason: t.decision.reason, bounceLoop: t.decision.bounceLoop } };
    return { state: bounced, violation };
  }
  if (verdict.kind === 'rejected') {
    logger.warn(
      'tests.failed',
      `${tag} rejected: ${verdict.summary} (exit code ${tests.exitCode}, ${seconds(tests.durationMs)}); the next iteration gets the failures as context.`,
      {
        iteration: n,
        exitCode: tests.exitCode,
        broken: verdict.broken.map((f) => f.id),
        targetsFailing: verdict.targetsFailing.map((f) => f.id),
      },
    );
    // Read per test: each broken test and failing target with its message; else the exit code and the output.
    const perTest = tests.run !== undefined && isReadable(tests.run);
    const details = perTest ? rejectionDetails(verdict) : '';
    const message =
      perTest || verdict.verifyFailing.length > 0
        ? verdict.summary
        : `\`${settings.testCommand}\` exited with code ${tests.exitCode}`;
    state = setCycle(
      { ...state, testFailures: state.testFailures + 1 },
      { lastFailure: { kind: 'tests', message, tail: `${details}${details ? '\n\n' : ''}${tests.tail}` } },
    );
    const t = step(state, { type: 'failed', reason: `tests: ${verdict.summary}`, resumeAt: 0 });
    state = close(t.state, { ...record, outcome: 'tests_failed' });
    if (t.decision.kind === 'escalate')
      return { state, violation, escalate: { reason: t.decision.reason, bounceLoop: false } };
    return { state, violation };
  }
  state = { ...state, preexistingFailures: verdict.preexisting };

  if (!changed && !closed.every(Boolean)) {
    // Already satisfied: nothing changed and nothing broke. Closed with the evidence; never a bounce.
    const named = targets.tests.length > 0 || targets.verify.length > 0;
    const why = named
      ? `its targets pass (${[...targets.tests, ...targets.verify.map((c) => `\`${c}\``)].join(', ')})`
      : `the agent reports: ${result.report?.summary?.trim() || 'the work is already done'}`;
    const note = `agent-loop: no change was needed: ${why} (iteration ${n}).`;
    const noChange: string[] = [];
    const issueActions: IssueAction[] = [];
    for (const [i, id] of cycle.issueIds.entries()) {
      if (closed[i]) continue;
      // Where a person decides (GitHub): labelled with the evidence, closed only when the issue's own targets pass.
      issueActions.push({ kind: 'markNoChange', id, note, close: named });
      if (source.markNoChange && !named) noChange.push(id);
    }
    const closedNow = cycle.issueIds.filter((id) => !noChange.includes(id));
    logger.info(
      'cycle.no_change',
      `${tag} ${describeTargets(cycle)}: no change was needed (${why}); ${noChange.length ? `labelled ${noChange.join(', ')} ${NO_CHANGE_LABEL} for a person to close` : `closed ${closedNow.join(', ')}`}.`,
      { iteration: n, issueIds: cycle.issueIds },
    );
    state = {
      ...state,
      consecutiveEscalations: 0,
      issuesClosed: [...state.issuesClosed, ...closedNow.filter((id) => !state.issuesClosed.includes(id))],
      issuesNoChange: [...state.issuesNoChange, ...noChange.filter((id) => !state.issuesNoChange.includes(id))],
      completedIterations: [...state.completedIterations, n],
    };
    return {
      state: close(state, { ...record, outcome: 'no_change' }),
      violation,
      cycleDone: true,
      noChange: true,
      issueActions,
    };
  }

  // Success: close what the agent did not; with pull requests, their merge closes the issues.
  const viaPullRequest = settings.onSuccess === 'pull-request';
  const issueActions: IssueAction[] = viaPullRequest
    ? []
    : cycle.issueIds
        .filter((_, i) => !closed[i])
        .map((id) => ({ kind: 'close', id, note: `agent-loop: accepted at iteration ${n}: ${verdict.summary}` }));
  logger.info(
    'cycle.complete',
    `${tag} ${describeTargets(cycle)} done: ${verdict.summary} (${seconds(tests.durationMs)}); ${viaPullRequest ? 'a pull request follows' : `closed ${cycle.issueIds.join(', ')}`}.`,
    { iteration: n, issueIds: cycle.issueIds, preexistingFailures: verdict.preexisting },
  );
  state = {
    ...state,
    consecutiveEscalations: 0,
    issuesClosed: [...state.issuesClosed, ...cycle.issueIds.filter((id) => !state.issuesClosed.includes(id))],
    completedIterations: [...state.completedIterations, n],
  };
  return { state: close(state, { ...record, outcome: 'complete' }), violation, cycleDone: true, issueActions };
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
    return { tests, verdict: judge({ baseline: baseline ?? emptyRun(0), now, targetTests: targets.tests, verify }) };
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
