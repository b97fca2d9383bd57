/**
 * One wave of run --parallel (src/app/parallel.ts): planned by the pure planner, recorded in the
 * checkpoint before any job starts, each job run in its worktree, the finished ones merged into
 * the base branch one at a time, the wave reduced into the loop (src/core/waveReduce.ts), a job that
 * halted the run kept before the wave's worktrees go.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { JOB_LOCAL_HALTS } from '../core/haltReasons.js';
import type { HaltReason, LoopState, Wave } from '../core/state.js';
import { type WaveCandidate, planWave } from '../core/wavePlan.js';
import { type WaveRow, reduceWave } from '../core/waveReduce.js';
import { branchTip, gitRunner } from '../git/git.js';
import { type Coordinator, labelOnBase, saveLoop } from './coordinator.js';
import { type KeptHalt, keepHaltedJob } from './haltedJob.js';
import { type JobEnd, jobBranch, jobPlace, readJobState, runJob, writeJobPlan } from './parallelJob.js';
import { escalationsToLabel, landWave } from './waveLanding.js';

export interface RunHalt {
  reason: HaltReason;
  message: string;
  /** The job whose halt it is. */
  issueId?: string;
  /** Its own advice (what to fix), when it has one. */
  advice?: string;
}

/** How a wave ended the run, or that the next one goes on. */
export type WaveEnd =
  | { kind: 'next' }
  | { kind: 'aborted' }
  | { kind: 'complete' }
  /** No job could start (an option the job refuses, the agent not on PATH): the first one's stderr. */
  | { kind: 'cannot'; stderr: string }
  | {
      kind: 'halted';
      halt: RunHalt;
      /** The job whose own halt is the run's: its state and what was kept of it. */
      haltedJob?: { loop?: LoopState; kept?: KeptHalt };
      /** What was kept of the wave's halted jobs, in sentences for the halt message. */
      keptNotes?: string[];
      /** What to do, for the diagnostic only (the base branch moved: in the coordinator's own words). */
      advice?: string;
    };

/** The wave in flight (a crash's, resumed), or a new one planned and recorded; or why none runs. */
export async function nextWave(
  c: Coordinator,
  sliceStart: number,
): Promise<{ wave: Wave; resuming: boolean } | WaveEnd> {
  if (c.loop.wave) return { wave: c.loop.wave, resuming: true };
  const { options, loop } = c;
  const candidates: WaveCandidate[] = (await c.source.ready())
    .filter((i) => !options.issue || options.issue.includes(i.id))
    .map((i) => ({ id: i.id, title: i.title, labels: i.labels, dependsOn: i.dependencies }));
  const plan = planWave(candidates, loop, {
    parallel: options.parallel,
    maxIterations: options.maxIterations,
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    checkpointId: c.checkpointId,
    // Escalated in this run: left alone even where its label could not be written.
    sliceStartIteration: sliceStart,
  });
  if (plan.stop?.kind === 'halted')
    return { kind: 'halted', halt: { reason: plan.stop.reason, message: plan.stop.message } };
  if (plan.stop) {
    c.logger.info('parallel.done', plan.stop.message);
    return { kind: 'complete' };
  }
  const wave: Wave = { id: `wave-${loop.waves + 1}`, startedAt: c.io.clock.now().toISOString(), jobs: plan.jobs };
  c.loop = { ...loop, wave };
  // The wave is in the checkpoint before any job starts: a crash from here on resumes each job.
  await saveLoop(c, 'continuing');
  const shares = wave.jobs.map((j) => `${j.issueId} (${j.maxIterations} iteration${j.maxIterations === 1 ? '' : 's'})`);
  const later = plan.deferred.length ? `; later: ${plan.deferred.map((d) => d.issueId).join(', ')}` : '';
  c.logger.info('wave.start', `Wave ${loop.waves + 1}: ${shares.join(', ')} in parallel${later}.`, {
    wave: loop.waves + 1,
    jobs: wave.jobs.map((j) => j.issueId),
  });
  return { wave, resuming: false };
}

