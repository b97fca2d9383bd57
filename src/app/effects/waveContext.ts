/**
 * What the wave machine's effect handlers work with: run --parallel's coordinator (its ports, opened
 * once: src/app/coordinator.ts) or the action's reduce job (src/action/reduceEffects.ts), and the
 * run's exit code once an effect ends it. Each driver has its own table of handlers over its own
 * context; the machine (src/core/wave.ts) is the same.
 */
import type { Options } from '../../config/options.js';
import type { WaveEffect, WaveEvent, WaveModel } from '../../core/wave.js';
import type { WaveMachineSettings } from '../../core/waveTypes.js';
import { step } from '../../core/wave.js';
import { drive } from '../../loop/interpreter.js';
import type { Coordinator } from '../coordinator.js';

/** The wave machine's settings from the run's options, for any of its drivers (`base`: only run --parallel's lands). */
export function waveMachineSettings(
  options: Pick<Options, 'parallel' | 'maxIterations' | 'maxCostUsd' | 'maxConsecutiveEscalations'>,
  checkpointId: string,
  base = '',
): WaveMachineSettings {
  return {
    parallel: options.parallel,
    maxIterations: options.maxIterations,
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    maxConsecutiveEscalations: options.maxConsecutiveEscalations,
    checkpointId,
    base,
  };
}

export interface WaveContext extends Coordinator {
  /** The run's exit code, once `finish` or `cannotStart` set it. */
  exitCode?: number;
}

/** Performs one kind of the wave machine's effects; what it asks of the world comes back as the next event. */
export type WaveHandlerOf<K extends WaveEffect['kind'], C> = (
  effect: Extract<WaveEffect, { kind: K }>,
  c: C,
) => Promise<WaveEvent | undefined>;

/** One handler per kind of effect: a new effect cannot be left unhandled. */
export type WaveHandlersOf<C> = { [K in WaveEffect['kind']]: WaveHandlerOf<K, C> };
export type WaveHandler<K extends WaveEffect['kind']> = WaveHandlerOf<K, WaveContext>;
export type WaveHandlers = WaveHandlersOf<WaveContext>;

/** An effect the machine never asks of this driver (the coordinator's worktrees in the action, the matrix's hand-over on the command line). */
export const notAsked = async (effect: WaveEffect): Promise<never> => {
  throw new Error(`agent-loop: the wave machine asked ${effect.kind} of a driver that has no ${effect.kind}`);
};

/** run --parallel's coordinator's effects (its worktrees and the run's stop signal), asked of neither action job. */
export const coordinatorOnly = {
  readSignal: notAsked,
  recordWave: notAsked,
  runJobs: notAsked,
  landJobs: notAsked,
  labelEscalations: notAsked,
  clearWave: notAsked,
  cannotStart: notAsked,
} as const;

/** The action's plan job's effects (src/action/planEffects.ts), asked of no other driver. */
export const planOnly = {
  note: notAsked,
  claimJobs: notAsked,
  releaseClaims: notAsked,
  handWave: notAsked,
  noWave: notAsked,
} as const;

/** Drives the wave machine from `first` through `handlers` until `result` is set. */
export async function driveWave<C, R>(
  handlers: WaveHandlersOf<C>,
  c: C,
  model: WaveModel,
  first: WaveEvent,
  result: () => R | undefined,
): Promise<{ result: R; model: WaveModel }> {
  return drive<WaveModel, WaveEvent, WaveEffect, R>(
    {
      machine: { step },
      model,
      perform: (effect) => (handlers[effect.kind] as WaveHandlerOf<typeof effect.kind, C>)(effect as never, c),
      result,
    },
    first,
  );
}
