/**
 * The planning pipeline (`agent-loop plan`, seed 001) as a pure machine: research → decomposition
 * → planning → phase_decomposition (agent phases), beads_integration (the phase files become issues),
 * then implementation (the loop on them). It decides which phase runs next (from where the opened
 * checkpoint resumes: the failed phase, or the one after the last complete one), what each boundary
 * writes (`<phase>-complete` or `<phase>-failed`, with the seed's state keys and the agent runs so far),
 * what is logged, when the pipeline ends and with which exit code, and on which issues implementation
 * starts. An agent phase's attempts are its sub-machine (src/core/pipelinePhase.ts, composed with this
 * in src/core/plan.ts, which the one interpreter, src/loop/interpreter.ts's drive, steps). The handlers
 * (src/workflows/pipeline/effects/) run the agent, check the barriers and write.
 */
import type { PipelinePhase, SeedPhase } from '../checkpoint/types.js';
import type { Terms } from '../config/surface.js';
import { type LogEffect, log } from './events.js';
import {
  describePhaseValue,
  implementationStarts,
  integrationFailed,
  phaseComplete,
  phaseFailed,
  phaseIssuesCreated,
  pipelineStarting,
} from './pipeline/messages.js';

/** What the beads_integration boundary records: the planned keys, and once created, what was created. */
export interface BeadsData {
  file: string;
  planned: string[];
  created?: string[];
  alreadyPresent?: string[];
  ids?: Record<string, string>;
}

/** The pipeline's part of a checkpoint's state (seed 001's keys, plus the goal). */
export interface PipelineState {
  /**
   * iterations: the agent runs so far (each gets the next number as AGENT_LOOP_ITERATION, as `run`'s
   * iterations do; the implementation loop goes on counting from there), failedIterations of them failed.
   */
  pipeline: { goal: string; iterations?: number; failedIterations?: number };
  research_output?: string;
  decomposition_result?: unknown;
  planning_output?: string;
  phase_files?: { number: number; name: string; file: string; title: string }[];
  /** planned: the keys recorded before creation (for the file sink, the ids); ids: key → issue id where they differ (bd). */
  beads_data?: BeadsData;
  [key: string]: unknown;
}

/** The pipeline's agent runs, counted across its phases (and kept in the checkpoint at each boundary). */
export interface AgentRuns {
  iterations: number;
  failedIterations: number;
}

/** What the machine knows of a phase: who runs it, the state key its value goes to, how its artifact reads. */
export interface PhaseStep {
  name: PipelinePhase;
  runner: 'agent' | 'code';
  stateKey: string;
  kind?: string;
}

/** The checkpoint a run goes on from (run.ts's open): where it resumes, and a failed phase's findings. */
export interface OpenedPipeline {
  id: string;
  state: PipelineState;
  resumeAt: PipelinePhase;
  resumed: boolean;
  /** The failed phase's findings, told to its first attempt; empty otherwise. */
  errors: string[];
}

export interface PipelineSettings {
  maxRetries: number;
  /** Where the phase issues go (the sink's `where`): named in the beads data and the log. */
  sinkWhere: string;
  terms?: Terms;
}

export interface PipelineModel {
  id: string;
  phases: readonly PhaseStep[];
  /** The phase running (an index in `phases`); `phases.length` once implementation is next. */
  at: number;
  state: PipelineState;
  /** A failed phase resumed: its first attempt is told what was wrong last time. */
  carried: string[];
  runs: AgentRuns;
}

/** What beads_integration gives: the data to record, with what it created and found. */
export type IntegratedData = BeadsData & { created: string[]; alreadyPresent: string[] };

