/**
 * A workflow's iteration as a sub-machine of the core. The workflow gives the core its pure step
 * function (CoreConfig.machine, e.g. src/workflows/implement/machine.ts); the core holds its model
 * (SliceModel.iteration) from the cycle's baseline to the iteration's outcome, routes the
 * iteration's events to it, and asks for its effects as its own (src/core/events.ts: readCycleIssues,
 * runAgent, readClosed, judge). When it finishes, the core folds its outcome into the loop state
 * (src/core/fold.ts) as for any iteration. Pure: the interpreter performs the effects, one handler
 * each (src/loop/effects/agent.ts, judge.ts).
 */
import type { Effect, Event, IterationOutcome } from './events.js';
import type { LoopState } from './state.js';
import type { SuiteRun } from '../verdict/results.js';

/** The events the iteration observes (the answers to its effects). */
export type IterationEvent = Extract<
  Event,
  {
    type:
      | 'cycleIssuesRead'
      | 'agentRan'
      | 'closedRead'
      | 'judged'
      | 'notesRead'
      | 'headRead'
      | 'workRead'
      | 'filesRead'
      | 'testsRan'
      | 'noteWritten';
  }
>;

/** What the iteration asks for: the core's effects, or its end with the outcome. */
export type IterationEffect = Effect | { kind: 'finish'; outcome: IterationOutcome };

/** The sub-machine's model is its own (the core holds it, and reads none of it). */
export interface IterationStep {
  sub: unknown;
  effects: IterationEffect[];
}

export interface IterationMachine {
  /** The iteration starts on `before` (the loop state once the baseline is had), against `baseline`. */
  start(before: LoopState, baseline: SuiteRun | undefined): IterationStep;
  step(sub: unknown, event: IterationEvent): IterationStep;
}

/** The iteration in progress, as the core holds it: the loop state it started on, and the sub-machine's model. */
export interface IterationInFlight {
  before: LoopState;
  sub: unknown;
}

/** Splits a step's effects at its end: the effects before it, and the outcome when it finished. */
export function untilFinish(effects: IterationEffect[]): { effects: Effect[]; outcome?: IterationOutcome } {
  const before: Effect[] = [];
  for (const effect of effects) {
    if (effect.kind === 'finish') return { effects: before, outcome: effect.outcome };
    before.push(effect);
  }
  return { effects: before };
}

/** The iteration's model as each workflow's machine starts it: the loop state it starts on, the baseline. */
export interface IterationStart {
  before: LoopState;
  baseline?: SuiteRun;
}

/** A machine whose iteration starts by reading the cycle's issues; `step` gets its own model back (an IterationStart at first). */
export function readingIssuesFirst<S extends IterationStart>(
  step: (sub: S, event: IterationEvent) => IterationStep,
): IterationMachine {
  return {
    start: (before, baseline) => ({
      sub: { before, ...(baseline ? { baseline } : {}) },
      effects: [{ kind: 'readCycleIssues' }],
    }),
    step: (sub, event) => step(sub as S, event),
  };
}
