/**
 * What a run is given by its caller (the CLI's `agent-loop run`, `run --parallel`, the action), and
 * the two things every run builds from it first: its log and its issue source.
 */
import type { Options } from '../config/options.js';
import type { Terms } from '../config/surface.js';
import type { RunResult } from '../core/result.js';
import type { CarriedCounts } from '../core/state.js';
import type { Git } from '../git/git.js';
import { SOURCE_FACTORIES, runSourceFactory } from '../issues/registry.js';
import type { IssueSource } from '../issues/types.js';
import type { CyclePublisher } from '../loop/publish.js';
import type { PreflightRefusal } from '../publish/preflight.js';
import path from 'node:path';
import { type Surface, surface } from '../config/surface.js';
import { openLogFile, workTreeHolding } from '../report/logFile.js';
import { type ConsoleLevel, type Logger, type LoggerOptions, createLogger } from '../report/logger.js';
import { teeLogger, withPreamble } from '../report/teeLogger.js';
import type { Session } from '../safety/session.js';
import type { Redactor } from '../secrets/redact.js';
import type { Clock } from '../util/clock.js';
import type { StartProblem } from './problems.js';

export interface RunIO {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  signal?: AbortSignal;
  clock: Clock;
  secrets: string[];
  stateDir: string;
  /** Told the run result (the action sets its outputs and job summary from it). */
  onResult?: (result: RunResult) => void | Promise<void>;
  /** Written before a log event (the action's log groups and annotations). */
  beforeEvent?: LoggerOptions['before'];
  /** The terminal's width: the text log is wrapped at word boundaries to fit it (src/report/wrap.ts). */
  width?: number;
  /**
   * The issue source when the caller builds it (the action's GitHub issues); else the beads source
   * of the options. Given the run's warning sink.
   */
  source?: (onWarning: (message: string) => void) => IssueSource;
  /**
   * Lands finished cycles on GitHub (the action): onSuccess becomes pull-request, or stays merge (pushed
   * onto the base branch there) when the publisher can.
   */
  publisher?: (git: Git, testCommand: string) => CyclePublisher;
  /** The credentials of git's push and fetch only (the action's token: remoteAuth.ts). */
  remoteEnv?: Record<string, string>;
  /** Work only on these issues (the planning pipeline's implementation phase). */
  onlyIssues?: readonly string[];
  /**
   * A fan-out job's (the action's work job): what its issue's earlier jobs counted. A job of the
   * CLI's --parallel reads it from its coordinator's AGENT_LOOP_WAVE_COUNTS instead.
   */
  carried?: CarriedCounts;
  /** The lock and process records, when the caller already holds them (`plan` running its loop). */
  session?: Session;
  /** Told why the run cannot start (then it returns 2); default: the CLI's rendering on stderr. */
  cannotStart?: (problems: readonly StartProblem[]) => void;
  /**
   * Makes the agent available (the action's install-agent), once the run knows it has work: not
   * for a halt that stands. The environment the run goes on with, or why it cannot.
   */
  installAgent?: () => Promise<{ env: NodeJS.ProcessEnv } | { problem: string }>;
  /**
   * The run stopped without a result (an error, or GitHub refusing the token before it started),
   * with what it logged, redacted; `unchanged`: nothing was written (the action then publishes nothing).
   */
  onStopped?: (stopped: { message: string; unchanged: boolean }) => Promise<void> | void;
  /** Why the halted checkpoint is resumed (set by runCommand's halt check): logged as the run starts. */
  haltLifted?: string;
  /** The halted checkpoint is resumed by hand (--resume-halted): a halt before any agent ran is not posted again. */
  resumedByHand?: boolean;
  /** Whose words the run's messages use: the CLI's flags (default) or the action's inputs (src/config/surface.ts). */
  terms?: Terms;
  /** This run's id in issue claims (issue 14; the action's workflow run). */
  runId?: string;
  /**
   * The action's preflight (issue 40, src/publish/preflight.ts): once the run knows it has work (not
   * for an idle run or a halt that stands), before anything is installed or any agent runs, what
   * GitHub lets the token see of the landing. A refusal it returns halts the run publish_refused as
   * it starts: no agent is installed or run.
   */
  preflight?: (run: LandingSoFar) => Promise<PreflightRefusal | undefined>;
  /** The preflight's refusal (set by runCommand): the slice halts as it starts, so no agent is needed. */
  refusedBeforehand?: PreflightRefusal;
}

