/**
 * Where a finished cycle goes when it cannot simply be merged on this machine: the action works on
 * a runner that is thrown away after the job, so a cycle's branch is pushed and reviewed as a pull
 * request (`onSuccess: 'pull-request'`), or its work pushed to the base branch on the remote
 * (`onSuccess: 'merge'`, beads issues). The loop only sees this interface; src/publish has the
 * GitHub implementation.
 */
import type { LandingFailure } from '../core/events.js';
import type { Held } from '../core/held.js';

/** What a publisher throws when a step of landing the work failed, with what that means (classified by the adapter). */
export class LandingError extends Error {
  constructor(readonly failure: LandingFailure) {
    super(failure.message);
    this.name = 'LandingError';
  }
}

export interface CycleWork {
  issueIds: string[];
  titles: string[];
  branch: string;
  base: string;
  /** The iteration whose tests passed. */
  iteration: number;
  /** The verdict that accepted the work, in one line. */
  verdict?: string;
  /** Tests failing before the cycle and still failing, not this work's (reported in the body). */
  preexisting?: string[];
  /** The targets the accepting verdict judged (the issue's named tests, else the failures it fixed). */
  targets?: string[];
  /** The agent's own summary of its last iteration (its report's `summary`). */
  summary?: string;
  /** The cycle's agent iterations, and what the agent reported spending on them. */
  iterations?: number;
  costUsd?: number;
  /**
   * Held for a person (issue 42): the pull request is a draft, labelled with the reason, its body
   * saying why (and the diff of the protected paths the work changed); the issues are labelled so
   * (not PR_OPEN_LABEL) by the cycle's issue actions.
   */
  held?: Held;
}

export interface PublishedPullRequest {
  number: number;
  url: string;
  /** An open pull request of an earlier run for the same branch was found and reused. */
  reused: boolean;
  /** Opened as a draft (false: asked for a draft, the repository does not have them: a regular one). */
  draft?: boolean;
}

export interface CyclePublisher {
  /** Describes where the work goes, for the log ("pull requests to octo/widgets"). */
  readonly description: string;
  /** Brings a branch an earlier run pushed into the local repository; false when there is none. */
  fetchBranch(branch: string): Promise<boolean>;
  /**
   * Pushes the cycle's branch, opens its pull request (or reuses the open one), marks the issues;
   * each step idempotent (a later run may do them again). A failed step throws LandingError.
   */
  publish(work: CycleWork): Promise<PublishedPullRequest>;
  /** Pushes an escalated cycle's branch (its work committed as wip:) so a later attempt continues from it. */
  keep(branch: string): Promise<void>;
  /**
   * onSuccess merge: pushes the work of the checked-out cycle branch to the base branch on the remote
   * (a fast-forward; a base that moved there meanwhile is fetched and merged into the cycle branch
   * first). A failed step throws LandingError. Absent: the publisher only opens pull requests.
   */
  pushToBase?(work: CycleWork): Promise<void>;
  /**
   * Of `ids`, the issues whose work waits in an open pull request of agent-loop's (closed on its
   * branch, still open on the base): not to be worked again. Absent where the source says so itself
   * (GitHub issues carry PR_OPEN_LABEL).
   */
  inReview?(ids: readonly string[]): Promise<Map<string, Omit<PublishedPullRequest, 'reused'>>>;
  /**
   * Keeps a finished cycle's committed work (the branch's commits beyond `base`) in the state
   * directory before it is pushed, so a runner killed during the push leaves it to the next one
   * (fetchBranch finds it); best effort, removed once landed.
   */
  stash?(branch: string, base: string): Promise<void>;
}
