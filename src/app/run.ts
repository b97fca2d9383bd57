/**
 * A run, as the application starts it for the CLI's `agent-loop run` and the action alike: the
 * engine's dependencies built from the options, then one slice. Why it cannot start is handed to
 * the caller as typed problems (problems.ts), rendered by each entrypoint its own way.
 */
import { existsSync } from 'node:fs';
import { MiB, inputProblem, readInput } from '../util/readInput.js';
import { ISSUES_MAX_BYTES } from '../issues/beadsFile.js';
import path from 'node:path';
import { type Options, defaultIterationDelay } from '../config/options.js';
import { type Terms, surface } from '../config/surface.js';
import { availableAgent, createAgent } from '../agents/index.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { type Git, openGit, type StagingMoment } from '../git/git.js';
import { ISSUE_SOURCES } from '../issues/catalog.js';
import { SOURCE_FACTORIES, runSourceFactory } from '../issues/registry.js';
import type { Issue, IssueSource } from '../issues/types.js';
import type { CyclePublisher } from '../loop/publish.js';
import { finishedBranchMessage, finishedBranches } from '../loop/finishedBranches.js';
import { readPromptDir } from '../util/promptDir.js';
import { type SliceDeps, StartError, runSlice } from '../loop/slice.js';
import type { SliceSettings } from '../loop/deps.js';
import { type CarriedCounts, parseLoopState } from '../core/state.js';
import { waveJobCounts } from './parallelJob.js';
import { type RunResult, buildResult, exitCodeFor, summaryLine } from '../core/result.js';
import { owedLabels } from '../core/haltGate.js';
import { describeResumeWay, resumeWays } from '../core/resumeWays.js';
import { type HaltCheck, checkHalt } from './haltCheck.js';
import { type IdleCheck, checkIdle } from './idleCheck.js';
import { detectTestCommand, junitFileProblem, runTestCommand } from '../loop/testGate.js';
import { type Logger, type LoggerOptions, createLogger } from '../report/logger.js';
import { type Redactor, createRedactor } from '../secrets/redact.js';
import { discordNotifier } from './discordNotify.js';
import type { Clock } from '../util/clock.js';
import { type Session, isWaveJob, openAgentSession } from '../safety/session.js';
import { trackAgent } from '../safety/processes.js';
import { secretDetector } from '../safety/secretScan.js';
import { guardIssues, withFirstReady } from '../issues/guard.js';
import { classifyIssueFailure } from '../publish/landingFailures.js';
import type { PreflightRefusal } from '../publish/preflight.js';
import { openCheckpoint } from '../loop/slice.js';
import { agentEnvironment } from '../secrets/agentEnv.js';
import { maskOutput } from '../agents/maskOutput.js';
import { workflowFor } from '../workflows/index.js';
import { type StartProblem, cannotStart, problem } from './problems.js';
import { cappedEcho } from '../report/echo.js';

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

/** The run's log: text or NDJSON (--json) on the caller's stdout, masked, with the caller's prefix per event. */
export function runLogger(
  options: Pick<Options, 'json'>,
  io: Pick<RunIO, 'stdout' | 'clock' | 'beforeEvent' | 'width'>,
  redact: Redactor,
): Logger {
  return createLogger({
    json: options.json,
    write: io.stdout,
    clock: io.clock,
    redact,
    before: io.beforeEvent,
    ...(io.width !== undefined ? { width: io.width } : {}),
  });
}

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

/** A run ready to start: the engine's dependencies assembled, the session (lock) held. */
export interface PreparedRun {
  deps: SliceDeps;
  logger: Logger;
  session: Session;
  redact: Redactor;
}

export type Prepared = { ok: true; run: PreparedRun } | { ok: false; problems: StartProblem[]; redact: Redactor };

/**
 * Everything a run needs before its first agent runs, from the options and the ports: the agent on
 * PATH, the test command, the inputs read, the issue source, git, the session (one run at a time, a
 * killed run's agent ended, the repository fit to work in). A run, or every reason it cannot start.
 */
