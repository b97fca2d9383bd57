/**
 * A cycle's baseline as the core sees it: what the interpreter found or ran (`BaselineDelta`, the
 * `baselineRan` event's), folded into the loop state here, and judged here: a baseline that gives
 * no verdict (a red suite not read per test, or one that cannot run) halts `baseline_unreadable`.
 * Pure.
 */
import { type Terms, surface } from '../config/surface.js';
import { baselineProblem, rememberBaseline } from '../verdict/baselineRules.js';
import type { BaselineDelta, Halt } from './events.js';
import type { LoopState } from './state.js';
import { cycleInFlight } from './inFlight.js';

/**
 * The loop with the baseline folded in: the cycle's baseline key, the run's digest remembered, and
 * (run on the cycle's own tree, and kept) the digest of its failing tests. A baseline run now that
 * halts is not kept, and leaves the loop as it was.
 */
export function foldBaseline(loop: LoopState, delta: BaselineDelta, halted: boolean): LoopState {
  if (delta.source === 'seen' || (halted && delta.source === 'ran')) return loop;
  const { key, digest, lastFailing } = delta;
  return {
    ...loop,
    currentCycle: { ...cycleInFlight(loop), baselineKey: key },
    ...(digest !== undefined ? { baselines: rememberBaseline(loop.baselines, key, digest) } : {}),
    ...(lastFailing && !halted ? { lastFailing: { ...loop.lastFailing, [lastFailing.key]: lastFailing.digest } } : {}),
  };
}

/** The halt when the baseline gives no verdict: the agent's work could not be told from what was there before. */
export function baselineHalt(
  delta: BaselineDelta,
  settings: { testCommand?: string; terms?: Terms },
  waveJob: boolean,
): Halt | undefined {
  if (!delta.run) return undefined;
  const problem = baselineProblem(delta.run, settings.testCommand ?? '', surface(settings.terms));
  if (!problem) return undefined;
  return {
    reason: 'baseline_unreadable',
    message: `NO VERDICT POSSIBLE: ${problem.message}`,
    advice: waveJob ? `${problem.advice} ${WAVE_JOB_HINT}` : problem.advice,
  };
}

/** Why a suite that runs in the user's checkout may not run in a `--parallel` job's. */
const WAVE_JOB_HINT = [
  "This is a job of run --parallel: it runs in a fresh worktree of the base branch, which has none of your checkout's",
  'untracked or ignored files (node_modules, a virtualenv, build output), so a suite that runs in your checkout may not run there.',
  "Make the test command work in a fresh checkout (install first, e.g. --test-command 'npm ci && npm test';",
  'or use absolute paths to the installed tools), or run without --parallel.',
].join(' ');
