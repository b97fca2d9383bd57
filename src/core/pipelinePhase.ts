/**
 * One agent phase of the planning pipeline (research, decomposition, planning, phase_decomposition)
 * as a pure sub-machine of src/core/pipeline.ts: its attempts. The agent writes the phase's artifact,
 * which must pass its barrier; a failed attempt is retried (up to --max-retries more) with what was
 * wrong as context; a rate limit is waited out as the failure policy says (src/failure/policy.ts)
 * without using an attempt, within an hour of waiting; the environment failing the agent twice in a
 * row ends the phase at once. It decides the attempts, the waits, the counters (reset after an agent
 * run that did not fail), what the next attempt is told, every agent run's iteration number and the
 * log lines; it ends with the pipeline's `phaseRan` (or `interrupted`), which src/core/plan.ts hands
 * back to the pipeline machine. The handlers (src/workflows/pipeline/effects/) remove the old artifact
 * and render the prompt, run one agent turn, check the barrier and sleep.
 */
import type { PipelinePhase } from '../checkpoint/types.js';
import type { AgentFailure } from '../failure/agentFailure.js';
import { type FailureCounters, decideFailure, environmentAdvice } from '../failure/policy.js';
import { surface } from '../config/surface.js';
import { type LogEffect, log } from './events.js';
import type { AgentRuns, PipelineEvent, PipelineSettings, PipelineState } from './pipeline.js';
import {
  agentFailed,
  attemptFailed,
  attemptStarts,
  rateLimitBudgetSpent,
  rateLimitedWaiting,
} from './pipeline/messages.js';

/** The most a phase waits out rate limits before it stops (resumable), so `plan` never waits forever. */
export const RATE_LIMIT_BUDGET_MS = 60 * 60_000;

const NO_FAILURES: FailureCounters = { rateLimitAttempts: 0, timeoutRetries: 0, environmentFailures: 0 };

/** How the phase ends: the pipeline's own event, handed back to it. */
export type PhaseEnd = Extract<PipelineEvent, { type: 'phaseRan' | 'interrupted' }>;

/** What the phase is asked to do (the pipeline's `runPhase`). */
export interface PhaseStart {
  phase: PipelinePhase;
  state: PipelineState;
  /** What its first attempt is told (a failed phase's findings, resumed). */
  carried: string[];
  runs: AgentRuns;
}

export interface PhaseModel {
  phase: PipelinePhase;
  /** What the prompts quote: the goal and the earlier phases' artifacts. */
  state: PipelineState;
  /** What the next attempt is told was wrong with the last one. */
  problems: string[];
  /** The pipeline's agent runs, counted on. */
  runs: AgentRuns;
  /** The attempt running (1-based; 0 before the first). */
  attempt: number;
  /** The failure policy's counters, kept from one agent run to the next until one does not fail. */
  counters: FailureCounters;
  /** The rate-limit waits spent so far, against RATE_LIMIT_BUDGET_MS. */
  waitedMs: number;
  /** The attempt's prompt, run again after a rate limit. */
  prompt: string;
  /** When the attempt started (ms), for its line. */
  startedAt: number;
}

export type PhaseEvent =
  /** Answers `openPhase`: the artifacts' directory is there. */
  | { type: 'phaseOpened' }
  /** Answers `prepareAttempt`: the old artifact removed, the prompt rendered; `artifact` as the log shows it. */
  | { type: 'attemptPrepared'; prompt: string; artifact: string; now: number }
  /** Answers `agentTurn`: the agent's failure, if it failed; `interrupted` when the run was. */
  | { type: 'turnRan'; now: number; interrupted?: true; failure?: AgentFailure }
  /** Answers `sleep`. */
  | { type: 'slept'; interrupted: boolean }
  /** Answers `checkArtifact`: the value the checkpoint keeps, or what the barrier found wrong. */
  | ({ type: 'artifactChecked'; now: number } & ({ ok: true; value: unknown } | { ok: false; problems: string[] }));

export type PhaseEffect =
  | LogEffect
  | { kind: 'openPhase'; phase: PipelinePhase }
  | { kind: 'prepareAttempt'; phase: PipelinePhase; state: PipelineState; problems: string[] }
  /** One agent run; `iteration` is its AGENT_LOOP_ITERATION. */
  | { kind: 'agentTurn'; phase: PipelinePhase; prompt: string; iteration: number }
  | { kind: 'checkArtifact'; phase: PipelinePhase }
  | { kind: 'sleep'; ms: number }
  /** The phase is over: its end told to the pipeline. */
  | { kind: 'phaseEnded'; end: PhaseEnd };

export type PhaseSettings = Pick<PipelineSettings, 'maxRetries' | 'terms'>;

type Stepped = { model: PhaseModel; effects: PhaseEffect[] };