export async function prepareRun(options: Options, io: RunIO): Promise<Prepared> {
  const redact = createRedactor(io.secrets);
  const say = surface(io.terms);
  const problems: StartProblem[] = [];
  const invalid = problem('invalid_input');
  const fail = (): Prepared => ({ ok: false, problems, redact });

  if (ISSUE_SOURCES[options.source].builtBy === 'action' && !io.source)
    problems.push(
      invalid(
        `${say.given('source', options.source)}: ${ISSUE_SOURCES[options.source].title} runs inside the GitHub Action; locally use ${say.given('source', 'beads')}.`,
      ),
    );
  // What the agent and the tests it can edit may reach: no runtime tokens, file-command paths or inputs.
  const agentEnv = agentEnvironment(io.env, { githubToken: options.agentGithubToken });
  // A run that halts as it starts (a refusal seen before any agent ran) runs no agent: none need be installed.
  const { agent, problems: agentProblems } = io.refusedBeforehand
    ? { agent: createAgent(options, agentEnv), problems: [] }
    : await availableAgent(options, agentEnv, say);
  problems.push(...agentProblems.map(problem('agent_not_on_path')));
  const testCommand = options.testCommand ?? detectTestCommand(io.cwd);
  if (!testCommand) {
    problems.push(
      invalid(
        `${say.option('testCommand')}: none given and none detected (no package.json test script, pytest configuration or test_*.py files, go.mod, Cargo.toml, or Makefile test target). Give the command that runs the test suite, e.g. ${say.given('testCommand', '"npm test"')}.`,
      ),
    );
  }
  const junitProblem = options.junitFile ? junitFileProblem(options.junitFile, io.cwd, say) : undefined;
  if (junitProblem) problems.push(invalid(junitProblem));
  let plan: string | undefined;
  if (options.plan) {
    try {
      plan = readInput(path.resolve(io.cwd, options.plan), MiB);
    } catch (error) {
      problems.push(
        invalid(
          `${say.option('plan')}: ${(error as Error).message}; expected a readable file (the plan, up to 1 MiB).`,
        ),
      );
    }
  }
  const prompts = options.tddPrompts
    ? readPromptDir(
        { name: say.option('tddPrompts'), value: options.tddPrompts, cwd: io.cwd },
        { RED: 'red.md', GREEN: 'green.md', REFACTOR: 'refactor.md' },
      )
    : { templates: {} };
  if (prompts.problem) problems.push(invalid(prompts.problem));
  const templates = prompts.templates;
  const logger = runLogger(options, io, redact);
  const onWarning = (message: string) => logger.warn('source.warning', message);
  const source = await sourceOf(options, io, onWarning);
  if (io.onlyIssues) source.trust?.(io.onlyIssues);
  // Issue text enters the engine here: one line titles, no control characters, secrets masked.
  const issues = guardIssues(source, redact);
  // A source that reads a file of the repository: the file is there and readable, or the run does not start.
  const unusable =
    !io.source && source.issuesFile !== undefined ? inputProblem(source.issuesFile, ISSUES_MAX_BYTES) : undefined;
  if (unusable)
    problems.push(
      invalid(`${say.option('issuesFile')}: ${unusable}. Point ${say.option('issuesFile')} at a beads JSONL file.`),
    );
  if (!io.source && source.issuesFile !== undefined && !existsSync(source.issuesFile)) {
    problems.push(
      invalid(
        `${say.option('issuesFile')}: '${options.issuesFile}' does not exist and bd is not on PATH. Point ${say.option('issuesFile')} at a beads JSONL file, or install beads.`,
      ),
    );
  }
  const git = await openGit(io.cwd, io.env, {
    redact,
    ...(options.commitAuthor ? { author: options.commitAuthor } : {}),
    protect: [io.stateDir],
    holdsSecret: secretDetector(io.secrets),
    onStagingRestored: (what, when) => stagingRestored(logger, what, when),
    ...(io.remoteEnv ? { remoteEnv: io.remoteEnv } : {}),
  });
  if (io.publisher && !git)
    problems.push(
      problem('repository')(
        `pull requests: ${io.cwd} is not a git work tree. Check the repository out first (actions/checkout) so that each finished issue can be pushed as a branch.`,
      ),
    );
  if (problems.length > 0 || !agent || !testCommand) return fail();
  // One run at a time; a killed run's agent ended; the repository fit to work in. Before any agent runs.
  let session = io.session;
  if (!session) {
    const opened = await openAgentSession('run', io);
    if (!opened.ok) {
      problems.push(...opened.problems.map(problem('repository')));
      return fail();
    }
    session = opened.session;
  }
  for (const note of session.notes) logger.warn('run.recovered', note);
  const registry = session.registry;
  const publisher = io.publisher && git ? io.publisher(git, testCommand) : undefined;
  const deps: SliceDeps = {
    settings: {
      terms: io.terms ?? 'cli',
      maxIterations: options.maxIterations,
      sliceIterations: options.sliceIterations,
      sliceMinutes: options.sliceMinutes,
      iterationDelaySeconds: options.iterationDelay ?? defaultIterationDelay(options.agent),
      agentTimeoutMinutes: options.agentTimeoutMinutes,
      batch: options.batch,
      // Where work is published, merge means onto the base on the remote (beads issues); else a pull request.
      onSuccess: publisher
        ? options.onSuccess === 'merge' && publisher.pushToBase
          ? 'merge'
          : 'pull-request'
        : options.onSuccess,
      // Beads issues live in the repository: their closing is committed with the work it lands with.
      ...(publisher && ISSUE_SOURCES[options.source].inRepository ? { closeOnBranch: true } : {}),
      strict: options.strict,
      resume: options.resume,
      fresh: options.fresh,
      testCommand,
      ...(options.junitFile ? { junitFile: options.junitFile } : {}),
      plan,
      maxCostUsd: options.maxCostUsd,
      agentSession: options.agentSession,
      maxRetriesPerStep: options.maxRetriesPerStep,
      maxIterationsPerIssue: options.maxIterationsPerIssue,
      maxConsecutiveEscalations: options.maxConsecutiveEscalations,
      ...(io.onlyIssues ? { onlyIssues: io.onlyIssues } : {}),
      ...waveCarried(io, options),
      ...(io.refusedBeforehand ? { refusedBeforehand: io.refusedBeforehand } : {}),
      ...(io.resumedByHand ? { resumedByHand: true } : {}),
      ...(options.discordWebhook && !isWaveJob(io.env) ? { posts: true } : {}),
    },
    workflow: workflowFor(options.workflow, { tddTemplates: templates }),
    cwd: io.cwd,
    stateDir: io.stateDir,
    ...(isWaveJob(io.env) ? { waveJob: true } : {}),
    source: issues,
    agent: trackAgent(maskOutput(agent, redact), registry),
    git,
    publisher,
    logger,
    ...(io.runId ? { runId: io.runId } : {}),
    clock: io.clock,
    signal: io.signal,
    redact,
    classifyIssueFailure: (error, issue, what) => classifyIssueFailure(error, issue, what, source.description),
    // A job of run --parallel never posts: its coordinator does, once, for the run.
    notify: isWaveJob(io.env)
      ? undefined
      : discordNotifier(options.discordWebhook, {
          redact,
          clock: io.clock,
          warn: (message) => logger.warn('discord.failed', message),
          info: (message) => logger.info('discord.posted', message),
        }),
    store: new FileCheckpointStore(io.stateDir, { clock: io.clock, redact, terms: io.terms ?? 'cli' }),
    runTests: async (command, signal, purpose) => {
      const pids: number[] = [];
      // What the test command writes into the work tree (a JUnit report, caches) is never committed.
      const before = git ? new Set(await git.untracked()) : undefined;
      try {
        return await runTestCommand(command, {
          cwd: io.cwd,
          env: agentEnv,
          timeoutMs: options.agentTimeoutMinutes * 60_000,
          signal,
          mask: redact,
          ...(purpose ? { purpose } : {}),
          // The report is read only for the test command itself, in the implement workflow (TDD reads its own).
          ...(options.junitFile && command === testCommand && purpose
            ? { junitFile: path.resolve(io.cwd, options.junitFile) }
            : {}),
          onLine: cappedEcho(logger, 'tests', undefined),
          onSpawn: (pid) => {
            pids.push(pid);
            registry.spawned(pid, 'tests');
          },
        });
      } finally {
        for (const pid of pids) registry.exited(pid);
        if (git && before) await excludeWritten(git, before, logger);
      }
    },
  };
  return { ok: true, run: { deps, logger, session, redact } };
}

