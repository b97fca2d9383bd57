/**
 * The implement workflow's iteration, pure: `stepIteration(context, model, event) → (model,
 * effects)`, like the engine's core (src/core/slice.ts). Events are what the iteration observed
 * (the agent ran, the issues' state was read, the tests were judged); effects are what to do next
 * (log, read the issues, run and judge the tests, finish with an outcome). iteration.ts performs
 * them. What happens after a failure comes from the retry policy table; where the cycle goes next
 * from the step machine (src/core/cycle.ts). No processes, files or clocks here: every path is a
 * unit test (__tests__/workflows/implement/decide.test.ts).
 */
import { surface } from '../../config/surface.js';
import type { AgentFailure, AgentResult } from '../../agents/types.js';
import { NO_CHANGE_LABEL } from '../../issues/types.js';
import { rfc3339 } from '../../util/clock.js';
import { type ContinuationDecision, decideContinuation, isCycleComplete } from '../../core/continuation.js';
import { WORKFLOWS, type StepEvent, transition } from '../../core/cycle.js';
import { describeTargets, seconds } from '../../core/describe.js';
import { type IssueAction, type IterationOutcome, type LogEffect, log } from '../../core/events.js';
import { type CycleState, type IterationRecord, type LoopState, appendHistory } from '../../core/state.js';
import { type AgentRan, afterFailure, agentUnavailable } from '../../loop/turn.js';
import type { SliceSettings, TestOutcome } from '../../loop/deps.js';
import { inlineCode } from '../../report/markdown.js';
import { type Verdict, rejectionDetails } from '../../verdict/judge.js';
import { isReadable } from '../../verdict/results.js';
import type { IssueTargets } from '../../verdict/targets.js';

/** The history keeps this much of the agent's own summary, and this many of a verdict's targets. */
const SUMMARY_KEPT = 1000;
const TARGETS_KEPT = 30;

const WORKFLOW = WORKFLOWS.implement;

/** What an iteration knows from its start and never changes. */
export interface IterationContext {
  settings: Pick<
    SliceSettings,
    | 'maxIterations'
    | 'maxRetriesPerStep'
    | 'maxIterationsPerIssue'
    | 'strict'
    | 'testCommand'
    | 'onSuccess'
    | 'closeOnBranch'
    | 'terms'
  >;
  agentName: string;
  /** The loop state before the iteration (given back when it is interrupted). */
  before: LoopState;
  /** What the issues must make pass (their agent-loop block, or the tests their text names). */
  targets: IssueTargets;
  /** The source can label an issue as needing no change for a person to close (GitHub). */
  canMarkNoChange: boolean;
  /** When the agent run started (epoch ms): the iteration's duration is counted from it. */
  startedAt: number;
}

export type IterationEvent =
  /**
   * The agent's turn is over (src/loop/turn.ts): its result, the state with the iteration counted,
   * the record so far; `moved` when the agent moved the repository; `deniedEverything` when it was
   * denied every edit and changed nothing.
   */
  | (AgentRan & { deniedEverything: boolean })
  /** Answers `readClosed`: whether each of the cycle's issues is closed in the source. */
  | { type: 'closedRead'; closed: boolean[]; now: number }
  /** Answers `judge`: whether the cycle changed anything, and the suite's verdict against the baseline. */
  | { type: 'judged'; changed: boolean; tests: TestOutcome; verdict: Verdict; now: number }
  /** The run was asked to stop while an effect ran. */
  | { type: 'interrupted' };

export type IterationEffect =
  | LogEffect
  /** Answered by `closedRead`. */
  | { kind: 'readClosed' }
  /** Run the suite and the issues' verify: commands and judge them (a rejection confirmed by a second run); answered by `judged`. */
  | { kind: 'judge' }
  /** The iteration is over. */
  | { kind: 'finish'; outcome: IterationOutcome };

export interface IterationModel {
  state: LoopState;
  record: IterationRecord;
  result?: AgentResult;
  violation?: Record<string, unknown>;
  continuation?: ContinuationDecision;
  closed?: boolean[];
}

