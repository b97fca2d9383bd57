/**
 * What run --parallel's effect handlers (src/app/effects/wave*.ts) work with: the coordinator's
 * ports, opened once (src/app/coordinator.ts), and the run's exit code once an effect ends it.
 */
import type { WaveEffect, WaveEvent } from '../../core/wave.js';
import type { Coordinator } from '../coordinator.js';

export interface WaveContext extends Coordinator {
  /** The run's exit code, once `finish` or `cannotStart` set it. */
  exitCode?: number;
}

/** Performs one kind of the wave machine's effects; what it asks of the world comes back as the next event. */
export type WaveHandler<K extends WaveEffect['kind']> = (
  effect: Extract<WaveEffect, { kind: K }>,
  c: WaveContext,
) => Promise<WaveEvent | undefined>;

/** One handler per kind of effect: a new effect cannot be left unhandled. */
export type WaveHandlers = { [K in WaveEffect['kind']]: WaveHandler<K> };