export type PipelineEvent =
  | { type: 'pipelineStarted'; opened: OpenedPipeline }
  /** Answers `runPhase`: the artifact's value, or what was wrong; the runs counted so far. */
  | ({ type: 'phaseRan'; runs: AgentRuns } & ({ ok: true; value: unknown } | { ok: false; problems: string[] }))
  /** Answers `runPhase` or `integrate` when the run was interrupted (before or during the phase). */
  | { type: 'interrupted' }
  /** Answers `integrate`; `planned`: the keys the sink planned (and `onPlanned` wrote) before it ended. */
  | ({ type: 'phasesIntegrated'; planned?: string[] } & (
      { ok: true; data: IntegratedData } | { ok: false; problems: string[] }
    ))
  /** Answers `implement`: the loop's exit code. */
  | { type: 'implemented'; code: number };

export type WriteBoundary = {
  kind: 'writeBoundary';
  id: string;
  phase: SeedPhase;
  state: PipelineState;
  errors?: string[];
};
export type Integrate = {
  kind: 'integrate';
  id: string;
  where: string;
  state: PipelineState;
  runs: AgentRuns;
  /** The keys planned by an earlier attempt: the sink finds those issues again rather than creating more. */
  existing?: string[];
};

export type PipelineEffect =
  | LogEffect
  | { kind: 'runPhase'; phase: PipelinePhase; state: PipelineState; carried: string[]; runs: AgentRuns }
  | WriteBoundary
  | Integrate
  | { kind: 'implement'; id: string; issueIds: string[] }
  | { kind: 'end'; code: number };

type Stepped = { model: PipelineModel; effects: PipelineEffect[] };

/** The model before `pipelineStarted`. */
export function pipelineModel(phases: readonly PhaseStep[]): PipelineModel {
  return {
    id: '',
    phases,
    at: 0,
    state: { pipeline: { goal: '' } },
    carried: [],
    runs: { iterations: 0, failedIterations: 0 },
  };
}

export function pipelineMachine(settings: PipelineSettings) {
  return { step: (model: PipelineModel, event: PipelineEvent): Stepped => step(model, event, settings) };
}

export function step(model: PipelineModel, event: PipelineEvent, settings: PipelineSettings): Stepped {
  switch (event.type) {
    case 'pipelineStarted':
      return started(model, event.opened, settings);
    case 'phaseRan':
      return phaseRan(model, event, settings);
    case 'phasesIntegrated':
      return integrated(model, event, settings);
    case 'interrupted':
      return { model, effects: [{ kind: 'end', code: 130 }] };
    case 'implemented':
      return { model, effects: [{ kind: 'end', code: event.code }] };
  }
}

/** The created issues' real ids, in phase order (bd gives its own; the file sink's are the keys). */
export function issueIds(state: Pick<PipelineState, 'beads_data'>): string[] {
  const data = state.beads_data;
  return (data?.planned ?? []).map((key) => data?.ids?.[key] ?? key);
}

/** The boundary the sink's `onPlanned` writes: the planned keys recorded before any issue is created. */
export function plannedBoundary(effect: Integrate, planned: readonly string[]): WriteBoundary {
  const state = withRuns(withPlanned(effect.state, effect.where, planned), effect.runs);
  return { kind: 'writeBoundary', id: effect.id, phase: 'phase_decomposition-complete', state };
}

function started(model: PipelineModel, opened: OpenedPipeline, settings: PipelineSettings): Stepped {
  const { id, state, resumeAt, resumed } = opened;
  // Every phase at or after the resume point runs; none when implementation is next.
  const found = model.phases.findIndex((p) => p.name === resumeAt);
  const at = resumeAt === 'implementation' ? model.phases.length : Math.max(0, found);
  const runs = { iterations: state.pipeline.iterations ?? 0, failedIterations: state.pipeline.failedIterations ?? 0 };
  const next: PipelineModel = { ...model, id, state, carried: opened.errors, runs, at };
  const start = log('info', 'pipeline.start', pipelineStarting(id, resumeAt, state.pipeline.goal, resumed), {
    checkpointId: id,
    phase: resumeAt,
    resumed,
  });
  return { model: next, effects: [start, ...advance(next, settings)] };
}