export type IterationStep = { model: IterationModel; effects: IterationEffect[] };

const cycleOf = (s: LoopState): CycleState => s.currentCycle as CycleState;
const setCycle = (s: LoopState, patch: Partial<CycleState>): LoopState => ({
  ...s,
  currentCycle: { ...cycleOf(s), ...patch },
});
const tagOf = (ctx: IterationContext) => `[iteration ${ctx.before.iteration + 1}/${ctx.settings.maxIterations}]`;

/** The iteration's record appended to the history, with its duration. */
const close = (ctx: IterationContext, s: LoopState, r: IterationRecord, now: number): LoopState =>
  appendHistory(s, { ...r, durationMs: now - ctx.startedAt });

const finish = (model: IterationModel, effects: IterationEffect[], outcome: IterationOutcome): IterationStep => ({
  model: { ...model, state: outcome.state },
  effects: [...effects, { kind: 'finish', outcome }],
});

/** The step machine's answer to an event of the cycle's current step. */
function stepCycle(ctx: Pick<IterationContext, 'settings'>, s: LoopState, event: StepEvent) {
  const t = transition(WORKFLOW, cycleOf(s).progress, event, ctx.settings.maxRetriesPerStep, ctx.settings.terms);
  return { state: setCycle(s, { progress: t.progress }), decision: t.decision };
}

/** Why an issue whose agent-loop block cannot be taken as written is escalated. Pure. */
export const cannotVerify = (unreadable: string): string =>
  `cannot verify: ${unreadable}. Fix the block in the issue's text; the edit makes the issue eligible again`;

/**
 * The issue's agent-loop block cannot be taken as written, so no work could be verified: the cycle
 * escalated with `reason` (cannotVerify). Before the agent runs (runIteration: no agent run spent, no
 * iteration counted), and in the verdict for targets that came unreadable. Pure.
 */
export function escalateUnverifiable(
  settings: IterationContext['settings'],
  before: LoopState,
  reason: string,
): IterationOutcome {
  const { state } = stepCycle({ settings }, before, { type: 'escalate', reason });
  return { state, escalate: { reason, bounceLoop: false } };
}

export function stepIteration(ctx: IterationContext, model: IterationModel, event: IterationEvent): IterationStep {
  switch (event.type) {
    case 'interrupted':
      return finish(model, [], { state: ctx.before, interrupted: true });
    case 'agentRan':
      return afterAgent(ctx, { ...model, state: event.state, record: event.record, result: event.result }, event);
    case 'closedRead':
      return afterClosedRead(ctx, { ...model, closed: event.closed }, event.now);
    case 'judged':
      return afterVerdict(ctx, model, event);
  }
}

