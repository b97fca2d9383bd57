/** An agent phase of the pipeline run (agentPhase.ts), unless the run was interrupted before it. */
import { runAgentPhase } from '../agentPhase.js';
import type { AgentPhaseSpec } from '../phases.js';
import type { Handler } from './context.js';

export const runPhase: Handler<'runPhase'> = async (effect, { deps, phases }) => {
  if (deps.signal?.aborted) return { type: 'interrupted' };
  const spec = phases.find((p): p is AgentPhaseSpec => p.runner === 'agent' && p.name === effect.phase);
  if (!spec) throw new Error(`agent-loop: no agent phase ${effect.phase} in the pipeline`);
  // The phase counts its agent runs on from the pipeline's.
  const runs = { ...effect.runs };
  const outcome = await runAgentPhase(deps, spec, effect.state, effect.carried, runs);
  if (outcome.interrupted) return { type: 'interrupted' };
  return outcome.ok
    ? { type: 'phaseRan', ok: true, value: outcome.value, runs }
    : { type: 'phaseRan', ok: false, problems: outcome.problems, runs };
};
