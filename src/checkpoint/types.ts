/**
 * The pipeline phases of seed 001, in order. Every checkpoint written has the phase
 * `<phase>-complete|failed` (SeedPhase): a plan's, phase by phase; a run's, its loop's (phase.ts).
 */
export const PIPELINE_PHASES = [
  'research',
  'decomposition',
  'planning',
  'phase_decomposition',
  'beads_integration',
  'implementation',
] as const;
export type PipelinePhase = (typeof PIPELINE_PHASES)[number];
export type PhaseStatus = 'complete' | 'failed';
/** Seed 001's `{phase-name}-{status}` (REQ_018.2): what every checkpoint written carries. */
export type SeedPhase = `${PipelinePhase}-${PhaseStatus}`;

/** The workflow's own stage while work remains (--workflow tdd: the step the test in flight goes on with). */
export type TddStage = 'red' | 'green' | 'refactor';

/**
 * Where a run stands within its phase, as a person reads it, kept in the checkpoint's state
 * (`state.stage`): `working` (work remains: run again to go on), `red`, `green` or `refactor` (the
 * same, --workflow tdd, in that step of a test's cycle), `complete` (nothing left to do) or `halted`
 * (stopped on purpose; resumable once the cause is fixed). Versions for issues 15 to 40 wrote these
 * as the phase itself; such checkpoints still read and resume (phase.ts's readPhase).
 */
export const RUN_STAGES = ['working', 'red', 'green', 'refactor', 'complete', 'halted'] as const;
export type RunStage = (typeof RUN_STAGES)[number];

/** How a slice that left a checkpoint with an older version's phase name (a run's stage) had ended. */
export const LEGACY_RUN_PHASES: Readonly<Record<RunStage, 'continuing' | 'complete' | 'halted'>> = {
  working: 'continuing',
  red: 'continuing',
  green: 'continuing',
  refactor: 'continuing',
  complete: 'complete',
  halted: 'halted',
};

/** A phase as read from a file: seed 001's, or a run's stage as versions for issues 15 to 40 wrote it. */
export type CheckpointPhase = SeedPhase | RunStage;

/** `<state-dir>/checkpoints/<id>.json` */
export interface Checkpoint {
  /** UUID v4; also the file name. */
  id: string;
  phase: CheckpointPhase;
  /** RFC 3339. */
  timestamp: string;
  /** Monotonic across the store: breaks timestamp ties, newest wins. */
  sequence: number;
  state: Record<string, unknown>;
  errors?: string[];
}

/** What a writer gives the store: every checkpoint written carries a phase in seed 001's format. */
export type CheckpointInput = Omit<Checkpoint, 'timestamp' | 'sequence' | 'phase'> & { phase: SeedPhase };

/** A file in the checkpoints directory that could not be used, and why. */
export interface InvalidCheckpoint {
  path: string;
  reason: string;
}

export interface CheckpointListing {
  checkpoints: Checkpoint[];
  invalid: InvalidCheckpoint[];
}

export interface CheckpointStore {
  readonly dir: string;
  /** Every valid checkpoint, and every file that is not one (never throws for a bad file). */
  list(): Promise<CheckpointListing>;
  /** One checkpoint by id; throws CheckpointError naming the path and the reason. */
  load(id: string): Promise<Checkpoint>;
  /**
   * Writes atomically; assigns the timestamp and the next sequence number; returns what was written,
   * as a reader will see it. `readBack: false`, for a caller that ignores the result (the loop's save
   * after every iteration): returns the checkpoint as given, with its timestamp and sequence, without
   * parsing the whole file back (still parsed when masking a secret changed the text, so that a
   * text the masking broke is reported).
   */
  write(checkpoint: CheckpointInput, options?: { readBack?: boolean }): Promise<Checkpoint>;
  delete(id: string): Promise<void>;
  /** Removes (unless dryRun) temporary files of writes cut short by a crash; returns their paths. */
  removeStaleTempFiles(dryRun: boolean): Promise<string[]>;
}

export class CheckpointError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`checkpoint ${path}: ${reason}`);
    this.name = 'CheckpointError';
  }
}
