/**
 * How a standing halt is resumed (issue 14, issue 40): the ways each halt reason's row names
 * (src/core/haltReasons.ts), and each way worded for the surface that ran (src/config/surface.ts), so that the CLI
 * names its flags and the action its inputs. The diagnostic keeps the ways beside its text, for a
 * program to follow. Pure.
 */
import { type Terms, surface } from '../config/surface.js';
import { ESCALATED_LABEL } from '../issues/types.js';
import { HALT_REASONS, type SelfLift } from './haltReasons.js';
import type { LoopState } from './state.js';

/**
 * The ways a standing halt can be resumed (what the engine decides), for each surface to word
 * (describeResumeWay). A halt on a limit is lifted by raising it (resuming it as it is would halt
 * again at once); any other by hand once its cause is fixed, and some by a change of their cause.
 * Starting over is always a way.
 */
export type ResumeWay = 'explicit' | SelfLift | 'fresh';

/** A halt's ways to resume, as its reason's row (haltReasons.ts) names them: by hand, by a change of its cause, by starting over. */
export function resumeWays(halt: Pick<NonNullable<LoopState['halt']>, 'reason'>): ResumeWay[] {
  const { byHand, liftedBy, startOver } = HALT_REASONS[halt.reason].resume;
  return [...(byHand ? (['explicit'] as const) : []), ...liftedBy, ...(startOver ? (['fresh'] as const) : [])];
}

/** One phrase per way, in the words of the surface that ran (src/config/surface.ts). */
export function describeResumeWay(way: ResumeWay, terms: Terms, baseBranch?: string): string {
  const say = surface(terms);
  switch (way) {
    case 'explicit':
      // The CLI keeps no options between runs: the resumed run needs the halted run's again.
      return `once the cause is fixed, ${say.act('resumeHalted')}${terms === 'cli' ? " with the halted run's other options" : ''}`;
    case 'unlabel':
      return (
        `remove the ${ESCALATED_LABEL} label from an issue that should be tried again, or edit the issue ` +
        `(its title or text) to say more: the next run resumes by itself`
      );
    case 'base_commits':
      // The CLI's base branch is the local one; the action's is the one it checks out.
      return `${terms === 'cli' ? 'commit' : 'push'} a fix to ${baseBranch ?? 'the base branch'}: the next run resumes by itself`;
    case 'max_iterations':
      return `raise ${say.option('maxIterations')} (the count is kept across runs): the next run resumes by itself`;
    case 'budget':
      return `raise ${say.option('maxCostUsd')} (the spend is kept across runs): the next run resumes by itself`;
    case 'fresh':
      return `or ${say.act('startFresh')} (the loop's counts begin again)`;
  }
}

/** The ways, worded and joined: `a; b; or start over …`. */
export function describeResumeWays(ways: readonly ResumeWay[], terms: Terms, baseBranch?: string): string {
  return ways.map((w) => describeResumeWay(w, terms, baseBranch)).join('; ');
}

/** How a halt is resumed, in a sentence: later runs stay halted until one of its ways is taken. */
export function describeResume(ways: readonly ResumeWay[], terms: Terms, baseBranch?: string): string {
  return `Later runs stay halted until it is resumed: ${describeResumeWays(ways, terms, baseBranch)}.`;
}