/** Runs one slice of a prepared run and says how it ended, as an exit code. */
export async function runPrepared(run: PreparedRun, io: RunIO): Promise<number> {
  const { deps, logger, session, redact } = run;
  try {
    if (io.haltLifted)
      logger.info('run.halt_lifted', `Resuming the halted run: ${io.haltLifted}.`, { because: io.haltLifted });
    const result = await runSlice(deps);
    logger.result(result, summaryLine(result));
    await io.onResult?.(result);
    return exitCodeFor(result);
  } catch (error) {
    if (error instanceof StartError) return cannotStart(io, 'run', [problem('invalid_input')(error.message)], redact);
    // Anything else (git refused a checkout, the issue file vanished, the disk is full): stop with
    // the reason. Every recorded iteration is in the checkpoint, so the next run resumes.
    const message = error instanceof Error ? error.message : String(error);
    const said = `The run stopped: ${message.replace(/\.+$/, '')}. Recorded iterations are kept in ${io.stateDir}; fix the cause and run again to resume.`;
    logger.error('run.error', said, { error: message });
    await io.onStopped?.({ message: redact(said), unchanged: false });
    return 1;
  } finally {
    if (!io.session) session.release();
  }
}

/** The counts a fan-out job's issue brings from its earlier jobs: the action's, or the coordinator's. */
function waveCarried(io: RunIO, options: Options): Pick<SliceSettings, 'carried'> {
  if (io.carried) return { carried: io.carried };
  const issueId = options.issue?.length === 1 ? options.issue[0] : undefined;
  const counts = isWaveJob(io.env) && issueId !== undefined ? waveJobCounts(io.env) : undefined;
  return counts && issueId !== undefined ? { carried: { ...counts, issueId } } : {};
}

