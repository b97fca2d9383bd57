/**
 * How the red/green/refactor workflow names a phase's commit (issue 40). The test list's item says
 * what the test checks, so it names the commit as it is (`test: adds two numbers`). An issue without
 * a checklist is one test described by the issue's title, and a title may describe what is wrong
 * ("pluralize('box') returns 'boxs'"): the commit quotes it as the issue's title, with the issue's id,
 * instead of stating it as what the code now does. GREEN's commit is a `fix:` for a bug (a `bug`
 * label, beads' issue_type bug, GitHub's issue type Bug), else a `feat:`. Pure.
 */
import type { Issue } from '../../issues/types.js';

export interface CommitNaming {
  /** What the phase's commits name after their type: the test list's item, or the issue's title quoted. */
  subject: string;
  /** GREEN's commit type. */
  change: 'feat' | 'fix';
}

/** Labels that mark a bug: bug, type: bug, type/bug, kind/bug (any case). */
const BUG_LABEL = /^(?:(?:type|kind)\s*[:/]\s*)?bug$/i;

export function isBug(issue: Pick<Issue, 'labels' | 'type'>): boolean {
  return issue.type?.trim().toLowerCase() === 'bug' || issue.labels.some((label) => BUG_LABEL.test(label.trim()));
}

export function commitNaming(issue: Pick<Issue, 'id' | 'title' | 'labels' | 'type'>, test: string): CommitNaming {
  const title = issue.title.trim();
  return {
    subject: title !== '' && test.trim() === title ? `${issue.id} "${title}"` : test,
    change: isBug(issue) ? 'fix' : 'feat',
  };
}
