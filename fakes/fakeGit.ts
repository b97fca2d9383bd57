/** A git that runs nothing, for the engine where git is not the subject. */
import type { Git } from '../src/git/git.js';

/**
 * A git that runs nothing. `hasWork(branch)` says whether the checked-out branch has changes since
 * the base; by default never (a "done" that changed nothing: judged, and already satisfied when
 * nothing broke). Every branch points at one commit, so the lane guard sees nothing move.
 */
export function fakeGit(topLevel: string, hasWork: (branch: string) => boolean = () => false): Git {
  let current = 'main';
  return {
    topLevel,
    currentRef: async () => current,
    branchExists: async () => true,
    switchToBranch: async (branch) => {
      current = branch;
    },
    checkout: async (ref) => {
      current = ref;
    },
    commitAll: async () => hasWork(current),
    merge: async () => undefined,
    deleteBranch: async () => undefined,
    hasWorkSince: async () => hasWork(current),
    exclude: async () => undefined,
    fetchBranch: async () => false,
    push: async () => undefined,
    holds: async () => true,
    laneState: async () => ({ head: current, baseTip: '0'.repeat(40) }),
    head: async () => '0'.repeat(40),
    tipOf: async () => '0'.repeat(40),
    resetHard: async () => undefined,
    changedFiles: async () => [],
    untracked: async () => [],
    subjectsSince: async () => [],
    putBackStaging: async () => undefined,
  };
}
