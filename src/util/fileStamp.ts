import { statSync } from 'node:fs';

/**
 * A stamp that changes whenever a regular file is replaced or rewritten (its inode, size, and
 * modification and change times in ns); undefined when it is missing or not a regular file. Lets a
 * reader skip reading again a file it read, or wrote, itself.
 *
 * `settledMs`: no stamp for a file modified less than that long ago. File times advance in clock
 * ticks (a few ms on ext4, up to 2 s elsewhere), so a second write in the same tick, of the same
 * size, would keep the stamp; only a file that has been still for longer than a tick gives one
 * (git's "racily clean" rule).
 */
export function fileStamp(file: string, options: { settledMs?: number; now?: number } = {}): string | undefined {
  try {
    const st = statSync(file, { bigint: true });
    if (!st.isFile()) return undefined;
    if (options.settledMs !== undefined) {
      const age = (options.now ?? Date.now()) - Number(st.mtimeNs / 1_000_000n);
      if (age < options.settledMs) return undefined;
    }
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}
