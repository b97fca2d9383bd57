/**
 * Which checkpoint `run` resumes by itself, decided once for `run` and `status` alike (so what
 * status calls "would be resumed" is what run resumes): the newest resumable one (phase, then
 * timestamp and sequence) whose loop state is one this version understands and whose timestamp is
 * not in the future. A future timestamp is a wrong clock or a forged file (an agent writing a
 * checkpoint dated 2099 at iteration 0 would otherwise reset --max-iterations); it is skipped and
 * reported, and `--resume ID` still resumes it deliberately. Pure.
 */
import { type Terms, surface } from '../config/surface.js';
import { checkpointTime, newestFirst, isResumable } from '../checkpoint/resume.js';
import type { Checkpoint } from '../checkpoint/types.js';
import { parseLoopState } from './state.js';

/** Clocks of two machines may differ a little; a checkpoint further ahead than this is not trusted. */
export const FUTURE_SKEW_MS = 5 * 60_000;

export interface RunnableChoice {
  checkpoint: Checkpoint | undefined;
  /** Resumable by phase, newer than the one chosen, and skipped: with the reason. */
  skipped: Array<{ checkpoint: Checkpoint; reason: string }>;
}

/** Why `run` would not resume this checkpoint by itself; undefined when it would. */
export function unrunnableReason(checkpoint: Checkpoint, now: Date, terms?: Terms): string | undefined {
  const time = checkpointTime(checkpoint);
  if (time > now.getTime() + FUTURE_SKEW_MS) {
    return (
      `its timestamp ${checkpoint.timestamp} is in the future (a wrong clock, or a file agent-loop did ` +
      `not write); not resumed by itself: ${surface(terms).given('resume', checkpoint.id)} resumes it deliberately`
    );
  }
  if (checkpoint.state.loop !== undefined) {
    const loop = parseLoopState(checkpoint.state);
    if (typeof loop === 'string') return loop;
  }
  return undefined;
}

/** `terms`: whose words the reasons use (default: the CLI's). */
export function pickRunnable(checkpoints: readonly Checkpoint[], now: Date, terms?: Terms): RunnableChoice {
  const skipped: RunnableChoice['skipped'] = [];
  for (const checkpoint of newestFirst(checkpoints).filter(isResumable)) {
    const reason = unrunnableReason(checkpoint, now, terms);
    if (!reason) return { checkpoint, skipped };
    skipped.push({ checkpoint, reason });
  }
  return { checkpoint: undefined, skipped };
}

/**
 * Why `run` skips a checkpoint its phase calls resumable, or undefined: what status shows beside
 * it, so that it never says a run goes on from a checkpoint run skips (issue 43).
 */
export function skippedByRun(checkpoint: Checkpoint, now: Date): string | undefined {
  return isResumable(checkpoint) ? unrunnableReason(checkpoint, now) : undefined;
}