function phaseRan(
  model: PipelineModel,
  event: Extract<PipelineEvent, { type: 'phaseRan' }>,
  settings: PipelineSettings,
): Stepped {
  const phase = current(model);
  const ran: PipelineModel = { ...model, carried: [], runs: event.runs };
  if (!event.ok)
    return failed(ran, phase.name, event.problems, phaseFailed(phase.name, model.id, event.problems, settings));
  const { model: written, effect } = boundary(
    { ...ran, state: { ...ran.state, [phase.stateKey]: event.value } },
    `${phase.name}-complete`,
  );
  const next = { ...written, at: written.at + 1 };
  const line = log('info', 'pipeline.phase', phaseComplete(phase.name, describePhaseValue(phase.kind, event.value)), {
    phase: phase.name,
    checkpointId: model.id,
  });
  return { model: next, effects: [effect, line, ...advance(next, settings)] };
}

function integrated(
  model: PipelineModel,
  event: Extract<PipelineEvent, { type: 'phasesIntegrated' }>,
  settings: PipelineSettings,
): Stepped {
  const planned = event.planned
    ? { ...model, state: withPlanned(model.state, settings.sinkWhere, event.planned) }
    : model;
  if (!event.ok) return failed(planned, 'beads_integration', event.problems, integrationFailed(event.problems));
  const { model: written, effect } = boundary(
    { ...planned, state: { ...planned.state, beads_data: event.data } },
    'beads_integration-complete',
  );
  const next = { ...written, at: written.at + 1 };
  const line = log(
    'info',
    'pipeline.phase',
    phaseIssuesCreated(settings.sinkWhere, issueIds(written.state), event.data),
    {
      phase: 'beads_integration',
      ...event.data,
    },
  );
  return { model: next, effects: [effect, line, ...advance(next, settings)] };
}

/** A phase failed: its `-failed` boundary with the findings, the error line, exit code 1. */
function failed(model: PipelineModel, phase: PipelinePhase, problems: string[], message: string): Stepped {
  const { model: written, effect } = boundary(model, `${phase}-failed`, problems);
  return {
    model: written,
    effects: [effect, log('error', 'pipeline.failed', message, { phase, problems }), { kind: 'end', code: 1 }],
  };
}

/** What runs next: the phase at `at` (an agent's, or the issues' creation), or the implementation. */
function advance(model: PipelineModel, settings: PipelineSettings): PipelineEffect[] {
  const { id, state, carried, runs } = model;
  const phase = model.phases[model.at];
  if (phase?.runner === 'agent') return [{ kind: 'runPhase', phase: phase.name, state, carried, runs }];
  if (phase) {
    const existing = state.beads_data?.planned;
    return [{ kind: 'integrate', id, where: settings.sinkWhere, state, runs, ...(existing ? { existing } : {}) }];
  }
  const targets = issueIds(state);
  return [
    log('info', 'pipeline.implementation', implementationStarts(targets, id), { issueIds: targets }),
    { kind: 'implement', id, issueIds: targets },
  ];
}

function current(model: PipelineModel): PhaseStep {
  const phase = model.phases[model.at];
  if (!phase) throw new Error(`agent-loop: no phase ${model.at} in the pipeline (${model.phases.length} phases)`);
  return phase;
}

/** A boundary written: the state with the agent runs so far, kept in the model as written. */
function boundary(
  model: PipelineModel,
  phase: SeedPhase,
  errors?: string[],
): { model: PipelineModel; effect: WriteBoundary } {
  const state = withRuns(model.state, model.runs);
  return {
    model: { ...model, state },
    effect: { kind: 'writeBoundary', id: model.id, phase, state, ...(errors ? { errors } : {}) },
  };
}

function withPlanned(state: PipelineState, where: string, planned: readonly string[]): PipelineState {
  return { ...state, beads_data: { file: where, planned: [...planned] } };
}

/** The state as a boundary writes it: with the agent runs counted so far. */
function withRuns(state: PipelineState, runs: AgentRuns): PipelineState {
  return { ...state, pipeline: { ...state.pipeline, ...runs } };
}
