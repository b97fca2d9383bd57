/** A cycle as the loop state holds it, and agent results, for the pure-core and workflow tests. */
import type { AgentFailure, AgentResult } from '../../src/agents/types.js';
import { initialProgress } from '../../src/core/cycle.js';
import type { IterationOutcome } from '../../src/core/events.js';
import type { IterationMachine } from '../../src/core/iteration.js';
import type { SliceModel } from '../../src/core/model.js';
import type { CycleState, IterationRecord, LoopState } from '../../src/core/state.js';

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

/** An agent run that succeeded (exit 0 in a second, "done"). */
export const ok = (over: Partial<AgentResult> = {}): AgentResult => ({
  ok: true,
  exitCode: 0,
  signal: null,
  durationMs: 1000,
  outputTail: 'done',
  ...over,
});

/** An agent run that failed with `failure` (exit 1, "boom"). */
export const failed = (failure: AgentFailure, over: Partial<AgentResult> = {}): AgentResult =>
  ok({ ok: false, exitCode: 1, failure, outputTail: 'boom', ...over });

/** The record the agent's turn leaves for the iteration after `before` (outcome still `continuing`). */
export const turnRecord = (before: LoopState, startedAt: number): IterationRecord => ({
  n: before.iteration + 1,
  issueIds: (before.currentCycle as CycleState).issueIds,
  startedAt: new Date(startedAt).toISOString(),
  durationMs: 0,
  outcome: 'continuing',
  agent: { ok: true, exitCode: 0, signal: null, durationMs: 1000 },
});

/** A pull request as the loop state records it: `number` for `issueId`'s cycle, finished at `iteration` (repository o/r). */
export const pullRequest = (number: number, issueId: string, iteration: number): LoopState['pullRequests'][number] => ({
  issueIds: [issueId],
  number,
  url: `https://github.com/o/r/pull/${number}`,
  reused: false,
  iteration,
});

/** The implement workflow's settings in its tests (decide.ts's IterationContext, machine.ts). */
export const implementSettings = {
  maxIterations: 10,
  maxRetriesPerStep: 2,
  maxIterationsPerIssue: 20,
  strict: false,
  testCommand: 'npm test',
  onSuccess: 'merge' as const,
};

/**
 * A workflow's iteration for the core's own tests, a stub: it starts by asking for the cycle's
 * issues (its model: the baseline it was given); a model that holds an outcome (`finishing`)
 * finishes with it at its next event, as a workflow's machine does, and the core folds it in.
 */
export const stubMachine: IterationMachine = {
  start: (_before, baseline) => ({ sub: { baseline }, effects: [{ kind: 'readCycleIssues' }] }),
  step: (sub, event) => {
    const outcome = (sub as { finishWith?: IterationOutcome }).finishWith;
    if (!outcome) throw new Error(`the core's tests step no iteration (${event.type})`);
    return { sub, effects: [{ kind: 'finish', outcome }] };
  },
};

/** `m` with an iteration of stubMachine in flight, started on its loop, that finishes with `outcome` at its next event. */
export const finishing = (m: SliceModel, outcome: IterationOutcome): SliceModel => ({
  ...m,
  iteration: { before: m.loop, sub: { finishWith: outcome } },
});
