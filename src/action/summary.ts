/**
 * What a workflow run shows: the step outputs and the job summary (Markdown, under GitHub's 1 MiB
 * limit whatever the history). Pure; the caller redacts and writes them.
 */
import { describeResume, describeResumeWay, describeResumeWays } from '../core/resumeWays.js';
import { type LoopCounts, type RunResult, deferredLine, splitNoChange } from '../core/result.js';
import { issueRef } from '../report/diagnostic.js';
import { HELD_REASONS, heldLabel } from '../core/held.js';

export const SUMMARY_LIMIT = 1024 * 1024;
const TABLE_ROWS = 200;
const GANTT_ROWS = 60;

/**
/**
 * The step's one error annotation when a run fails (issue 40): the halt's reason and message and how
 * to resume it, in the action's words; the job summary holds the diagnostic.
 */
export function haltFailure(r: Pick<RunResult, 'haltReason' | 'error' | 'resume'>): string {
  if (!r.haltReason) return 'agent-loop stopped before it had a result: the log above says why.';
  const resume = r.resume ? ` ${describeResume(r.resume, 'action')}` : '';
  return `agent-loop halted (${r.haltReason}): ${(r.error ?? '').replace(/\.$/, '')}.${resume} The job summary holds the diagnostic.`;
}

/**
 * The action's outputs, named as in action.yml: the counts and lists of this run (a step: its slice;
 * an idle run, a halt that stands or a deferred run did nothing: 0 and empty), and the loop's
 * totals across runs under `loop-` names.
 */
export function resultOutputs(r: RunResult, redact: (text: string) => string): Record<string, string> {
  return {
    status: r.status,
    'halt-reason': r.haltReason ?? '',
    iterations: String(r.iterations),
    'failed-iterations': String(r.failedIterations),
    'successful-iterations': String(r.successfulIterations),
    'issues-closed': r.issuesClosed.join(','),
    'issues-escalated': r.issuesEscalated.join(','),
    // The ones left open for a person (issuesNoChange also lists those closed as no change, in issues-closed).
    'issues-no-change': splitNoChange(r).open.join(','),
    'issues-held': (r.issuesHeld ?? []).map((h) => h.id).join(','),
    'preexisting-failures': r.preexistingFailures.join(','),
    'pull-requests': r.pullRequests.map((p) => p.url).join(','),
    'cost-usd': r.costUsd.toFixed(4),
    ...loopOutputs(r.loop),
    'checkpoint-id': r.checkpointId,
    'result-json': redact(JSON.stringify(r)),
  };
}

/** The loop's totals as outputs (`loop-…`), the same from a step, a plan and a reduce. Pure. */
export function loopOutputs(
  loop: Pick<
    LoopCounts,
    'iterations' | 'issuesClosed' | 'issuesEscalated' | 'issuesNoChange' | 'issuesHeld' | 'pullRequests' | 'costUsd'
  >,
): Record<string, string> {
  return {
    'loop-iterations': String(loop.iterations),
    'loop-issues-closed': loop.issuesClosed.join(','),
    'loop-issues-escalated': loop.issuesEscalated.join(','),
    'loop-issues-no-change': splitNoChange(loop).open.join(','),
    'loop-issues-held': (loop.issuesHeld ?? []).map((h) => h.id).join(','),
    'loop-pull-requests': loop.pullRequests.map((p) => p.url).join(','),
    'loop-cost-usd': loop.costUsd.toFixed(4),
  };
}

/** The repository variable the reusable workflow passes as the input paused. */
export const PAUSE_VARIABLE = 'AGENT_LOOP_PAUSED';

/** Where the pause switch is, and how to turn it off, for the warning and the summary. */
function pauseSource(by: 'input' | 'env'): { where: string; unpause: string } {
  const variable = `set the repository variable \`${PAUSE_VARIABLE}\` to \`false\` or delete it (Settings → Secrets and variables → Actions → Variables)`;
  return by === 'input'
    ? {
        where: `the input \`paused\` is true (the reusable workflow sets it from the repository variable \`${PAUSE_VARIABLE}\`)`,
        unpause: `${variable}, or drop \`paused\` from the step's inputs`,
      }
    : {
        where: `\`${PAUSE_VARIABLE}\` is true in the step's environment`,
        unpause: `${variable}, or drop \`${PAUSE_VARIABLE}\` from the step's \`env:\``,
      };
}

/**
 * The outputs of a paused run (issue 15): `status: paused`, which a workflow can test; nothing was
 * read, so the counters and the checkpoint are empty.
 */
