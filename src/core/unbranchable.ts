/**
 * Issue 43: an issue whose id cannot be a branch name is left out of the cycles, said once per
 * slice, instead of stopping the run at git's refusal; the other issues are worked. Pure.
 */
import { printable } from '../util/printable.js';
import { issueRef } from '../report/diagnostic.js';
import { BRANCH_COMPONENT_MAX_BYTES, branchNameProblem, cycleBranchName } from './branch.js';
import { type Effect, type ReadyIssue, log } from './events.js';

/** The ready issues that can have a cycle branch, and those that cannot, not told yet in this slice. */
export function leaveUnbranchable(
  ready: readonly ReadyIssue[],
  told: readonly string[],
): { usable: ReadyIssue[]; newly: Array<{ issue: ReadyIssue; branch: string; why: string }> } {
  const usable: ReadyIssue[] = [];
  const newly: Array<{ issue: ReadyIssue; branch: string; why: string }> = [];
  for (const issue of ready) {
    const branch = cycleBranchName([issue.id]);
    const why = branchNameProblem(branch);
    if (why === undefined) usable.push(issue);
    else if (!told.includes(issue.id)) newly.push({ issue, branch, why });
  }
  return { usable, newly };
}

/** The warning for an issue left out: which, why, and what to do. */
export function unbranchableLog(issue: ReadyIssue, branch: string, why: string): Effect {
  const id = printable(issue.id);
  return log(
    'warn',
    'issue.unbranchable',
    `Skipped ${issueRef(id)}: its id cannot be a git branch name (agent-loop/${printable(branch.slice('agent-loop/'.length))}: ` +
      `${why}), so no cycle can work it. Rename it, in the issue source, to an id git takes in a branch name (letters, digits, ".", "_" and "-"; ` +
      `no "..", no ".lock" at the end, at most ${BRANCH_COMPONENT_MAX_BYTES} bytes), or close it; the other issues are worked.`,
    { issueId: issue.id, why },
  );
}
