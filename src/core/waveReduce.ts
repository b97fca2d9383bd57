/**
 * Fan-out (issue 16), the reduce: the partial states of one wave's jobs merged into the loop's
 * state. Pure. Each job worked one issue from a fresh state (iteration 0), so its state is exactly
 * what it did (but for its cycle's stuck counts, which start from what earlier waves carried):
 * counters and spend are summed, its iterations numbered on after the loop's (job by job, in the
 * wave's order), its closed, escalated and no-change issues, pull requests, outbox entries and
 * notices carried over. A job with no partial state (killed before it saved) counts
 * nothing: its issue stays open, its claim expires, and a later wave picks it up.
 *
 * Then the loop's rules, on the wave as a whole: escalations in a wave with no success count as
 * consecutive escalations (the failure loop), a job's halt that is about the run (the agent cannot
 * start, a secret in a change, the repository moved…) halts the loop, and the sums are checked
 * against --max-iterations and --max-cost-usd.
 */
import { surface } from '../config/surface.js';
import { JOB_LOCAL_HALTS } from './haltReasons.js';
import { HISTORY_KEPT, type HaltReason, type LoopState, type Wave } from './state.js';

export interface WaveSettingsReduce {
  maxIterations: number;
  maxCostUsd?: number;
  maxConsecutiveEscalations: number;
}

/** What one job left: its final state, or nothing when it died before saving one. */
export interface PartialState {
  issueId: string;
  loop?: LoopState;
  /**
   * A job with no state (it died before it saved): what its claim comment last said it had run
   * (its iterations and spend so far), counted so that the run's bounds see them (never a lost count).
   */
  claimed?: { iterations: number; costUsd?: number };
}

export type WaveRowOutcome =
  /** Finished: closed (beads) or its pull request opened (GitHub). */
  | 'closed'
  /** Found already satisfied. */
  | 'no_change'
  /** Held for a person (issue 42): its work in a draft pull request or on its branch, never merged, the issue open. */
  | 'held'
  | 'escalated'
  /** Its share ran out, or its slice ended, with the work unfinished: a later wave works it again. */
  | 'unfinished'
  /** Its job halted the run (see `halt`). */
  | 'halted'
  /** No partial state: the job died before it saved one; the issue goes back to the ready list. */
  | 'lost';

export interface WaveRow {
  issueId: string;
  title: string;
  outcome: WaveRowOutcome;
  /** The job's iterations, numbered in the loop: first and last (none when it ran none). */
  iterations: number;
  first?: number;
  last?: number;
  costUsd: number;
  /** When its first iteration started and how long its iterations took, for the wave's gantt. */
  startedAt?: string;
  durationMs: number;
  pullRequest?: string;
  /** The job's own halt, in one line. */
  halt?: string;
  /** Why the job's state was not counted (it is not the state of one job of this wave). */
  problem?: string;
  /** A lost job's iterations and spend, as its claim comment last recorded them. */
  countedFromClaim?: boolean;
}

export interface WaveReduction {
  loop: LoopState;
  rows: WaveRow[];
  /** The run's halt, with the fix it names; `issueId` when it is one job's own halt (its diagnostic is that job's). */
  halt?: { reason: HaltReason; message: string; advice?: string; issueId?: string };
}

const ESCALATIONS_KEPT = 100;
export const PULL_REQUESTS_KEPT = 100;

/**
 * The loop's halt that still stands when a wave is reduced: one recorded after the wave's plan (by
 * another run's reduce, while this wave ran). A halt recorded before it was one the plan found and
 * went on past (resumed by hand, or its cause changed): the wave's reduce lifts it, as a slice does.
 * Without this, the reduce of a wave planned before a halt erased it, and the next scheduled run
 * went on as if it had never been. Pure.
 */
export function standingHalt(main: Pick<LoopState, 'halt'>, wave: Pick<Wave, 'startedAt'>): LoopState['halt'] {
  const at = Date.parse(main.halt?.at ?? '');
  return main.halt && at > Date.parse(wave.startedAt) ? main.halt : undefined;
}

