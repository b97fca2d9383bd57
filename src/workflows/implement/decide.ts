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
import { rfc3339 } from '../../util/clock.js';
import { type ContinuationDecision, decideContinuation, isCycleComplete } from '../../core/continuation.js';
import { describeTargets, seconds } from '../../core/describe.js';
import { log } from '../../core/events.js';
import { type CycleState, type IterationRecord, type LoopState } from '../../core/state.js';
import { afterFailure, agentUnavailable } from '../../loop/turn.js';
import {
  type IterationContext,
  type IterationEffect,
  type IterationEvent,
  type IterationModel,
  type IterationStep,
  SUMMARY_KEPT,
  close,
  cycleOf,
  escalateUnverifiable,
  cannotVerify,
  finish,
  setCycle,
  stepCycle,
  tagOf,
} from './model.js';
import { afterVerdict } from './afterVerdict.js';
import { MESSAGES } from './messages.js';

export {
  type IterationContext,
  type IterationEffect,
  type IterationEvent,
  type IterationModel,
  type IterationStep,
  cannotVerify,
  escalateUnverifiable,
} from './model.js';

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
  const checked = contractChecked(ctx, model, { state, record: withReport, now }, decision.contractViolation);
  if ('model' in checked) return checked;
  const { violation } = checked;
  effects.push(...checked.effects);
  if (decision.stuck)
    return stuckOut(ctx, model, effects, { state, record: withReport, violation, now }, decision.stuck);
  // Completion check next: are the targets closed in the source?
  return {
    model: { ...model, state, record: withReport, violation, continuation: decision },
    effects: [...effects, { kind: 'readClosed' }],
  };
}

/**
 * Seed 004's contract: a report that says requires_continuation: false while work remains is a
 * violation, for errors.jsonl; --strict halts on it, else the loop goes on as if it said true.
 */
function contractChecked(
  ctx: IterationContext,
  model: IterationModel,
  at: { state: LoopState; record: IterationRecord; now: number },
  contractViolation: ContinuationDecision['contractViolation'],
): IterationStep | { violation?: Record<string, unknown>; effects: IterationEffect[] } {
  if (!contractViolation) return { effects: [] };
  const { workRemaining } = contractViolation;
  const n = at.record.n;
  const tag = tagOf(ctx);
  const strict = surface(ctx.settings.terms).option('strict');
  const violation = {
    timestamp: rfc3339(new Date(at.now)),
    type: 'validation_error',
    iteration: n,
    issueIds: cycleOf(at.state).issueIds,
    message: 'Agent contract violation: requires_continuation=false with work_remaining non-empty',
    details: {
      work_remaining: workRemaining,
      requires_continuation: false,
      override: ctx.settings.strict ? 'halt' : 'forced_true',
    },
  };
  if (ctx.settings.strict)
    return finish(model, [log('error', 'validation.violation', MESSAGES.strictHalts(tag, workRemaining, strict))], {
      state: close(ctx, at.state, { ...at.record, outcome: 'contract_violation' }, at.now),
      violation,
      halt: { reason: 'contract_violation', message: MESSAGES.contractViolation(n, workRemaining, strict) },
    });
  const said = MESSAGES.overridden(tag, workRemaining);
  return { violation, effects: [log('warn', 'validation.override', said, { iteration: n, workRemaining })] };
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
      MESSAGES.agentFailed(ctx.agentName, n, failure, result),
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
        reason: MESSAGES.retriesExhausted(failure, d.attempts),
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
  return MESSAGES.overCycleLimit(runs, workRemaining, limitOf, issues);
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
