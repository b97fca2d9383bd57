/**
 * The one writer of a run's checkpoint (issue 41): every save of a loop's state goes through here
 * (the serial slice's, run --parallel's coordinator, the action's reduce and landing jobs, the
 * planning pipeline's), on to the store (fileStore.ts), which writes through the state directory's
 * one writer (src/persist/stateFiles.ts). What a checkpoint holds is composed once: seed 001's phase,
 * the run's stage (`state.stage`), the loop (`state.loop`), and the keys other parts keep beside
 * them, as they were. __tests__/checkpoint/oneOwner.test.ts fails on a second writer.
 */
import { STAGE_KEY, type SliceEnd, runCheckpointPhase } from './phase.js';
import type { Checkpoint, CheckpointStore, SeedPhase, TddStage } from './types.js';

export interface RunCheckpoint {
  id: string;
  /** How the run stands (its phase and stage: runCheckpointPhase), or a phase given as it is (the planning pipeline's). */
  end: { status: SliceEnd; step?: TddStage } | { phase: SeedPhase; stage?: string };
  /** The loop's state; absent in a plan's checkpoint before its loop starts. */
  loop?: unknown;
  /** The checkpoint's other keys (the pipeline's, the issue source's, the reduce's record of waves), written as given. */
  extra?: Record<string, unknown>;
  errors?: readonly string[];
}

/** Writes the run's checkpoint `id` (atomically, masked); what was written, as the store returns it. */
export function writeRunCheckpoint(
  store: Pick<CheckpointStore, 'write'>,
  run: RunCheckpoint,
  options?: { readBack?: boolean },
): Promise<Checkpoint> {
  const { phase, stage } = 'status' in run.end ? runCheckpointPhase(run.end.status, run.end.step) : run.end;
  return store.write(
    {
      id: run.id,
      phase,
      state: {
        ...run.extra,
        ...(stage !== undefined ? { [STAGE_KEY]: stage } : {}),
        ...(run.loop !== undefined ? { loop: run.loop } : {}),
      },
      ...(run.errors?.length ? { errors: [...run.errors] } : {}),
    },
    options,
  );
}
