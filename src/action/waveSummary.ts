/**
 * Fan-out (issue 16): what the reduce job shows for one wave, its job summary (one row per issue, a
 * Mermaid gantt of the jobs side by side) and its outputs. Pure; the caller redacts and writes them.
 */
import type { LoopState, Wave } from '../core/state.js';
import type { WaveReduction, WaveRow } from '../core/waveReduce.js';
import type { LandingReduction } from '../core/waveOutbox.js';
import { type SummaryContext, issueLink, loopOutputs } from './summary.js';
import { loopTotals, runPart } from '../core/result.js';
import { describeResumeWays, resumeWays } from '../core/resumeWays.js';

/**
 * A pull request as a Markdown link, `[#12](url)`, as the single job's summary names them; a URL
 * that is no pull request's (another host's layout) keeps itself as the link's text.
 */
export function pullRequestLink(url: string): string {
  const number = /\/pull\/(\d+)\/?$/.exec(url)?.[1];
  // Percent-encoded: what would end the link or the table cell (brackets, a bar, white space).
  const href = url.replace(/[()[\]|<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `[${number ? `#${number}` : href}](${href})`;
}

const OUTCOME_WORDS: Record<WaveRow['outcome'], string> = {
  closed: 'done',
  no_change: 'no change needed',
  held: 'held for a person',
  escalated: 'escalated',
  unfinished: 'unfinished (a later wave goes on)',
  halted: 'halted the run',
  lost: 'lost: the job died before it saved (its lease expires, a later wave works it)',
};

export interface WaveSummaryContext {
  checkpointId: string;
  issueLinks?: SummaryContext['issueLinks'];
  /** What the wave's landing job did with earlier waves' unlanded work. */
  landing?: Pick<LandingReduction, 'landed' | 'left' | 'problem'>;
}

/**
 * The reduce job's outputs, named as the single job's (action.yml): this run's counts and lists are
 * the wave's (with what its landing job landed), the difference between the loop before the reduce
 * (`before`) and after it; the loop's totals go to the `loop-…` outputs. Pure.
 */
export function waveOutputs(
  before: LoopState,
  loop: LoopState,
  reduction: WaveReduction,
  checkpointId: string,
): Record<string, string> {
  const status = reduction.halt ? 'halted' : 'continuing';
  const { history: _history, ...wave } = runPart(before, loop);
  return {
    status,
    'halt-reason': reduction.halt?.reason ?? '',
    iterations: String(wave.iterations),
    'failed-iterations': String(wave.failedIterations),
    'successful-iterations': String(wave.successfulIterations),
    'issues-closed': wave.issuesClosed.join(','),
    'issues-escalated': wave.issuesEscalated.join(','),
    'issues-no-change': wave.issuesNoChange.join(','),
    'issues-held': (wave.issuesHeld ?? []).map((h) => h.id).join(','),
    'preexisting-failures': wave.preexistingFailures.join(','),
    'pull-requests': wave.pullRequests.map((p) => p.url).join(','),
    'cost-usd': wave.costUsd.toFixed(4),
    ...loopOutputs(loopTotals(loop)),
    'checkpoint-id': checkpointId,
    'result-json': JSON.stringify({
      status,
      haltReason: reduction.halt?.reason ?? null,
      wave: loop.waves,
      rows: reduction.rows,
      ...wave,
      loop: loopTotals(loop),
      checkpointId,
    }),
  };
}

/**
 * The outputs of a reduce that added nothing (its wave was reduced before: a re-run): this run did
 * nothing, the loop's totals as they stand. Pure.
 */
export function unchangedWaveOutputs(loop: LoopState, checkpointId: string): Record<string, string> {
  const status = loop.halt ? 'halted' : 'continuing';
  return {
    status,
    'halt-reason': loop.halt?.reason ?? '',
    iterations: '0',
    'failed-iterations': '0',
    'successful-iterations': '0',
    'issues-closed': '',
    'issues-escalated': '',
    'issues-no-change': '',
    'issues-held': '',
    'preexisting-failures': '',
    'pull-requests': '',
    'cost-usd': (0).toFixed(4),
    ...loopOutputs(loopTotals(loop)),
    'checkpoint-id': checkpointId,
    'result-json': JSON.stringify({
      status,
      haltReason: loop.halt?.reason ?? null,
      iterations: 0,
      loop: loopTotals(loop),
      checkpointId,
    }),
  };
}

/** The wave's job summary: how it ended, a row per issue, the jobs' gantt, the loop's totals. */
export function waveSummary(wave: Wave, loop: LoopState, reduction: WaveReduction, ctx: WaveSummaryContext): string {
  const { rows, halt } = reduction;
  if (rows.length === 0 && halt && !ctx.landing)
    return [
      `## 🛑 agent-loop halted (${halt.reason}) before a wave`,
      '',
      `**${escape(halt.message)}**`,
      '',
      `The loop after ${loop.waves} wave${loop.waves === 1 ? '' : 's'}: iterations ${loop.iteration}/${loop.maxIterations}` +
        `; ${loop.issuesClosed.length} issue(s) done, ${loop.issuesEscalated.length} escalated; spend $${loop.costUsd.toFixed(4)}.`,
      '',
      `Checkpoint \`${ctx.checkpointId}\`: later runs stay halted until it is resumed: ${describeResumeWays(resumeWays(halt), 'action', loop.baseBranch)}.`,
      '',
    ].join('\n');
  const head = halt
    ? `## 🛑 agent-loop: wave ${loop.waves} halted (${halt.reason})`
    : `## 🔀 agent-loop: wave ${loop.waves}, ${rows.length} job${rows.length === 1 ? '' : 's'} in parallel`;
  const lines = [head, ''];
  if (halt) lines.push(`**${escape(halt.message)}**`, '');
  const landing = ctx.landing;
  if (landing)
    lines.push(
      `Earlier work: ${landing.landed} finished cycle(s) landed by the landing job, ${landing.left} still ` +
        `to land${landing.problem ? ` (${escape(landing.problem)})` : ''}.`,
      '',
    );
  if (rows.length > 0)
    lines.push(
      '| issue | outcome | iterations | spend | time | pull request |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${issueLink(r.issueId, ctx.issueLinks)} ${escape(r.title)} | ${OUTCOME_WORDS[r.outcome]}` +
          (r.halt && r.outcome !== 'lost' ? ` (${escape(r.halt)})` : '') +
          ` | ${r.iterations > 0 ? (r.first !== undefined ? `${r.iterations} (#${r.first}–#${r.last})` : `${r.iterations} (from its claim comment)`) : '0'}` +
          ` | $${r.costUsd.toFixed(4)} | ${(r.durationMs / 1000).toFixed(1)}s | ${r.pullRequest ? pullRequestLink(r.pullRequest) : '—'} |`,
      ),
      '',
      ...gantt(wave, rows),
      '',
    );
  lines.push(
    `The loop after ${loop.waves} wave${loop.waves === 1 ? '' : 's'}: iterations ${loop.iteration}/${loop.maxIterations}` +
      `, ${loop.successfulIterations} agent ok, ${loop.failedIterations} agent failed; ${loop.issuesClosed.length}` +
      ` issue(s) done, ${loop.issuesEscalated.length} escalated; spend $${loop.costUsd.toFixed(4)}; consecutive ` +
      `escalations ${loop.consecutiveEscalations}.`,
    '',
    `Checkpoint \`${ctx.checkpointId}\`` +
      (halt
        ? `: later runs stay halted until it is resumed: ${describeResumeWays(resumeWays(halt), 'action', loop.baseBranch)}.`
        : ': the next wave goes on from it.'),
    '',
  );
  return lines.join('\n');
}

/** A Mermaid gantt of the wave's jobs, each from its first iteration for its iterations' span. */
function gantt(wave: Wave, rows: readonly WaveRow[]): string[] {
  const out = ['```mermaid', 'gantt', '  dateFormat x', '  axisFormat %H:%M:%S', `  title Wave ${escapeTask(wave.id)}`];
  const waveStart = Date.parse(wave.startedAt);
  for (const r of rows) {
    const start = r.startedAt ? Date.parse(r.startedAt) : waveStart;
    if (!Number.isFinite(start)) continue;
    const tag =
      r.outcome === 'closed' || r.outcome === 'no_change' ? 'done, ' : r.outcome === 'unfinished' ? '' : 'crit, ';
    out.push(
      `  ${escapeTask(r.issueId)} · ${escapeTask(r.outcome.replace(/_/g, ' '))} : ${tag}${start}, ${Math.max(1, Math.round(r.durationMs))}ms`,
    );
  }
  out.push('```');
  return out;
}

// Mermaid ends a task's name at ':' and reads '#' and ';' as syntax: they become spaces.
const escapeTask = (s: string) => s.replace(/[:#;]/g, ' ');
const escape = (s: string) => s.replace(/[|<>`]/g, (c) => `\\${c}`);
