/**
 * The planning pipeline's effect handlers (one per kind of effect src/core/pipeline.ts asks for) and
 * its driver: the machine stepped by the one interpreter (src/loop/interpreter.ts's drive) until an
 * `end` gives the exit code.
 */
import {
  type OpenedPipeline,
  type PipelineEffect,
  type PipelineEvent,
  type PipelineModel,
  pipelineMachine,
  pipelineModel,
} from '../../../core/pipeline.js';
import { drive } from '../../../loop/interpreter.js';
import type { PipelineDeps } from '../deps.js';
import { PRE_IMPLEMENTATION_PHASES } from '../phases.js';
import { writeBoundary } from './boundary.js';
import type { Handler, Handlers, PipelineContext } from './context.js';
import { integrate } from './integrate.js';
import { runPhase } from './runPhase.js';

export const handlers: Handlers = {
  log: async (effect, { deps }) => {
    deps.logger[effect.level](effect.event, effect.message, effect.data);
    return undefined;
  },
  runPhase,
  writeBoundary,
  integrate,
  implement: async (effect, { deps }) => ({
    type: 'implemented',
    code: await deps.implement(effect.id, effect.issueIds),
  }),
  end: async (effect, ctx) => {
    ctx.code = effect.code;
    return undefined;
  },
};

function perform(effect: PipelineEffect, ctx: PipelineContext): Promise<PipelineEvent | undefined> {
  const handler = handlers[effect.kind] as Handler<PipelineEffect['kind']>;
  return handler(effect, ctx);
}

/** The pipeline from the checkpoint it opened to its exit code. */
export async function drivePipeline(deps: PipelineDeps, opened: OpenedPipeline): Promise<number> {
  const ctx: PipelineContext = { deps, phases: deps.phases ?? PRE_IMPLEMENTATION_PHASES };
  const settings = {
    maxRetries: deps.maxRetries,
    sinkWhere: deps.sink.where,
    ...(deps.terms ? { terms: deps.terms } : {}),
  };
  const { result } = await drive<PipelineModel, PipelineEvent, PipelineEffect, number>(
    {
      machine: pipelineMachine(settings),
      model: pipelineModel(ctx.phases),
      perform: (effect) => perform(effect, ctx),
      result: () => ctx.code,
    },
    { type: 'pipelineStarted', opened },
  );
  return result;
}
