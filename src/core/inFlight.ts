import type { CycleState, LoopState } from './state.js';

/**
 * The cycle in flight, where the engine knows there is one (an iteration, its baseline, an
 * escalation): a state without one there is a bug of the engine's, said as such instead of a
 * cast that lets it through as `undefined`. Pure.
 */
export function cycleInFlight(state: Pick<LoopState, 'currentCycle'>): CycleState {
  const cycle = state.currentCycle;
  if (!cycle) throw new Error('agent-loop: no cycle in flight where one was expected (a bug: please report it)');
  return cycle;
}
