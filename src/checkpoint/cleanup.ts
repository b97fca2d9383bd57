import { ageInDays, newestFirst, pickResumable } from './resume.js';
import type { Checkpoint } from './types.js';

export interface CleanupOptions {
  /** Remove checkpoints older than this many days (strictly). */
  olderThanDays?: number;
  /** Remove every checkpoint, including the newest resumable one. */
  all: boolean;
}

export interface CleanupPlan {
  /** Newest first. */
  remove: Checkpoint[];
  /** Newest first. */
  keep: Checkpoint[];
  /** The newest resumable checkpoint, kept whatever its age so a run can still resume (absent with `all`). */
  keptNewestResumable?: Checkpoint;
  /** True when keptNewestResumable is old enough to be removed and is kept only because it is the one a run would resume. */
  protectedNewestResumable: boolean;
}

/**
 * Which checkpoints a cleanup removes (seed 001's CleanupByAge). With `all`, every one. With
 * `olderThanDays`, those whose age in days is greater than it, except the newest resumable
 * checkpoint. With neither, none. Throws RangeError for a negative or non-finite day count.
 */
export function planCleanup(checkpoints: readonly Checkpoint[], options: CleanupOptions, now: Date): CleanupPlan {
  const { olderThanDays, all } = options;
  if (olderThanDays !== undefined && !(Number.isFinite(olderThanDays) && olderThanDays >= 0)) {
    throw new RangeError(`older-than must be a number of days, 0 or more; got ${String(olderThanDays)}`);
  }
  const sorted = newestFirst(checkpoints);
  if (all) return { remove: sorted, keep: [], protectedNewestResumable: false };

  const newestResumable = pickResumable(sorted);
  const isOld = (cp: Checkpoint) => olderThanDays !== undefined && ageInDays(cp, now) > olderThanDays;
  const remove = sorted.filter((cp) => isOld(cp) && cp !== newestResumable);
  const keep = sorted.filter((cp) => !remove.includes(cp));
  return {
    remove,
    keep,
    ...(newestResumable ? { keptNewestResumable: newestResumable } : {}),
    protectedNewestResumable: newestResumable !== undefined && isOld(newestResumable),
  };
}

export interface PruneOptions {
  /** How many of the newest checkpoints are kept whatever they hold. */
  keep: number;
  /** The checkpoint the run used (kept whatever its age). */
  inUse?: string;
  /** Whether a checkpoint is still needed whatever its age (a halt that stands, work in its outbox). */
  needed: (checkpoint: Checkpoint) => boolean;
}

/**
 * Which checkpoints the action prunes from the state directory before publishing it (issue 14: idle
 * runs used to add one every run, published for ever): all but the newest `keep`, the one in use,
 * the newest resumable one (the one a run would resume) and those still `needed`. Pure; newest first.
 */
export function planPrune(
  checkpoints: readonly Checkpoint[],
  options: PruneOptions,
): { remove: Checkpoint[]; keep: Checkpoint[] } {
  if (!(Number.isSafeInteger(options.keep) && options.keep >= 1))
    throw new RangeError(`keep must be a whole number of checkpoints, 1 or more; got ${String(options.keep)}`);
  const sorted = newestFirst(checkpoints);
  const resumable = pickResumable(sorted);
  const kept = (cp: Checkpoint, i: number) =>
    i < options.keep || cp.id === options.inUse || cp === resumable || options.needed(cp);
  return { remove: sorted.filter((cp, i) => !kept(cp, i)), keep: sorted.filter(kept) };
}