export function pausedOutputs(): Record<string, string> {
  return { status: 'paused', 'result-json': JSON.stringify({ status: 'paused', paused: true }) };
}

/** The warning annotation of a paused run: that it is paused, by what, and how to resume. */
export function pausedWarning(by: 'input' | 'env'): string {
  const { where, unpause } = pauseSource(by);
  return (
    `agent-loop is paused: ${where.replace(/`/g, '')}. Nothing was read, run or published. To resume, ` +
    `${unpause.replace(/`/g, '')}: the next run continues from the newest checkpoint.`
  );
}

/** The job summary of a paused run. */
export function pausedSummary(by: 'input' | 'env'): string {
  const { where, unpause } = pauseSource(by);
  return [
    '## ⏯️ agent-loop: paused',
    '',
    `The loop is paused: ${where}.`,
    '',
    'This run did nothing: no issue, checkpoint or cache was read, no agent was installed or run, nothing ' +
      'was published or posted. The issues, their claims and pull requests, and the saved checkpoints are ' +
      'as the last run left them.',
    '',
    `**To resume:** ${unpause}. The next run (scheduled, or by hand) continues from the newest checkpoint; a halt stands as before.`,
    '',
  ].join('\n');
}

/**
 * A run that stopped without a result (issue 40): an error, or GitHub refusing the token before it
 * started. The outputs say so (status stopped, the error in result-json), not nothing.
 */
export function stoppedOutputs(message: string, unchanged: boolean): Record<string, string> {
  return { status: 'stopped', 'result-json': JSON.stringify({ status: 'stopped', error: message, unchanged }) };
}

/** The job summary of a run that stopped without a result: what it said, and what was kept. */
export function stoppedSummary(message: string, unchanged: boolean): string {
  return [
    '## 🛑 agent-loop: stopped',
    '',
    `**${escape(message)}**`,
    '',
    unchanged
      ? 'Nothing was started, written or published: the issues, the saved checkpoints and the pull requests are as the last run left them.'
      : 'The iterations recorded before it stopped are kept in the checkpoint, published as usual; the next run resumes from it.',
    '',
  ].join('\n');
}

export interface SummaryContext {
  /** Issues skipped because their author's association is not allowed. */
  skippedOutsiders?: { id: string; author: string; association: string }[];
  /** How to resume, e.g. the workflow's dispatch input. */
  resumeHint?: string;
  /**
   * The repository whose GitHub issues the run worked (source github): each issue the summary names
   * links to `<server>/<owner>/<repo>/issues/<n>`. Absent (beads issues): issues are named, not linked.
   */
  issueLinks?: { serverUrl: string; repository: string };
}

/** Names an issue: `#n` linked to it on GitHub where the issues are GitHub's, else as issueRef does. Pure. */
export function issueLink(id: string, links: SummaryContext['issueLinks']): string {
  if (!links || !/^\d+$/.test(id)) return issueRef(id);
  return `[#${id}](${links.serverUrl.replace(/\/+$/, '')}/${links.repository}/issues/${id})`;
}

