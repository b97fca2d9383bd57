/**
 * The vocabulary between the pure core (slice.ts) and its interpreter (src/loop/slice.ts).
 * Events say what happened; effects say what to do. The interpreter performs each effect through
 * the ports in order; an effect that asks something of the world (`readIssues`, `iterate`, `sleep`,
 * …) is answered by the next event, the others are answered by nothing.
 */
import type { ClaimProgress } from '../issues/claims.js';
import type { HaltDiagnostic } from '../report/diagnostic.js';
import type { AgentResult } from '../agents/types.js';
import type { Verdict } from '../verdict/judge.js';
import type { Evidence } from '../verdict/evidence.js';
import type { Finding } from '../judge/protectedPaths.js';
import type { TreeFindings, TreeJudge } from '../judge/judgeRun.js';
import type { SuiteRun, TestOutcome, TestsSeen } from '../verdict/results.js';
import type { TddNote } from './tddNote.js';
import type { Held } from './held.js';
import type { IssueTargets } from '../verdict/targets.js';
import type { CycleState, HaltReason, LoopState, Notice } from './state.js';
import type { HaltReadEffect, HaltReadEvent } from './haltReadTypes.js';

export type Halt = { reason: HaltReason; message: string; advice?: string };
/** deferred: a listing failed (`issuesUnlisted`), nothing more was done; the next run goes on. */
export type Status = 'continuing' | 'complete' | 'halted' | 'deferred';

/**
 * Why a run was deferred: a listing GitHub did not answer (after the client's own retries), so the
 * run could not tell which issues are workable and started none. Nothing was lost: the next run
 * lists them again.
 */
export interface Deferral {
  /** What failed, e.g. "listing the open pull requests of octo/widgets". */
  what: string;
  /** The HTTP status GitHub answered, null when there was no answer (the network). */
  status: number | null;
  /** What failed in full: the status, GitHub's own message and what to check. */
  message: string;
}

/**
 * What a workflow asks of the issue source when its cycle is done; performed by the interpreter
 * (an outside effect, like the merge and the push). markNoChange: labelled with the evidence where
 * a person decides (GitHub), closed too when `close`; a source that cannot label closes it.
 */
export type IssueAction =
  | { kind: 'close'; id: string; note: string }
  | { kind: 'markNoChange'; id: string; note: string; close: boolean }
  /** --workflow tdd: the item's box ticked in the issue (`- [x] item`), its red/green/refactor cycle done. */
  | { kind: 'tick'; id: string; item: string }
  /** Work held for a person (issue 42): the issue left open, labelled `label`, with `note`. */
  | { kind: 'markHeld'; id: string; note: string; label: string };

/** What one iteration (of any workflow) tells the engine. */
export interface IterationOutcome {
  state: LoopState;
  halt?: Halt;
  /** The cycle cannot go on: escalate it (bounceLoop: because it kept stepping back). */
  escalate?: { reason: string; bounceLoop: boolean };
  /** Rate limited: wait this long before the next agent run. */
  waitMs?: number;
  /** A seed 004 contract violation, for errors.jsonl. */
  violation?: Record<string, unknown>;
  interrupted?: boolean;
  /** The cycle's work is done and verified. */
  cycleDone?: boolean;
  /** ...and needed no change (already satisfied): nothing to merge or publish. */
  noChange?: boolean;
  /**
   * ...and is held for a person (issue 42, src/core/held.ts): published as a draft pull request, or
   * left on its branch; never merged, its issues never closed by the loop.
   */
  held?: Held;
  /**
   * The issues to close or label now, before the cycle is finished; with `cycleDone`, with its work.
   * A `tick` before then is a notice: recorded in the checkpoint, then sent (again by a later run until done).
   */
  issueActions?: IssueAction[];
}

/**
 * The parts of the loop state an iteration (of any workflow) writes: the interpreter hands the core
 * only those that changed (`IteratedOutcome.delta`), and the core folds them in (src/core/fold.ts);
 * every other part (the outbox, the notices, the escalations, the halt, …) is the core's alone.
 */
