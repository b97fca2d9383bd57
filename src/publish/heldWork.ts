/**
 * What the pull request of work held for a person (issue 42) needs beyond any other: the diff of the
 * protected paths it changed, and GitHub's answer for a draft where the repository has none.
 */
import type { CycleWork } from '../loop/publish.js';
import type { notesGit } from '../workflows/tdd/notes.js';
import { HELD_DIFF_CHARS } from './pullRequestBody.js';

/** GitHub's 422 for a draft pull request where the repository's plan has none. */
export const draftsRefused = (error: unknown): boolean =>
  (error as { status?: number }).status === 422 &&
  /draft pull requests are not supported/i.test((error as Error).message ?? '');

/**
 * The diff of the protected paths the held work changed (issue 42), for a person, bounded to
 * HELD_DIFF_CHARS: best effort (a failure shows no diff, the pull request opens anyway). Masked with
 * the body, where it is posted.
 */
export async function heldDiff(
  raw: ReturnType<typeof notesGit>,
  work: CycleWork,
  paths: readonly string[],
): Promise<{ heldDiff?: string; heldDiffCut?: number }> {
  const range = `refs/heads/${work.base}...refs/heads/${work.branch}`;
  const r = await raw
    .run(['--literal-pathspecs', 'diff', '--no-color', '--no-ext-diff', range, '--', ...paths])
    .catch(() => undefined);
  const text = r?.code === 0 ? r.stdout : '';
  if (!text.trim()) return {};
  if (text.length <= HELD_DIFF_CHARS) return { heldDiff: text };
  return { heldDiff: text.slice(0, HELD_DIFF_CHARS), heldDiffCut: text.length - HELD_DIFF_CHARS };
}