export function reduceWave(
  main: LoopState,
  wave: Wave,
  partials: readonly PartialState[],
  settings: WaveSettingsReduce,
): WaveReduction {
  const byIssue = new Map(partials.map((p) => [p.issueId, p.loop]));
  const claimedBy = new Map(partials.map((p) => [p.issueId, p.claimed]));
  let loop: LoopState = { ...main };
  const rows: WaveRow[] = [];
  let halt: WaveReduction['halt'];
  let successes = 0;
  let escalations = 0;
  for (const job of wave.jobs) {
    const part = byIssue.get(job.issueId);
    const problem = part ? notAJobState(part, job) : undefined;
    if (!part || problem) {
      const lost = lostJob(loop, job, claimedBy.get(job.issueId), problem);
      loop = lost.loop;
      rows.push(lost.row);
      continue;
    }
    const offset = loop.iteration;
    const folded = foldJob(loop, part);
    const outcome = rowOutcome(job.issueId, part);
    loop = { ...folded.loop, issueCounts: carryCounts(folded.loop.issueCounts, job.issueId, outcome, part) };
    if (outcome === 'closed' || outcome === 'no_change') successes++;
    if (outcome === 'escalated') escalations++;
    if (part.halt && !JOB_LOCAL_HALTS.has(part.halt.reason) && !halt)
      halt = {
        reason: part.halt.reason,
        message: `${job.issueId}: ${part.halt.message}`,
        ...(part.halt.advice ? { advice: part.halt.advice } : {}),
        issueId: job.issueId,
      };
    rows.push(jobRow(job, part, outcome, offset, folded.newPulls));
  }

  // Escalations in one wave with no success among them are escalations in a row.
  const consecutiveEscalations = successes > 0 ? 0 : loop.consecutiveEscalations + escalations;
  loop = {
    ...loop,
    consecutiveEscalations,
    waves: loop.waves + 1,
    wave: undefined,
    requeued: loop.requeued.filter((r) => !rows.some((row) => row.issueId === r.issueId && row.iterations > 0)),
  };
  halt ??= waveHalt(loop, rows, escalations, settings);
  return { loop, rows, ...(halt ? { halt } : {}) };
}

/** A job whose state is not counted: what its claim comment recorded it ran is (the iterations and spend happened). */
function lostJob(
  loop: LoopState,
  job: Wave['jobs'][number],
  claimed: PartialState['claimed'],
  problem: string | undefined,
): { loop: LoopState; row: WaveRow } {
  const ran = Math.min(claimed?.iterations ?? 0, job.maxIterations);
  const spent = claimed?.costUsd ?? 0;
  return {
    loop: { ...loop, iteration: loop.iteration + ran, costUsd: loop.costUsd + spent },
    row: {
      issueId: job.issueId,
      title: job.title,
      outcome: 'lost',
      iterations: ran,
      costUsd: spent,
      durationMs: 0,
      ...(problem ? { problem } : {}),
      ...(claimed ? { countedFromClaim: true } : {}),
    },
  };
}

