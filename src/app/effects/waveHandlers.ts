/**
 * run --parallel's coordinator: the wave machine of the core (src/core/wave.ts) driven by the one
 * interpreter (src/loop/interpreter.ts drive) through these handlers, one per kind of effect.
 */
import type { WaveModel } from '../../core/wave.js';
import { type WaveContext, type WaveHandlers, driveWave, notAsked, planOnly } from './waveContext.js';
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
  handOver: notAsked,
  ...planOnly,
};

/** The waves, one after another, until no work is left, the run halts, or it is stopped: the run's exit code. */
export async function driveWaves(c: WaveContext, model: WaveModel): Promise<number> {
  return (await driveWave(waveHandlers, c, model, { type: 'started' }, () => c.exitCode)).result;
}
