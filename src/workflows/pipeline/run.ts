/**
 * `agent-loop plan` (seed 001): research → decomposition → planning → phase_decomposition, each an
 * agent invocation whose artifact must pass its hard barrier (seed 004, pattern 2), retried with
 * the barrier's findings as context; beads_integration, which turns the phase files into issues
 * (phase N+1 blocked by N); then implementation, the loop on those issues. A checkpoint is written
 * at every phase boundary (`<phase>-complete` or `<phase>-failed`) with the seed's state keys, and a
 * new run resumes where DetectResumableCheckpoint says: at the failed phase, or after the last
 * complete one. What runs next, what each boundary writes and how the run ends are decided by the
 * pure machine src/core/pipeline.ts, an agent phase's attempts by its sub-machine
 * src/core/pipelinePhase.ts (both composed in src/core/plan.ts); the handlers (effects/) run the
 * agent, check the barriers and write; this opens the checkpoint and drives it.
 */
import { surface } from '../../config/surface.js';
import { newCheckpointId } from '../../checkpoint/fileStore.js';
import { detectResumable, newestFirst } from '../../checkpoint/resume.js';
import type { OpenedPipeline } from '../../core/pipeline.js';
import type { PipelineDeps, PipelineState } from './deps.js';
import { drivePipeline } from './effects/index.js';
import { otherGoalInProgress } from './messages.js';

export type { PipelineDeps, PipelineState } from './deps.js';
export { issueIds } from '../../core/pipeline.js';

export class PipelineStartError extends Error {}

export async function runPipeline(deps: PipelineDeps): Promise<number> {
  return drivePipeline(deps, await open(deps));
}

/** The checkpoint the pipeline goes on from (the one DetectResumableCheckpoint finds), or a new one for the goal. */
async function open(deps: PipelineDeps): Promise<OpenedPipeline> {
  const say = surface(deps.terms);
  const start = () => {
    if (!deps.goal)
      throw new PipelineStartError(
        `no pipeline to resume and no goal: give ${say.given('goal', '"…"')} or ${say.given('goalFile', 'FILE')}.`,
      );
    return {
      id: newCheckpointId(),
      state: { pipeline: { goal: deps.goal } },
      resumeAt: 'research' as const,
      resumed: false,
      errors: [],
    };
  };
  if (deps.fresh) return start();
  const listing = await deps.store.list();
  const pipelines = listing.checkpoints.filter((c) => isPipelineState(c.state));
  const candidates = deps.resume ? pipelines.filter((c) => c.id === deps.resume) : pipelines;
  if (deps.resume && candidates.length === 0)
    throw new PipelineStartError(
      `${say.given('resume', deps.resume)}: no pipeline checkpoint with that id in ${deps.store.dir}.`,
    );
  const found = detectResumable(candidates);
  if (!found) {
    // A finished pipeline of this goal: its issues may have become ready since (a phase's pull
    // request merged), so the loop runs on them again; no new issues for the same goal.
    const done = newestFirst(candidates).find(
      (c) => !deps.goal || (c.state as PipelineState).pipeline.goal.trim() === deps.goal.trim(),
    );
    if (done) {
      deps.logger.info(
        'pipeline.done',
        `Pipeline ${done.id} for this goal is complete: the loop goes on with its issues (${say.given('fresh')} starts the goal over).`,
      );
      return { id: done.id, state: done.state as PipelineState, resumeAt: 'implementation', resumed: true, errors: [] };
    }
    return start();
  }
  const state = found.checkpoint.state as PipelineState;
  if (deps.goal && deps.goal.trim() !== state.pipeline.goal.trim()) {
    throw new PipelineStartError(otherGoalInProgress(found.checkpoint.id, state.pipeline.goal, deps.terms));
  }
  for (const error of found.errors) deps.logger.warn('pipeline.previous_error', `Last time: ${error}`);
  const failedHere = found.checkpoint.phase === `${found.resumeAt}-failed`;
  return {
    id: found.checkpoint.id,
    state,
    resumeAt: found.resumeAt,
    resumed: true,
    errors: failedHere ? found.errors : [],
  };
}

function isPipelineState(state: Record<string, unknown>): state is PipelineState {
  const p = state.pipeline;
  return typeof p === 'object' && p !== null && typeof (p as { goal?: unknown }).goal === 'string';
}
