/** What the planning pipeline's effect handlers are given, and their shape: one per kind of effect its machine asks for. */
import type { PipelinePhase } from '../../../checkpoint/types.js';
import type { PlanEffect, PlanEvent } from '../../../core/plan.js';
import type { PipelineDeps } from '../deps.js';
import type { AgentPhaseSpec, PhaseSpec } from '../phases.js';

export interface PipelineContext {
  deps: PipelineDeps;
  /** The phases run (PRE_IMPLEMENTATION_PHASES, or the ones given). */
  phases: readonly PhaseSpec[];
  /** The exit code, once the machine has ended the pipeline. */
  code?: number;
}

export type Handler<K extends PlanEffect['kind']> = (
  effect: Extract<PlanEffect, { kind: K }>,
  ctx: PipelineContext,
) => Promise<PlanEvent | undefined>;

export type Handlers = { [K in PlanEffect['kind']]: Handler<K> };

/** The agent phase of that name, as run (its template, artifact and barrier). */
export function agentPhase(phases: readonly PhaseSpec[], name: PipelinePhase): AgentPhaseSpec {
  const spec = phases.find((p): p is AgentPhaseSpec => p.runner === 'agent' && p.name === name);
  if (!spec) throw new Error(`agent-loop: no agent phase ${name} in the pipeline`);
  return spec;
}

/** Where the agent writes the pipeline's artifacts (`<dir>/pipeline/`). */
export const artifactsRoot = (deps: PipelineDeps): string => deps.artifactsDir ?? deps.stateDir;