export function buildSummary(r: RunResult, ctx: SummaryContext = {}): string {
  if (r.standing) return standingSummary(r, r.standing);
  if (r.idle) return idleSummary(r, ctx);
  if (r.deferred && r.unchanged) return deferredSummary(r, r.deferred);
  const ref = (id: string) => issueLink(id, ctx.issueLinks);
  const refs = (ids: readonly string[]) => ids.map(ref).join(', ');
  const icon =
    r.status === 'complete' ? '✅' : r.status === 'continuing' ? '⏸️' : r.status === 'deferred' ? '⏳' : '🛑';
  const lines: string[] = [`## ${icon} agent-loop: ${r.status}${r.haltReason ? ` (${r.haltReason})` : ''}`, ''];
  if (r.deferred) lines.push(`**${escape(deferredLine(r.deferred))}**`, '');
  lines.push(
    `This run: ${r.iterations} iteration${r.iterations === 1 ? '' : 's'}, ${r.successfulIterations} agent ` +
      `ok, ${r.failedIterations} agent failed, ${r.testFailures} test failures; spend $${r.costUsd.toFixed(4)}.`,
    '',
    `The loop so far (all runs of this checkpoint): iterations ${r.loop.iterations}/${r.maxIterations}` +
      `, ${r.loop.issuesClosed.length} issue(s) done, ${r.loop.issuesEscalated.length} escalated; spend ` +
      `$${r.loop.costUsd.toFixed(4)}.`,
    '',
  );
  if (r.diagnostic)
    lines.push('<details open><summary>Halt diagnostic</summary>', '', r.diagnostic.trimEnd(), '', '</details>', '');

  lines.push('| in this run | issues |', '|---|---|');
  const prs = r.pullRequests;
  lines.push(`| ${prs.length > 0 ? 'done' : 'closed'} | ${refs(r.issuesClosed) || 'none'} |`);
  if (prs.length > 0)
    lines.push(
      `| pull requests | ${prs.map((p) => `[#${p.number}](${p.url}) (${refs(p.issueIds)}${p.reused ? ', updated' : ''})`).join(', ')} |`,
    );
  const worked = [...new Set(r.history.flatMap((h) => h.issueIds))];
  if (worked.length > 0) lines.push(`| worked | ${refs(worked)} |`);
  lines.push(`| escalated | ${refs(r.issuesEscalated) || 'none'} |`);
  const leftOpen = splitNoChange(r).open;
  if (leftOpen.length > 0) lines.push(`| no change needed (left open, \`agent-loop:no-change\`) | ${refs(leftOpen)} |`);
  for (const reason of HELD_REASONS) {
    const held = (r.issuesHeld ?? []).filter((h) => h.reason === reason).map((h) => h.id);
    if (held.length > 0)
      lines.push(`| held for a person, never merged (left open, \`${heldLabel(reason)}\`) | ${refs(held)} |`);
  }
  if (r.issuesClaimedElsewhere.length > 0)
    lines.push(`| left to other runs (\`agent-loop:in-progress\`, lease live) | ${refs(r.issuesClaimedElsewhere)} |`);
  if (r.preexistingFailures.length > 0)
    lines.push(
      `| failing before, not targeted | ${r.preexistingFailures
        .slice(0, 20)
        .map((id) => `\`${escape(id)}\``)
        .join(', ')}${r.preexistingFailures.length > 20 ? `, … (${r.preexistingFailures.length})` : ''} |`,
    );
  const outsiders = ctx.skippedOutsiders ?? [];
  lines.push(`| skipped (author not allowed) | ${outsiderList(outsiders, ctx.issueLinks) || 'none'} |`, '');

  lines.push(...iterationsTable(r, refs));

  lines.push(
    `Checkpoint \`${r.checkpointId}\`${
      r.status === 'complete'
        ? '.'
        : r.status === 'deferred'
          ? ': the next run resumes it and lists the issues again.'
          : r.status === 'halted'
            ? ': later runs stay halted (each ends at once, green, with a warning) until it is resumed: ' +
              `${describeResumeWays(r.resume ?? ['explicit', 'fresh'], 'action')}.`
            : `: the next run resumes it${ctx.resumeHint ? `; ${ctx.resumeHint}` : ''}.`
    }`,
  );
  return fit(`${lines.join('\n')}\n`);
}

/** This run's iterations as a table (the last TABLE_ROWS) and a gantt of them; nothing when none ran. */
function iterationsTable(r: RunResult, refs: (ids: readonly string[]) => string): string[] {
  const rows = r.history.slice(-TABLE_ROWS);
  if (rows.length === 0) return [];
  const lines: string[] = [];
  lines.push(
    `### This run's iterations${r.history.length > rows.length ? ` (the last ${rows.length} of ${r.history.length})` : ''}`,
    '',
  );
  lines.push('| # | issue | outcome | agent | tests | duration | cost |', '|---|---|---|---|---|---|---|');
  for (const h of rows) {
    const agent = h.agent.ok ? 'ok' : `${h.agent.failure?.class ?? 'failed'} ${h.agent.failure?.reason ?? ''}`.trim();
    const tests = h.verdict
      ? `${h.verdict.kind}: ${escape(h.verdict.summary)}`
      : h.tests
        ? h.tests.passed
          ? 'passed'
          : `failed (${h.tests.exitCode})`
        : '—';
    lines.push(
      `| ${h.n} | ${refs(h.issueIds)} | ${h.outcome} | ${agent} | ${tests} | ${seconds(h.durationMs)} | ` +
        `${h.agent.costUsd !== undefined ? `$${h.agent.costUsd.toFixed(4)}` : '—'} |`,
    );
  }
  lines.push('', ...gantt(rows.slice(-GANTT_ROWS)), '');
  return lines;
}

