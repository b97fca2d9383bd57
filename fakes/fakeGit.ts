/** A git that runs nothing, for the engine where git is not the subject. */
import type { Git } from '../src/git/git.js';

/** The branches of each fake repository, by its top level. */
const repositories = new Map<string, Set<string>>();

/**
 * A git that runs nothing. `hasWork(branch)` says whether the checked-out branch has changes since
 * the base; by default never (a "done" that changed nothing: judged, and already satisfied when
 * nothing broke). Every branch points at one commit, so the lane guard sees nothing move. Only the
 * branches it made exist (the base, and those switched to): a cycle branch found when a cycle opens
 * would be one agent-loop did not leave (issue 42), which this git cannot move aside.
 */
export function fakeGit(topLevel: string, hasWork: (branch: string) => boolean = () => false): Git {
  let current = 'main';
  // One repository per top level: a later run's git on the same directory finds the branches an earlier one left.
  const branches = repositories.get(topLevel) ?? new Set(['main']);
  repositories.set(topLevel, branches);
  return {
    topLevel,
    currentRef: async () => current,
    branchExists: async (branch) => branches.has(branch),
    switchToBranch: async (branch) => {
      branches.add(branch);
      current = branch;
    },
    checkout: async (ref) => {
      current = ref;
    },
    commitAll: async () => hasWork(current),
    merge: async () => undefined,
    deleteBranch: async (branch) => {
      branches.delete(branch);
    },
    hasWorkSince: async () => hasWork(current),
    exclude: async () => undefined,
    fetchBranch: async () => false,
    push: async () => undefined,
    holds: async () => true,
    laneState: async () => ({ head: current, baseTip: '0'.repeat(40) }),
    head: async () => '0'.repeat(40),
    tipOf: async (branch) => (branches.has(branch) ? '0'.repeat(40) : undefined),
    resetHard: async () => undefined,
    changedFiles: async () => [],
    refSecrets: async () => [],
    untracked: async () => [],
    subjectsSince: async () => [],
    putBackStaging: async () => undefined,
  };
}