/**
 * `agent-loop run` (and the action's run step): an earlier halt that stands ends it at once;
 * otherwise prepare, then run one slice; 2 when it cannot start.
 */
export async function runCommand(options: Options, given: RunIO): Promise<number> {
  // --issue: work only these (a job of --parallel is one).
  let io = options.issue && !given.onlyIssues ? { ...given, onlyIssues: options.issue } : given;
  const startedAt = io.clock.now().getTime();
  const halt = await checkHalt(options, {
    ...io,
    source: () => sourceOf(options, io, () => {}),
    // Beads issues published from a thrown-away runner: as prepareRun's closeOnBranch.
    labelsDoNotLast: io.publisher !== undefined && ISSUE_SOURCES[options.source].inRepository,
  });
  if (halt.kind === 'stands') return standingHalt(options, io, halt, startedAt);
  if (halt.kind === 'lifted') io = { ...io, haltLifted: halt.because, ...(halt.byHand ? { resumedByHand: true } : {}) };
  else if (!io.onlyIssues) {
    // Nothing to do: nothing written, no agent installed or prepared (issue 14). The issues read to
    // decide are the run's first read otherwise, and its warnings go to the run's log either way.
    // (The planning pipeline's loop, on the issues it just created, always has work.)
    const redact = createRedactor(io.secrets);
    const logger = runLogger(options, io, redact);
    let warn = (message: string) => logger.warn('source.warning', message);
    const source = await sourceOf(options, io, (message) => warn(message)).catch(() => undefined);
    // --on-success branch: issues finished on their own unmerged branch are no work (said when idle;
    // otherwise the slice says it).
    const onBranch = new Map<string, { branch: string; base: string }>();
    const idle = source
      ? await checkIdle(options, {
          ...io,
          source,
          ...(options.onSuccess === 'branch' && !io.publisher ? { startable: notFinishedOnBranch(io, onBranch) } : {}),
        })
      : undefined;
    if (idle?.kind === 'idle') {
      for (const [id, { branch, base }] of onBranch)
        logger.info('issue.on_branch', finishedBranchMessage(id, branch, base), { issueId: id, branch });
      return idleRun(io, logger, idle, source!.description, startedAt);
    }
    if (idle?.kind === 'deferred') return deferredRun(io, logger, idle, startedAt);
    if (idle?.kind === 'refused') {
      const message = `The run stopped before it started: ${idle.message.replace(/\.+$/, '')}. Nothing was started or written; the next run starts once the token is fixed.`;
      logger.error('run.refused', message);
      await io.onStopped?.({ message: redact(message), unchanged: true });
      return 1;
    }
    const first = idle?.kind === 'work' ? idle.ready : undefined;
    if (source && first)
      io = {
        ...io,
        source: (onWarning) => {
          warn = onWarning;
          return withFirstReady(source, first);
        },
      };
  }
  // The action's preflight: now that the run has work, and before anything is installed or paid for.
  if (io.preflight) {
    const refused = await io.preflight(await landingSoFar(options, io));
    if (refused) io = { ...io, refusedBeforehand: refused };
  }
  // install-agent: only now that the run has work, and an agent will run.
  if (io.installAgent && !io.refusedBeforehand) {
    const installed = await io.installAgent();
    if ('problem' in installed)
      return cannotStart(io, 'run', [problem('agent_not_on_path')(installed.problem)], createRedactor(io.secrets));
    io = { ...io, env: installed.env };
  }
  const prepared = await prepareRun(options, io);
  if (!prepared.ok) return cannotStart(io, 'run', prepared.problems, prepared.redact);
  return runPrepared(prepared.run, io);
}

