/**
 * `agent-loop run --parallel N` (issue 16, the local half): the loop in waves. Each wave, the pure
 * planner (src/core/wavePlan.ts) picks up to N ready issues; the wave is recorded in the checkpoint
 * before any job starts; each job is `agent-loop run` for one issue in its own git worktree, cut
 * from the base branch (src/app/parallelJob.ts); the finished jobs' branches are merged into the
 * base branch in the main checkout one at a time (src/git/worktree.ts), a conflict re-queueing the
 * issue with the conflicting files as context; then the pure reduce (src/core/waveReduce.ts) sums
 * the jobs into the loop, the worktrees go, and the next wave starts, until no work is left or the
 * loop halts. A coordinator killed mid-wave finds the wave in its checkpoint: each job resumes its
 * own checkpoint in its worktree, or, finished, is read as it is.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Options } from '../config/options.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { writeRunCheckpoint } from '../checkpoint/runCheckpoint.js';
import { buildDiagnostic } from '../core/diagnostic.js';
import { type RunResult, buildResult, exitCodeFor, summaryLine } from '../core/result.js';
import type { HaltReason, LoopState, Wave } from '../core/state.js';
import { type WaveCandidate, planWave } from '../core/wavePlan.js';
import { JOB_LOCAL_HALTS } from '../core/haltReasons.js';
import { type WaveRow, reduceWave } from '../core/waveReduce.js';
import { ESCALATED_LABEL } from '../issues/types.js';
import { branchTip, gitRunner } from '../git/git.js';
import { worktrees } from '../git/worktree.js';
import { forgetBaselines } from '../loop/baseline.js';
import { openCheckpoint } from '../loop/slice.js';
import { renderMarkdown } from '../report/diagnostic.js';
import { haltThroughOutbox, sendLeftPosts } from '../loop/effects/notices.js';
import { stateFiles } from '../persist/stateFiles.js';
import { discordNotifier } from './discordNotify.js';
import { createRedactor } from '../secrets/redact.js';
import { openAgentSession } from '../safety/session.js';
import { gitTopLevel } from '../git/repoPaths.js';
import {
  type JobEnd,
  type RunJobDeps,
  jobBranch,
  jobPlace,
  readJobState,
  runJob,
  writeJobPlan,
} from './parallelJob.js';
import { escalationsToLabel, labelEscalations, labelsNoted, labelsOwed, landWave } from './waveLanding.js';
import { type KeptHalt, keepHaltedJob } from './haltedJob.js';
import { cannotStart, problem } from './problems.js';
import { type RunIO, runLogger, sourceOf, standingHalt } from './run.js';
import { checkHalt } from './haltCheck.js';

export interface ParallelIO extends RunIO {
  /** The command that runs agent-loop itself: the jobs are its children. */
  self: readonly string[];
  /** The flags as given on the command line: passed on to each job, but for those the coordinator sets. */
  flags: ReadonlyMap<string, string | true>;
}

/** Jobs at once on one machine. */
export const MAX_LOCAL_PARALLEL = 32;

/** Why --parallel cannot run with these options; each names what to do instead. Pure. */
export function parallelProblems(options: Options): string[] {
  const out: string[] = [];
  if (options.parallel > MAX_LOCAL_PARALLEL)
    out.push(
      `--parallel ${options.parallel}: at most ${MAX_LOCAL_PARALLEL} on one machine (each job is a worktree, an agent and a test run at once); 256 is the action's bound, for matrix jobs on runners of their own.`,
    );
  if (options.batch)
    out.push('--parallel with --batch: a batch is one cycle for every ready issue; use one or the other.');
  if (options.workflow !== 'implement')
    out.push(
      `--parallel with --workflow ${options.workflow}: only the implement workflow runs in parallel; use --parallel 1.`,
    );
  if (options.onSuccess !== 'merge')
    out.push(
      `--parallel with --on-success ${options.onSuccess}: parallel jobs are merged into the base branch one at a time; use --on-success merge (the default).`,
    );
  if (options.resume)
    out.push('--parallel with --resume: the parallel run resumes its newest checkpoint by itself; leave --resume out.');
  if (options.source !== 'beads')
    out.push('--parallel needs --source beads locally (the action fans out with a matrix).');
  return out;
}

