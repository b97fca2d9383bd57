/**
 * Fan-out (issue 16), the plan: which ready issues one wave works at the same time, and each job's
 * share of what the run has left. Pure: the GitHub Action's plan job and the CLI's `--parallel N`
 * both call it, then claim the issues and start one job (a matrix job, a worktree) per entry.
 *
 * The rules of the serial loop hold across a wave: an escalated, done or claimed issue is not
 * picked (selectTargets, leaveClaimed); an issue never runs in two jobs; two issues where one
 * depends on the other are never in the same wave; `--max-iterations` and `--max-cost-usd` are
 * shared out so that the jobs together cannot spend more than the run has left.
 */
import { surface } from '../config/surface.js';
import type { ReadyIssue } from './events.js';
import { leaveClaimed, selectTargets } from './slice.js';
import { awaitingLanding } from './waveOutbox.js';
import type { HaltReason, LoopState, WaveJob } from './state.js';

export interface WaveSettings {
  /** Jobs at once (`parallel`, `--parallel`): at least 1. */
  parallel: number;
  maxIterations: number;
  maxCostUsd?: number;
  /** This loop's checkpoint: its own claims (a killed plan's) are its to take on again. */
  checkpointId?: string;
  /** The checkpoint's escalations stand in for the label (beads issues worked on a branch). */
  closeOnBranch?: boolean;
  /** The iteration this run started at: an issue escalated since is left alone, labelled or not (default: none is). */
  sliceStartIteration?: number;
}

/** A ready issue as the planner reads it: what it depends on, when the source says. */
export type WaveCandidate = ReadyIssue & { dependsOn?: readonly string[] };

export type WaveStop =
  /** Nothing is left to work: every ready issue is done in this run, or none is ready. */
  | { kind: 'complete'; message: string }
  /** Every ready issue is claimed by another run: nothing to do now, no halt. */
  | { kind: 'idle'; message: string }
  | { kind: 'halted'; reason: HaltReason; message: string };

export interface WavePlan {
  jobs: WaveJob[];
  /** Eligible issues left for a later wave, and why. */
  deferred: { issueId: string; why: 'parallel' | 'dependency' | 'iterations' }[];
  /** Ready issues other runs hold a live claim on. */
  claimedElsewhere: string[];
  /** Ready issues left alone because they are escalated. */
  escalated: string[];
  /** Set when the wave has no job. */
  stop?: WaveStop;
}

/** The jobs of the next wave, in the source's order (most urgent first). */
export function planWave(ready: readonly WaveCandidate[], loop: LoopState, settings: WaveSettings): WavePlan {
  // An issue whose finished work waits in the outbox is landed (waveOutbox.ts), not worked again.
  const landing = awaitingLanding(loop);
  const { free, claimed } = leaveClaimed(
    ready.filter((i) => !landing.has(i.id)),
    [],
    settings.checkpointId,
  );
  const { targets, escalated } = selectTargets(
    free,
    loop,
    true,
    settings.sliceStartIteration ?? loop.iteration,
    undefined,
    settings.closeOnBranch,
  );
  const claimedElsewhere = claimed.map((i) => i.id);
  const none = (stop: WaveStop): WavePlan => ({ jobs: [], deferred: [], claimedElsewhere, escalated, stop });
  if (targets.length === 0) {
    if (escalated.length > 0 && claimed.length === 0)
      return none({
        kind: 'halted',
        reason: 'all_escalated',
        message: `ALL ISSUES ESCALATED: only escalated issues remain (${escalated.join(', ')})`,
      });
    if (claimed.length > 0)
      return none({
        kind: 'idle',
        message: `No ready issue for this wave: ${claimedElsewhere.join(', ')} being worked by other runs.`,
      });
    if (loop.outbox.length > 0)
      return none({
        kind: 'idle',
        message: `No issue to work: the finished work on ${[...landing].join(', ')} waits to land (${loop.outbox.length} cycle(s) in the outbox).`,
      });
    return none({ kind: 'complete', message: 'No ready issues left: the work is done.' });
  }
  const iterationsLeft = settings.maxIterations - loop.iteration;
  if (iterationsLeft <= 0)
    return none({
      kind: 'halted',
      reason: 'max_iterations',
      message: `Max iterations (${settings.maxIterations}) reached`,
    });
  const costLeft = settings.maxCostUsd === undefined ? undefined : settings.maxCostUsd - loop.costUsd;
  if (costLeft !== undefined && costLeft <= 0)
    return none({
      kind: 'halted',
      reason: 'budget',
      // Waves run in the action only (fan-out): its words.
      message: `Budget exhausted: $${loop.costUsd.toFixed(2)} spent of the $${settings.maxCostUsd} cap (${surface('action').option('maxCostUsd')})`,
    });

  const size = Math.max(1, Math.min(Math.floor(settings.parallel), iterationsLeft));
  const picked: WaveCandidate[] = [];
  const deferred: WavePlan['deferred'] = [];
  for (const issue of targets as WaveCandidate[]) {
    if (picked.length >= size) {
      deferred.push({ issueId: issue.id, why: picked.length < settings.parallel ? 'iterations' : 'parallel' });
    } else if (picked.some((p) => related(p, issue))) {
      deferred.push({ issueId: issue.id, why: 'dependency' });
    } else picked.push(issue);
  }
  const shares = shareOut(iterationsLeft, picked.length);
  const requeued = new Map(loop.requeued.map((r) => [r.issueId, r.reason]));
  const jobs = picked.map((issue, k): WaveJob => {
    const context = requeued.get(issue.id);
    return {
      issueId: issue.id,
      title: issue.title,
      maxIterations: shares[k] as number,
      ...(costLeft !== undefined ? { maxCostUsd: costLeft / picked.length } : {}),
      ...(context !== undefined ? { context } : {}),
      ...(loop.issueCounts?.[issue.id] ? { counts: loop.issueCounts[issue.id] } : {}),
    };
  });
  return { jobs, deferred, claimedElsewhere, escalated };
}

/** `total` split into `parts` whole shares, as even as can be, the larger ones first; they sum to `total`. */
export function shareOut(total: number, parts: number): number[] {
  if (parts <= 0) return [];
  const base = Math.floor(total / parts);
  const extra = total - base * parts;
  return Array.from({ length: parts }, (_, k) => base + (k < extra ? 1 : 0));
}

/** One depends on the other (either way): they are never worked at the same time. */
function related(a: WaveCandidate, b: WaveCandidate): boolean {
  return (a.dependsOn ?? []).includes(b.id) || (b.dependsOn ?? []).includes(a.id);
}
