/**
 * What the engine is given (its ports) and how it is configured: the slice, the iteration
 * functions of every workflow and the baseline take these, and import nothing from one another's
 * modules to get them.
 */
import type { IssueEffectFailure } from '../core/events.js';
import type { Agent } from '../agents/types.js';
import type { CheckpointStore, TddStage } from '../checkpoint/types.js';
import type { Git } from '../git/git.js';
import type { TestPlace } from '../judge/judgeRun.js';
import type { JudgeTrees } from '../judge/judgeTree.js';
import type { IssueSource } from '../issues/types.js';
import type { HaltDiagnostic } from '../report/diagnostic.js';
import type { Logger } from '../report/logger.js';
import type { Redactor } from '../secrets/redact.js';
import { type StateFiles, stateFiles } from '../persist/stateFiles.js';
import type { Clock } from '../util/clock.js';
import type { TestOutcome } from '../verdict/results.js';
import type { CyclePublisher } from './publish.js';
import type { IterationMachine } from '../core/iteration.js';
import type { CarriedCounts, LoopState } from '../core/state.js';
import type { Terms } from '../config/surface.js';

/**
 * A workflow, plugged into the engine: what one iteration of it does (its steps, prompts and step
 * decisions). The engine names none: the application picks one from src/workflows/.
 */
export interface Workflow {
  readonly name: string;
  /** Several ready issues may share one cycle (--batch). */
  readonly batches: boolean;
  /** Its iteration, a sub-machine of the core (src/core/iteration.ts), its effects performed by the interpreter. */
  machine(deps: SliceDeps): IterationMachine;
  /** The run's stage (the checkpoint's `state.stage`) while work remains, when the workflow names one (tdd: red, green, refactor); else `working`. */
  stage?(state: LoopState): TddStage | undefined;
}

export interface SliceSettings {
  /** Whose words the run's messages use: the CLI's flags (default) or the action's inputs (src/config/surface.ts). */
  terms?: Terms;
  maxIterations: number;
  sliceIterations?: number;
  sliceMinutes?: number;
  iterationDelaySeconds: number;
  agentTimeoutMinutes: number;
  batch: boolean;
  /** merge: into the base branch; branch: leave it; pull-request: push it and open a pull request (needs `publisher`). */
  onSuccess: 'merge' | 'branch' | 'pull-request';
  /**
   * The issues live in the repository (beads) while work is published: a finished cycle closes them
   * in its own commit, which lands with it (a pull request's merge closes only GitHub issues).
   */
  closeOnBranch?: boolean;
  strict: boolean;
  resume?: string;
  fresh: boolean;
  /** Retries of a failing step, and step-back transitions allowed in one cycle. */
  maxRetriesPerStep: number;
  /**
   * Agent runs of one cycle, per issue in it, that may end with its work still remaining; at that
   * many it is escalated as stuck (0: no limit).
   */
  maxIterationsPerIssue: number;
  /** Escalated cycles in a row, with no success between them, before the run halts. */
  maxConsecutiveEscalations: number;
  /** Halt before an iteration would start with the run's spend at or over this. */
  maxCostUsd?: number;
  /** continue: resume the cycle's previous agent session on its next iteration. */
  agentSession?: 'fresh' | 'continue';
  testCommand: string;
  /**
   * agent-loop's configuration file the run was started with (`.agent-loop.yml`, or --config),
   * relative to the repository's top level with `/`: a change of the agent's to it is a finding (issue 42).
   */
  configFile?: string;
  /** The JUnit XML report the test command writes (--junit-file), relative to the repository. */
  junitFile?: string;
  /** Issue 42: accepted work without evidence lands as evidenced work does (--accept-unverified), instead of being held for a person. */
  acceptUnverified?: boolean;
  /** Issue 42: globs the maintainer protects besides the conventional ones (--protected-paths). */
  protectedPaths?: readonly string[];
  /** Issue 42: protected globs the agent may change for every issue (--allowed-paths); an issue's allowed: adds its own. */
  allowedPaths?: readonly string[];
  plan?: string;
  /** Work only on these issues (the planning pipeline's implementation phase: the issues it created). */
  onlyIssues?: readonly string[];
  /** A fan-out job's: what the issue's earlier jobs counted; a cycle of that one issue starts from it. */
  carried?: CarriedCounts;
  /** A landing GitHub will refuse, seen before any agent ran (CoreSettings.refusedBeforehand): the slice halts as it starts. */
  refusedBeforehand?: { message: string; advice: string };
  /** Resumed by hand (CoreSettings.resumedByHand): a halt before any agent ran is not posted to Discord. */
  resumedByHand?: boolean;
  /** Halts are posted to Discord (CoreSettings.posts). */
  posts?: boolean;
}

export type { TestOutcome } from '../verdict/results.js';

/** Why the suite runs: the baseline before a cycle's first agent run, or to verify the agent's work. */
export type TestPurpose = 'baseline' | 'verify';

export interface SliceDeps {
  settings: SliceSettings;
  cwd: string;
  stateDir: string;
  source: IssueSource;
  agent: Agent;
  store: CheckpointStore;
  git?: Git;
  /** Pushes finished cycles and opens their pull requests (onSuccess pull-request), or pushes them onto the base (merge). */
  publisher?: CyclePublisher;
  /**
   * Runs a test command: in the repository, or with `place` in a judge tree (src/judge/judgeTree.ts),
   * its report written to the tree's report directory (src/judge/judgeRun.ts).
   */
  runTests: (command: string, signal?: AbortSignal, purpose?: TestPurpose, place?: TestPlace) => Promise<TestOutcome>;
  /**
   * Issue 42: the judge trees of the repository (src/judge/judgeTree.ts), where git is; the leftovers
   * of a killed run are cleared as the slice prepares the repository. The implement workflow's
   * verdict runs the suite in one (src/loop/judgePlace.ts).
   */
  judgeTrees?: JudgeTrees;
  logger: Logger;
  clock: Clock;
  /**
   * The run is a job of `run --parallel` (src/app/parallelJob.ts): its coordinator removes its
   * worktree at the wave's end, keeping a halted job's work and diagnostic (src/app/haltedJob.ts).
   */
  waveJob?: boolean;
  /** Masks secrets in what is written outside the log (halt.md). */
  redact?: Redactor;
  /** Told about every halt (Discord); must not throw. */
  notify?: (diagnostic: HaltDiagnostic) => Promise<void>;
  /**
   * What a failed issue effect (a close, a label, a comment) means (src/publish/landingFailures.ts
   * where work is published): `gone` when the issue was deleted or transferred (dropped with a
   * warning), refused, or transient. Default: transient (a later run tries again).
   */
  classifyIssueFailure?: (error: unknown, issue: string, what: string) => IssueEffectFailure;
  /** Aborted on SIGINT/SIGTERM: the in-flight iteration is dropped, the checkpoint written. */
  signal?: AbortSignal;
  /** agent-loop's own files in the state directory (prompt, halt.md, errors.jsonl, baselines); default: on disk, masked. */
  files?: StateFiles;
  /** The workflow each iteration runs (src/workflows: implement, tdd). */
  workflow: Workflow;
  /** This run's id in issue claims (issue 14): `github-<run id>-<attempt>` in the action. */
  runId?: string;
  /** What moved the repository behind the engine's back, if anything (set by runSlice: the lane guard). */
  laneMoved?: (what: string) => Promise<string | undefined>;
}

/** The writer of the state directory's files the slice uses. */
export const filesOf = (deps: Pick<SliceDeps, 'files' | 'stateDir' | 'redact'>): StateFiles =>
  deps.files ?? stateFiles(deps.stateDir, deps.redact);
