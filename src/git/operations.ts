/** The git operations the loop needs, behind one interface (git.ts's openGit builds it). */
export interface Git {
  readonly topLevel: string;
  /** The commit-author given (`Name <email>`), for the other git runners of the same repository (notes, bundles). */
  readonly author?: string;
  /** The checked-out branch, or the commit when HEAD is detached. */
  currentRef(): Promise<string>;
  branchExists(branch: string): Promise<boolean>;
  /** Creates `branch` from `from` (or checks it out when it exists) and switches to it. */
  switchToBranch(branch: string, from: string): Promise<void>;
  /**
   * Checks `ref` out. `discard: true` first throws away changes to tracked files (each file that
   * differs from HEAD put back from it): only for changes the engine knows are not the user's (what a
   * test run wrote).
   */
  checkout(ref: string, options?: { discard?: boolean }): Promise<void>;
  /**
   * Stages everything and commits; false when there was nothing to commit (unless allowEmpty).
   * `scanCommitsSince` (the base branch, where the commit is a cycle's work that will be merged or
   * pushed): the commits HEAD holds that it does not (the agent's own) are scanned for secrets
   * first, and a hit commits nothing (SecretInChangeError), even when nothing is staged.
   */
  commitAll(message: string, options?: { allowEmpty?: boolean; scanCommitsSince?: string }): Promise<boolean>;
  /** The commit HEAD points at. */
  head(): Promise<string>;
  /** The commit a local branch points at; undefined when there is no such branch. */
  tipOf(branch: string): Promise<string | undefined>;
  /** Whether the local `branch` holds `commit` (false when either is unknown here). */
  holds(branch: string, commit: string): Promise<boolean>;
  /**
   * tipOf, from the branch's loose ref when it has one (no process: the lane guard asks after every
   * agent run whether the agent rewound the branch). Optional: without it the guard does not ask.
   */
  quickTipOf?(branch: string): Promise<string | undefined>;
  /**
   * `currentRef()` and `tipOf(baseBranch)` read together, in one git process where it can (the lane
   * guard asks twice per iteration).
   */
  laneState(baseBranch: string): Promise<{ head: string; baseTip: string | undefined }>;
  /** `git reset --hard ref`, then removes untracked files (ignored and excluded ones stay: the state directory). */
  resetHard(ref: string): Promise<void>;
  /** Files changed between `base` and the working tree (committed or not, new files included). */
  changedFiles(base: string): Promise<string[]>;
  /** Merges `branch` into the checked-out branch with a merge commit; `fastForwardOnly`: moves it forward to `branch`, or fails. */
  merge(branch: string, message: string, options?: { fastForwardOnly?: boolean }): Promise<void>;
  deleteBranch(branch: string): Promise<void>;
  /** Renames the local branch `from` to `to` (`git branch -m`; refused when `to` exists). Optional: fakes have none. */
  renameBranch?(from: string, to: string): Promise<void>;
  /** Whether anything changed since `base`: commits on HEAD not in base, or changes in the working tree. */
  hasWorkSince(base: string): Promise<boolean>;
  /** The subjects of the commits on the local `branch` that `base` does not hold, newest first. */
  subjectsSince(base: string, branch: string): Promise<string[]>;
  /** Adds a directory (relative to the top level), a file (`{ file: true }`) or a file pattern to .git/info/exclude once. */
  exclude(relativePathOrPattern: string, options?: { file?: boolean }): Promise<void>;
  /**
   * The files (paths in the ref's tree) of every blob reachable from `ref` that holds a secret, read as
   * bytes (blobScan.ts): what pushing `ref` would publish (the git notes). Throws when they cannot be
   * read whole: never taken as clean.
   */
  refSecrets(ref: string): Promise<string[]>;
  /** Untracked, not ignored paths (a wholly untracked directory as one `dir/` entry), relative to the top level. */
  untracked(): Promise<string[]>;
  /**
   * Fetches `branch` from `remote` into the local branch of the same name (fast-forward only);
   * false when the remote has no such branch.
   */
  fetchBranch(remote: string, branch: string): Promise<boolean>;
  /** Pushes the local `branch` to `remote` under the same name (no force). */
  push(remote: string, branch: string): Promise<void>;
  /**
   * Puts back what decides what a commit stages as it was when this git opened, before any agent ran
   * (src/git/staging.ts), saying what through `onStagingRestored`. Every commit does it first; a
   * slice does it at its end too, so nothing an agent changed there stays in the person's repository
   * (a remote pointed elsewhere, a filter) or is taken as theirs by the next run's snapshot; and the
   * judge before it reads the work (`judge`: the tree judged is the tree a commit would take, and no
   * filter command of the agent's runs).
   */
  putBackStaging(when?: 'judge' | 'slice end'): Promise<void>;
}
