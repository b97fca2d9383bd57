/**
 * run --parallel's coordinator (src/app/parallel.ts): what its effect handlers (src/app/effects/wave*.ts)
 * work with through a run, in one typed object (its ports, its checkpoint, the loop as it was
 * found), opened once: the checkpoint as every run opens it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Options } from '../config/options.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { writeRunCheckpoint } from '../checkpoint/runCheckpoint.js';
import type { LoopState } from '../core/state.js';
import type { EndStatus } from '../core/wave.js';
import { type GitRunner, gitRunner } from '../git/git.js';
import { worktrees } from '../git/worktree.js';
import type { IssueSource } from '../issues/types.js';
import { forgetBaselines } from '../loop/baseline.js';
import type { Notify } from '../loop/effects/notices.js';
import { openCheckpoint } from '../loop/slice.js';
import { type Redactor, createRedactor } from '../secrets/redact.js';
import { discordNotifier } from './discordNotify.js';
import type { RunJobDeps } from './parallelJob.js';
import { jobConfig } from './parallelOptions.js';
import { type RunIO, type runLogger, sourceOf } from './run.js';

export interface ParallelIO extends RunIO {
  /** The command that runs agent-loop itself: the jobs are its children. */
  self: readonly string[];
  /** The flags as given on the command line: passed on to each job, but for those the coordinator sets. */
  flags: ReadonlyMap<string, string | true>;
}

export interface Coordinator {
  options: Options;
  io: ParallelIO;
  logger: ReturnType<typeof runLogger>;
  redact: Redactor;
  /** git in the main checkout, its worktrees, and the base branch the jobs are cut from and merged into. */
  runner: GitRunner;
  trees: ReturnType<typeof worktrees>;
  base: string;
  /** The issues file, relative to the repository. */
  issuesFile: string;
  /** --plan's text, handed to every job. */
  userPlan?: string;
  source: IssueSource;
  jobDeps: RunJobDeps;
  notify?: Notify;
  store: FileCheckpointStore;
  checkpointId: string;
  /** The loop as this run found it (the wave machine's start): the result's counts and lists are what the run added to it. */
  start: LoopState;
  startedAt: number;
  /** One git worktree operation at a time (src/app/effects/waveStart.ts startJob): concurrent ones race on the repository's files. */
  gitTurn: Promise<void>;
}

/** Writes the run's checkpoint with the loop as it stands. */
export async function saveLoop(c: Coordinator, status: EndStatus, errors: string[], loop: LoopState): Promise<void> {
  await writeRunCheckpoint(c.store, { id: c.checkpointId, end: { status }, loop, errors });
}

export async function openCoordinator(
  options: Options,
  io: ParallelIO,
  top: string,
  registry: RunJobDeps['registry'],
  logger: ReturnType<typeof runLogger>,
): Promise<Coordinator> {
  const startedAt = io.clock.now().getTime();
  const runner = gitRunner(top, io.env, options.commitAuthor);
  const base = (await runner.run(['symbolic-ref', '--short', 'HEAD'])).stdout.trim();
  const redact = createRedactor(io.secrets);
  const store = new FileCheckpointStore(io.stateDir, { clock: io.clock, redact });
  // Opened as every run opens its checkpoint: the newest runnable one (unless --fresh), else a new one.
  const opened = await openCheckpoint({ settings: options, store, clock: io.clock }, (event, message, data) =>
    logger.warn(event, message, data),
  );
  // --fresh forgets the recorded baselines as the serial run does (src/loop/baseline.ts): the jobs
  // record their own, and a later run on the same base would otherwise reuse one of before this start.
  if (options.fresh) await forgetBaselines({ stateDir: io.stateDir, redact, logger });
  const loop = {
    ...opened.state,
    baseBranch: opened.state.baseBranch ?? base,
    maxIterations: options.maxIterations,
    halt: undefined,
  };
  const c: Coordinator = {
    options,
    io,
    logger,
    redact,
    runner,
    trees: worktrees(top, runner),
    base,
    issuesFile: path.relative(top, path.resolve(io.cwd, options.issuesFile)),
    ...(options.plan ? { userPlan: await fs.readFile(path.resolve(io.cwd, options.plan), 'utf8') } : {}),
    source: await sourceOf(options, io, (message) => logger.warn('source.warning', message)),
    jobDeps: jobDepsOf(options, io, registry, logger),
    ...withNotify(options, io, redact, logger),
    store,
    checkpointId: opened.id,
    start: loop,
    startedAt,
    gitTurn: Promise.resolve(),
  };
  if (loop.wave) {
    const jobs = loop.wave.jobs.map((j) => j.issueId).join(', ');
    const said = `Resuming checkpoint ${c.checkpointId}: wave ${loop.waves + 1} was in flight (${jobs}); each job resumes where it stood.`;
    logger.info('parallel.resume', said, { checkpointId: c.checkpointId });
  }
  return c;
}

function jobDepsOf(
  options: Options,
  io: ParallelIO,
  registry: RunJobDeps['registry'],
  logger: ReturnType<typeof runLogger>,
): RunJobDeps {
  return {
    self: io.self,
    env: io.env,
    flags: jobConfig(io.flags, io.env, io.cwd),
    logger,
    json: options.json,
    stderr: io.stderr,
    registry,
    clock: io.clock,
    signal: io.signal,
  };
}

function withNotify(
  options: Options,
  io: ParallelIO,
  redact: Redactor,
  logger: ReturnType<typeof runLogger>,
): { notify?: Notify } {
  const notify = discordNotifier(options.discordWebhook, {
    redact,
    clock: io.clock,
    warn: (message) => logger.warn('discord.failed', message),
    info: (message) => logger.info('discord.posted', message),
  });
  return notify ? { notify } : {};
}