/**
 * The base branch of the checkpoint the run continues (none: the branch checked out), and what the
 * loop has landed so far: in any of the checkpoints in the state directory (a finished checkpoint
 * is not continued, a new one starts, yet its landings were this loop's).
 */
async function landingSoFar(options: Options, io: RunIO): Promise<LandingSoFar> {
  const store = new FileCheckpointStore(io.stateDir, { clock: io.clock });
  let base: string | undefined;
  const landed = { pullRequests: 0, issuesClosed: 0 };
  try {
    base = (await openCheckpoint({ settings: options, store, clock: io.clock }, () => {})).state.baseBranch;
    for (const checkpoint of (await store.list()).checkpoints) {
      const loop = parseLoopState(checkpoint.state);
      if (typeof loop !== 'object') continue;
      landed.pullRequests += loop.pullRequests.length;
      landed.issuesClosed += loop.issuesClosed.length;
    }
  } catch {
    // The run opens the checkpoint again and says what is wrong with it.
  }
  const checkedOut = base ? undefined : await (await openGit(io.cwd, io.env))?.currentRef().catch(() => undefined);
  base ??= checkedOut && checkedOut !== 'HEAD' ? checkedOut : undefined;
  return { ...(base ? { base } : {}), landed };
}

/** --on-success branch: the ready issues less those finished on their own unmerged branch (src/loop/finishedBranches.ts), kept in `found`. */
function notFinishedOnBranch(
  io: RunIO,
  found: Map<string, { branch: string; base: string }>,
): (ready: Issue[]) => Promise<Issue[]> {
  return async (ready) => {
    const git = await openGit(io.cwd, io.env);
    const base = await git?.currentRef();
    if (!git || !base || base === 'HEAD' || base.startsWith('agent-loop/')) return ready;
    const finished = await finishedBranches(
      git,
      base,
      ready.map((i) => i.id),
    );
    for (const [id, branch] of finished) found.set(id, { branch, base });
    return ready.filter((i) => !finished.has(i.id));
  };
}

/**
 * The halt of an earlier run still stands: said in the log and the result (status halted, with
 * `standing`), and nothing else done: no agent, no checkpoint written, no Discord post. Exit 1 (the
 * action turns it into a warning and a green step).
 */
export async function standingHalt(
  options: Options,
  io: RunIO,
  halt: Extract<HaltCheck, { kind: 'stands' }>,
  startedAt: number,
): Promise<number> {
  const redact = createRedactor(io.secrets);
  const logger = runLogger(options, io, redact);
  const { loop } = halt;
  const stood = loop.halt!;
  const result = buildResult({
    status: 'halted',
    state: loop,
    start: loop,
    checkpointId: halt.checkpointId,
    durationMs: io.clock.now().getTime() - startedAt,
    interrupted: false,
    standing: { since: stood.at ?? null, advice: stood.advice ?? null, resume: resumeWays(stood) },
  });
  const ways = resumeWays(stood).map((w) => describeResumeWay(w, io.terms ?? 'cli', loop.baseBranch));
  const owed = owedLabels(loop);
  logger.warn(
    'run.still_halted',
    `Still halted since ${stood.at ?? 'an earlier run'} (${stood.reason}): ${stood.message}. Nothing was run. To resume: ${ways.join('; ')}.${owed ? ` ${owed}` : ''}`,
    { haltReason: stood.reason, since: stood.at ?? null, checkpointId: halt.checkpointId },
  );
  return endedEarly(io, logger, result);
}

