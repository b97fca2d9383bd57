/**
 * The pipeline phases of seed 001, in order. A checkpoint of `agent-loop plan` has the phase
 * `<phase>-complete|failed`; one of `agent-loop run` has a loop phase (LOOP_PHASES).
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
export type PipelineCheckpointPhase = `${PipelinePhase}-${PhaseStatus}`;

/**
 * The phase of a checkpoint of `agent-loop run`, as a person reads it: `working` (work remains: run
 * again to go on), `red`, `green` or `refactor` (the same, --workflow tdd, in that phase of a test's
 * cycle), `complete` (nothing left to do) or `halted` (stopped on purpose; resumable once the cause
 * is fixed). Older versions wrote these as `beads_integration-complete`, `implementation-complete`
 * and `implementation-failed`, which still read (LEGACY_LOOP_PHASES).
 */
export const LOOP_PHASES = ['working', 'red', 'green', 'refactor', 'complete', 'halted'] as const;
export type LoopPhase = (typeof LOOP_PHASES)[number];

/** What a run's checkpoint phase written by an older version means now. */
export const LEGACY_LOOP_PHASES: Readonly<Record<string, LoopPhase>> = {
  'beads_integration-complete': 'working',
  'implementation-complete': 'complete',
  'implementation-failed': 'halted',
};

export type CheckpointPhase = PipelineCheckpointPhase | LoopPhase;

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
  write(checkpoint: Omit<Checkpoint, 'timestamp' | 'sequence'>, options?: { readBack?: boolean }): Promise<Checkpoint>;
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
