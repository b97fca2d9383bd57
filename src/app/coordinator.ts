/**
 * run --parallel's coordinator (src/app/parallel.ts): what it works with through a run, in one
 * typed object (its ports, its checkpoint, the loop as it stands), opened once: the checkpoint as
 * every run opens it, the Discord posts a killed coordinator left sent, the labels an earlier run
 * owes written first.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Options } from '../config/options.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { writeRunCheckpoint } from '../checkpoint/runCheckpoint.js';
import type { RunResult } from '../core/result.js';
import type { LoopState } from '../core/state.js';
import { type GitRunner, gitRunner } from '../git/git.js';
import { worktrees } from '../git/worktree.js';
import { ESCALATED_LABEL, type IssueSource } from '../issues/types.js';
import { forgetBaselines } from '../loop/baseline.js';
import { type Notify, sendLeftPosts } from '../loop/effects/notices.js';
import { openCheckpoint } from '../loop/slice.js';
import { type Redactor, createRedactor } from '../secrets/redact.js';
import { discordNotifier } from './discordNotify.js';
import type { RunJobDeps } from './parallelJob.js';
import { absoluteConfig } from './parallelOptions.js';
import { type RunIO, type runLogger, sourceOf } from './run.js';
import { labelEscalations, labelsNoted, labelsOwed } from './waveLanding.js';

export interface ParallelIO extends RunIO {
  /** The command that runs agent-loop itself: the jobs are its children. */
  self: readonly string[];
  /** The flags as given on the command line: passed on to each job, but for those the coordinator sets. */
  flags: ReadonlyMap<string, string | true>;
}

export type EndStatus = Exclude<RunResult['status'], 'deferred'>;

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
  /** The loop as it stands; saved by saveLoop. */
  loop: LoopState;
  /** The loop as this run found it: the result's counts and lists are what the run added to it. */
  start: LoopState;
  startedAt: number;
  /** One git worktree operation at a time (src/app/waveRun.ts startJob): concurrent ones race on the repository's files. */
  gitTurn: Promise<void>;
}

/** Writes the run's checkpoint with `as` (the loop as it stands by default). */
export async function saveLoop(c: Coordinator, status: EndStatus, errors: string[] = [], as = c.loop): Promise<void> {
  await writeRunCheckpoint(c.store, { id: c.checkpointId, end: { status }, loop: as, errors });
}

/** Labels the escalations on the base branch; those not labelled stay owed in the checkpoint (labelsNoted). */
export async function labelOnBase(c: Coordinator, escalations: ReturnType<typeof labelsOwed>): Promise<void> {
  const why = new Map<string, string>();
  await labelEscalations(
    { runner: c.runner, logger: c.logger, base: c.base, issuesFile: c.issuesFile },
    c.source,
    escalations,
    why,
  );
  c.loop = labelsNoted(c.loop, escalations, why, c.io.clock.now().toISOString());
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
    loop,
    start: loop,
    startedAt,
    gitTurn: Promise.resolve(),
  };
  if (loop.wave) {
    const jobs = loop.wave.jobs.map((j) => j.issueId).join(', ');
    const said = `Resuming checkpoint ${c.checkpointId}: wave ${loop.waves + 1} was in flight (${jobs}); each job resumes where it stood.`;
    logger.info('parallel.resume', said, { checkpointId: c.checkpointId });
  }
  await catchUp(c);
  return c;
}

/** What a killed or refused earlier run left: its Discord posts sent (as a slice's start does), its owed labels written, before any wave. */
async function catchUp(c: Coordinator): Promise<void> {
  const unsent = await sendLeftPosts(c.loop, c.notify);
  if (unsent !== c.loop) {
    c.loop = unsent;
    await saveLoop(c, 'continuing');
  }
  const owed = labelsOwed(c.loop);
  if (owed.length === 0) return;
  const ids = owed.map((o) => o.issueId);
  const them = owed.length === 1 ? 'it' : 'them';
  const said = `Labelling ${ids.join(', ')} ${ESCALATED_LABEL} on ${c.base}: escalated by an earlier run that could not label ${them}.`;
  c.logger.info('escalation.relabel', said, { issues: ids });
  await labelOnBase(c, owed);
  await saveLoop(c, 'continuing');
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
    flags: absoluteConfig(io.flags, io.cwd),
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