export const ITERATION_FIELDS = [
  'iteration',
  'failedIterations',
  'successfulIterations',
  'testFailures',
  'testsPassed',
  'issuesClosed',
  'issuesNoChange',
  'issuesHeld',
  'consecutiveEscalations',
  'completedIterations',
  'currentCycle',
  'costUsd',
  'tokens',
  'environmentFailures',
  'tddError',
  'preexistingFailures',
  'lastAgentOutput',
  'history',
  'compactedIterations',
] as const satisfies readonly (keyof LoopState)[];

export type IterationDelta = Partial<Pick<LoopState, (typeof ITERATION_FIELDS)[number]>>;

/** An iteration's outcome as the core is told it: what it changed of the loop state, not a whole new one. */
export type IteratedOutcome = Omit<IterationOutcome, 'state'> & { delta: IterationDelta };

/**
 * What a cycle's baseline came to (src/loop/baseline.ts): its key; the suite's run (none when it
 * could not be had: the work is then judged by the test command's exit code alone) and its digest;
 * how it was had (`seen` earlier in this slice, `kept` in the state directory, `ran` now, or `none`).
 * `ran`: on the cycle's own starting tree (`ownTree`), with the digest of its failing tests.
 */
export interface BaselineDelta {
  key: string;
  source: 'seen' | 'kept' | 'ran' | 'none';
  run?: SuiteRun;
  digest?: string;
  ownTree?: boolean;
  lastFailing?: { key: string; digest: string };
}

/** A cycle's issue as its iteration reads it. */
export interface CycleIssue {
  id: string;
  title: string;
  body: string;
  labels?: readonly string[];
  type?: string;
}

/** A ready issue as the core needs it. */
export interface ReadyIssue {
  id: string;
  title: string;
  labels: readonly string[];
  /**
   * A digest of the issue's title and body as read (src/issues/fingerprint.ts): an escalated issue
   * whose digest differs from the one its escalation recorded was edited since, and is tried again.
   */
  fingerprint?: string;
  /** Another run's live claim on it (issue 14): this run leaves it alone. */
  claimedBy?: { run: string; expires: string; checkpoint?: string };
}

export type PullRequestRecord = LoopState['pullRequests'][number];

/**
 * Why a finished cycle's work could not be landed: `refused` for a reason no retry changes (a
 * permission, a setting, a protection rule; `advice` names the fix), `transient` (a later run tries
 * again), `lost` (its branch is nowhere: the runner that did the work ended before pushing it).
 */
export interface LandingFailure {
  class: 'refused' | 'transient' | 'lost';
  message: string;
  advice?: string;
}

/** Why an issue effect failed: as a landing's failure, or `gone` (the issue was deleted or transferred: it never can succeed). */
export type IssueEffectFailure = LandingFailure | { class: 'gone'; message: string };

/** What became of a notice the interpreter sent (`sendNotice`): done (or dropped for good), or kept for a later run. */
export interface NoticeResult {
  id: string;
  done: boolean;
  error?: string;
}

/** An open pull request of agent-loop's holding an issue's work (src/core/waiting.ts). */
export interface InReview {
  id: string;
  number: number;
  url: string;
}

/** An issue's work finished on its own branch, not merged into the base (src/core/waiting.ts). */
export interface OnBranch {
  id: string;
  branch: string;
}

