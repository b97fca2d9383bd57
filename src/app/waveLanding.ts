/**
 * `run --parallel`'s landing (issue 16): the finished jobs of a wave merged into the base branch in
 * the main checkout, one at a time, in the wave's order (src/git/worktree.ts). A job whose merge
 * conflicts is not counted closed: its attempt is kept on a branch of its own and its issue is
 * re-queued with the conflict as the next attempt's context.
 */
import type { HaltReason, LoopState, Wave } from '../core/state.js';
import type { EscalationToLabel } from '../core/waveLabels.js';
import { ESCALATED_LABEL, type IssueSource } from '../issues/types.js';
import type { PartialState } from '../core/waveReduce.js';
import { type GitRunner, branchTip } from '../git/git.js';
import { latestEntries, parseJsonl } from '../issues/beadsFile.js';
import { type Worktrees, WorktreeError } from '../git/worktree.js';
import type { Logger } from '../report/logger.js';
import { type JobEnd, jobBranch } from './parallelJob.js';

export { type EscalationToLabel, escalationsToLabel, labelsNoted, labelsOwed } from '../core/waveLabels.js';

export interface Landing {
  trees: Worktrees;
  runner: GitRunner;
  logger: Logger;
  base: string;
  issuesFile: string;
  waveNumber: number;
  /**
   * The base branch's commit when the wave started (the coordinator's own merges move it on): any
   * other commit before a merge or at the wave's end means something else moved the base branch.
   */
  baseTip: string;
}

/** The base branch moved by something other than the coordinator: the run halts, nothing more merged. */
export interface BaseMoved {
  reason: HaltReason;
  message: string;
  /** The tip the coordinator expected, and the one found. */
  was: string;
  now: string | undefined;
}

const short = (sha: string | undefined) => (sha ? sha.slice(0, 12) : 'nothing (the branch is gone)');

/**
 * Pure: the halt when the base branch is not where the coordinator left it. A job's worktree shares
 * the repository's branches, so a job's agent can move the base branch from its worktree (git
 * update-ref, git branch -f, git push . HEAD:main); the jobs named are those of the wave (they ran
 * at once: which one did it cannot be told). The user's checkout has the base branch checked out: moved
 * under it, its index and files are still the old commit's, so git status shows the difference as
 * staged changes nobody made.
 */
export function baseMoved(input: {
  base: string;
  expected: string;
  found: string | undefined;
  waveNumber: number;
  jobs: readonly string[];
  merged: readonly string[];
}): BaseMoved | undefined {
  const { base, expected, found } = input;
  if (found === expected) return undefined;
  // Which job's agent cannot be told: the jobs ran at once, and their own checks watch their own branches.
  const who =
    `most likely the agent of one of wave ${input.waveNumber}'s jobs (${input.jobs.join(', ')}: their ` +
    `worktrees share this repository's branches), or something else working in the repository`;
  const message = [
    `REPOSITORY MOVED: the base branch ${base} was at ${short(expected)} and is now at ${short(found)}` +
      `, moved by something other than agent-loop during wave ${input.waveNumber}: ${who}.`,
    input.merged.length > 0
      ? `Merged before it was seen: ${input.merged.join(', ')}; nothing more was merged.`
      : `Nothing of the wave was merged.`,
    found
      ? `${base} was moved under your checkout: its index and files are still those of ${short(expected)}` +
        `, so git status shows the difference as staged changes you never made. Inspect with git log ${short(expected)}` +
        `..${base} and git reflog ${base}; git reset --keep ${short(expected)} puts ${base} (and your checkout) ` +
        `back where agent-loop left it, if that is what you want: agent-loop reset nothing.`
      : `Inspect with git reflog ${base}.`,
    `The wave's finished jobs are kept (their branches agent-loop-wave/<issue>): resumed once ${base}` +
      ` is where it belongs, the run merges them without working them again.`,
  ].join(' ');
  return { reason: 'repository_moved', message, was: expected, now: found };
}

/**
 * The wave's finished jobs merged into the base branch, one at a time in the wave's order: each
 * job's partial state for the reduce (a job whose merge conflicted is not counted closed) and the
 * issues to work again, with why.
 */