/** The phase begins: its directory made (unless the run was interrupted before it). */
export function startPhase(start: PhaseStart): Stepped {
  const model: PhaseModel = {
    phase: start.phase,
    state: start.state,
    problems: start.carried,
    runs: start.runs,
    attempt: 0,
    counters: NO_FAILURES,
    waitedMs: 0,
    prompt: '',
    startedAt: 0,
  };
  return { model, effects: [{ kind: 'openPhase', phase: start.phase }] };
}

export function stepPhase(model: PhaseModel, event: PhaseEvent, settings: PhaseSettings): Stepped {
  switch (event.type) {
    case 'phaseOpened':
      return nextAttempt(model, [], settings);
    case 'attemptPrepared':
      return turn({ ...model, prompt: event.prompt, startedAt: event.now }, [
        log('info', 'pipeline.attempt', attemptStarts(model.phase, model.attempt, attempts(settings), event.artifact), {
          phase: model.phase,
          attempt: model.attempt,
        }),
      ]);
    case 'turnRan':
      return turnRan(model, event, settings);
    case 'slept':
      return event.interrupted ? ended(model, { type: 'interrupted' }) : turn(model, []);
    case 'artifactChecked':
      if (event.ok) return ended(model, { type: 'phaseRan', ok: true, value: event.value, runs: model.runs });
      return attemptOver({ ...model, problems: event.problems }, event.now, settings);
  }
}

/** Every agent run is an iteration of its own (its AGENT_LOOP_ITERATION), retries and waits included. */
function turn(model: PhaseModel, before: PhaseEffect[]): Stepped {
  const runs = { ...model.runs, iterations: model.runs.iterations + 1 };
  return {
    model: { ...model, runs },
    effects: [...before, { kind: 'agentTurn', phase: model.phase, prompt: model.prompt, iteration: runs.iterations }],
  };
}

/** An agent run's end, as the failure policy reads it. */
function turnRan(model: PhaseModel, event: Extract<PhaseEvent, { type: 'turnRan' }>, settings: PhaseSettings): Stepped {
  if (event.interrupted) return ended(model, { type: 'interrupted' });
  const { failure } = event;
  // An agent run that did not fail ends any run of failures: its artifact is for the barrier to judge.
  if (!failure)
    return { model: { ...model, counters: NO_FAILURES }, effects: [{ kind: 'checkArtifact', phase: model.phase }] };
  const runs = { ...model.runs, failedIterations: model.runs.failedIterations + 1 };
  const decision = decideFailure(failure, model.counters);
  const failed: PhaseModel = { ...model, runs, counters: decision.counters };
  if (decision.kind === 'rate_limit') return rateLimited(failed, failure, decision.waitMs);
  const problems = [agentFailed(failure)];
  // The environment failed the agent twice in a row: more attempts cannot help.
  if (decision.exhausted === 'halt') {
    const advice = environmentAdvice(failure.reason, surface(settings.terms));
    return ended(failed, { type: 'phaseRan', ok: false, problems: [...problems, advice], runs });
  }
  return attemptOver({ ...failed, problems }, event.now, settings);
}

/** A rate limit is waited out and the same attempt run again, until the phase's budget of waiting is spent. */
function rateLimited(model: PhaseModel, failure: AgentFailure, waitMs: number): Stepped {
  if (model.waitedMs + waitMs > RATE_LIMIT_BUDGET_MS) {
    const problems = [rateLimitBudgetSpent(model.waitedMs, RATE_LIMIT_BUDGET_MS, failure.message)];
    return ended(model, { type: 'phaseRan', ok: false, problems, runs: model.runs });
  }
  const line = log('warn', 'pipeline.rate_limited', rateLimitedWaiting(model.phase, failure.message, waitMs), {
    phase: model.phase,
    attempt: model.attempt,
    waitMs,
  });
  return { model: { ...model, waitedMs: model.waitedMs + waitMs }, effects: [line, { kind: 'sleep', ms: waitMs }] };
}

/** An attempt that left no usable artifact: said, then the next attempt (told what was wrong), or the phase failed. */
function attemptOver(model: PhaseModel, now: number, settings: PhaseSettings): Stepped {
  const { phase, attempt, problems } = model;
  const message = attemptFailed(phase, attempt, now - model.startedAt, problems);
  return nextAttempt(model, [log('warn', 'pipeline.barrier', message, { phase, attempt, problems })], settings);
}

function nextAttempt(model: PhaseModel, before: PhaseEffect[], settings: PhaseSettings): Stepped {
  if (model.attempt >= attempts(settings))
    return ended(model, { type: 'phaseRan', ok: false, problems: model.problems, runs: model.runs }, before);
  const { phase, state, problems } = model;
  return {
    model: { ...model, attempt: model.attempt + 1 },
    effects: [...before, { kind: 'prepareAttempt', phase, state, problems }],
  };
}

/** --max-retries more after the first. */
const attempts = (settings: PhaseSettings) => settings.maxRetries + 1;

function ended(model: PhaseModel, end: PhaseEnd, before: PhaseEffect[] = []): Stepped {
  return { model, effects: [...before, { kind: 'phaseEnded', end }] };
}