export type Event =
  /** The slice is open (checkpoint chosen, repository prepared, first checkpoint written). */
  | { type: 'started'; now: number }
  /** Top of the loop: the time, and whether the run was asked to stop. */
  | { type: 'tick'; now: number; aborted: boolean }
  | { type: 'woke'; now: number }
  /** The ready issues, and those whose work already waits (src/core/waiting.ts): the core leaves them. */
  | { type: 'issuesRead'; ready: ReadyIssue[]; inReview?: InReview[]; onBranch?: OnBranch[] }
  /** Listing the issues (or the open pull requests that hold some of them) failed: the slice is deferred. */
  | { type: 'issuesUnlisted'; failed: Deferral }
  /** The issue source's health: a halt when the issues became unreadable during the slice. */
  | { type: 'sourceChecked'; unreadable?: Halt }
  /** The new cycle, its branch checked out (when there is git). */
  | { type: 'cycleOpened'; cycle: CycleState }
  /** The cycle's baseline, found or run (absent when interrupted): the core folds it in and judges it (src/core/baseline.ts). */
  | { type: 'baselineRan'; baseline?: BaselineDelta; interrupted?: boolean }
  /** The finished cycle's work committed on its branch: the commit that holds it (`committed`: a new one). */
  | { type: 'cycleCommitted'; tip?: string; committed: boolean }
  | { type: 'cycleFinished'; published?: PullRequestRecord; failed?: LandingFailure }
  /** A git operation refused: the agent moved the repository, or its change holds a secret. */
  | { type: 'refused'; reason: 'repository_moved' | 'secret_in_change'; message: string }
  /** The notices sent in the last step, performed or not (answered after that step, before its answer). */
  | { type: 'noticesSent'; results: NoticeResult[] }
  /** The commits agent-loop left cycle branches at in the last step (branch → commit), to record (src/core/cycleTips.ts). */
  | { type: 'tipsLeft'; tips: Record<string, string> }
  /**
   * The claim on a cycle's issues (issue 14), taken or renewed: won (`adopted`: the runs whose expired
   * claims it took over), or `lost` to another run's live claim (every claim this run took for the cycle released).
   */
  | { type: 'claimed'; lost?: { id: string; run: string; expires: string }; adopted: string[] }
  /** Anything else threw; `unreadable` when the source's health explains it. */
  | { type: 'crashed'; unreadable?: Halt }
  /*
   * The workflow's iteration (its sub-machine, src/core/iteration.ts), observed. `now` when each ended.
   */
  /** Answers `readCycleIssues`: the cycle's issues as the source holds them (title and body; a missing one as the cycle names it). */
  | { type: 'cycleIssuesRead'; issues: CycleIssue[]; now: number }
  /**
   * Answers `runAgent`: the agent's run (`started`, epoch ms); `moved` when it moved the repository
   * (its work is not judged); `deniedEverything` when it was denied every edit and changed nothing.
   */
  | { type: 'agentRan'; result: AgentResult; started: number; moved?: Halt; deniedEverything: boolean; now: number }
  /** Answers `readClosed`: whether each of the cycle's issues is closed in the source. */
  | { type: 'closedRead'; closed: boolean[]; now: number }
  /** Answers `judge`: whether the cycle changed anything, the suite's verdict against the baseline (run in the judge tree) and the judge's findings. */
  | {
      type: 'judged';
      changed: boolean;
      tests: TestOutcome;
      verdict: Verdict;
      /** Issue 42: the agent's changes to paths the maintainer owns (protect); any makes the work not a pass. */
      findings?: Finding[];
      /** Symlinks of the work that point outside the repository, removed from the judge tree: not a pass either. */
      removedLinks?: string[];
      /** Issue 42: with an accepted verdict, what proves the fix (src/verdict/evidence.ts); `none`: unverified. */
      evidence?: Evidence;
      /** Issue 42: why accepted work is unverified (no evidence, or results not read): held unless --accept-unverified. */
      unverified?: string;
      now: number;
    }
  /** The run was asked to stop while one of the iteration's effects ran. */
  | { type: 'interrupted' }
  /** Answers `readNotes`: the newest valid note on the range (and the invalid ones skipped). */
  | { type: 'notesRead'; newest?: { commit: string; note: TddNote }; invalid: { commit: string; reason: string }[] }
  /** Answers `readHead`. */
  | { type: 'headRead'; head: string }
  /** Answers `readWork`: anything changed since the commit (working tree or commits). */
  | { type: 'workRead'; changed: boolean }
  /** Answers `readChangedFiles`. */
  | { type: 'filesRead'; files: string[] }
  /** Answers `runTests`: the run, what it says by test name (not yet against the baseline), in a judge tree its findings. */
  | ({ type: 'testsRan'; tests: TestOutcome; seen: TestsSeen; now: number } & TreeFindings)
  /** Answers `writeNote`. */
  | { type: 'noteWritten'; now: number }
  /** Answer `readBaseTip` and `readLeftIssues`: what a halt keeps of the world as it is saved (src/core/haltReads.ts). */
  | HaltReadEvent;

