/** The pipeline phases of seed 001, in order. A checkpoint's phase is `<phase>-complete|failed`. */
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
export type CheckpointPhase = `${PipelinePhase}-${PhaseStatus}`;

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
  /** Writes atomically; assigns the timestamp and the next sequence number; returns what was written. */
  write(checkpoint: Omit<Checkpoint, 'timestamp' | 'sequence'>): Promise<Checkpoint>;
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