/**
 * Nothing to do (src/core/idle.ts): said in the log and the result (status complete, `idle`, the
 * newest checkpoint's id and counters), and nothing else done: no checkpoint written, no agent
 * installed or prepared, no lock taken. Exit 0.
 */
async function idleRun(
  io: RunIO,
  logger: Logger,
  idle: Extract<IdleCheck, { kind: 'idle' }>,
  where: string,
  startedAt: number,
): Promise<number> {
  const { loop, checkpointId } = idle;
  const result = buildResult({
    status: 'complete',
    state: loop,
    start: loop,
    checkpointId,
    durationMs: io.clock.now().getTime() - startedAt,
    interrupted: false,
    idle: true,
  });
  logger.info(
    'run.idle',
    `Nothing to do: no ready issue in ${where}, no cycle in flight, nothing waiting to land. ${checkpointId ? `Checkpoint ${checkpointId} is left as it was` : 'There is no checkpoint yet, and none is written'}; no agent was prepared.`,
    { checkpointId: checkpointId || null },
  );
  return endedEarly(io, logger, result);
}

/**
 * The issues could not be listed before the run started (src/app/idleCheck.ts): said in the log and
 * the result (status deferred, what failed), and nothing else done: no checkpoint written, no agent
 * installed or prepared, no lock taken. Exit 75 (the action: green, with a warning).
 */
async function deferredRun(
  io: RunIO,
  logger: Logger,
  deferred: Extract<IdleCheck, { kind: 'deferred' }>,
  startedAt: number,
): Promise<number> {
  const { loop, checkpointId, failed } = deferred;
  const redact = createRedactor(io.secrets);
  const result = buildResult({
    status: 'deferred',
    state: loop,
    start: loop,
    checkpointId,
    durationMs: io.clock.now().getTime() - startedAt,
    interrupted: false,
    deferred: { ...failed, message: redact(failed.message) },
    unchanged: true,
  });
  logger.warn(
    'run.deferred',
    `Deferred: ${failed.message.replace(/\.$/, '')}. No issue was started and nothing was written${checkpointId ? ` (checkpoint ${checkpointId} is left as it was)` : ''}; the next run lists the issues again.`,
    { what: failed.what, status: failed.status, checkpointId: checkpointId || null },
  );
  return endedEarly(io, logger, result);
}

/** A run that ended before it started: its result logged and handed over. */
async function endedEarly(io: RunIO, logger: Logger, result: RunResult): Promise<number> {
  logger.result(result, summaryLine(result));
  await io.onResult?.(result);
  return exitCodeFor(result);
}

/** What agent-loop put back, before a commit or at a slice's end, because something else changed what git stages (src/git/staging.ts). */
export function stagingRestored(logger: Logger, what: string[], when: StagingMoment): void {
  const why =
    when === 'commit'
      ? 'before committing, so that what is committed is the working tree as it is (for finished work, the tree the tests ran on), not what those settings make of it'
      : "at the slice's end, so that none of it stays in the repository or is read by the next run as yours";
  logger.warn(
    'git.staging_restored',
    `Something other than agent-loop (most likely the agent) changed what git stages: ${what.join('; ')}. Put back as it was before the agent ran, ${why}.`,
    { restored: what, when },
  );
}

/** Keeps out of every commit the untracked paths that appeared while the tests ran (the gate wrote them). */
async function excludeWritten(git: Git, before: Set<string>, logger: Logger): Promise<void> {
  const written = (await git.untracked()).filter((p) => !before.has(p));
  for (const p of written) await git.exclude(p, { file: !p.endsWith('/') });
  if (written.length > 0)
    logger.info(
      'tests.excluded',
      `The test command wrote ${written.join(', ')}: excluded in .git/info/exclude, never committed.`,
      { paths: written },
    );
}
