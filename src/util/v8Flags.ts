/**
 * The V8 flags the engine's process sets from inside (the CLI and the action set them before their
 * modules load: setV8Flags.ts). Both are integers V8 reads when it acts on them, not once at start,
 * and both only change when V8 does something, never what the program computes.
 */
import { setFlagsFromString } from 'node:v8';

/**
 * Holds V8's young generation at the size it starts with (two 1 MiB semi-spaces). Otherwise V8
 * doubles it, up to two 16 MiB semi-spaces, each time the bytes that survived its scavenges since the
 * last growth add up to its size, and shrinks it only when the process allocates little: an engine
 * that streams an agent's output (or runs agents back to back) never does, so it kept about 48 MB it
 * did not need, and more 64 KiB pipe reads waited for a collection. Measured with the built CLI while
 * an agent printed 1 GiB without a newline: peak RSS 130-143 MB without it, 71-72 MB with it (Node
 * 20), 81-94 MB (Node 24), no slower (bench/rss.mjs; README, Benchmarks).
 *
 * The flag can only be set from inside the process once V8 runs (V8 raises a growth factor under 2
 * back to 2 when it reads its command line, not when it is set later). It is an integer V8 reads
 * only when it grows the young generation: where a version ignores it, nothing changes.
 */
export const HOLD_YOUNG_GENERATION = '--semi-space-growth-factor=1';

/**
 * Optimizing compilers (TurboFan; Maglev from V8 12) take a function ten times later than V8's
 * default. The engine's own code runs once or a few times per agent run, a few hundred times a run:
 * at the default, V8 kept compiling it on its background threads all run long, for code that runs
 * too rarely to gain from it, and those threads' malloc arenas (7 MB on Node 20) were memory every
 * later fork of an agent had to copy. What is hot for real, the stream of an agent's output, is
 * still optimized within its first megabytes (bench/rss.mjs: 1 GiB in 100-byte lines no slower; as
 * one line without a newline, 3.9-4.1 s against 3.4-3.6 s). Measured on Node 20 (bench/run.mjs):
 * 6 optimized functions instead of 43, anonymous memory 29 → 24 MB, the ratio to a minimal loop
 * 1.37 → 1.25.
 *
 * The flags are named per V8 version, and V8 prints an error for a flag it does not know: they are
 * given only for the versions they were checked on (V8 11: Node 20; 12: Node 22; 13: Node 24),
 * nothing on others.
 */
export function laterTierUp(v8Version: string): string[] {
  const major = Number(v8Version.split('.')[0]);
  // V8 11 counts the bytecode a function runs: three ticks of this budget (67584 by default).
  if (major === 11) return ['--interrupt-budget=675840'];
  // V8 12 and 13 count invocations (3000 for TurboFan, 400 for Maglev by default).
  if (major === 12 || major === 13)
    return ['--invocation-count-for-turbofan=30000', '--invocation-count-for-maglev=4000'];
  return [];
}

/** The flags for the V8 this process runs on. */
export function engineV8Flags(v8Version: string = process.versions.v8): string[] {
  return [HOLD_YOUNG_GENERATION, ...laterTierUp(v8Version)];
}

export function setEngineV8Flags(
  set: (flags: string) => void = setFlagsFromString,
  v8Version: string = process.versions.v8,
): void {
  for (const flags of engineV8Flags(v8Version)) set(flags);
}
