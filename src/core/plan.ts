/**
 * `agent-loop plan`'s machine, as the one interpreter (src/loop/interpreter.ts's drive) steps it: the
 * pipeline machine (src/core/pipeline.ts: which phase runs, what each boundary writes, how the run
 * ends) with each agent phase's attempts as its sub-machine (src/core/pipelinePhase.ts). The
 * pipeline's `runPhase` starts the sub-machine; its events are routed to it and its effects asked as
 * the plan's own; when it ends, its end (`phaseRan` or `interrupted`) is stepped by the pipeline. Pure.
 */
import {
  type PhaseStep,
  type PipelineEffect,
  type PipelineEvent,
  type PipelineModel,
  type PipelineSettings,
  pipelineModel,
  step as stepPipeline,
} from './pipeline.js';
import { type PhaseEffect, type PhaseEvent, type PhaseModel, startPhase, stepPhase } from './pipelinePhase.js';

export interface PlanModel {
  pipeline: PipelineModel;
  /** The agent phase in progress, if one is. */
  phase?: PhaseModel;
}

export type PlanEvent = PipelineEvent | PhaseEvent;

/** What the plan asks for: the pipeline's effects and its phases', `runPhase` and `phaseEnded` being its own business. */
export type PlanEffect = Exclude<PipelineEffect, { kind: 'runPhase' }> | Exclude<PhaseEffect, { kind: 'phaseEnded' }>;

type Stepped = { model: PlanModel; effects: PlanEffect[] };

/** The events a phase's sub-machine answers to (a key for each, or tsc says which is missing). */
const PHASE_EVENTS: Readonly<Record<PhaseEvent['type'], true>> = {
  phaseOpened: true,
  attemptPrepared: true,
  turnRan: true,
  slept: true,
  artifactChecked: true,
};

const isPhaseEvent = (event: PlanEvent): event is PhaseEvent => Object.hasOwn(PHASE_EVENTS, event.type);

/** The model before `pipelineStarted`. */
export function planModel(phases: readonly PhaseStep[]): PlanModel {
  return { pipeline: pipelineModel(phases) };
}

export function planMachine(settings: PipelineSettings) {
  return { step: (model: PlanModel, event: PlanEvent): Stepped => stepPlan(model, event, settings) };
}

export function stepPlan(model: PlanModel, event: PlanEvent, settings: PipelineSettings): Stepped {
  if (isPhaseEvent(event)) {
    if (!model.phase) throw new Error(`agent-loop: ${event.type} with no pipeline phase in progress`);
    const stepped = stepPhase(model.phase, event, settings);
    return fromPhase({ ...model, phase: stepped.model }, stepped.effects, settings);
  }
  // An interruption ends the phase in progress with the pipeline.
  const stepped = stepPipeline(model.pipeline, event, settings);
  return fromPipeline({ pipeline: stepped.model }, stepped.effects, settings);
}

/** The pipeline's effects asked as the plan's; its `runPhase` starts the phase's sub-machine. */
function fromPipeline(model: PlanModel, effects: readonly PipelineEffect[], settings: PipelineSettings): Stepped {
  let m = model;
  const asked: PlanEffect[] = [];
  for (const effect of effects) {
    if (effect.kind !== 'runPhase') {
      asked.push(effect);
      continue;
    }
    const { phase, state, carried, runs } = effect;
    const started = startPhase({ phase, state, carried, runs });
    const next = fromPhase({ ...m, phase: started.model }, started.effects, settings);
    m = next.model;
    asked.push(...next.effects);
  }
  return { model: m, effects: asked };
}

/** The phase's effects asked as the plan's, until it ends: then its end is the pipeline's next event. */
function fromPhase(model: PlanModel, effects: readonly PhaseEffect[], settings: PipelineSettings): Stepped {
  const asked: PlanEffect[] = [];
  for (const effect of effects) {
    if (effect.kind !== 'phaseEnded') {
      asked.push(effect);
      continue;
    }
    const stepped = stepPipeline(model.pipeline, effect.end, settings);
    const next = fromPipeline({ pipeline: stepped.model }, stepped.effects, settings);
    return { model: next.model, effects: [...asked, ...next.effects] };
  }
  return { model, effects: asked };
}