function afterAgent(
  ctx: IterationContext,
  model: IterationModel,
  event: Extract<IterationEvent, { type: 'agentRan' }>,
): IterationStep {
  const { result, now } = event;
  const { record } = model;
  const n = record.n;
  // Moved behind the engine's back: nothing is judged, nothing closed.
  if (event.moved)
    return finish(model, [], {
      state: close(ctx, model.state, { ...record, outcome: 'repository_moved' }, now),
      halt: event.moved,
    });

  // A run that was denied every edit and changed nothing is the environment's fault, not the issue's.
  const failure: AgentFailure | undefined = event.deniedEverything
    ? {
        class: 'permanent',
        reason: 'permission_denied',
        message: `the agent was denied ${result.permissionDenials} tool use(s) and changed nothing`,
      }
    : result.failure;
  if (failure) return afterAgentFailure(ctx, model, result, failure, now);

  let state = setCycle(
    { ...model.state, successfulIterations: model.state.successfulIterations + 1, environmentFailures: 0 },
    { timeoutRetries: 0, rateLimitAttempts: 0 },
  );
  const tag = tagOf(ctx);
  const effects: IterationEffect[] = [];
  // Defensive validation of the report (seed 004).
  const current = cycleOf(state);
  const decision = decideContinuation(result.report, {
    workRemaining: current.lastWorkRemaining,
    sameCount: current.sameWorkRemainingCount,
    silentCount: current.silentIterations ?? 0,
  });
  state = setCycle(state, {
    lastWorkRemaining: decision.workRemaining,
    sameWorkRemainingCount: decision.sameWorkRemainingCount,
    silentIterations: decision.silentIterations,
  });
  const told = result.report?.summary?.trim();
  const withReport: IterationRecord = {
    ...record,
    workRemaining: decision.workRemaining,
    ...(told ? { summary: told.slice(0, SUMMARY_KEPT) } : {}),
  };
  let violation: Record<string, unknown> | undefined;
  if (decision.contractViolation) {
    const { workRemaining } = decision.contractViolation;
    violation = {
      timestamp: rfc3339(new Date(now)),
      type: 'validation_error',
      iteration: n,
      issueIds: current.issueIds,
      message: 'Agent contract violation: requires_continuation=false with work_remaining non-empty',
      details: {
        work_remaining: workRemaining,
        requires_continuation: false,
        override: ctx.settings.strict ? 'halt' : 'forced_true',
      },
    };
    if (ctx.settings.strict) {
      effects.push(
        log(
          'error',
          'validation.violation',
          `${tag} the agent reported requires_continuation: false with work_remaining "${workRemaining}"; ${surface(ctx.settings.terms).option('strict')} halts.`,
        ),
      );
      return finish(model, effects, {
        state: close(ctx, state, { ...withReport, outcome: 'contract_violation' }, now),
        violation,
        halt: {
          reason: 'contract_violation',
          message: `Agent contract violation at iteration ${n}: requires_continuation=false with work_remaining "${workRemaining}" (${surface(ctx.settings.terms).option('strict')})`,
        },
      });
    }
    effects.push(
      log(
        'warn',
        'validation.override',
        `${tag} the agent reported requires_continuation: false with work_remaining "${workRemaining}"; overriding to continue (logged to errors.jsonl).`,
        { iteration: n, workRemaining },
      ),
    );
  }
  if (decision.stuck)
    return stuckOut(ctx, model, effects, { state, record: withReport, violation, now }, decision.stuck);
  // Completion check next: are the targets closed in the source?
  return {
    model: { ...model, state, record: withReport, violation, continuation: decision },
    effects: [...effects, { kind: 'readClosed' }],
  };
}

function afterAgentFailure(
  ctx: IterationContext,
  model: IterationModel,
  result: AgentResult,
  failure: AgentFailure,
  now: number,
): IterationStep {
  const n = model.record.n;
  const counted = afterFailure(model.state, failure);
  const d = counted.decision;
  const effects: IterationEffect[] = [
    log(
      failure.class === 'permanent' ? 'error' : 'warn',
      'iteration.failed',
      `${ctx.agentName} iteration ${n} failed: ${failure.message} (${result.exitCode !== null ? `exit code ${result.exitCode}` : result.signal ? `killed by ${result.signal}` : 'no exit code'}, ${seconds(result.durationMs)}, ${failure.class} ${failure.reason})`,
      {
        iteration: n,
        exitCode: result.exitCode,
        signal: result.signal,
        elapsedMs: Math.round(result.durationMs),
        class: failure.class,
        reason: failure.reason,
        error: failure.message,
        retryAfterMs: failure.retryAfterMs ?? null,
        policy: d.kind,
      },
    ),
  ];
  let state = setCycle(counted.state, {
    lastFailure: { kind: 'agent', message: failure.message, tail: result.outputTail },
  });
  const failed: IterationRecord = {
    ...model.record,
    agent: { ...model.record.agent, ok: false, failure },
    outcome: 'agent_failed',
  };
  if (d.exhausted === 'halt')
    return finish(model, effects, {
      state: close(ctx, state, failed, now),
      halt: agentUnavailable(d.attempts, failure, ctx.settings.terms),
    });
  if (d.exhausted === 'escalate')
    return finish(model, effects, {
      state: close(ctx, state, failed, now),
      escalate: {
        reason: `${failure.reason === 'timeout' ? 'timed out' : 'network errors'} ${d.attempts} times in a row (${d.attempts - 1} retries with the same timeout): ${failure.message}`,
        bounceLoop: false,
      },
    });
  if (d.countsTowardStep) {
    // The step's retries, with the failure as context.
    const t = stepCycle(ctx, state, { type: 'failed', reason: failure.message });
    state = t.state;
    if (t.decision.kind === 'escalate')
      return finish(model, effects, {
        state: close(ctx, state, failed, now),
        escalate: { reason: t.decision.reason, bounceLoop: false },
      });
  }
  return finish(model, effects, {
    state: close(ctx, state, failed, now),
    ...(d.waitMs > 0 ? { waitMs: d.waitMs } : {}),
  });
}

