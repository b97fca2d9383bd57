/**
 * The slice's checkpoint writer. Checkpoint files as they were before any agent ran: one that
 * appears or changes later, other than this run's own, was forged (the agent has a shell) and is
 * quarantined, never resumed.
 */
import path from 'node:path';
import { type DirSnapshot, foreignChanges, quarantine, snapshotCheckpoints } from '../checkpoint/foreign.js';
import { writeRunCheckpoint } from '../checkpoint/runCheckpoint.js';
import type { SeedPhase } from '../checkpoint/types.js';
import type { Status } from '../core/events.js';
import type { LoopState } from '../core/state.js';
import { type SliceDeps, filesOf } from './deps.js';

export function checkpointSaver(
  deps: SliceDeps,
  checkpointId: string,
  /** The checkpoint's other keys (the planning pipeline's outputs), kept as they were. */
  extra: Record<string, unknown> | undefined,
  /** Seed 001's phase of the checkpoint, and the run's stage within it (kept in the state). */
  phaseOf: (status: Status, loop: LoopState) => { phase: SeedPhase; stage: string },
): (status: Status, loop: LoopState, errors: readonly string[]) => Promise<void> {
  const { store, source, logger } = deps;
  let known: DirSnapshot | undefined;
  return async (status, loop, errors) => {
    const sourceState = source.exportState?.();
    await writeRunCheckpoint(
      store,
      {
        id: checkpointId,
        end: phaseOf(status, loop),
        loop,
        extra: { ...extra, ...(sourceState !== undefined ? { source: sourceState } : {}) },
        errors,
      },
      { readBack: false },
    );
    const now = await snapshotCheckpoints(filesOf(deps), store.dir);
    const foreign = known ? foreignChanges(known, now, `${checkpointId}.json`) : [];
    if (foreign.length > 0) {
      const moved = await quarantine(store.dir, deps.stateDir, foreign);
      const said =
        `Checkpoint file(s) written during this run by something other than agent-loop (most likely the agent): ${foreign.join(', ')}. ` +
        `Moved to ${path.join(deps.stateDir, 'quarantine')}; they are never resumed.`;
      logger.warn('checkpoint.forged', said, { files: foreign, movedTo: moved });
    }
    known = foreign.length > 0 ? await snapshotCheckpoints(filesOf(deps), store.dir) : now;
  };
}
