/**
 * An iteration's outcome folded into the loop state by the core: the interpreter hands it what the
 * iteration changed (`IterationDelta`: only the parts an iteration may write, ITERATION_FIELDS), and
 * the core keeps every other part as it holds it. Pure.
 */
import { ITERATION_FIELDS, type IterationDelta, type IterationOutcome, type IteratedOutcome } from './events.js';
import type { LoopState } from './state.js';

const OWN = new Set<string>(ITERATION_FIELDS);

/**
 * What an iteration changed of the loop state it was given: the parts it may write that differ.
 * Throws when it wrote a part the core owns (a workflow's bug: the core would not see it).
 */
export function iterationDelta(before: LoopState, after: LoopState): IterationDelta {
  const delta: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof LoopState>) {
    if (before[key] === after[key]) continue;
    if (!OWN.has(key))
      throw new Error(`agent-loop: an iteration changed the loop state's ${key}, which only the core writes`);
    delta[key] = after[key];
  }
  return delta as IterationDelta;
}

/** A workflow's outcome as the core is told it: its state as the delta from `before`. */
export function toIterated(before: LoopState, outcome: IterationOutcome): IteratedOutcome {
  const { state, ...rest } = outcome;
  return { ...rest, delta: iterationDelta(before, state) };
}

/** The loop with an iteration's delta folded in. */
export function foldIteration(loop: LoopState, delta: IterationDelta): LoopState {
  const next: Record<string, unknown> = { ...loop };
  for (const [key, value] of Object.entries(delta)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next as LoopState;
}
