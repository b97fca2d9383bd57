/**
 * Holds V8's young generation at the size it starts with (two 1 MiB semi-spaces; the CLI and the
 * action set it before their modules load: holdYoungGeneration.ts). Otherwise V8 doubles it,
 * up to two 16 MiB semi-spaces, each time the bytes that survived its scavenges since the last
 * growth add up to its size, and shrinks it only when the process allocates little: an engine that
 * streams an agent's output (or runs agents back to back) never does, so it kept about 48 MB it did
 * not need, and more 64 KiB pipe reads waited for a collection. Measured with the built CLI while an
 * agent printed 1 GiB without a newline: peak RSS 130-143 MB without it, 71-72 MB with it (Node 20),
 * 81-94 MB (Node 24), no slower (bench/rss.mjs; README, Benchmarks).
 *
 * The flag can only be set from inside the process once V8 runs (V8 raises a growth factor under 2
 * back to 2 when it reads its command line, not when it is set later). It is an integer V8 reads
 * only when it grows the young generation: where a version ignores it, nothing changes.
 */
import { setFlagsFromString } from 'node:v8';

export const HOLD_YOUNG_GENERATION = '--semi-space-growth-factor=1';

export function holdYoungGeneration(set: (flags: string) => void = setFlagsFromString): void {
  set(HOLD_YOUNG_GENERATION);
}
