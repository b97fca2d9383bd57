/**
 * run --parallel's coordinator: the wave machine of the core (src/core/wave.ts) driven by the one
 * interpreter (src/loop/interpreter.ts drive) through these handlers, one per kind of effect.
 */
import { type WaveEffect, type WaveEvent, type WaveModel, step } from '../../core/wave.js';
import { drive } from '../../loop/interpreter.js';
import type { WaveContext, WaveHandler, WaveHandlers } from './waveContext.js';
import { cannotStart, finish, recordHalt } from './waveEnd.js';
import { clearWave } from './waveClear.js';
import { labelEscalations, landJobs } from './waveLand.js';
import { log, readSignal, save, sendLeftPosts } from './waveJournal.js';
import { readReady, recordWave, runJobs } from './waveStart.js';

export const waveHandlers: WaveHandlers = {
  sendLeftPosts,
  save,
  log,
  readSignal,
  readReady,
  recordWave,
  runJobs,
  landJobs,
  labelEscalations,
  clearWave,
  recordHalt,
  finish,
  cannotStart,
};

/** Performs one effect through its handler. */
export function performWave(effect: WaveEffect, c: WaveContext): Promise<WaveEvent | undefined> {
  return (waveHandlers[effect.kind] as WaveHandler<typeof effect.kind>)(effect as never, c);
}

/** The waves, one after another, until no work is left, the run halts, or it is stopped: the run's exit code. */
export async function driveWaves(c: WaveContext, model: WaveModel): Promise<number> {
  const { result } = await drive<WaveModel, WaveEvent, WaveEffect, number>(
    { machine: { step }, model, perform: (effect) => performWave(effect, c), result: () => c.exitCode },
    { type: 'started' },
  );
  return result;
}
