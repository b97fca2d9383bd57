/** A phase boundary (`<phase>-complete` or `-failed`) written as the plan's checkpoint, through its one writer. */
import { writeRunCheckpoint } from '../../../checkpoint/runCheckpoint.js';
import type { WriteBoundary } from '../../../core/pipeline.js';
import type { Handler } from './context.js';

export const writeBoundary: Handler<'writeBoundary'> = async (effect, { deps }) => {
  await writeBoundaryOf(deps.store, effect);
  return undefined;
};

export async function writeBoundaryOf(
  store: Parameters<typeof writeRunCheckpoint>[0],
  effect: WriteBoundary,
): Promise<void> {
  const { id, phase, state, errors } = effect;
  await writeRunCheckpoint(store, { id, end: { phase }, extra: state, ...(errors ? { errors } : {}) });
}