/** A Mermaid gantt of the slice's iterations, each from its start for its duration. */
function gantt(rows: RunResult['history']): string[] {
  const out = ['```mermaid', 'gantt', '  dateFormat x', '  axisFormat %H:%M:%S', '  title This run'];
  for (const h of rows) {
    const start = Date.parse(h.startedAt);
    if (!Number.isFinite(start)) continue;
    const tag =
      h.outcome === 'complete'
        ? 'done, '
        : h.outcome === 'agent_failed' || h.outcome === 'tests_failed'
          ? 'crit, '
          : '';
    out.push(
      // Mermaid ends a task's name at ':' and reads '#' and ';' as syntax: they become spaces.
      `  iteration ${h.n} · ${h.issueIds.join(', ').replace(/[:#;]/g, ' ')} · ${h.outcome.replace(/_/g, ' ')}` +
        ` : ${tag}${start}, ${Math.max(1, Math.round(h.durationMs))}ms`,
    );
  }
  out.push('```');
  return out;
}

/** Never over the limit: cut at a line, say so. */
function fit(text: string): string {
  if (Buffer.byteLength(text) <= SUMMARY_LIMIT) return text;
  const note = '\n\n_(summary cut to stay under the 1 MiB job summary limit)_\n';
  let cut = text.slice(0, SUMMARY_LIMIT - note.length - 4096);
  while (Buffer.byteLength(cut) > SUMMARY_LIMIT - note.length) cut = cut.slice(0, -4096);
  return `${cut.slice(0, cut.lastIndexOf('\n'))}${note}`;
}

/** The outsiders' issues skipped, for the summary. */
const outsiderList = (
  outsiders: NonNullable<SummaryContext['skippedOutsiders']>,
  links?: SummaryContext['issueLinks'],
) => outsiders.map((o) => `${issueLink(o.id, links)} by ${escape(o.author)} (${o.association})`).join(', ');
const escape = (s: string) => s.replace(/[|<>`]/g, (c) => `\\${c}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** An earlier halt that still stands: since when, why, the fix it named, and how to resume. */
function standingSummary(r: RunResult, standing: NonNullable<RunResult['standing']>): string {
  return [
    `## ⏸️ agent-loop: still halted (${r.haltReason})`,
    '',
    `Halted since ${standing.since ?? 'an earlier run'}: ${escape(r.error ?? '')}.`,
    '',
    'This run did nothing: no agent was installed or run, no checkpoint was written, nothing was posted.',
    '',
    ...(standing.advice ? [`**The fix it named:** ${escape(standing.advice)}`, ''] : []),
    '**To resume:**',
    '',
    ...standing.resume.map((w) => `- ${describeResumeWay(w, 'action')}`),
    '',
    `The loop so far: iterations ${r.loop.iterations}/${r.maxIterations}, ${r.loop.successfulIterations}` +
      ` agent ok, ${r.loop.failedIterations} agent failed; spend $${r.loop.costUsd.toFixed(4)}. Checkpoint ` +
      `\`${r.checkpointId}\`.`,
    '',
  ].join('\n');
}

/** A run with nothing to do: it wrote, installed and published nothing. */
function idleSummary(r: RunResult, ctx: SummaryContext): string {
  const outsiders = ctx.skippedOutsiders ?? [];
  return [
    '## ✅ agent-loop: complete, nothing to do',
    '',
    'No issue is ready, no cycle is in flight and no finished work waits to land: no agent was installed ' +
      'or run, no checkpoint was written, nothing was published.',
    '',
    ...(outsiders.length > 0 ? [`Skipped (author not allowed): ${outsiderList(outsiders, ctx.issueLinks)}.`, ''] : []),
    r.checkpointId
      ? `Checkpoint \`${r.checkpointId}\`, unchanged: the loop so far ran ${r.loop.iterations}/${r.maxIterations}` +
        ` iterations, ${r.loop.issuesClosed.length} issue(s) done, spend $${r.loop.costUsd.toFixed(4)}. This ` +
        `run did none of it: its own outputs are empty, the loop-… outputs hold these totals.`
      : 'No checkpoint yet.',
    '',
  ].join('\n');
}

/** A run deferred before it changed anything: what failed, that nothing was lost, and what comes next. */
function deferredSummary(r: RunResult, deferred: NonNullable<RunResult['deferred']>): string {
  return [
    '## ⏳ agent-loop: deferred',
    '',
    `**${escape(deferred.message)}**`,
    '',
    'Without the list the run cannot tell which issues are workable, so it started none: no agent was ' +
      'run and nothing was published. Nothing was lost: the issues, their pull requests and the saved checkpoints ' +
      'are as they were, and the next run (scheduled, or by hand) lists them again.',
    '',
    r.checkpointId
      ? `Checkpoint \`${r.checkpointId}\`, unchanged: the loop so far ran ${r.loop.iterations}/${r.maxIterations}` +
        ` iterations, ${r.loop.issuesClosed.length} issue(s) done, spend $${r.loop.costUsd.toFixed(4)}.`
      : 'No checkpoint yet.',
    '',
  ].join('\n');
}