/** Runs the wave's jobs, lands and reduces them; the wave's worktrees are gone after, unless the base moved. */
export async function runWave(c: Coordinator, wave: Wave, resuming: boolean): Promise<WaveEnd> {
  const { options, logger, base } = c;
  // The base branch as the jobs start: only the coordinator's own merges may move it (landWave checks).
  const baseTip = (await branchTip(c.runner, base)) ?? '';
  const ends = await Promise.all(wave.jobs.map((job) => startJob(c, job, wave, resuming)));
  if (c.io.signal?.aborted) return { kind: 'aborted' };
  const cannot = ends.filter((e) => e.exitCode === 2 && !e.loop);
  if (cannot.length === ends.length) {
    // No job could start: as the serial run says it.
    await removeWave(c, wave);
    c.loop = { ...c.loop, wave: undefined };
    await saveLoop(c, 'continuing');
    return { kind: 'cannot', stderr: cannot[0]?.stderrTail ?? '' };
  }
  // Merged into the base one at a time, in the wave's order; a conflict re-queues the issue.
  const landing = {
    trees: c.trees,
    runner: c.runner,
    logger,
    base,
    issuesFile: c.issuesFile,
    waveNumber: c.loop.waves + 1,
    baseTip,
  };
  const { partials, requeued, moved } = await landWave(landing, wave, ends);
  // Something else moved the base branch: nothing more is merged, nothing is reset. The wave stays in
  // the checkpoint with its worktrees and branches, not reduced yet: resumed, its finished jobs are merged.
  if (moved) return { kind: 'halted', ...baseMoved(c, moved, ends) };
  const reduction = reduceWave(c.loop, wave, partials, {
    maxIterations: options.maxIterations,
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    maxConsecutiveEscalations: options.maxConsecutiveEscalations,
  });
  const stillQueued = reduction.loop.requeued.filter((r) => !requeued.some((q) => q.issueId === r.issueId));
  c.loop = { ...reduction.loop, requeued: [...stillQueued, ...requeued] };
  // The escalated jobs' labels, committed on the base one issue at a time (their branches are not merged).
  // Those not labelled stay owed in the checkpoint: later runs leave them alone and label them.
  await labelOnBase(c, escalationsToLabel(wave, ends));
  for (const row of reduction.rows) logger.info('wave.job', describeRow(row, requeued), { ...row, wave: c.loop.waves });
  await saveLoop(c, 'continuing');
  const kept = await keepHaltedJobs(c, wave, ends, baseTip);
  await removeWave(c, wave);
  if (!reduction.halt) return { kind: 'next' };
  const k = wave.jobs.findIndex((j) => j.issueId === reduction.halt?.issueId);
  return {
    kind: 'halted',
    halt: reduction.halt,
    ...(k >= 0 ? { haltedJob: { loop: ends[k]?.loop, kept: kept.get(wave.jobs[k]!.issueId) } } : {}),
    keptNotes: [...kept.values()].map((v) => v.note),
  };
}

/** The halt when the base branch moved behind the coordinator, with what to do in its own words. */
function baseMoved(
  c: Coordinator,
  moved: { reason: HaltReason; message: string; was: string },
  ends: JobEnd[],
): { halt: RunHalt; advice: string } {
  const ran = ends.reduce((n, e) => n + (e.loop?.iteration ?? 0), 0);
  const notCounted = ` (The wave's ${ran} iteration(s) are not in the counts below yet: they are counted when the wave is merged, on resume.)`;
  const { base } = c;
  const was = moved.was.slice(0, 12);
  const advice = [
    `Something other than agent-loop moved ${base} while wave ${c.loop.waves + 1} ran (most likely a job's agent, from its worktree:`,
    "worktrees share the repository's branches); nothing more was merged and nothing was reset.",
    `Inspect with git log ${was}..${base}, git reflog ${base} and git status (${base} moved under your checkout,`,
    `so its index and files still hold ${was}: the difference shows as staged changes).`,
    `If the move is unwanted, git reset --keep ${was} (in your checkout, on ${base}) puts it back.`,
    "Resumed, the run merges the wave's finished jobs without working them again.",
  ].join(' ');
  return { halt: { reason: moved.reason, message: `${moved.message}${ran > 0 ? notCounted : ''}` }, advice };
}