/** The cycle escalated as stuck (`why`), logged after `effects`, its iteration recorded as `stuck`. */
function stuckOut(
  ctx: IterationContext,
  model: IterationModel,
  effects: IterationEffect[],
  at: { state: LoopState; record: IterationRecord; violation?: Record<string, unknown>; now: number },
  why: string,
): IterationStep {
  const t = stepCycle(ctx, at.state, { type: 'escalate', reason: `stuck: ${why}` });
  return finish(
    model,
    [...effects, log('error', 'cycle.stuck', `${tagOf(ctx)} stuck on ${describeTargets(cycleOf(at.state))}: ${why}.`)],
    {
      state: close(ctx, t.state, { ...at.record, outcome: 'stuck' }, at.now),
      violation: at.violation,
      escalate: { reason: `stuck: ${why}`, bounceLoop: false },
    },
  );
}

/**
 * Why a cycle whose work still remains after this agent run is stuck for having run too long: its
 * runs that ended that way (`runs`, this one included) reached --max-iterations-per-issue, per issue
 * of the cycle (a --batch of 3 gets 3 times as many). An agent that says "work remains" in new words
 * each time is never caught by the unchanged-work_remaining check. Failed runs and rejected verdicts
 * do not count: --max-retries-per-step and the failure policy bound those, and a rate limit is no
 * fault of the issue's. Pure.
 */
function overCycleLimit(
  ctx: IterationContext,
  cycle: CycleState,
  runs: number,
  workRemaining?: string,
): string | undefined {
  const perIssue = ctx.settings.maxIterationsPerIssue;
  const issues = cycle.issueIds.length;
  const limit = perIssue * issues;
  if (perIssue === 0 || runs < limit) return undefined;
  const limitOf = surface(ctx.settings.terms).given('maxIterationsPerIssue', String(perIssue));
  return `${runs} agent runs on this cycle ended with work still remaining${workRemaining ? ` (now: ${workRemaining})` : ''}: the limit is ${limitOf}${issues > 1 ? ` × ${issues} issues` : ''}`;
}

function afterClosedRead(ctx: IterationContext, model: IterationModel, now: number): IterationStep {
  const { record, violation } = model;
  const decision = model.continuation as ContinuationDecision;
  const result = model.result as AgentResult;
  const closed = model.closed ?? [];
  const tag = tagOf(ctx);
  // Complete when the targets are closed in the source, or the report says no work remains.
  if (isCycleComplete(closed, decision.reportSaysDone)) return judgeOrEscalate(ctx, model, now);
  const current = cycleOf(model.state);
  const unfinishedRuns = (current.unfinishedRuns ?? 0) + 1;
  const counted = setCycle(model.state, { unfinishedRuns });
  const stuck = decision.silent ?? overCycleLimit(ctx, current, unfinishedRuns, decision.workRemaining);
  if (stuck) return stuckOut(ctx, model, [], { state: counted, record, violation, now }, stuck);
  return finish(
    model,
    [
      log(
        'info',
        'iteration.end',
        `${tag} agent ok in ${seconds(result.durationMs)}; work remains${decision.workRemaining ? `: ${decision.workRemaining}` : ''}.`,
        { iteration: record.n, outcome: 'continuing' },
      ),
    ],
    { state: close(ctx, counted, record, now), violation },
  );
}

