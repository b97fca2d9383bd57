/**
 * How a finished cycle's work lands, decided once per slice from --on-success and what the
 * publisher can do (src/loop/landing.ts performs it). Pure.
 *
 * - `pushToBase`: onto the base branch on the remote (on-success merge where work is published and
 *   the publisher can push to the base: beads issues in the action), then fast-forwarded locally;
 * - `pullRequest`: its branch pushed and a pull request opened (or updated);
 * - `merge`: merged into the local base branch;
 * - `branch`: left on its branch.
 */
export type LandingMode = 'pushToBase' | 'pullRequest' | 'merge' | 'branch';

export function landingMode(
  onSuccess: 'merge' | 'branch' | 'pull-request',
  publisher: { pushesToBase: boolean } | undefined,
): LandingMode {
  if (onSuccess === 'merge') return publisher?.pushesToBase ? 'pushToBase' : 'merge';
  return leavesBranch(onSuccess, publisher !== undefined) ? 'branch' : 'pullRequest';
}

/**
 * How a finished cycle's work lands, held or not (issue 42): work held for a person is never merged
 * nor pushed onto the base, whatever --on-success says: a draft pull request where a publisher opens
 * pull requests, else left on its branch. Other work lands by `mode`. Pure.
 */
export function landingFor(mode: LandingMode, held: boolean, publishes: boolean): LandingMode | 'draftPullRequest' {
  if (!held) return mode;
  return publishes ? 'draftPullRequest' : 'branch';
}

/**
 * Whether a finished cycle is left on its branch (`landingMode`'s 'branch'): --on-success branch, or a
 * pull request with nothing to publish it. Known before the publisher is built, so the run's idle
 * check asks it too. Pure.
 */
export function leavesBranch(onSuccess: 'merge' | 'branch' | 'pull-request', publishes: boolean): boolean {
  return onSuccess === 'branch' || (onSuccess === 'pull-request' && !publishes);
}

/**
 * Whether a finished cycle's issues are closed by the merge of its pull request rather than by the
 * cycle itself: pull requests, unless the issues live in the repository (beads issues where work is
 * published: closed on the branch, so the merge carries the close). Pure.
 */
export function closedByPullRequest(settings: {
  onSuccess: 'merge' | 'branch' | 'pull-request';
  closeOnBranch?: boolean;
}): boolean {
  return settings.onSuccess === 'pull-request' && !settings.closeOnBranch;
}