export async function landWave(
  ctx: Landing,
  wave: Wave,
  ends: readonly Partial<JobEnd>[],
): Promise<{ partials: PartialState[]; requeued: LoopState['requeued']; moved?: BaseMoved }> {
  const { base } = ctx;
  const requeued: LoopState['requeued'] = [];
  const partials: PartialState[] = [];
  let expected = ctx.baseTip;
  const merged: string[] = [];
  const checkBase = async () =>
    baseMoved({
      base,
      expected,
      found: await branchTip(ctx.runner, base),
      waveNumber: ctx.waveNumber,
      jobs: wave.jobs.map((j) => j.issueId),
      merged,
    });
  for (const [k, job] of wave.jobs.entries()) {
    const part = ends[k]?.loop;
    if (!part || !part.issuesClosed.includes(job.issueId)) {
      partials.push({ issueId: job.issueId, ...(part ? { loop: part } : {}) });
      continue;
    }
    // Before each merge: the base where the coordinator left it (a job's agent can move it from its worktree).
    const moved = await checkBase();
    if (moved) return { partials, requeued, moved };
    await assertOnBase(ctx);
    const outcome = await mergeJob(ctx, job);
    if (outcome.kind === 'merged') {
      expected = outcome.commit;
      merged.push(job.issueId);
    }
    if (outcome.kind !== 'conflict') {
      partials.push(await landedJob(ctx, job, part, outcome));
      continue;
    }
    const conflicted = await conflictedJob(ctx, wave, job, part, outcome);
    requeued.push(conflicted.requeue);
    partials.push(conflicted.partial);
  }
  // At the wave's end too: a wave that merges nothing has no merge to check before.
  const moved = await checkBase();
  return { partials, requeued, ...(moved ? { moved } : {}) };
}

type WaveJob = Wave['jobs'][number];
type MergeOutcome = Awaited<ReturnType<Landing['trees']['merge']>>;

/**
 * git merges into whatever the checkout is on: a checkout switched to another branch during the
 * run would take the jobs' work. Stopped before the reduce, as for a refused merge: the next run,
 * on the base again, merges the wave's finished jobs without working them again.
 */
