/**
 * The wave machine's vocabulary (src/core/wave.ts): its model, the events that tell it what
 * happened and the effects it asks for, for run --parallel's coordinator and the action's plan and
 * reduce jobs.
 */
import type { HaltReason, LoopState, Wave } from './state.js';
import type { EscalationToLabel } from './waveLabels.js';
import type { WaveCandidate, WavePlan } from './wavePlan.js';
import type { NoWaveStatus, PlanNote, Planning } from './wavePlanNotes.js';
import type { LandingPartial, LandingReduction } from './waveOutbox.js';
import type { PartialState, WaveReduction, WaveRow } from './waveReduce.js';

export interface WaveMachineSettings {
  /** Jobs at once (--parallel). */
  parallel: number;
  maxIterations: number;
  maxCostUsd?: number;
  maxConsecutiveEscalations: number;
  /** The loop's checkpoint: its own claims are its to take on again. */
  checkpointId: string;
  /** --issue: only these are worked. */
  issues?: readonly string[];
  /** The base branch the jobs are cut from and landed on. */
  base: string;
}

/** How one job ended, as the machine reads it. */
export interface JobEnded {
  /** Its final state; none when it saved none (it could not start, or was killed first). */
  loop?: LoopState;
  exitCode: number | null;
  /** The end of its stderr (why it could not start). */
  stderrTail: string;
}

/** What was kept of a job that halted the run, before its worktree went. */
export interface KeptJob {
  /** The job's halt.md, when it wrote one. */
  diagnostic?: string;
  /** What was kept, in a sentence. */
  note: string;
}

export interface RunHalt {
  reason: HaltReason;
  message: string;
  /** The job whose own halt it is. */
  issueId?: string;
  /** Its own advice (what to fix), when it has one. */
  advice?: string;
}

/** How the run ends. */
export type WaveEnd =
  | { kind: 'aborted' }
  | { kind: 'complete' }
  /** No job could start (an option the job refuses, the agent not on PATH): the first one's stderr. */
  | { kind: 'cannot'; stderr: string }
  | {
      kind: 'halted';
      halt: RunHalt;
      /** The job whose own halt is the run's: its state and what was kept of it. */
      haltedJob?: { loop?: LoopState; kept?: KeptJob };
      /** What was kept of the wave's halted jobs, in sentences for the halt message. */
      keptNotes?: string[];
      /** What to do, for the diagnostic only (the base branch moved: in the coordinator's own words). */
      advice?: string;
    };
export type WaveHalted = Extract<WaveEnd, { kind: 'halted' }>;

/** The wave in flight, as far as it has gone. */
export interface Flight {
  wave: Wave;
  ends: JobEnded[];
  /** The base branch's tip as the jobs started: only the coordinator's own merges may move it. */
  baseTip: string;
  requeued: LoopState['requeued'];
  reduction?: WaveReduction;
}

export interface WaveModel {
  settings: WaveMachineSettings;
  /** The loop as it stands. */
  loop: LoopState;
  /** The iteration this run started at: an issue escalated since is left alone, labelled or not. */
  sliceStart: number;
  flight?: Flight;
  /** The escalations being labelled: an earlier run's (owed), or the wave's. */
  labelling?: { escalations: EscalationToLabel[]; owed: boolean };
  /** How the run ends, once decided, while the wave's worktrees are cleared. */
  end?: WaveEnd;
  /** The action's reduce job: the wave its matrix jobs reported, summed into the loop. */
  reducing?: Reducing;
  /** The action's plan job: one wave planned, claimed and handed on (src/core/wavePlanJob.ts). */
  planning?: Planning;
}

/** A wave as the action's plan job hands it to its matrix jobs and reduce (src/action/waveHandoff.ts). */
export type HandedWave = Wave & {
  /** A halt the plan found before any job, for the reduce to record. */
  halt?: { reason: HaltReason; message: string };
  /** The loop's unlanded work the wave's landing job took. */
  landing?: string[];
};

/** The reduce job's wave summed into the loop: what its outputs and summary report. */
export interface Reducing {
  /** The loop as restored, before the wave. */
  main: LoopState;
  reduction: WaveReduction;
  /** The landing job's outcome, when the wave had one. */
  landing?: LandingReduction;
  /** The run's halt as the reduction says it, less which job it was. */
  runHalt?: Omit<RunHalt, 'issueId'>;
}

