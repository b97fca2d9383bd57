/**
 * The pure rules of a cycle's baseline (no files, no hashing): whether it gives a verdict at all, and
 * how a run remembers the digests of its baselines. The core (src/core/baseline.ts) decides with
 * them; src/verdict/baseline.ts keeps the baselines themselves.
 */
import { type Surface, surface } from '../config/surface.js';
import { type SuiteRun, isReadable } from './results.js';
import { VERDICT_MESSAGES } from './messages.js';

/** How many baselines a run remembers the digest of (the newest): one per base tip its cycles started on. */
export const BASELINES_REMEMBERED = 20;

/** `remembered` with `key`'s digest, newest last, the newest BASELINES_REMEMBERED kept. Pure. */
export function rememberBaseline(
  remembered: Readonly<Record<string, string>> | undefined,
  key: string,
  digest: string,
): Record<string, string> {
  const entries = Object.entries(remembered ?? {}).filter(([k]) => k !== key);
  entries.push([key, digest]);
  return Object.fromEntries(entries.slice(-BASELINES_REMEMBERED));
}

/**
 * Why no verdict is possible on this baseline, if none is: it failed and cannot be read per test,
 * so a failure after the agent's work cannot be told apart from one that was there before. Pure.
 */
export function baselineProblem(
  run: SuiteRun,
  command: string,
  say: Surface = surface(),
): { message: string; advice: string } | undefined {
  // Not one test ran (not found, not executable, an import error in collection, timed out): every verdict would be
  // "cannot run". An empty suite is not that: the agent may be the one to write its first tests.
  if (run.cannotRun && !run.noTests) {
    return {
      message: VERDICT_MESSAGES.baselineCannotRun(command, run.cannotRun),
      advice: VERDICT_MESSAGES.baselineCannotRunAdvice(say),
    };
  }
  if (isReadable(run) || run.exitCode === 0) return undefined;
  return {
    message: VERDICT_MESSAGES.baselineUnreadable(command, run.exitCode),
    advice: VERDICT_MESSAGES.baselineUnreadableAdvice(say),
  };
}
