/**
 * The planning pipeline's effect handlers (one per kind of effect its machine, src/core/plan.ts, asks
 * for: the pipeline's and its agent phases') and its driver: the machine stepped by the one interpreter
 * (src/loop/interpreter.ts's drive) until an `end` gives the exit code.
 */
import type { OpenedPipeline } from '../../../core/pipeline.js';
import { type PlanEffect, type PlanEvent, type PlanModel, planMachine, planModel } from '../../../core/plan.js';
import { drive } from '../../../loop/interpreter.js';
import type { PipelineDeps } from '../deps.js';
import { PRE_IMPLEMENTATION_PHASES } from '../phases.js';
import { writeBoundary } from './boundary.js';
import type { Handler, Handlers, PipelineContext } from './context.js';
import { integrate } from './integrate.js';
import { openPhase, prepareAttempt } from './attempt.js';
import { agentTurn } from './turn.js';
import { checkArtifact } from './checkArtifact.js';

export const handlers: Handlers = {
  log: async (effect, { deps }) => {
    deps.logger[effect.level](effect.event, effect.message, effect.data);
    return undefined;
  },
  openPhase,
  prepareAttempt,
  agentTurn,
  checkArtifact,
  sleep: async (effect, { deps }) => {
    await deps.clock.sleep(effect.ms, deps.signal);
    return { type: 'slept', interrupted: deps.signal?.aborted === true };
  },
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

function perform(effect: PlanEffect, ctx: PipelineContext): Promise<PlanEvent | undefined> {
  const handler = handlers[effect.kind] as Handler<PlanEffect['kind']>;
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
  const { result } = await drive<PlanModel, PlanEvent, PlanEffect, number>(
    {
      machine: planMachine(settings),
      model: planModel(ctx.phases),
      perform: (effect) => perform(effect, ctx),
      result: () => ctx.code,
    },
    { type: 'pipelineStarted', opened },
  );
  return result;
}