export async function parallelCommand(options: Options, io: ParallelIO): Promise<number> {
  const redact = createRedactor(io.secrets);
  const refuse = (messages: string[]) => cannotStart(io, 'run', messages.map(problem('invalid_input')), redact);
  const problems = parallelProblems(options);
  const top = await gitTopLevel(io.cwd, io.env);
  if (!top)
    problems.push(
      `--parallel: ${io.cwd} is not a git work tree; each job needs its own worktree. Run in a git repository, or use --parallel 1.`,
    );
  if (problems.length > 0) return refuse(problems);
  // A halt stands as in the serial loop: nothing runs until it is resumed or its cause is gone.
  const startedAt = io.clock.now().getTime();
  // The jobs' escalations are labelled on the base branch (labelEscalations): the label decides, as in the serial loop.
  const halt = await checkHalt(options, {
    ...io,
    source: () => sourceOf(options, io, () => {}),
  });
  if (halt.kind === 'stands') return standingHalt(options, io, halt, startedAt);
  const opened = await openAgentSession('run', io);
  if (!opened.ok) return cannotStart(io, 'run', opened.problems.map(problem('repository')), redact);
  const session = opened.session;
  const logger = runLogger(options, io, redact);
  for (const note of session.notes) logger.warn('run.recovered', note);
  if (halt.kind === 'lifted')
    logger.info('run.halt_lifted', `Resuming the halted run: ${halt.because}.`, { because: halt.because });
  try {
    return await coordinate(options, io, top as string, session.registry, logger);
  } catch (error) {
    // git refused a worktree or a merge, the disk is full: stop with the reason. The wave in flight
    // is in the checkpoint, so the next run resumes it.
    const message = error instanceof Error ? error.message : String(error);
    logger.error(
      'run.error',
      `The run stopped: ${message}. Its state is kept in ${io.stateDir}; fix the cause and run again to resume.`,
      { error: message },
    );
    return 1;
  } finally {
    session.release();
  }
}

