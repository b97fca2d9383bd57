/** A cycle as the loop state holds it, for the pure-core and workflow tests. */
import { initialProgress } from '../../src/core/cycle.js';
import type { CycleState } from '../../src/core/state.js';

export function cycle(ids: string[] = ['a-1'], over: Partial<CycleState> = {}): CycleState {
  return {
    issueIds: ids,
    titles: ids.map((id) => `Title ${id}`),
    startedAtIteration: 1,
    iterations: 1,
    sameWorkRemainingCount: 0,
    progress: initialProgress(),
    timeoutRetries: 0,
    rateLimitAttempts: 0,
    branch: `agent-loop/${ids[0]}`,
    ...over,
  };
}
