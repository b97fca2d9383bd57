import { statSync } from 'node:fs';

/** How long a file whose times have a fraction of a second must have been still (see fileStamp). */
export const FINE_SETTLED_MS = 100;

/**
 * A stamp that changes whenever a regular file is replaced or rewritten (its inode, size, and
 * modification and change times in ns); undefined when it is missing or not a regular file. Lets a
 * reader skip reading again a file it read, or wrote, itself.
 *
 * `settledMs`: no stamp for a file modified less than that long ago. File times advance in clock
 * ticks (a few ms on ext4, up to 2 s elsewhere), so a second write in the same tick, of the same
 * size, would keep the stamp; only a file that has been still for longer than a tick gives one
 * (git's "racily clean" rule). A file whose times have a fraction of a second is still enough after
 * FINE_SETTLED_MS, if that is shorter.
 */
export function fileStamp(file: string, options: { settledMs?: number; now?: number } = {}): string | undefined {
  try {
    const st = statSync(file, { bigint: true });
    if (!st.isFile()) return undefined;
    if (options.settledMs !== undefined) {
      // Times with a fraction of a second (ext4, xfs, btrfs, APFS) advance by the kernel's coarse
      // clock, a tick of 10 ms at most: FINE_SETTLED_MS is ample. Whole seconds (FAT, some network
      // file systems) need the caller's settledMs.
      const fine = st.mtimeNs % 1_000_000_000n !== 0n;
      const settled = fine ? Math.min(options.settledMs, FINE_SETTLED_MS) : options.settledMs;
      const age = (options.now ?? Date.now()) - Number(st.mtimeNs / 1_000_000n);
      if (age < settled) return undefined;
    }
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}
