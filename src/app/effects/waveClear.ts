/**
 * A wave of run --parallel cleared: the jobs that halted the run kept first (their work on a branch,
 * their halt.md: src/app/haltedJob.ts), then the wave's worktrees, branches and scratch removed (the
 * jobs' judge trees a killed job left included),
 * the jobs' agent logs kept in <state-dir>/logs/<wave>/<issue>/.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { KeptJob } from '../../core/wave.js';
import type { Wave } from '../../core/state.js';
import { execGit } from '../../git/exec.js';
import { gitRunner } from '../../git/git.js';
import { judgeScratch, judgeTrees } from '../../judge/judgeTree.js';
import { keepHaltedJob } from '../haltedJob.js';
import { jobBranch, jobPlace } from '../parallelJob.js';
import type { WaveContext, WaveHandler } from './waveContext.js';

export const clearWave: WaveHandler<'clearWave'> = async ({ wave, keep, baseTip }, c) => {
  const kept: [string, KeptJob][] = [];
  for (const { issueId, reason } of keep) {
    const place = jobPlace(c.io.stateDir, wave.id, issueId);
    if (!existsSync(place.tree)) continue;
    const one = await keepHaltedJob({
      runner: gitRunner(place.tree, c.io.env, c.options.commitAuthor),
      issueId,
      waveId: wave.id,
      reason,
      jobStateDir: place.stateDir,
      stateDir: c.io.stateDir,
      mask: c.redact,
      baseTip,
    });
    kept.push([issueId, one]);
    c.logger.warn('job.halt_kept', `[${issueId}] halted (${reason}): ${one.note}.`, {
      issue: issueId,
      ...(one.branch ? { branch: one.branch } : {}),
    });
  }
  await removeWave(c, wave);
  return { type: 'waveCleared', kept };
};

async function removeWave(c: WaveContext, wave: Wave): Promise<void> {
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
  // A job killed while it judged (its coordinator killed, the job ended by the next run) left its judge tree.
  for (const job of wave.jobs) {
    const scratch = judgeScratch(jobPlace(stateDir, wave.id, job.issueId).stateDir);
    await judgeTrees({ git: execGit, env: c.io.env, repo: c.io.cwd, scratch }).clear();
    await fs.rmdir(scratch).catch(() => undefined);
  }
  await c.trees.deleteBranches(...wave.jobs.map((job) => jobBranch(job.issueId)));
  await fs.rm(path.join(stateDir, 'parallel', wave.id), { recursive: true, force: true });
}