/** A job that halted the run: its work and its diagnostic, kept before its worktree goes. */
async function keepHaltedJobs(
  c: Coordinator,
  wave: Wave,
  ends: JobEnd[],
  baseTip: string,
): Promise<Map<string, KeptHalt>> {
  const kept = new Map<string, KeptHalt>();
  for (const [k, job] of wave.jobs.entries()) {
    const reason = ends[k]?.loop?.halt?.reason;
    if (!reason || JOB_LOCAL_HALTS.has(reason)) continue;
    const place = jobPlace(c.io.stateDir, wave.id, job.issueId);
    if (!existsSync(place.tree)) continue;
    const one = await keepHaltedJob({
      runner: gitRunner(place.tree, c.io.env, c.options.commitAuthor),
      issueId: job.issueId,
      waveId: wave.id,
      reason,
      jobStateDir: place.stateDir,
      stateDir: c.io.stateDir,
      mask: c.redact,
      baseTip,
    });
    kept.set(job.issueId, one);
    c.logger.warn('job.halt_kept', `[${job.issueId}] halted (${reason}): ${one.note}.`, {
      issue: job.issueId,
      ...(one.branch ? { branch: one.branch } : {}),
    });
  }
  return kept;
}

/** A job from its start, or resumed in its worktree (a crash); finished, it is only read. */
async function startJob(c: Coordinator, job: Wave['jobs'][number], wave: Wave, resuming: boolean): Promise<JobEnd> {
  const { io, logger } = c;
  const place = jobPlace(io.stateDir, wave.id, job.issueId);
  const tag = `[${job.issueId}]`;
  const planFile = () => writeJobPlan(path.dirname(place.tree), c.userPlan, job.context);
  if (resuming && existsSync(place.tree)) {
    const stood = await readJobState(place.stateDir, io.clock);
    if (stood.finished) {
      logger.info('job.finished_before', `${tag} finished before the restart: read from its checkpoint.`, {
        issue: job.issueId,
      });
      return { ...stood, exitCode: 0, stderrTail: '' };
    }
    logger.info('job.resume', `${tag} resumes in ${place.tree}.`, { issue: job.issueId });
    return runJob(c.jobDeps, job, { ...place, planFile: await planFile() }, false);
  }
  const turn = c.gitTurn.then(async () => {
    if (existsSync(place.tree)) await c.trees.remove(place.tree);
    await c.trees.add(place.tree, jobBranch(job.issueId), c.base);
  });
  c.gitTurn = turn.catch(() => undefined);
  await turn;
  logger.info('job.start', `${tag} ${job.title}: in worktree ${place.tree} on ${jobBranch(job.issueId)}.`, {
    issue: job.issueId,
  });
  return runJob(c.jobDeps, job, { ...place, planFile: await planFile() }, true);
}

/** The wave's worktrees, branches and scratch removed; the jobs' agent logs kept in <state-dir>/logs/<wave>/<issue>/. */
async function removeWave(c: Coordinator, wave: Wave): Promise<void> {
  const { stateDir } = c.io;
  for (const job of wave.jobs) {
    const place = jobPlace(stateDir, wave.id, job.issueId);
    const logs = path.join(place.stateDir, 'logs');
    if (!existsSync(logs)) continue;
    const kept = path.join(stateDir, 'logs', wave.id, path.basename(path.dirname(place.tree)));
    await fs.mkdir(path.dirname(kept), { recursive: true });
    await fs.rm(kept, { recursive: true, force: true });
    await fs.rename(logs, kept).catch(() => undefined);
  }
  await c.trees.remove(...wave.jobs.map((job) => jobPlace(stateDir, wave.id, job.issueId).tree));
  await c.trees.deleteBranches(...wave.jobs.map((job) => jobBranch(job.issueId)));
  await fs.rm(path.join(stateDir, 'parallel', wave.id), { recursive: true, force: true });
}

function describeRow(row: WaveRow, requeued: LoopState['requeued']): string {
  const again = requeued.some((r) => r.issueId === row.issueId);
  const what = again ? 'not merged (conflict): worked again on the new base' : row.outcome;
  const runs = `${row.iterations} iteration${row.iterations === 1 ? '' : 's'}${row.first ? ` (#${row.first}–#${row.last})` : ''}`;
  return `[${row.issueId}] ${what}: ${runs}${row.halt ? `; ${row.halt}` : ''}.`;
}