async function assertOnBase(ctx: Landing): Promise<void> {
  const { base } = ctx;
  const head = (await ctx.runner.run(['symbolic-ref', '--quiet', 'HEAD'])).stdout.trim();
  if (head !== `refs/heads/${base}`)
    throw new WorktreeError(
      `your checkout is no longer on ${base} (${head ? `it is on ${head.replace(/^refs\/heads\//, '')}` : 'its HEAD is detached'}` +
        `), and the wave's jobs are merged into ${base} only; check out ${base} again, then run again: the ` +
        `wave resumes and its finished jobs are merged without being worked again`,
    );
}

/** The job's branch merged into the base: merged, clean, or conflicted (a refusal throws). */
async function mergeJob(ctx: Landing, job: WaveJob): Promise<Exclude<MergeOutcome, { kind: 'refused' }>> {
  const { trees, base, issuesFile } = ctx;
  const outcome = await trees.merge(
    jobBranch(job.issueId),
    `Merge agent-loop/${job.issueId} (parallel): ${job.title}`,
    issuesFile,
  );
  if (outcome.kind === 'refused')
    // Stops the run before the reduce: the wave stays in the checkpoint, its worktrees and branches
    // with it, so the next run (once the checkout is clean) merges the finished jobs as they are.
    throw new WorktreeError(
      `git would not merge ${jobBranch(job.issueId)} into ${base} in your checkout: ${outcome.detail.replace(/\s*\n\s*/g, ' ').replace(/([^.])$/, '$1.')}` +
        ` Something in your checkout is in the way (a file staged or changed during the run, or an untracked ` +
        `or ignored file where a job adds one); commit, move or undo it, then run again: the wave resumes ` +
        `and its finished jobs are merged without being worked again`,
    );
  return outcome;
}

/** A job merged (or with nothing to merge): its state, counted closed only when the base holds the close. */
async function landedJob(
  ctx: Landing,
  job: WaveJob,
  part: LoopState,
  outcome: Exclude<MergeOutcome, { kind: 'refused' | 'conflict' }>,
): Promise<PartialState> {
  const { logger, base, issuesFile } = ctx;
  const tag = `[${job.issueId}]`;
  if (!(await closedOnBase(ctx.runner, issuesFile, job.issueId))) {
    // The job's state says closed, but nothing that closes it reached the base (a job halted
    // after the close was recorded and before its commit, a secret in the change): counted
    // closed, the issue would be left open on the base and never worked again.
    logger.warn(
      'merge.not_closed',
      `${tag} its job recorded the issue closed, but ${base} does not hold the close (its change was not committed): not counted closed.`,
      { issue: job.issueId },
    );
    return {
      issueId: job.issueId,
      loop: { ...part, issuesClosed: part.issuesClosed.filter((id) => id !== job.issueId) },
    };
  }
  if (outcome.kind === 'merged')
    logger.info(
      'merge.done',
      `${tag} merged into ${base}${outcome.issuesFileResolved ? ` (${issuesFile} merged issue by issue)` : ''}.`,
      { issue: job.issueId, commit: outcome.commit },
    );
  return { issueId: job.issueId, loop: part };
}

/** A job whose merge conflicted: not counted closed, worked again on the new base, its attempt kept on a branch. */
async function conflictedJob(
  ctx: Landing,
  wave: Wave,
  job: WaveJob,
  part: LoopState,
  outcome: Extract<MergeOutcome, { kind: 'conflict' }>,
): Promise<{ partial: PartialState; requeue: LoopState['requeued'][number] }> {
  const { logger, base } = ctx;
  const requeue = {
    issueId: job.issueId,
    reason:
      `Its first attempt (wave ${ctx.waveNumber}) could not be merged into ${base}: ${outcome.detail}. ` +
      `Other issues changed the same lines since; do the work again on the current ${base}.`,
  };
  const partial = {
    issueId: job.issueId,
    loop: { ...part, issuesClosed: part.issuesClosed.filter((id) => id !== job.issueId) },
  };
  // The work stays for inspection on a branch of its own; the next attempt starts clean.
  const kept = `agent-loop-conflict/${job.issueId}-${wave.id}`;
  await ctx.runner.run(['branch', '--force', kept, jobBranch(job.issueId)]);
  logger.warn(
    'merge.conflict',
    `[${job.issueId}] not merged: ${outcome.detail}; the issue is worked again on the new ${base} (this attempt is kept on ${kept}).`,
    { issue: job.issueId, files: outcome.files },
  );
  return { partial, requeue };
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

/**
 * Labels the wave's escalated issues in the base branch's issue file in the main checkout and
 * commits each as the serial loop does ("agent-loop: <id> escalated"): that file only, nothing else
 * of the job's work or of the checkout. Left alone, with a warning, when the checkout is not on the
 * base branch or the issue file has changes of the user's own. The issues it could not label (and,
 * in `why`, why not).
 */
export async function labelEscalations(
  ctx: Pick<Landing, 'runner' | 'logger' | 'base' | 'issuesFile'>,
  source: Pick<IssueSource, 'markEscalated' | 'description'>,
  escalations: readonly EscalationToLabel[],
  why?: Map<string, string>,
): Promise<string[]> {
  const { runner, logger, base, issuesFile } = ctx;
  const failed: string[] = [];
  const changed = async () => (await runner.run(['status', '--porcelain', '--', issuesFile])).stdout.trim() !== '';
  for (const { issueId, note } of escalations) {
    const tag = `[${issueId}]`;
    const warn = (reason: string) => {
      failed.push(issueId);
      why?.set(issueId, reason);
      logger.warn(
        'source.warning',
        `${tag} escalated, but not labelled ${ESCALATED_LABEL} on ${base}: ${reason}. It stays recorded in ` +
          `the checkpoint: later runs leave it alone and label it on ${base} when they can (a --fresh start ` +
          `forgets it: label it by hand before one).`,
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