/** What the preflight is told of the loop: its base branch, and what it has landed so far (its checkpoints). */
export interface LandingSoFar {
  base?: string;
  landed: { pullRequests: number; issuesClosed: number };
}

/**
 * The run's log: text or NDJSON (--json) on the caller's stdout, masked, with the caller's prefix per
 * event, showing what --quiet / --verbose say; and the whole text log in the run's log file
 * (--log-file, default <state-dir>/logs/run.log), whatever the console shows.
 */
export function runLogger(
  options: Pick<Options, 'json' | 'quiet' | 'verbose' | 'logFile'>,
  io: Pick<RunIO, 'stdout' | 'clock' | 'beforeEvent' | 'width' | 'stateDir' | 'cwd' | 'terms'>,
  redact: Redactor,
  /** Whether the log file is written: not for a run that ends before it starts (idle, a halt that stands), which writes nothing. */
  withFile = true,
): Logger {
  const level: ConsoleLevel = options.quiet ? 'quiet' : options.verbose ? 'verbose' : 'default';
  const screen = createLogger({
    json: options.json,
    write: io.stdout,
    clock: io.clock,
    redact,
    before: io.beforeEvent,
    level,
    ...(io.width !== undefined ? { width: io.width } : {}),
  });
  if (!withFile) return screen;
  const chosen = options.logFile ? path.resolve(io.cwd, options.logFile) : undefined;
  const tree = chosen ? workTreeHolding(chosen, io.cwd) : undefined;
  const file = tree
    ? {
        problem:
          `the log file ${JSON.stringify(chosen)} (--log-file) is inside the git working tree ${JSON.stringify(tree)}, ` +
          'where it would be an untracked file (a dirty tree the next run refuses); name a file outside it, or leave ' +
          '--log-file unset (<state-dir>/logs/run.log)',
      }
    : openLogFile(chosen ?? path.join(io.stateDir, 'logs', RUN_LOG));
  if ('problem' in file) {
    screen.warn('log.file', `${file.problem}: the run goes on with this log only.`, { problem: file.problem });
    return screen;
  }
  const logger = teeLogger(screen, createLogger({ json: false, write: file.write, clock: io.clock, redact }));
  if (!(file.fresh && level === 'default' && !options.json)) return logger;
  // Said with the run's first line: a run prepared and not yet run has written nothing.
  return withPreamble(logger, (to) =>
    to.info('log.file', consoleNote(file.path, surface(io.terms ?? 'cli')), { path: file.path }),
  );
}

/** The default log file's name, under <state-dir>/logs. */
export const RUN_LOG = 'run.log';

/** Said once as the run's log file opens, on a console that does not echo the output. */
const consoleNote = (file: string, say: Surface) =>
  `The agent's and the test command's output are not shown here; the whole log, with them, is in ${file} ` +
  `(${say.option('verbose')} shows them here too).`;

/** The caller's issue source (the action's GitHub issues), else the beads source of the options. */
export function sourceOf(
  options: Options,
  io: Pick<RunIO, 'source' | 'cwd' | 'terms' | 'env'>,
  onWarning: (message: string) => void,
): Promise<IssueSource> {
  if (io.source) return Promise.resolve(io.source(onWarning));
  // A source only the action builds, asked for elsewhere: prepareRun says so; the beads source stands in.
  const build = runSourceFactory(options.source) ?? SOURCE_FACTORIES.beads;
  return Promise.resolve(
    build({ cwd: io.cwd, options, env: io.env, ...(io.terms ? { terms: io.terms } : {}), onWarning }),
  );
}
