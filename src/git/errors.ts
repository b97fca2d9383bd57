/** What a git operation throws: git's own failure, a merge undone on a conflict, a change holding a secret. */
import { type SecretCommit, describeSecretCommits } from './commitScan.js';
import { mergeConflict, secretInCommits, secretInFiles } from './messages.js';

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    // The last lines, and git's own reason before them when its explanation runs longer (an
    // index.lock's "fatal: Unable to create '…/index.lock': File exists." is followed by five).
    const lines = stderr.trim().split('\n');
    const reason = lines.slice(0, -3).find((line) => /^(fatal|error): /.test(line));
    super(
      `git ${args.join(' ')} failed (exit ${code}): ${[...(reason ? [reason] : []), ...lines.slice(-3)].join(' / ')}`,
    );
    this.name = 'GitError';
  }
}

/** A merge stopped on a conflict and was undone (git merge --abort): `into` is as it was before it. */
export class MergeConflictError extends GitError {
  constructor(
    readonly branch: string,
    readonly into: string,
    readonly conflicted: string[],
  ) {
    super(['merge', branch], 1, mergeConflict(branch, into, conflicted));
    this.name = 'MergeConflictError';
  }
}

/**
 * The agent's change holds a secret: nothing was committed. `commits`: the agent committed it
 * itself, so it is in the branch's history (named, for the person to rewrite), not merged or pushed.
 */
export class SecretInChangeError extends Error {
  constructor(
    readonly files: string[],
    readonly commits: readonly SecretCommit[] = [],
  ) {
    super(commits.length > 0 ? secretInCommits(describeSecretCommits(commits)) : secretInFiles(files));
    this.name = 'SecretInChangeError';
  }
}
