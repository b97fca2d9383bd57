/**
 * An agent phase's directory made, and each attempt's start: the old artifact removed and the prompt
 * rendered. The attempts themselves are decided by src/core/pipelinePhase.ts.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PipelineState } from '../../../core/pipeline.js';
import { PIPELINE_DIR, failureSection, renderTemplate } from '../phases.js';
import { type Handler, agentPhase, artifactsRoot } from './context.js';

/** The phase's directory, unless the run was interrupted before the phase. */
export const openPhase: Handler<'openPhase'> = async (_effect, { deps }) => {
  if (deps.signal?.aborted) return { type: 'interrupted' };
  await fs.mkdir(path.join(artifactsRoot(deps), PIPELINE_DIR), { recursive: true });
  return { type: 'phaseOpened' };
};

export const prepareAttempt: Handler<'prepareAttempt'> = async (effect, { deps, phases }) => {
  const spec = agentPhase(phases, effect.phase);
  const artifact = path.join(artifactsRoot(deps), PIPELINE_DIR, spec.artifact);
  // A leftover of an earlier attempt must not pass this attempt's barrier.
  await fs.rm(artifact, { recursive: true, force: true });
  const prompt = phasePrompt(spec.template, effect.state, artifact, effect.problems);
  const shown = path.relative(deps.cwd, artifact) || artifact;
  return { type: 'attemptPrepared', prompt, artifact: shown, now: deps.clock.now().getTime() };
};

/** The prompt of one attempt: the phase's template with the goal, earlier artifacts and the last findings. */
function phasePrompt(template: string, state: PipelineState, artifact: string, problems: readonly string[]): string {
  // What it quotes was masked where it entered: the artifacts and the barrier's findings (checkBarrier),
  // the agent's failures (its output); prompt.md is masked on its way out.
  return renderTemplate(template, {
    goal: state.pipeline.goal,
    research: state.research_output ?? '',
    plan: state.planning_output ?? '',
    decomposition: state.decomposition_result === undefined ? '' : JSON.stringify(state.decomposition_result, null, 2),
    artifact,
    failure: failureSection(problems),
  });
}
