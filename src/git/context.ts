/** What the parts of an open Git (git.ts's openGit) share: the repository, its runner, the options it was opened with. */
import type { NetworkLimits } from './network.js';
import type { GitRunner } from './runner.js';

/** When what decides what git stages is put back: before a commit (finished work or an escalation's wip:) or at a slice's end. */
export type StagingMoment = 'commit' | 'judge' | 'slice end';

export interface GitOptions {
  /** `Name <email>` of agent-loop's commits (the commit-author option): see gitRunner. */
  author?: string;
  /** Masks secrets in commit and merge messages. */
  redact?: (text: string) => string;
  /** Absolute paths never staged, even when their .git/info/exclude line is gone (the state directory). */
  protect?: readonly string[];
  /** The secrets a line holds: a change that adds one the repository did not hold is never committed. */
  holdsSecret?: (line: string) => string[];
  /**
   * Added to the environment of push, fetch and ls-remote only: the action's credentials
   * (remoteAuth.ts), which no other git call, and no agent, ever holds.
   */
  remoteEnv?: Record<string, string>;
  /** The timeout, retry and clock of push, fetch and ls-remote (src/git/network.ts). Default: DEFAULT_NETWORK_LIMITS. */
  network?: NetworkLimits;
  /**
   * Told what was put back, and when (before a commit, or at a slice's end), because something other
   * than agent-loop changed what git stages (src/git/staging.ts).
   */
  onStagingRestored?: (what: string[], when: StagingMoment) => void;
}

/** One repository, open: what each part of openGit (staging, commits, checkouts, lanes, remotes) works with. */
export interface GitContext {
  readonly topLevel: string;
  readonly env: NodeJS.ProcessEnv;
  readonly options: GitOptions;
  /** git in the top level, with the commit author (gitRunner). */
  readonly runner: GitRunner;
  /** `git <args>`: its output, trimmed; a failure throws GitError. */
  git(...args: string[]): Promise<string>;
  /** `git <args>`: whether it exited 0. */
  tryGit(...args: string[]): Promise<boolean>;
}