export type LogEffect = {
  kind: 'log';
  level: 'info' | 'warn' | 'error';
  event: string;
  message: string;
  data?: Record<string, unknown>;
};

/** A line for the log, as an effect. */
export const log = (
  level: LogEffect['level'],
  event: string,
  message: string,
  data?: Record<string, unknown>,
): LogEffect => ({ kind: 'log', level, event, message, ...(data ? { data } : {}) });

export type Effect =
  | LogEffect
  /** Write the checkpoint (of a halted loop: once the halt's reads are in it, src/core/haltReads.ts). */
  | { kind: 'save'; status: Status; loop: LoopState; errors: string[] }
  /** Read before a halted loop's save: the base branch's tip, the issues as the halt leaves them. */
  | HaltReadEffect
  | { kind: 'appendError'; entry: Record<string, unknown> }
  /** Answered by `tick`. */
  | { kind: 'next' }
  /** Answered by `woke`. */
  | { kind: 'sleep'; ms: number }
  /** Answered by `issuesRead`; `finishedBranches`: look up the issues' finished branches too, but those in `except`. */
  | { kind: 'readIssues'; finishedBranches?: { except: string[] } }
  /** Answered by `sourceChecked`. */
  | { kind: 'checkSource' }
  /** Create (or reuse) the cycle's branch and check it out; answered by `cycleOpened`. */
  | { kind: 'openCycle'; cycle: CycleState }
  /** A resumed cycle: check out its branch (fetched when an earlier slice pushed it). */
  | { kind: 'enterCycleBranch'; branch: string }
  /**
   * A cycle given up before any agent worked on it (its baseline halted): the base branch checked
   * out again, the cycle's branch deleted when it holds nothing of its own.
   */
  | { kind: 'leaveCycle'; branch: string }
  /** Answered by `baselineRan`. */
  | { kind: 'runBaseline' }
  /**
   * A baseline run now that gives a verdict, kept in the state directory (`ownTree`: run on the
   * cycle's own starting tree, its failing tests recorded too, for the next red baseline).
   */
  | { kind: 'keepBaseline'; key: string; run: SuiteRun; ownTree: boolean }
  /** The iteration's start: read the cycle's issues; answered by `cycleIssuesRead`. */
  | { kind: 'readCycleIssues' }
  /**
   * Run the agent once on `prompt` (masked first) for the cycle; answered by `agentRan` (or
   * `interrupted`). `tdd`: the phase and the checklist item's test (a command agent's environment).
   */
  | { kind: 'runAgent'; prompt: string; what: string; tdd?: { phase: 'RED' | 'GREEN' | 'REFACTOR'; test: string } }
  /** The newest note on `range` (the cycle's own commits, --workflow tdd); answered by `notesRead`. */
  | { kind: 'readNotes'; range: string }
  /** Answered by `headRead`. */
  | { kind: 'readHead' }
  /** Answered by `workRead`. */
  | { kind: 'readWork'; since: string }
  /** The files changed since the commit; answered by `filesRead`. */
  | { kind: 'readChangedFiles'; since: string }
  /** The test command, read by test name (in a judge tree when `judge`); answered by `testsRan` (or `interrupted`). */
  | { kind: 'runTests'; judge?: TreeJudge }
  /** Commit everything (an empty commit too). Answered by nothing. */
  | { kind: 'commit'; message: string }
  /** `git reset --hard` to the commit. Answered by nothing. */
  | { kind: 'reset'; to: string }
  /** Put the note on the commit; answered by `noteWritten`. */
  | { kind: 'writeNote'; commit: string; note: TddNote }
  /** Answered by `closedRead`. */
  | { kind: 'readClosed' }
  /**
   * Run the suite and the issues' verify: commands and judge them against the baseline (a rejection
   * confirmed by a second run); answered by `judged` (or `interrupted`).
   */
  | { kind: 'judge'; targets: IssueTargets; baseline?: SuiteRun }
  /** Close or label the issues of a finished cycle in the source. */
  | { kind: 'updateIssues'; actions: IssueAction[] }
  /** Check that nothing moved the repository since the engine last looked. */
  | { kind: 'verifyLane'; what: string }
  /**
   * Commit, then merge, leave or publish the cycle's branch; answered by `cycleFinished`. Recorded in
   * the outbox before; `resumed`: an earlier run's entry, whose branch may have to be fetched first.
   */
  | {
      kind: 'finishCycle';
      cycle: CycleState;
      noChange: boolean;
      resumed?: boolean;
      /** The commit that holds the work (recorded before the push): a fetched branch without it is older work. */
      tip?: string;
      /** Committed by `commitCycle` already in this slice. */
      committed?: boolean;
      /** Issue actions still to perform, before the commit (idempotent). */
      issueActions?: IssueAction[];
      /** Held for a person (issue 42): published as a draft pull request or left on its branch, never merged. */
      held?: Held;
    }
  /**
   * Where work is published: commit the finished cycle's work on its branch before anything leaves
   * the machine, so that its commit is recorded; answered by `cycleCommitted`.
   */
  | { kind: 'commitCycle'; cycle: CycleState; issueActions?: IssueAction[] }
  /** An escalated cycle's work committed as wip: on its branch (pushed where work is published), base checked out. */
  | { kind: 'shelveCycle'; cycle: CycleState; reason: string; halting: boolean }
  /**
   * Perform a notice recorded in the outbox (`loop.notices`, saved before): label and note escalated
   * issues (and commit that on the base branch), or post the halt to Discord. Its result comes back
   * as `noticesSent` once the step's effects are done.
   */
  | { kind: 'sendNotice'; notice: Notice }
  /**
   * Write halt.md and log the halt (its Discord post is a notice). `jobLocal`: a job of run --parallel
   * whose share or issue ran out (JOB_LOCAL_HALTS): the job's end, not the run's halt.
   */
  | { kind: 'recordHalt'; halt: Halt; diagnostic: HaltDiagnostic; jobLocal?: true }
  /** Where work is published: the cycle still in flight at a slice's end pushed as wip:. */
  | { kind: 'keepOpenCycle'; branch: string; message: string }
  /**
   * Claim the issues of a cycle about to run (issue 14): the label and the claim comment, leased
   * until `expires`, race-safe; `resuming`: a cycle this loop had in flight. Answered by `claimed`.
   */
  | { kind: 'claimIssues'; issueIds: string[]; expires: string; resuming: boolean; progress: ClaimProgress }
  /**
   * Move the lease of this run's claim on the cycle's issues on to `expires` before an iteration,
   * and say whether it is still held: answered by `claimed` (`lost`: another run took it over).
   */
  | { kind: 'holdClaim'; issueIds: string[]; expires: string; progress: ClaimProgress }
  /** Move the lease on to `expires` before a wait (unanswered: the renewal after the wait checks it). */
  | { kind: 'renewClaim'; issueIds: string[]; expires: string; progress: ClaimProgress }
  /** The cycle ended (landed, lost): its issues' claims released, telling how it ended (issue 15: `progress`). */
  | { kind: 'releaseClaim'; issueIds: string[]; at: string; progress: ClaimProgress }
  /** The slice is over. */
  | { kind: 'done'; status: Status; interrupted: boolean }
  /** Re-throw the error that crashed the slice. */
  | { kind: 'rethrow' };
