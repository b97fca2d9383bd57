/**
 * The implement iteration's vocabulary and the helpers every decision of it uses (decide.ts, after
 * the agent's turn; afterVerdict.ts, after the tests): what it knows from its start, what it
 * observes, what it asks for, its model, and the cycle's step machine (src/core/cycle.ts). Pure.
 */
import { cycleInFlight } from '../../core/inFlight.js';
import type { AgentResult } from '../../agents/types.js';
import { type ContinuationDecision } from '../../core/continuation.js';
import { WORKFLOWS, type StepEvent, transition } from '../../core/cycle.js';
import { type Event, type IterationOutcome, type LogEffect } from '../../core/events.js';
import { type CycleState, type IterationRecord, type LoopState, appendHistory } from '../../core/state.js';
import { type AgentRan } from '../../loop/turn.js';
import type { SliceSettings } from '../../loop/deps.js';
import type { IssueTargets } from '../../verdict/targets.js';

/** The history keeps this much of the agent's own summary, and this many of a verdict's targets. */
export const SUMMARY_KEPT = 1000;
export const TARGETS_KEPT = 30;

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
    | 'acceptUnverified'
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
  /** Answers `judge`: the core's event (src/core/events.ts): what changed, the verdict, the judge's findings. */
  | Extract<Event, { type: 'judged' }>
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

export const cycleOf = (s: LoopState): CycleState => cycleInFlight(s);
export const setCycle = (s: LoopState, patch: Partial<CycleState>): LoopState => ({
  ...s,
  currentCycle: { ...cycleOf(s), ...patch },
});
export const tagOf = (ctx: IterationContext) => `[iteration ${ctx.before.iteration + 1}/${ctx.settings.maxIterations}]`;

/** The iteration's record appended to the history, with its duration. */
export const close = (ctx: IterationContext, s: LoopState, r: IterationRecord, now: number): LoopState =>
  appendHistory(s, { ...r, durationMs: now - ctx.startedAt });

export const finish = (
  model: IterationModel,
  effects: IterationEffect[],
  outcome: IterationOutcome,
): IterationStep => ({
  model: { ...model, state: outcome.state },
  effects: [...effects, { kind: 'finish', outcome }],
});

/** The step machine's answer to an event of the cycle's current step. */
export function stepCycle(ctx: Pick<IterationContext, 'settings'>, s: LoopState, event: StepEvent) {
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
