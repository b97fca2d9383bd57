/**
 * The core's model and configuration (src/core/slice.ts steps them): what a slice is given, and
 * what it keeps between events.
 */
import { type Terms } from '../config/surface.js';
import { type IterationInFlight, type IterationMachine } from './iteration.js';
import { type Effect, type IteratedOutcome, type ReadyIssue, type Status } from './events.js';
import type { CarriedCounts, CycleState, LoopState, OutboxEntry } from './state.js';
import type { LandingMode } from './landing.js';

export interface CoreSettings {
  /** Whose words the run's messages use: the CLI's flags (default) or the action's inputs. */
  terms?: Terms;
  maxIterations: number;
  sliceIterations?: number;
  sliceMinutes?: number;
  maxCostUsd?: number;
  /** Several ready issues in one cycle (--batch), when the workflow allows it. */
  batch: boolean;
  maxConsecutiveEscalations: number;
  onlyIssues?: readonly string[];
  /**
   * The issues live in the repository (beads) while the work is published from a runner that is
   * thrown away: the escalated label written into the issue file never reaches GitHub, so the
   * checkpoint's escalations decide instead of the label (an issue is tried again once edited).
   */
  closeOnBranch?: boolean;
  /** A fan-out job's: what its issue's earlier jobs counted (LoopState.issueCounts), for a cycle of that issue. */
  carried?: CarriedCounts;
  /**
   * A landing GitHub will refuse, seen before any agent ran (the action's preflight,
   * src/publish/preflight.ts): the slice halts publish_refused as it starts, after an earlier run's
   * notices and before anything else (a landing an earlier run left, an agent run).
   */
  refusedBeforehand?: { message: string; advice: string };
  /**
   * A person resumed this run's halted checkpoint by hand (--resume-halted, resume: true): a halt it
   * reaches before any agent ran is theirs to read in its output, not posted to Discord again
   * (haltPosted).
   */
  resumedByHand?: boolean;
  /** Halts are posted to Discord (a webhook is set): a halt that is not says why. */
  posts?: boolean;
  /** The test command (its baseline's halt names it). */
  testCommand?: string;
}

/**
 * Whether a halt is posted to Discord (issue 40). Not when the run was resumed by hand and halts
 * before any agent ran in it (only escalated issues left, GitHub still refusing, a limit still
 * reached): the person who resumed it is reading its output, and Discord was told of the halt they
 * resumed. Said in the run's log instead, when a webhook is set. Pure.
 */
export function haltPosted(model: Pick<SliceModel, 'loop' | 'sliceStartIteration'>, settings: CoreSettings): boolean {
  return !(settings.resumedByHand && model.loop.iteration === model.sliceStartIteration);
}

export interface CoreConfig {
  settings: CoreSettings;
  checkpointId: string;
  /** The slice's time bound (epoch ms). */
  deadline?: number;
  /** Work is published (pushed, pull requests): the runner is thrown away after the slice. */
  publishes: boolean;
  /** Cycles get a branch (there is a git repository). */
  branches: boolean;
  /**
   * Claims and leases (issue 14): set when the source claims issues (GitHub), the lease's length.
   * A cycle's issues are claimed before it opens (or resumes in a slice), renewed each iteration,
   * released when it lands or is escalated.
   */
  leaseMs?: number;
  /** How a finished cycle's work lands (landingMode), decided once per slice. */
  landing?: LandingMode;
  /** The slice is a job of run --parallel (its coordinator reduces the wave): some halts are the job's own end. */
  waveJob?: boolean;
  /** The workflow's iteration as a sub-machine of the core (src/core/iteration.ts). */
  machine: IterationMachine;
}

export interface SliceModel {
  loop: LoopState;
  /** The iteration the slice started at. */
  sliceStartIteration: number;
  /** Messages for the checkpoint's `errors`. */
  errors: string[];
  /** The time of the last event that carried one (epoch ms). */
  now: number;
  /** The resumed cycle's branch was checked out in this slice. */
  onCycleBranch: boolean;
  /** The issues chosen for the next cycle. */
  next?: ReadyIssue[];
  /** The cycle as the last iteration started on it. */
  cycle?: CycleState;
  /** The workflow's iteration in progress (its sub-machine's model), from the baseline to its outcome. */
  iteration?: IterationInFlight;
  /** The outcome still being acted on while its cycle is finished. */
  outcome?: IteratedOutcome;
  /** What the pending `checkSource` is for. */
  checking?: 'end' | 'finishCycle';
  /** What the pending `sleep` is for: the window carried over from the last slice, or a retry. */
  waking?: 'carried' | 'retry';
  /** The outbox entry the pending `finishCycle` lands; `resumed`: recorded by an earlier run. */
  landing?: { entry: OutboxEntry; resumed: boolean };
  /** The notices an earlier run left were sent at this slice's start. */
  noticesResent?: boolean;
  /** The status the slice ended with (finish): the save after its last notices keeps it. */
  ended?: Status;
  /** This slice holds the claim on the current (or next) cycle's issues (issue 14). */
  claimHeld?: boolean;
  /** The iteration count when the claim was last taken or renewed (one renewal per iteration). */
  claimRenewedAt?: number;
  /** What the pending `claimIssues` or `holdClaim` is for: a new cycle, the cycle this loop had in flight, its renewal. */
  claiming?: 'new' | 'resumed' | 'renewing';
  /** Issues whose work waits in a pull request or on a finished branch, told once each in this slice (waiting.ts). */
  toldWaiting?: string[];
  /** Issues left alone in this slice because another run's live claim holds them, logged once each. */
  claimedElsewhere?: string[];
  /** Issues left out in this slice because their id cannot be a branch name (unbranchable.ts), told once each. */
  toldUnbranchable?: string[];
  /** A halted loop's save, held while the halt's reads are asked (src/core/haltReads.ts), and what follows it. */
  pendingSave?: PendingSave;
}

export type Step = { model: SliceModel; effects: Effect[] };

/** A halted loop's save held until the halt's reads are answered (src/core/haltReads.ts), with the effects after it in its step. */
export interface PendingSave {
  save: Extract<Effect, { kind: 'save' }>;
  rest: Effect[];
}

export function initialModel(loop: LoopState, now: number): SliceModel {
  return { loop, sliceStartIteration: loop.iteration, errors: [], now, onCycleBranch: false };
}
