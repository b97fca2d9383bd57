/**
 * `run --parallel`'s landing (issue 16): the finished jobs of a wave merged into the base branch in
 * the main checkout, one at a time, in the wave's order (src/git/worktree.ts). A job whose merge
 * conflicts is not counted closed: its attempt is kept on a branch of its own and its issue is
 * re-queued with the conflict as the next attempt's context.
 */
import type { LoopState, Wave } from '../core/state.js';
import { ESCALATED_LABEL, type IssueSource } from '../issues/types.js';
import type { PartialState } from '../core/waveReduce.js';
import type { GitRunner } from '../git/git.js';
import { latestEntries, parseJsonl } from '../issues/beadsFile.js';
import { type Worktrees, WorktreeError } from '../git/worktree.js';
import type { Logger } from '../report/logger.js';
import { type JobEnd, jobBranch } from './parallelJob.js';

export interface Landing {
  trees: Worktrees;
  runner: GitRunner;
  logger: Logger;
  base: string;
  issuesFile: string;
  waveNumber: number;
}

/**
 * The wave's finished jobs merged into the base branch, one at a time in the wave's order: each
 * job's partial state for the reduce (a job whose merge conflicted is not counted closed) and the
 * issues to work again, with why.
 */
export async function landWave(
  ctx: Landing,
  wave: Wave,
  ends: readonly JobEnd[],
): Promise<{ partials: PartialState[]; requeued: LoopState['requeued'] }> {
  const { trees, logger, base, issuesFile } = ctx;
  const requeued: LoopState['requeued'] = [];
  const partials: PartialState[] = [];
  for (const [k, job] of wave.jobs.entries()) {
    const part = ends[k]?.loop;
    if (!part || !part.issuesClosed.includes(job.issueId)) {
      partials.push({ issueId: job.issueId, ...(part ? { loop: part } : {}) });
      continue;
    }
    const tag = `[${job.issueId}]`;
    // git merges into whatever the checkout is on: a checkout switched to another branch during the
    // run would take the jobs' work. Stopped before the reduce, as for a refused merge: the next run,
    // on the base again, merges the wave's finished jobs without working them again.
    const head = (await ctx.runner.run(['symbolic-ref', '--quiet', 'HEAD'])).stdout.trim();
    if (head !== `refs/heads/${base}`)
      throw new WorktreeError(
        `your checkout is no longer on ${base} (${head ? `it is on ${head.replace(/^refs\/heads\//, '')}` : 'its HEAD is detached'}), and the wave's jobs are merged into ${base} only; check out ${base} again, then run again: the wave resumes and its finished jobs are merged without being worked again`,
      );
    const merged = await trees.merge(
      jobBranch(job.issueId),
      `Merge agent-loop/${job.issueId} (parallel): ${job.title}`,
      issuesFile,
    );
    if (merged.kind === 'refused')
      // Stops the run before the reduce: the wave stays in the checkpoint, its worktrees and branches
      // with it, so the next run (once the checkout is clean) merges the finished jobs as they are.
      throw new WorktreeError(
        `git would not merge ${jobBranch(job.issueId)} into ${base} in your checkout: ${merged.detail.replace(/\s*\n\s*/g, ' ').replace(/([^.])$/, '$1.')} Something in your checkout is in the way (a file staged or changed during the run, or an untracked or ignored file where a job adds one); commit, move or undo it, then run again: the wave resumes and its finished jobs are merged without being worked again`,
      );
    if (merged.kind !== 'conflict') {
      if (!(await closedOnBase(ctx.runner, issuesFile, job.issueId))) {
        // The job's state says closed, but nothing that closes it reached the base (a job halted
        // after the close was recorded and before its commit, a secret in the change): counted
        // closed, the issue would be left open on the base and never worked again.
        logger.warn(
          'merge.not_closed',
          `${tag} its job recorded the issue closed, but ${base} does not hold the close (its change was not committed): not counted closed.`,
          { issue: job.issueId },
        );
        partials.push({
          issueId: job.issueId,
          loop: { ...part, issuesClosed: part.issuesClosed.filter((id) => id !== job.issueId) },
        });
        continue;
      }
      if (merged.kind === 'merged')
        logger.info(
          'merge.done',
          `${tag} merged into ${base}${merged.issuesFileResolved ? ` (${issuesFile} merged issue by issue)` : ''}.`,
          { issue: job.issueId, commit: merged.commit },
        );
      partials.push({ issueId: job.issueId, loop: part });
      continue;
    }
    requeued.push({
      issueId: job.issueId,
      reason: `Its first attempt (wave ${ctx.waveNumber}) could not be merged into ${base}: ${merged.detail}. Other issues changed the same lines since; do the work again on the current ${base}.`,
    });
    partials.push({
      issueId: job.issueId,
      loop: { ...part, issuesClosed: part.issuesClosed.filter((id) => id !== job.issueId) },
    });
    // The work stays for inspection on a branch of its own; the next attempt starts clean.
    const kept = `agent-loop-conflict/${job.issueId}-${wave.id}`;
    await ctx.runner.run(['branch', '--force', kept, jobBranch(job.issueId)]);
    logger.warn(
      'merge.conflict',
      `${tag} not merged: ${merged.detail}; the issue is worked again on the new ${base} (this attempt is kept on ${kept}).`,
      { issue: job.issueId, files: merged.files },
    );
  }
  return { partials, requeued };
}

/**
 * Whether the base (HEAD of the main checkout) holds the issue closed in the issue file; true when
 * the file or the issue is not in the base's tree (nothing to check against).
 */
async function closedOnBase(runner: GitRunner, issuesFile: string, issueId: string): Promise<boolean> {
  const shown = await runner.run(['show', `HEAD:${issuesFile}`]);
  if (shown.code !== 0) return true;
  const entry = latestEntries(parseJsonl(Buffer.from(shown.stdout)).entries).find((e) => e.record.id === issueId);
  return entry === undefined || (entry.record as { status?: unknown }).status === 'closed';
}

/** An issue a job of the wave escalated, with the note its job left on it. */
export interface EscalationToLabel {
  issueId: string;
  note: string;
}

/**
 * The issues the wave's jobs escalated, in the wave's order, each with the note of its job's last
 * escalation of it: to be labelled on the base branch, where later runs read the issues (a job's
 * own label commit is on its branch, which is not merged: its work is not done). Pure.
 */
export function escalationsToLabel(wave: Wave, ends: readonly JobEnd[]): EscalationToLabel[] {
  const out: EscalationToLabel[] = [];
  for (const [k, job] of wave.jobs.entries()) {
    const part = ends[k]?.loop;
    if (!part || !part.issuesEscalated.includes(job.issueId) || part.issuesClosed.includes(job.issueId)) continue;
    const last = part.escalations.filter((e) => e.issueIds.includes(job.issueId)).at(-1);
    out.push({ issueId: job.issueId, note: last?.note ?? '' });
  }
  return out;
}

/**
 * Labels the wave's escalated issues in the base branch's issue file in the main checkout and
 * commits each as the serial loop does ("agent-loop: <id> escalated"): that file only, nothing else
 * of the job's work or of the checkout. Left alone, with a warning, when the checkout is not on the
 * base branch or the issue file has changes of the user's own. The issues it could not label.
 */
export async function labelEscalations(
  ctx: Pick<Landing, 'runner' | 'logger' | 'base' | 'issuesFile'>,
  source: Pick<IssueSource, 'markEscalated' | 'description'>,
  escalations: readonly EscalationToLabel[],
): Promise<string[]> {
  const { runner, logger, base, issuesFile } = ctx;
  const failed: string[] = [];
  const changed = async () => (await runner.run(['status', '--porcelain', '--', issuesFile])).stdout.trim() !== '';
  for (const { issueId, note } of escalations) {
    const tag = `[${issueId}]`;
    const warn = (why: string) => {
      failed.push(issueId);
      logger.warn(
        'source.warning',
        `${tag} escalated, but not labelled ${ESCALATED_LABEL} on ${base}: ${why}. Label it by hand (or a later run may work it again).`,
        { issue: issueId },
      );
    };
    const head = (await runner.run(['symbolic-ref', '--quiet', 'HEAD'])).stdout.trim();
    if (head !== `refs/heads/${base}`) {
      warn(`your checkout is no longer on ${base}`);
      continue;
    }
    if (await changed()) {
      warn(`${issuesFile} has uncommitted changes in your checkout, which the label's commit would take with it`);
      continue;
    }
    try {
      await source.markEscalated(issueId, note);
    } catch (error) {
      warn(`${source.description}: ${(error as Error).message}`);
      continue;
    }
    if (!(await changed())) continue; // labelled already (a resumed wave)
    const committed = await runner.run([
      'commit',
      '--quiet',
      '--no-verify',
      '-m',
      `agent-loop: ${issueId} escalated`,
      '--only',
      '--',
      issuesFile,
    ]);
    if (committed.code !== 0) {
      warn(`git commit failed: ${committed.stderr.trim()}`);
      continue;
    }
    logger.info('escalation.labelled', `${tag} labelled ${ESCALATED_LABEL} on ${base}.`, { issue: issueId });
  }
  return failed;
}
