/**
 * What run --parallel's coordinator says of its waves (src/core/wave.ts): the wave's start, each
 * job's row once it is reduced, and the advice when the base branch moved behind it. Pure.
 */
import type { LoopState, Wave } from './state.js';
import type { WavePlan } from './wavePlan.js';
import type { WaveRow } from './waveReduce.js';

/** "Wave 3: 12 (4 iterations), 13 (4 iterations) in parallel; later: 14." */
export function waveStartLine(number: number, wave: Wave, deferred: WavePlan['deferred']): string {
  const shares = wave.jobs.map((j) => `${j.issueId} (${j.maxIterations} iteration${j.maxIterations === 1 ? '' : 's'})`);
  const later = deferred.length ? `; later: ${deferred.map((d) => d.issueId).join(', ')}` : '';
  return `Wave ${number}: ${shares.join(', ')} in parallel${later}.`;
}

/** One job of the reduced wave, in one line. */
export function describeRow(row: WaveRow, requeued: LoopState['requeued']): string {
  const again = requeued.some((r) => r.issueId === row.issueId);
  const what = again ? 'not merged (conflict): worked again on the new base' : row.outcome;
  const runs = `${row.iterations} iteration${row.iterations === 1 ? '' : 's'}${row.first ? ` (#${row.first}–#${row.last})` : ''}`;
  return `[${row.issueId}] ${what}: ${runs}${row.halt ? `; ${row.halt}` : ''}.`;
}

/** The run's message and what to do, when the base branch moved behind the coordinator during wave `number`. */
export function baseMovedHalt(
  moved: { message: string; was: string },
  base: string,
  number: number,
  ran: number,
): { message: string; advice: string } {
  const notCounted = ` (The wave's ${ran} iteration(s) are not in the counts below yet: they are counted when the wave is merged, on resume.)`;
  const was = moved.was.slice(0, 12);
  const advice = [
    `Something other than agent-loop moved ${base} while wave ${number} ran (most likely a job's agent, from its worktree:`,
    "worktrees share the repository's branches); nothing more was merged and nothing was reset.",
    `Inspect with git log ${was}..${base}, git reflog ${base} and git status (${base} moved under your checkout,`,
    `so its index and files still hold ${was}: the difference shows as staged changes).`,
    `If the move is unwanted, git reset --keep ${was} (in your checkout, on ${base}) puts it back.`,
    "Resumed, the run merges the wave's finished jobs without working them again.",
  ].join(' ');
  return { message: `${moved.message}${ran > 0 ? notCounted : ''}`, advice };
}
