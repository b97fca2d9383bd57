/**
 * A wave of run --parallel started: the ready issues read for the planner, the wave recorded in
 * the checkpoint before any job starts, each job run in its own worktree cut from the base branch
 * (or resumed there: a killed coordinator's wave), finished ones only read.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Wave } from '../../core/state.js';
import { branchTip } from '../../git/git.js';
import { type JobEnd, jobBranch, jobPlace, readJobState, runJob, writeJobPlan, writeNoConfig } from '../parallelJob.js';
import { saveLoop } from '../coordinator.js';
import type { WaveContext, WaveHandler } from './waveContext.js';
import { printable } from '../../util/printable.js';

export const readReady: WaveHandler<'readReady'> = async (_effect, c) => ({
  type: 'readyRead',
  ready: (await c.source.ready()).map((i) => ({
    id: i.id,
    title: i.title,
    labels: i.labels,
    dependsOn: i.dependencies,
  })),
  now: c.io.clock.now().toISOString(),
});

/** The wave in the checkpoint before any job starts: a crash from here on resumes each job. */
export const recordWave: WaveHandler<'recordWave'> = async (effect, c) => {
  await saveLoop(c, 'continuing', [], effect.loop);
  return { type: 'waveRecorded' };
};

/** The wave's jobs, all at once; the base branch's tip as they start (only the coordinator's own merges may move it). */
export const runJobs: WaveHandler<'runJobs'> = async ({ wave, resuming }, c) => {
  const baseTip = (await branchTip(c.runner, c.base)) ?? '';
  const ends = await Promise.all(wave.jobs.map((job) => startJob(c, job, wave, resuming)));
  return { type: 'jobsEnded', ends, baseTip, aborted: c.io.signal?.aborted ?? false };
};

/** A job from its start, or resumed in its worktree (a crash); finished, it is only read. */
async function startJob(c: WaveContext, job: Wave['jobs'][number], wave: Wave, resuming: boolean): Promise<JobEnd> {
  const { io, logger } = c;
  const place = jobPlace(io.stateDir, wave.id, job.issueId);
  const tag = `[${job.issueId}]`;
  const planFile = () => writeJobPlan(path.dirname(place.tree), c.userPlan, job.context);
  const files = async () => ({ planFile: await planFile(), noConfig: await writeNoConfig(path.dirname(place.tree)) });
  if (resuming && existsSync(place.tree)) {
    const stood = await readJobState(place.stateDir, io.clock);
    if (stood.finished) {
      logger.info('job.finished_before', `${tag} finished before the restart: read from its checkpoint.`, {
        issue: job.issueId,
      });
      return { ...stood, exitCode: 0, stderrTail: '' };
    }
    logger.info('job.resume', `${tag} resumes in ${place.tree}.`, { issue: job.issueId });
    return runJob(c.jobDeps, job, { ...place, ...(await files()) }, false);
  }
  // One git worktree operation at a time: concurrent ones race on the repository's files.
  const turn = c.gitTurn.then(async () => {
    if (existsSync(place.tree)) await c.trees.remove(place.tree);
    await c.trees.add(place.tree, jobBranch(job.issueId), c.base);
  });
  c.gitTurn = turn.catch(() => undefined);
  await turn;
  logger.info('job.start', `${tag} ${printable(job.title)}: in worktree ${place.tree} on ${jobBranch(job.issueId)}.`, {
    issue: job.issueId,
  });
  return runJob(c.jobDeps, job, { ...place, ...(await files()) }, true);
}
