/**
 * What the safety checks say to the person running agent-loop, one entry per message, each naming
 * what is wrong, to what, and the command that fixes it. Pure text: the checks decide, this words.
 */
/** A git operation a person left in progress (a merge, a rebase…). */
export type GitOperation = 'merge' | 'rebase' | 'cherry-pick' | 'revert' | 'bisect';

import { printable } from '../util/printable.js';

const AGAIN = 'then run again.';

/** The user's ways out of a git operation left in progress. */
export const FINISH_OPERATION: Record<GitOperation, string> = {
  merge: 'finish it (git commit) or abandon it (git merge --abort)',
  rebase: 'finish it (git rebase --continue) or abandon it (git rebase --abort)',
  'cherry-pick': 'finish it (git cherry-pick --continue) or abandon it (git cherry-pick --abort)',
  revert: 'finish it (git revert --continue) or abandon it (git revert --abort)',
  bisect: 'end it (git bisect reset)',
};

export const SAFETY_MESSAGES = {
  gitMissing: (dotGit: string, error: string) =>
    `git: this directory is inside a git repository (${dotGit}) but git cannot be run (${error}). ` +
    'Without git the loop would work without branches and could commit its own state; ' +
    `install git or put it on PATH, ${AGAIN}`,
  indexLock: (lock: string) =>
    `git: ${lock} exists: another git process is running in this repository, or one was killed and left its lock. ` +
    `If no git process is running, remove it (rm '${lock}') and run again.`,
  refLocks: (locks: ReadonlyArray<{ path: string; since: string }>, total: number) =>
    `git: ${total === 1 ? 'a ref lock exists' : `${total} ref locks exist`}: ` +
    locks.map((l) => `${printable(l.path)} (since ${l.since})`).join(', ') +
    (total > locks.length ? ` and ${total - locks.length} more` : '') +
    '. A git process is updating those refs, or one was killed and left its locks; while they exist git refuses ' +
    'to move a branch or HEAD, so the run would fail at its first commit or checkout. ' +
    `If no git process is running in this repository, remove ${total === 1 ? 'it' : 'them'} ` +
    `(rm ${locks.map((l) => `'${printable(l.path)}'`).join(' ')}${total > locks.length ? ' …' : ''}) and run again.`,
  noCommits: (topLevel: string | undefined) =>
    `git: the repository at ${topLevel} has no commits yet, so there is no base branch for the cycles to branch ` +
    `from and merge into. Make the first commit (git add -A && git commit -m "Initial commit"), ${AGAIN}`,
  operation: (operation: GitOperation, topLevel: string | undefined) =>
    `git: a ${operation} is in progress in ${topLevel}. The loop would commit into it; ${FINISH_OPERATION[operation]}, ${AGAIN}`,
  detached: (at: string) =>
    `git: HEAD is detached at ${at}: finished work would be merged into commits no branch holds, and lost. ` +
    'Check out the branch the work should land on (git switch main, or git switch -c <new-branch> to keep this commit), ' +
    AGAIN,
  dirty: (topLevel: string | undefined, shown: string) =>
    `git: the working tree of ${topLevel} has uncommitted changes or untracked files: ${shown}. ` +
    "The agent's commits would take them along; commit them, stash them (git stash --include-untracked) " +
    `or ignore them (.gitignore), ${AGAIN}`,
  adopted: (branch: string, shown: string) =>
    `The checkout is on ${branch}, the cycle branch of an earlier run (one that stopped before the cycle's commit), ` +
    `with uncommitted changes: ${shown}. They are taken as that cycle's work in flight and will be committed with it; ` +
    'a file of yours among them would go along (next time, move it away before running again).',
  locked: (file: string, holder: string, seeProgress: string) =>
    `another run holds the lock ${file}: ${holder}. One run at a time works a repository and a state directory; ` +
    `wait for it to finish (${seeProgress}). If you are sure that process is gone, remove ${file} and run again.`,
  endedLeftover: (role: 'agent' | 'tests', pid: number, members: number, startedAt: string) =>
    `Ended the ${role === 'agent' ? "agent's" : "test command's"} process group ${pid} ` +
    `(${members} process${members === 1 ? '' : 'es'} still running), left behind by a run that was killed (started ${startedAt}).`,
  legacyStateDirKept: (legacy: string, dir: string) =>
    `An old state directory ${legacy} is still in the working tree; agent-loop now keeps its state in ${dir} ` +
    `and ignores the old one. Delete it once you no longer need it (rm -r '${legacy}').`,
  legacyStateDirMoved: (legacy: string, dir: string) =>
    `Moved the state directory ${legacy} (checkpoints, logs) to ${dir}, outside the working tree, ` +
    'where no commit can take it and no branch switch can touch it. This happens once.',
};
