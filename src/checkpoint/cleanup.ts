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
