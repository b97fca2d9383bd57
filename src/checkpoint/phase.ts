import {
  LEGACY_RUN_PHASES,
  PIPELINE_PHASES,
  RUN_STAGES,
  type Checkpoint,
  type PipelinePhase,
  type RunStage,
  type SeedPhase,
  type TddStage,
} from './types.js';

/**
 * A checkpoint's phase (seed 001, REQ_018.2): `{phase-name}-{status}` over the pipeline's six
 * phases, status `complete` or `failed`, for every checkpoint written. A run's loop is the
 * pipeline's implementation phase with the issues already there: it starts from
 * `beads_integration-complete` and keeps it while work remains, and ends `implementation-complete`
 * (nothing left) or `implementation-failed` (a halt: resumable once the cause is fixed). Where the
 * run stands within the phase (working; with --workflow tdd the step the test in flight goes on
 * with; complete; halted) is its stage, kept in the checkpoint's state as `state.stage`. Pure.
 */

/** How a slice ended, as the core says it (src/core/events.ts's Status). */
export type SliceEnd = 'continuing' | 'deferred' | 'complete' | 'halted';

/** The key of the checkpoint's state that holds the run's stage. */
export const STAGE_KEY = 'stage';

/**
 * The phase and stage a run's checkpoint records when its slice ends so (`step`: the workflow's
 * own stage while work remains, tdd's red, green or refactor). The one decision of which phase a
 * loop's state maps to: the serial loop, --parallel, the action's jobs and the planning pipeline's
 * implementation loop all write through it.
 */
export function runCheckpointPhase(end: SliceEnd, step?: TddStage): { phase: SeedPhase; stage: RunStage } {
  switch (end) {
    case 'complete':
      return { phase: 'implementation-complete', stage: 'complete' };
    case 'halted':
      return { phase: 'implementation-failed', stage: 'halted' };
    // A deferred slice did not finish the loop: its checkpoint stays resumable, as a continuing one.
    case 'continuing':
    case 'deferred':
      return { phase: 'beads_integration-complete', stage: step ?? 'working' };
  }
}

export function isSeedPhase(value: unknown): value is SeedPhase {
  if (typeof value !== 'string') return false;
  const cut = value.lastIndexOf('-');
  const status = value.slice(cut + 1);
  return (
    cut > 0 &&
    (PIPELINE_PHASES as readonly string[]).includes(value.slice(0, cut)) &&
    (status === 'complete' || status === 'failed')
  );
}

export function isRunStage(value: unknown): value is RunStage {
  return typeof value === 'string' && (RUN_STAGES as readonly string[]).includes(value);
}

export function splitPhase(value: SeedPhase): { phase: PipelinePhase; status: 'complete' | 'failed' } {
  const cut = value.lastIndexOf('-');
  return { phase: value.slice(0, cut) as PipelinePhase, status: value.slice(cut + 1) as 'complete' | 'failed' };
}

/** A checkpoint's phase as read: in seed 001's format, and the run's stage beside it. */
export interface ReadPhase {
  /** Seed 001's phase; a name an older version wrote is translated (`halted` → `implementation-failed`). */
  phase: SeedPhase;
  /** Where a run stands; null for a plan's checkpoint before its loop (nothing but the pipeline's phase says). */
  stage: RunStage | null;
  /** The phase as the file says it, when an older version wrote another name (`working`, `halted`, `red`…); else null. */
  writtenAs: string | null;
}

/**
 * Reads a checkpoint's phase and stage, whichever version wrote it: versions for issues 15 to 40
 * wrote the run's stage as its phase (`working`, `red`, `green`, `refactor`, `complete`, `halted`);
 * this one and those before issue 15 write seed 001's phases. The stage is `state.stage` when
 * recorded, else the older phase's name, else what the phase implies (none for a plan's checkpoint
 * before its loop starts, or before its implementation phase). Pure; never throws on a state of
 * another shape.
 */
export function readPhase(checkpoint: Pick<Checkpoint, 'phase' | 'state'>): ReadPhase {
  const written: string = checkpoint.phase;
  const recorded = checkpoint.state[STAGE_KEY];
  if (isRunStage(written)) {
    const { phase } = runCheckpointPhase(LEGACY_RUN_PHASES[written]);
    return { phase, stage: isRunStage(recorded) ? recorded : written, writtenAs: written };
  }
  const phase = written as SeedPhase;
  if (isRunStage(recorded)) return { phase, stage: recorded, writtenAs: null };
  // A plan's checkpoint handed over to a loop that has not started yet says nothing of a run.
  const planOnly = checkpoint.state.pipeline !== undefined && checkpoint.state.loop === undefined;
  const implied: RunStage | null =
    phase === 'implementation-complete'
      ? 'complete'
      : phase === 'implementation-failed'
        ? 'halted'
        : phase === 'beads_integration-complete' && !planOnly
          ? 'working'
          : null;
  return { phase, stage: implied, writtenAs: null };
}

/** Whether the checkpoint records a halt (`implementation-failed`, or `halted` from an older version). */
export function isHaltedCheckpoint(checkpoint: Pick<Checkpoint, 'phase' | 'state'>): boolean {
  return readPhase(checkpoint).stage === 'halted';
}