/** The loop with one job's state added: its counts summed, its records renumbered after the loop's iterations. */
function foldJob(loop: LoopState, part: LoopState): { loop: LoopState; newPulls: LoopState['pullRequests'] } {
  const offset = loop.iteration;
  const at = (n: number) => n + offset;
  const history = [...loop.history, ...part.history.map((r) => ({ ...r, n: at(r.n) }))];
  const drop = Math.max(0, history.length - HISTORY_KEPT);
  const newPulls = part.pullRequests.map((p) => ({ ...p, iteration: at(p.iteration) }));
  return {
    newPulls,
    loop: {
      ...loop,
      iteration: loop.iteration + part.iteration,
      failedIterations: loop.failedIterations + part.failedIterations,
      successfulIterations: loop.successfulIterations + part.successfulIterations,
      testFailures: loop.testFailures + part.testFailures,
      testsPassed: part.testsPassed ?? loop.testsPassed,
      costUsd: loop.costUsd + part.costUsd,
      tokens: {
        input: loop.tokens.input + part.tokens.input,
        output: loop.tokens.output + part.tokens.output,
      },
      issuesClosed: union(loop.issuesClosed, part.issuesClosed),
      issuesEscalated: union(loop.issuesEscalated, part.issuesEscalated),
      issuesNoChange: union(loop.issuesNoChange, part.issuesNoChange),
      issuesHeld: [...loop.issuesHeld.filter((h) => !part.issuesHeld.some((p) => p.id === h.id)), ...part.issuesHeld],
      completedIterations: [...loop.completedIterations, ...part.completedIterations.map(at)],
      escalations: [...loop.escalations, ...part.escalations.map((e) => ({ ...e, iteration: at(e.iteration) }))].slice(
        -ESCALATIONS_KEPT,
      ),
      totalEscalations: loop.totalEscalations + part.totalEscalations,
      environmentFailures: Math.max(loop.environmentFailures, part.environmentFailures),
      pullRequests: [...loop.pullRequests, ...newPulls].slice(-PULL_REQUESTS_KEPT),
      outbox: [
        ...loop.outbox,
        ...part.outbox.map((o) => ({
          ...o,
          iteration: at(o.iteration),
          cycle: { ...o.cycle, startedAtIteration: at(o.cycle.startedAtIteration) },
        })),
      ],
      // The job's own halt post is not sent: the reduce posts once for the wave.
      notices: [...loop.notices, ...part.notices.filter((n) => n.what.kind !== 'notify')],
      preexistingFailures: part.preexistingFailures.length > 0 ? part.preexistingFailures : loop.preexistingFailures,
      // The output of the run whose record ends the history (the halt diagnostic names that run):
      // the job's, even empty (its agent printed nothing), when it ran one; else the loop's.
      lastAgentOutput: part.history.length > 0 ? part.lastAgentOutput : loop.lastAgentOutput,
      rateLimitedUntil: later(loop.rateLimitedUntil, part.rateLimitedUntil),
      history: history.slice(drop),
      compactedIterations: loop.compactedIterations + part.compactedIterations + drop,
    },
  };
}

/** A counted job's row: its outcome (halted when its halt is the run's), iterations, spend, time and pull request. */
function jobRow(
  job: Wave['jobs'][number],
  part: LoopState,
  outcome: WaveRow['outcome'],
  offset: number,
  newPulls: LoopState['pullRequests'],
): WaveRow {
  const first = part.history[0];
  const lastRecord = part.history.at(-1);
  return {
    issueId: job.issueId,
    title: job.title,
    outcome: part.halt && !JOB_LOCAL_HALTS.has(part.halt.reason) ? 'halted' : outcome,
    iterations: part.iteration,
    ...(part.iteration > 0 ? { first: offset + 1, last: offset + part.iteration } : {}),
    costUsd: part.costUsd,
    ...(first ? { startedAt: first.startedAt } : {}),
    durationMs: first && lastRecord ? spanMs(first.startedAt, lastRecord.startedAt) + lastRecord.durationMs : 0,
    ...(newPulls.at(-1) ? { pullRequest: newPulls.at(-1)?.url } : {}),
    ...(part.halt ? { halt: `${part.halt.reason}: ${part.halt.message}` } : {}),
  };
}

