/**
 * How a standing halt is resumed (issue 14, issue 40): the ways the engine decides for each halt
 * reason, and each way worded for the surface that ran (src/config/surface.ts), so that the CLI
 * names its flags and the action its inputs. The diagnostic keeps the ways beside its text, for a
 * program to follow. Pure.
 */
import { type Terms, surface } from '../config/surface.js';
import { ESCALATED_LABEL } from '../issues/types.js';
import type { LoopState } from './state.js';

/** The halts new commits on the base branch lift (haltGate.ts reads the base branch's tip for them). */
export const NEEDS_BASE_TIP = new Set(['failure_loop', 'baseline_unreadable']);

/**
 * The ways a standing halt can be resumed (what the engine decides), for each surface to word
 * (describeResumeWay). A halt on a limit is lifted by raising it (resuming it as it is would halt
 * again at once); any other by hand once its cause is fixed, and some by a change of their cause.
 * Starting over is always a way.
 */
export type ResumeWay = 'explicit' | 'unlabel' | 'base_commits' | 'max_iterations' | 'budget' | 'fresh';

/** The halts that escalated issues: a person lifts them by taking an issue's label away or editing it (haltGate.ts reads the issues for them). */
export const ESCALATION_HALTS = new Set(['all_escalated', 'failure_loop', 'bounce_loop']);

export function resumeWays(halt: Pick<NonNullable<LoopState['halt']>, 'reason'>): ResumeWay[] {
  if (halt.reason === 'max_iterations') return ['max_iterations', 'fresh'];
  if (halt.reason === 'budget') return ['budget', 'fresh'];
  // Only escalated issues are left: resumed by hand or started over, the loop would find the same
  // labels and halt again at once (issue 40). An issue is what changes it.
  if (halt.reason === 'all_escalated') return ['unlabel'];
  const ways: ResumeWay[] = ['explicit'];
  if (ESCALATION_HALTS.has(halt.reason)) ways.push('unlabel');
  if (NEEDS_BASE_TIP.has(halt.reason)) ways.push('base_commits');
  ways.push('fresh');
  return ways;
}

/** One phrase per way, in the words of the surface that ran (src/config/surface.ts). */
export function describeResumeWay(way: ResumeWay, terms: Terms, baseBranch?: string): string {
  const say = surface(terms);
  switch (way) {
    case 'explicit':
      // The CLI keeps no options between runs: the resumed run needs the halted run's again.
      return `once the cause is fixed, ${say.act('resumeHalted')}${terms === 'cli' ? " with the halted run's other options" : ''}`;
    case 'unlabel':
      return `remove the ${ESCALATED_LABEL} label from an issue that should be tried again, or edit the issue (its title or text) to say more: the next run resumes by itself`;
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