/** The cycle is complete by the source or the report: judged (implement → verify), unless nothing can verify it. */
function judgeOrEscalate(ctx: IterationContext, model: IterationModel, now: number): IterationStep {
  const { record, violation } = model;
  const tag = tagOf(ctx);

  // The issue's agent-loop block says what must pass, and it cannot be read: nothing can verify the
  // work, and the agent's word is not enough. Escalated, for a person to fix the block (an edit of
  // the issue makes it eligible again); never judged without it, never closed.
  if (ctx.targets.unreadable) {
    const reason = cannotVerify(ctx.targets.unreadable);
    const escalated = escalateUnverifiable(ctx.settings, model.state, reason);
    return finish(
      model,
      [
        log('error', 'issue.targets', `${tag} ${describeTargets(cycleOf(model.state))}: ${reason}.`, {
          iteration: record.n,
        }),
      ],
      {
        ...escalated,
        state: close(ctx, escalated.state, { ...record, outcome: 'cannot_verify' }, now),
        violation,
      },
    );
  }

  // implement → verify: the suite (and the issue's verify: commands) judged against the baseline.
  const state = stepCycle(ctx, model.state, { type: 'succeeded' }).state;
  return {
    model: { ...model, state },
    effects: [
      log(
        'info',
        'tests.start',
        `${tag} the agent says the work is done; running the tests: ${ctx.settings.testCommand}`,
        { iteration: record.n, command: ctx.settings.testCommand },
      ),
      { kind: 'judge' },
    ],
  };
}

