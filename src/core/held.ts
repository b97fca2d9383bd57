/**
 * Work held for a person (issue 42): the verdict accepted it, yet the loop does not land it as done.
 * `tests-changed`: it changed what the maintainer owns (a pre-existing test, the test infrastructure,
 * agent-loop's configuration), so the maintainer's tests passed on the base's version of those paths
 * and a person judges the change to them; `unverified`: nothing shows it fixes the issue (no test that
 * failed before passes now), or the judged run has results the runner counted that were not read one
 * by one (src/verdict/unverified.ts). Published for a person (a draft pull request labelled so), or left on
 * its branch; never merged and never closed by the loop. Pure.
 */
import { z } from 'zod';
import { TESTS_CHANGED_LABEL, UNVERIFIED_LABEL } from '../issues/types.js';

export const HELD_REASONS = ['tests-changed', 'unverified'] as const;
export type HeldReason = (typeof HELD_REASONS)[number];

export const HeldSchema = z.object({
  reason: z.enum(HELD_REASONS),
  /** Why, in words for a person (the findings, or why there is no evidence). */
  why: z.string(),
  /** tests-changed: the protected paths the work changed (their diff goes in the pull request's body). */
  paths: z.array(z.string()).optional(),
});
export type Held = z.infer<typeof HeldSchema>;

/** The label of the issue and of the pull request holding the work. */
export const heldLabel = (reason: HeldReason): string =>
  reason === 'tests-changed' ? TESTS_CHANGED_LABEL : UNVERIFIED_LABEL;

/** The reason in words: "the work changed the maintainer's tests", "the judge could not verify the work". */
export const heldWords = (reason: HeldReason): string =>
  reason === 'tests-changed' ? "the work changed the maintainer's tests" : 'the judge could not verify the work';

/**
 * The note the issue gets (a GitHub comment, a beads note): what was held, why, where the work is,
 * and what a person does next.
 */
export function heldNote(held: Held, at: { iteration: number; branch?: string }): string {
  const where = at.branch
    ? `the branch \`${at.branch}\` (a draft pull request where agent-loop publishes work)`
    : 'the working tree';
  const label = heldLabel(held.reason);
  return (
    `agent-loop held this issue's work for a person at iteration ${at.iteration}: ${heldWords(held.reason)} (${held.why}). ` +
    `The work is in ${where}; agent-loop neither merges it nor closes this issue. Review it and merge it yourself, ` +
    `or remove the \`${label}\` label (and delete the branch) to have agent-loop work on the issue again.`
  );
}