/** The wave's own halt when no job's stands: a failure loop, then the run's iterations, then its budget. */
function waveHalt(
  loop: LoopState,
  rows: readonly WaveRow[],
  escalations: number,
  settings: WaveSettingsReduce,
): WaveReduction['halt'] {
  const consecutiveEscalations = loop.consecutiveEscalations;
  if (escalations > 0 && consecutiveEscalations >= settings.maxConsecutiveEscalations) {
    const ids = rows.filter((r) => r.outcome === 'escalated').map((r) => r.issueId);
    return {
      reason: 'failure_loop',
      message: `FAILURE LOOP DETECTED: ${consecutiveEscalations} consecutive escalations (issues ${ids.join(', ')} in wave ${loop.waves}, no success in it)`,
    };
  }
  const unfinished = rows.some((r) => r.outcome === 'unfinished');
  if (unfinished && loop.iteration >= settings.maxIterations)
    return { reason: 'max_iterations', message: `Max iterations (${settings.maxIterations}) reached` };
  if (unfinished && settings.maxCostUsd !== undefined && loop.costUsd >= settings.maxCostUsd)
    return {
      reason: 'budget',
      // Waves run in the action only (fan-out): its words.
      message: `Budget exhausted: $${loop.costUsd.toFixed(2)} spent of the $${settings.maxCostUsd} cap (${surface('action').option('maxCostUsd')})`,
    };
  return undefined;
}

/**
 * Why a partial state cannot be one fresh job's of this wave, or undefined: one that ran more
 * iterations than its share, or worked other issues, would be counted twice (a job that resumed the
 * loop's own checkpoint instead of starting fresh). Not counted: never a double count.
 */
function notAJobState(part: LoopState, job: Wave['jobs'][number]): string | undefined {
  if (part.iteration > job.maxIterations)
    return `its state has ${part.iteration} iterations, more than the job's share of ${job.maxIterations}: not a fresh job's state`;
  const others = part.history.flatMap((r) => r.issueIds).filter((id) => id !== job.issueId);
  if (others.length > 0) return `its state worked other issues (${[...new Set(others)].join(', ')})`;
  return undefined;
}

/**
 * The loop's per-issue counts after a job: an unfinished issue's are its cycle's, which started from
 * what earlier jobs carried (so they replace them, never add to them); a job that left no cycle of
 * it (it could not start, lost its claim) leaves them as they were; any other outcome ends them.
 * Absent when no issue has any. Pure.
 */
function carryCounts(
  counts: LoopState['issueCounts'],
  issueId: string,
  outcome: WaveRowOutcome,
  part: LoopState,
): LoopState['issueCounts'] {
  const cycle = part.currentCycle;
  const ofIssue = cycle?.issueIds.length === 1 && cycle.issueIds[0] === issueId ? cycle : undefined;
  if (outcome === 'unfinished' && !ofIssue) return counts;
  const { [issueId]: _ended, ...others } = counts ?? {};
  const left =
    outcome === 'unfinished' && ofIssue
      ? { unfinishedRuns: ofIssue.unfinishedRuns ?? 0, silentIterations: ofIssue.silentIterations ?? 0 }
      : undefined;
  const next = left && (left.unfinishedRuns > 0 || left.silentIterations > 0) ? { ...others, [issueId]: left } : others;
  return Object.keys(next).length > 0 ? next : undefined;
}

/** What became of the job's issue, from its own state. */
function rowOutcome(issueId: string, part: LoopState): WaveRowOutcome {
  if (part.issuesEscalated.includes(issueId)) return 'escalated';
  // Left open for a person; one closed as no change is closed (issuesNoChange lists both).
  if (part.issuesNoChange.includes(issueId) && !part.issuesClosed.includes(issueId)) return 'no_change';
  if (part.issuesClosed.includes(issueId)) return 'closed';
  // Held for a person (its draft pull request, or its outbox entry still to land as one): never closed.
  if (part.issuesHeld.some((h) => h.id === issueId)) return 'held';
  // Landed work still in the outbox (a refused push) is finished work: a later run lands it.
  if (part.outbox.some((o) => o.cycle.issueIds.includes(issueId))) return 'closed';
  return 'unfinished';
}

/** `a`, then what of `b` it lacks. Pure. */
export function union(a: readonly string[], b: readonly string[]): string[] {
  return [...a, ...b.filter((x) => !a.includes(x))];
}

function later(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

function spanMs(from: string, to: string): number {
  const d = Date.parse(to) - Date.parse(from);
  return Number.isFinite(d) && d > 0 ? d : 0;
}
