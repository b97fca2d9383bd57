import { readPhase, splitPhase } from './phase.js';
import { parseRfc3339 } from './schema.js';
import { PIPELINE_PHASES, type Checkpoint, type PipelinePhase } from './types.js';

/** Which checkpoint to resume and where (seed 001's DetectResumableCheckpoint), as pure decisions. */

const MS_PER_DAY = 24 * 60 * 60 * 1000;

/** A checkpoint is resumable unless it records the end of the last phase: nothing is left to do. */
export function isResumable(checkpoint: Pick<Checkpoint, 'phase'>): boolean {
  return resumePoint(checkpoint) !== undefined;
}

/**
 * The pipeline phase to run next (REQ_018.2.7): a failed phase is retried (`implementation-failed`
 * → implementation), a completed one is followed by the next (`beads_integration-complete` →
 * implementation); undefined after `implementation-complete`. A phase an older version wrote for a
 * run (`working`, `red`, `halted`…) is read as seed 001's (phase.ts), so it resumes as before:
 * the loop, `implementation`, unless it is `complete`.
 */
export function resumePoint(checkpoint: Pick<Checkpoint, 'phase'>): PipelinePhase | undefined {
  const { phase, status } = splitPhase(readPhase({ phase: checkpoint.phase, state: {} }).phase);
  if (status === 'failed') return phase;
  return PIPELINE_PHASES[PIPELINE_PHASES.indexOf(phase) + 1];
}

/** Milliseconds since the epoch, offsets respected; -Infinity for an unparseable timestamp (sorts oldest). */
export function checkpointTime(checkpoint: Pick<Checkpoint, 'timestamp'>): number {
  return parseRfc3339(checkpoint.timestamp)?.getTime() ?? Number.NEGATIVE_INFINITY;
}

/** Sort order newest first: later timestamp, then higher sequence, then id (so the order is total). */
export function compareNewestFirst(a: Checkpoint, b: Checkpoint): number {
  const ta = checkpointTime(a);
  const tb = checkpointTime(b);
  if (ta !== tb) return ta > tb ? -1 : 1;
  if (a.sequence !== b.sequence) return b.sequence - a.sequence;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The checkpoints newest first, as a new array. */
export function newestFirst(checkpoints: readonly Checkpoint[]): Checkpoint[] {
  return [...checkpoints].sort(compareNewestFirst);
}

/** The newest resumable checkpoint (REQ_018.3.6: by timestamp, ties broken by sequence), or undefined. */
export function pickResumable(checkpoints: readonly Checkpoint[]): Checkpoint | undefined {
  return newestFirst(checkpoints).find(isResumable);
}

export interface ResumeDecision {
  checkpoint: Checkpoint;
  /** The phase to run next. */
  resumeAt: PipelinePhase;
  /** The errors recorded with the checkpoint, oldest first, for the user to decide (REQ_018.5.8). */
  errors: string[];
}

/** seed 001's DetectResumableCheckpoint: the checkpoint to resume, where, and what went wrong last time. */
export function detectResumable(checkpoints: readonly Checkpoint[]): ResumeDecision | undefined {
  const checkpoint = pickResumable(checkpoints);
  const resumeAt = checkpoint && resumePoint(checkpoint);
  if (!checkpoint || !resumeAt) return undefined;
  return { checkpoint, resumeAt, errors: [...(checkpoint.errors ?? [])] };
}

/**
 * Age in fractional days at `now` (REQ_018.3.9). Negative when the timestamp is in the future
 * (clock skew between machines). Throws when the timestamp is not RFC 3339.
 */
/**
 * An age in days as a person reads it: `1.5 days`, or for a negative one (a checkpoint dated after
 * `now`) that it is dated in the future, which a negative age would hide.
 */
export function describeAge(days: number): string {
  if (!Number.isFinite(days)) return 'unknown';
  if (days < 0)
    return `dated ${(-days).toFixed(1)} days in the future (a clock ahead of this machine's wrote it, or it was edited)`;
  return `${days.toFixed(1)} days`;
}

export function ageInDays(checkpoint: Pick<Checkpoint, 'id' | 'timestamp'>, now: Date): number {
  const time = parseRfc3339(checkpoint.timestamp);
  if (!time) {
    throw new RangeError(
      `checkpoint ${checkpoint.id}: timestamp ${JSON.stringify(checkpoint.timestamp)} is not RFC 3339, so its age is unknown`,
    );
  }
  return (now.getTime() - time.getTime()) / MS_PER_DAY;
}