export type WaveEvent =
  | { type: 'started' }
  /** The posts a killed run left, sent: the loop without them (`sent` says whether any was). */
  | { type: 'postsSent'; loop: LoopState; sent: boolean }
  /** Whether the run was told to stop. */
  | { type: 'signalRead'; aborted: boolean }
  /** The ready issues; for the plan job, `unlisted` when they could not be listed (`ready` is then unknown). */
  | { type: 'readyRead'; ready: WaveCandidate[]; now: string; unlisted?: { message: string; what: string } }
  /** The plan job's claims of a round: those won, and those another run took meanwhile. */
  | { type: 'claimed'; won: string[]; lost: string[] }
  | { type: 'claimsReleased' }
  | { type: 'waveRecorded' }
  | { type: 'jobsEnded'; ends: JobEnded[]; baseTip: string; aborted: boolean }
  | {
      type: 'landed';
      partials: PartialState[];
      requeued: LoopState['requeued'];
      /** The base branch moved behind the coordinator: nothing more was merged. */
      moved?: { reason: HaltReason; message: string; was: string };
    }
  /** The escalations labelled, but for those in `failed` (issue id, why). */
  | { type: 'labelled'; failed: [string, string][]; at: string }
  /** The wave's worktrees gone; what was kept of its halted jobs, in the wave's order. */
  | { type: 'waveCleared'; kept: [string, KeptJob][] }
  | { type: 'haltRecorded'; loop: LoopState; diagnostic: string }
  /** The action's reduce job starts here: what each matrix job left (and the landing job), gathered. */
  | { type: 'jobsReported'; wave: HandedWave; partials: PartialState[]; landing?: LandingPartial; now: string };

export type EndStatus = 'continuing' | 'complete' | 'halted';

export type WaveEffect =
  | { kind: 'sendLeftPosts'; loop: LoopState }
  | { kind: 'save'; status: EndStatus; loop: LoopState }
  | { kind: 'log'; level: 'info' | 'warn'; event: string; message: string; data?: Record<string, unknown> }
  | { kind: 'readSignal' }
  | { kind: 'readReady' }
  /** The wave in the checkpoint before any job starts: a crash from here on resumes each job. */
  | { kind: 'recordWave'; loop: LoopState; wave: Wave }
  | { kind: 'runJobs'; wave: Wave; resuming: boolean }
  | { kind: 'landJobs'; wave: Wave; ends: JobEnded[]; baseTip: string; waveNumber: number }
  | { kind: 'labelEscalations'; escalations: EscalationToLabel[] }
  /** The wave's worktrees, branches and scratch removed; the jobs in `keep` (they halted the run) kept first. */
  | { kind: 'clearWave'; wave: Wave; keep: { issueId: string; reason: HaltReason }[]; baseTip: string }
  | { kind: 'recordHalt'; loop: LoopState; end: WaveHalted }
  /** The action's jobs have ended: the unfinished issues released for the next wave, the landed bundles dropped. */
  | { kind: 'handOver'; loop: LoopState; rows: WaveRow[] }
  | {
      kind: 'finish';
      status: EndStatus;
      loop: LoopState;
      errors: string[];
      diagnostic: string | null;
      /** The action's reduce: the wave as reduced, for its outputs and summary. */
      reduced?: Reducing;
    }
  | { kind: 'cannotStart'; stderr: string }
  /** The plan job's: a note to say; claims on issues (`held`: those this plan holds, let go on a failure); claims let go. */
  | { kind: 'note'; note: PlanNote }
  | { kind: 'claimJobs'; issueIds: string[]; held: string[]; since: string }
  | { kind: 'releaseClaims'; issueIds: string[] }
  /** The plan job's end: the wave handed on as its outputs, or no wave. */
  | {
      kind: 'handWave';
      startedAt: string;
      jobs: WavePlan['jobs'];
      landing?: string[];
      deferred: WavePlan['deferred'];
      owed: readonly string[];
    }
  | {
      kind: 'noWave';
      status: NoWaveStatus;
      why: string;
      haltReason?: HaltReason;
      /** A halt found now, handed to the reduce as a wave with no job (its message is `why`). */
      handOn?: true;
    };

export type Stepped = { model: WaveModel; effects: WaveEffect[] };