async function coordinate(
  options: Options,
  io: ParallelIO,
  top: string,
  registry: RunJobDeps['registry'],
  logger: ReturnType<typeof runLogger>,
): Promise<number> {
  const startedAt = io.clock.now().getTime();
  const runner = gitRunner(top, io.env, options.commitAuthor);
  const trees = worktrees(top, runner);
  const base = (await runner.run(['symbolic-ref', '--short', 'HEAD'])).stdout.trim();
  const redact = createRedactor(io.secrets);
  const store = new FileCheckpointStore(io.stateDir, { clock: io.clock, redact });
  // Opened as every run opens its checkpoint: the newest runnable one (unless --fresh), else a new one.
  const opened = await openCheckpoint({ settings: options, store, clock: io.clock }, (event, message, data) =>
    logger.warn(event, message, data),
  );
  const { id: checkpointId, state: resumed } = opened;
  // --fresh forgets the recorded baselines as the serial run does (src/loop/baseline.ts): the jobs
  // record their own, and a later run on the same base would otherwise reuse one of before this start.
  if (options.fresh) await forgetBaselines({ stateDir: io.stateDir, redact, logger });
  let loop: LoopState = {
    ...resumed,
    baseBranch: resumed.baseBranch ?? base,
    maxIterations: options.maxIterations,
    halt: undefined,
  };
  const sliceStart = loop.iteration;
  /** The loop as this run found it: the result's counts and lists are what the run added to it. */
  const start = loop;
  if (loop.wave)
    logger.info(
      'parallel.resume',
      `Resuming checkpoint ${checkpointId}: wave ${loop.waves + 1} was in flight (${loop.wave.jobs.map((j) => j.issueId).join(', ')}); each job resumes where it stood.`,
      { checkpointId },
    );
  const save = async (status: Exclude<RunResult['status'], 'deferred'>, errors: string[] = [], as = loop) => {
    await writeRunCheckpoint(store, { id: checkpointId, end: { status }, loop: as, errors });
  };
  const notify = discordNotifier(options.discordWebhook, {
    redact,
    clock: io.clock,
    warn: (message) => logger.warn('discord.failed', message),
    info: (message) => logger.info('discord.posted', message),
  });
  // Discord posts a coordinator killed before posting left in the outbox: sent first, as a slice does.
  const unsent = await sendLeftPosts(loop, notify);
  if (unsent !== loop) {
    loop = unsent;
    await save('continuing');
  }
  const source = await sourceOf(options, io, (message) => logger.warn('source.warning', message));
  const issuesFile = path.relative(top, path.resolve(io.cwd, options.issuesFile));
  const userPlan = options.plan ? await fs.readFile(path.resolve(io.cwd, options.plan), 'utf8') : undefined;
  /** Labels the escalations on the base branch; those not labelled stay owed in the checkpoint (labelsNoted). */
  const label = async (escalations: ReturnType<typeof labelsOwed>) => {
    const why = new Map<string, string>();
    await labelEscalations({ runner, logger, base, issuesFile }, source, escalations, why);
    loop = labelsNoted(loop, escalations, why, io.clock.now().toISOString());
  };
  // Labels an earlier run could not write: written first, before any wave plans around them.
  const owed = labelsOwed(loop);
  if (owed.length > 0) {
    logger.info(
      'escalation.relabel',
      `Labelling ${owed.map((o) => o.issueId).join(', ')} ${ESCALATED_LABEL} on ${base}: escalated by an earlier run that could not label ${owed.length === 1 ? 'it' : 'them'}.`,
      { issues: owed.map((o) => o.issueId) },
    );
    await label(owed);
    await save('continuing');
  }
  const jobDeps: RunJobDeps = {
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

  // One git worktree operation at a time (startJob): concurrent ones race on the repository's own files.
  let gitTurn: Promise<void> = Promise.resolve();
  let status: Exclude<RunResult['status'], 'deferred'> = 'continuing';
  let halt: { reason: HaltReason; message: string; issueId?: string } | undefined;
  /** The job whose own halt is the run's: its state and what was kept of it. */
  let haltedJob: { loop?: LoopState; kept?: KeptHalt } | undefined;
  /** What was kept of the wave's halted jobs, in sentences for the halt message. */
  let keptNotes: string[] = [];
  /** The base branch moved behind the coordinator: what to do, in its own words. */
  let advice: string | undefined;
  for (;;) {
    if (io.signal?.aborted) break;
    let wave = loop.wave;
    const resuming = wave !== undefined;
    if (!wave) {
      const ready = await source.ready();
      const only = options.issue;
      const candidates: WaveCandidate[] = ready
        .filter((i) => !only || only.includes(i.id))
        .map((i) => ({ id: i.id, title: i.title, labels: i.labels, dependsOn: i.dependencies }));
      const plan = planWave(candidates, loop, {
        parallel: options.parallel,
        maxIterations: options.maxIterations,
        ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
        checkpointId,
        // Escalated in this run: left alone even where its label could not be written.
        sliceStartIteration: sliceStart,
      });
      if (plan.stop) {
        if (plan.stop.kind === 'halted') halt = { reason: plan.stop.reason, message: plan.stop.message };
        else {
          status = 'complete';
          logger.info('parallel.done', plan.stop.message);
        }
        break;
      }
      wave = { id: `wave-${loop.waves + 1}`, startedAt: io.clock.now().toISOString(), jobs: plan.jobs };
      loop = { ...loop, wave };
      // The wave is in the checkpoint before any job starts: a crash from here on resumes each job.
      await save('continuing');
      logger.info(
        'wave.start',
        `Wave ${loop.waves + 1}: ${wave.jobs.map((j) => `${j.issueId} (${j.maxIterations} iteration${j.maxIterations === 1 ? '' : 's'})`).join(', ')} in parallel${plan.deferred.length ? `; later: ${plan.deferred.map((d) => d.issueId).join(', ')}` : ''}.`,
        { wave: loop.waves + 1, jobs: wave.jobs.map((j) => j.issueId) },
      );
    }
    // The base branch as the jobs start: only the coordinator's own merges may move it (landWave checks).
    const baseTip = (await branchTip(runner, base)) ?? '';
    const ends = await Promise.all(wave.jobs.map((job) => startJob(job, wave as Wave, resuming)));
    if (io.signal?.aborted) break;
    const cannot = ends.filter((e) => e.exitCode === 2 && !e.loop);
    if (cannot.length === ends.length) {
      // No job could start (an option the job refuses, the agent not on PATH): as the serial run says it.
      await removeWave(wave);
      loop = { ...loop, wave: undefined };
      await save('continuing');
      io.stderr(cannot[0]?.stderrTail ?? '');
      return 2;
    }
    // Merged into the base one at a time, in the wave's order; a conflict re-queues the issue.
    const { partials, requeued, moved } = await landWave(
      { trees, runner, logger, base, issuesFile, waveNumber: loop.waves + 1, baseTip },
      wave,
      ends,
    );
    if (moved) {
      // Something else moved the base branch: nothing more is merged, nothing is reset. The wave
      // stays in the checkpoint with its worktrees and branches: resumed, its finished jobs are merged.
      // The wave is not reduced yet: its jobs' counts join the run's when it is merged on resume.
      const ran = ends.reduce((n, e) => n + (e.loop?.iteration ?? 0), 0);
      halt = {
        reason: moved.reason,
        message: `${moved.message}${ran > 0 ? ` (The wave's ${ran} iteration(s) are not in the counts below yet: they are counted when the wave is merged, on resume.)` : ''}`,
      };
      advice = `Something other than agent-loop moved ${base} while wave ${loop.waves + 1} ran (most likely a job's agent, from its worktree: worktrees share the repository's branches); nothing more was merged and nothing was reset. Inspect with git log ${moved.was.slice(0, 12)}..${base}, git reflog ${base} and git status (${base} moved under your checkout, so its index and files still hold ${moved.was.slice(0, 12)}: the difference shows as staged changes). If the move is unwanted, git reset --keep ${moved.was.slice(0, 12)} (in your checkout, on ${base}) puts it back. Resumed, the run merges the wave's finished jobs without working them again.`;
      break;
    }
    const reduction = reduceWave(loop, wave, partials, {
      maxIterations: options.maxIterations,
      ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
      maxConsecutiveEscalations: options.maxConsecutiveEscalations,
    });
    loop = {
      ...reduction.loop,
      requeued: [...reduction.loop.requeued.filter((r) => !requeued.some((q) => q.issueId === r.issueId)), ...requeued],
    };
    // The escalated jobs' labels, committed on the base one issue at a time (their branches are not merged).
    // Those not labelled stay owed in the checkpoint: later runs leave them alone and label them.
    await label(escalationsToLabel(wave, ends));
    for (const row of reduction.rows) logger.info('wave.job', describeRow(row, requeued), { ...row, wave: loop.waves });
    await save('continuing');
    // A job that halted the run: its work and its diagnostic are kept before its worktree goes.
    const kept = new Map<string, KeptHalt>();
    for (const [k, job] of wave.jobs.entries()) {
      const reason = ends[k]?.loop?.halt?.reason;
      if (!reason || JOB_LOCAL_HALTS.has(reason)) continue;
      const place = jobPlace(io.stateDir, wave.id, job.issueId);
      if (!existsSync(place.tree)) continue;
      const one = await keepHaltedJob({
        runner: gitRunner(place.tree, io.env, options.commitAuthor),
        issueId: job.issueId,
        waveId: wave.id,
        reason,
        jobStateDir: place.stateDir,
        stateDir: io.stateDir,
        baseTip,
      });
      kept.set(job.issueId, one);
      logger.warn('job.halt_kept', `[${job.issueId}] halted (${reason}): ${one.note}.`, {
        issue: job.issueId,
        ...(one.branch ? { branch: one.branch } : {}),
      });
    }
    await removeWave(wave);
    if (reduction.halt) {
      halt = reduction.halt;
      const k = wave.jobs.findIndex((j) => j.issueId === reduction.halt?.issueId);
      if (k >= 0) haltedJob = { loop: ends[k]?.loop, kept: kept.get(wave.jobs[k]!.issueId) };
      keptNotes = [...kept.values()].map((v) => v.note);
      break;
    }
  }

  let diagnostic: string | null = null;
  if (halt) {
    status = 'halted';
    const { issueId: _job, ...runHalt } = halt;
    loop = { ...loop, halt: { ...runHalt, at: io.clock.now().toISOString() } };
    // One job's own halt is diagnosed from that job's state (its cycle, its output), not the run's sums.
    const built = buildDiagnostic({
      ...runHalt,
      state: haltedJob?.loop ?? loop,
      checkpointId,
      maxConsecutiveEscalations: options.maxConsecutiveEscalations,
      ...(advice ? { advice } : {}),
      terms: 'cli',
    });
    const markdown = haltedJob?.kept?.diagnostic
      ? `${haltedJob.kept.diagnostic.trimEnd()}\n\n## run --parallel\n\nThis halt is ${halt.issueId}'s job's (its diagnostic above). ${keptNotes.join('. ')}.\n`
      : renderMarkdown(built);
    const errors = [halt.message];
    const told = await haltThroughOutbox(loop, built, markdown, {
      files: stateFiles(io.stateDir, redact),
      save: (recorded) => save('halted', errors, recorded),
      ...(notify ? { notify } : {}),
      now: io.clock.now(),
    });
    loop = told.loop;
    diagnostic = told.written;
    logger.error(
      'run.halted',
      `HALT (${halt.reason}): ${halt.message.replace(/\.$/, '')}.${keptNotes.length ? ` ${keptNotes.join('. ')}.` : ''} The diagnostic is in ${path.join(io.stateDir, 'halt.md')}.`,
      { haltReason: halt.reason },
    );
  }
  await save(status, halt ? [halt.message] : []);
  const result = buildResult({
    status,
    state: loop,
    start,
    checkpointId,
    durationMs: io.clock.now().getTime() - startedAt,
    interrupted: io.signal?.aborted ?? false,
    diagnostic,
  });
  logger.result(
    { ...result, parallel: options.parallel, waves: loop.waves },
    `${summaryLine(result)}\n  waves ${loop.waves} (--parallel ${options.parallel})`,
  );
  await io.onResult?.(result);
  return exitCodeFor(result);

  /** A job from its start, or resumed in its worktree (a crash); finished, it is only read. */
  async function startJob(job: Wave['jobs'][number], wave: Wave, resuming: boolean): Promise<JobEnd> {
    const place = jobPlace(io.stateDir, wave.id, job.issueId);
    const tag = `[${job.issueId}]`;
    if (resuming && existsSync(place.tree)) {
      const stood = await readJobState(place.stateDir, io.clock);
      if (stood.finished) {
        logger.info('job.finished_before', `${tag} finished before the restart: read from its checkpoint.`, {
          issue: job.issueId,
        });
        return { ...stood, exitCode: 0, stderrTail: '' };
      }
      logger.info('job.resume', `${tag} resumes in ${place.tree}.`, { issue: job.issueId });
      return runJob(
        jobDeps,
        job,
        { ...place, planFile: await writeJobPlan(path.dirname(place.tree), userPlan, job.context) },
        false,
      );
    }
    const turn = gitTurn.then(async () => {
      if (existsSync(place.tree)) await trees.remove(place.tree);
      await trees.add(place.tree, jobBranch(job.issueId), base);
    });
    gitTurn = turn.catch(() => undefined);
    await turn;
    logger.info('job.start', `${tag} ${job.title}: in worktree ${place.tree} on ${jobBranch(job.issueId)}.`, {
      issue: job.issueId,
    });
    return runJob(
      jobDeps,
      job,
      { ...place, planFile: await writeJobPlan(path.dirname(place.tree), userPlan, job.context) },
      true,
    );
  }

  async function removeWave(wave: Wave): Promise<void> {
    // The jobs' agent logs outlive their worktrees: <state-dir>/logs/<wave>/<issue>/iteration-N.log.
    for (const job of wave.jobs) {
      const place = jobPlace(io.stateDir, wave.id, job.issueId);
      const logs = path.join(place.stateDir, 'logs');
      if (!existsSync(logs)) continue;
      const kept = path.join(io.stateDir, 'logs', wave.id, path.basename(path.dirname(place.tree)));
      await fs.mkdir(path.dirname(kept), { recursive: true });
      await fs.rm(kept, { recursive: true, force: true });
      await fs.rename(logs, kept).catch(() => undefined);
    }
    await trees.remove(...wave.jobs.map((job) => jobPlace(io.stateDir, wave.id, job.issueId).tree));
    await trees.deleteBranches(...wave.jobs.map((job) => jobBranch(job.issueId)));
    await fs.rm(path.join(io.stateDir, 'parallel', wave.id), { recursive: true, force: true });
  }
}

/** --config given relative to where the user is: absolute, so each job (in its worktree) reads the same file. */
function absoluteConfig(flags: ReadonlyMap<string, string | true>, cwd: string): Map<string, string | true> {
  const out = new Map(flags);
  const config = flags.get('config');
  if (typeof config === 'string') out.set('config', path.resolve(cwd, config));
  return out;
}

function describeRow(row: WaveRow, requeued: LoopState['requeued']): string {
  const again = requeued.some((r) => r.issueId === row.issueId);
  const what = again ? 'not merged (conflict): worked again on the new base' : row.outcome;
  return `[${row.issueId}] ${what}: ${row.iterations} iteration${row.iterations === 1 ? '' : 's'}${row.first ? ` (#${row.first}–#${row.last})` : ''}${row.halt ? `; ${row.halt}` : ''}.`;
}