function afterVerdict(
  ctx: IterationContext,
  model: IterationModel,
  event: Extract<IterationEvent, { type: 'judged' }>,
): IterationStep {
  const { tests, verdict, changed, now } = event;
  const { violation } = model;
  const { settings } = ctx;
  const closed = model.closed ?? [];
  const result = model.result as AgentResult;
  const tag = tagOf(ctx);
  const n = model.record.n;
  const cycle = cycleOf(model.state);
  const record: IterationRecord = {
    ...model.record,
    tests: { passed: tests.passed, exitCode: tests.exitCode, durationMs: Math.round(tests.durationMs) },
    verdict: {
      kind: verdict.kind,
      summary: verdict.summary,
      ...(verdict.targets.length ? { targets: verdict.targets.slice(0, TARGETS_KEPT) } : {}),
    },
  };
  // The verdict, not the exit code: a test that failed before the cycle and still fails, targeted by no
  // issue, does not make the work's tests fail (it is reported in preexistingFailures).
  let state: LoopState = { ...model.state, testsPassed: verdict.kind === 'accepted' };

  if (verdict.kind === 'cannot_run') {
    // A real step back: nothing could be verified.
    const t = stepCycle(ctx, state, { type: 'precondition_failed', reason: verdict.summary });
    state = setCycle(t.state, {
      lastFailure: { kind: 'tests', message: `\`${settings.testCommand}\`: ${verdict.summary}`, tail: tests.tail },
    });
    const bounced = close(ctx, state, { ...record, outcome: 'bounced' }, now);
    return finish(
      model,
      [
        log('warn', 'step.bounce', `${tag} verify cannot run: ${verdict.summary}; back to implement.`, {
          iteration: n,
          from: 'verify',
          to: 'implement',
        }),
      ],
      t.decision.kind === 'escalate'
        ? { state: bounced, violation, escalate: { reason: t.decision.reason, bounceLoop: t.decision.bounceLoop } }
        : { state: bounced, violation },
    );
  }
  if (verdict.kind === 'rejected') {
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
    const t = stepCycle(ctx, state, { type: 'failed', reason: `tests: ${verdict.summary}`, resumeAt: 0 });
    state = close(ctx, t.state, { ...record, outcome: 'tests_failed' }, now);
    return finish(
      model,
      [
        log(
          'warn',
          'tests.failed',
          `${tag} rejected: ${verdict.summary} (exit code ${tests.exitCode}, ${seconds(tests.durationMs)}); the next iteration gets the failures as context.`,
          {
            iteration: n,
            exitCode: tests.exitCode,
            broken: verdict.broken.map((f) => f.id),
            targetsFailing: verdict.targetsFailing.map((f) => f.id),
          },
        ),
      ],
      t.decision.kind === 'escalate'
        ? { state, violation, escalate: { reason: t.decision.reason, bounceLoop: false } }
        : { state, violation },
    );
  }
  state = { ...state, preexistingFailures: verdict.preexisting };

  if (!changed && !closed.every(Boolean)) {
    // Already satisfied: nothing changed and nothing broke. Closed with the evidence; never a bounce.
    const { targets } = ctx;
    const named = targets.tests.length > 0 || targets.verify.length > 0;
    const why = named
      ? `its targets pass (${[...targets.tests, ...targets.verify.map((c) => `\`${c}\``)].join(', ')})`
      : // The agent's words as code: GitHub acts on no @mention or `Fixes #n` in them.
        `the agent reports ${inlineCode(result.report?.summary?.trim() || 'the work is already done')}`;
    const note = `agent-loop: no change was needed: ${why} (iteration ${n}).`;
    const noChange: string[] = [];
    const issueActions: IssueAction[] = [];
    for (const [i, id] of cycle.issueIds.entries()) {
      if (closed[i]) continue;
      // Where a person decides (GitHub): labelled with the evidence, closed only when the issue's own targets pass.
      issueActions.push({ kind: 'markNoChange', id, note, close: named });
      if (ctx.canMarkNoChange && !named) noChange.push(id);
    }
    const closedNow = cycle.issueIds.filter((id) => !noChange.includes(id));
    state = {
      ...state,
      consecutiveEscalations: 0,
      issuesClosed: [...state.issuesClosed, ...closedNow.filter((id) => !state.issuesClosed.includes(id))],
      // Every issue of the cycle was found already satisfied, closed or left open (those left open are
      // the ones not in issuesClosed): a beads issue closed as no change is one too (issue 40).
      issuesNoChange: [...state.issuesNoChange, ...cycle.issueIds.filter((id) => !state.issuesNoChange.includes(id))],
      completedIterations: [...state.completedIterations, n],
    };
    return finish(
      model,
      [
        log(
          'info',
          'cycle.no_change',
          `${tag} ${describeTargets(cycle)}: no change was needed (${why}); ${noChange.length ? `labelled ${noChange.join(', ')} ${NO_CHANGE_LABEL} for a person to close` : `closed ${closedNow.join(', ')}`}.`,
          { iteration: n, issueIds: cycle.issueIds },
        ),
      ],
      {
        state: close(ctx, state, { ...record, outcome: 'no_change' }, now),
        violation,
        cycleDone: true,
        noChange: true,
        issueActions,
      },
    );
  }

  // Success: close what the agent did not; with pull requests, their merge closes the issues.
  const viaPullRequest = settings.onSuccess === 'pull-request' && !settings.closeOnBranch;
  const issueActions: IssueAction[] = viaPullRequest
    ? []
    : cycle.issueIds
        .filter((_, i) => !closed[i])
        .map((id) => ({ kind: 'close', id, note: `agent-loop: accepted at iteration ${n}: ${verdict.summary}` }));
  state = {
    ...state,
    consecutiveEscalations: 0,
    issuesClosed: [...state.issuesClosed, ...cycle.issueIds.filter((id) => !state.issuesClosed.includes(id))],
    completedIterations: [...state.completedIterations, n],
  };
  return finish(
    model,
    [
      log(
        'info',
        'cycle.complete',
        `${tag} ${describeTargets(cycle)} done: ${verdict.summary} (${seconds(tests.durationMs)}); ${viaPullRequest ? 'a pull request follows' : `closed ${cycle.issueIds.join(', ')}`}.`,
        { iteration: n, issueIds: cycle.issueIds, preexistingFailures: verdict.preexisting },
      ),
    ],
    { state: close(ctx, state, { ...record, outcome: 'complete' }, now), violation, cycleDone: true, issueActions },
  );
}
