/**
 * With --on-success branch, a finished cycle's work (and its issue's close, in a repository's issues
 * file) stays on its branch, agent-loop/<id>, until a person merges it: on the base the issue is
 * still open. Such an issue is not worked again, by this run or a later one (each would run the
 * agent on top of the finished work, run after run), until its branch is merged or deleted. Only a
 * branch that holds the commit agent-loop left it at (`loop.cycleTips`, issue 42) is finished: an agent can
 * create `agent-loop/<next-id>` with a commit named as a finished cycle's, and that issue would
 * otherwise never be worked, its forged branch waiting for a person to merge it as agent-loop's work.
 */
import { cycleBranchName } from '../core/branch.js';
import type { LoopState } from '../core/state.js';
import type { Git } from '../git/git.js';

/** Of `ids`, those whose own branch, at a tip agent-loop recorded, holds a finished cycle's commit that `base` does not: id → branch. */
export async function finishedBranches(
  git: Git,
  base: string,
  ids: readonly string[],
  cycleTips: LoopState['cycleTips'],
): Promise<Map<string, string>> {
  const finished = new Map<string, string>();
  for (const id of ids) {
    const branch = cycleBranchName([id]);
    // The cycle's own commit (src/loop/slice.ts cycleSubject); an escalated cycle's is wip:. A branch
    // git cannot read this way (a name it refuses, a base it does not know) holds nothing finished.
    // At the commit agent-loop left it at, or after it (a person's review commits on top).
    const recorded = cycleTips?.[branch];
    const ours = recorded !== undefined && (await git.holds(branch, recorded).catch(() => false));
    const subjects = ours ? await git.subjectsSince(base, branch).catch(() => [] as string[]) : [];
    if (subjects.some((s) => s.startsWith(`agent-loop: ${id} `))) finished.set(id, branch);
  }
  return finished;
}

/** What is said of an issue skipped for it, once per slice. */
/** The message (src/core/waiting.ts), here too for app/run.ts's --issue check. */
export { finishedBranchMessage } from '../core/waiting.js';
