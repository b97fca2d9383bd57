/** What the planning pipeline's effect handlers are given, and their shape: one per kind of effect its machine asks for. */
import type { PipelineEffect, PipelineEvent } from '../../../core/pipeline.js';
import type { PipelineDeps } from '../deps.js';
import type { PhaseSpec } from '../phases.js';

export interface PipelineContext {
  deps: PipelineDeps;
  /** The phases run (PRE_IMPLEMENTATION_PHASES, or the ones given). */
  phases: readonly PhaseSpec[];
  /** The exit code, once the machine has ended the pipeline. */
  code?: number;
}

export type Handler<K extends PipelineEffect['kind']> = (
  effect: Extract<PipelineEffect, { kind: K }>,
  ctx: PipelineContext,
) => Promise<PipelineEvent | undefined>;

export type Handlers = { [K in PipelineEffect['kind']]: Handler<K> };
