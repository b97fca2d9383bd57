/**
 * The halt diagnostic (seed 002 AC4) as the sinks see it: loop type, issues, steps, escalation
 * counts and the last 500 characters of agent output, plus what to do. Pure renderers (Markdown for
 * stdout and <state-dir>/halt.md, Discord's message); the engine builds it (src/loop/diagnostic.ts)
 * and the caller redacts it.
 */
import type { HaltMessage } from './discordPayload.js';
import { fencedBlock } from './markdown.js';
import { printable } from '../util/printable.js';

export const OUTPUT_CHARS = 500;

export interface HaltDiagnostic {
  /** The halt reason (src/core/haltReasons.ts). */
  reason: string;
  headline: string;
  loopType: string;
  issues: { id: string; title: string }[];
  steps: string[];
  escalations: { consecutive: number; limit: number; total: number };
  lastOutput: string;
  /** The agent run that printed `lastOutput`: the run's last, which may have been on another issue than those halted on. */
  lastRun?: { iteration: number; issueIds: string[] };
  /** The last failure of the cycle involved (failing tests' output, or the agent's error). */
  lastFailure?: { kind: 'agent' | 'tests'; message: string; tail: string };
  /** What to do: what to fix, then how to resume (in the words of the surface that ran). */
  advice: string;
  /**
   * The ways to resume the advice names (src/core/haltGate.ts ResumeWay: explicit, unlabel,
   * base_commits, max_iterations, budget, fresh), in its order, for a program to follow.
   */
  resume?: string[];
  checkpointId: string;
  iteration: number;
  /** --workflow tdd: the error type that aborted the workflow (seed 003), with its message. */
  tddError?: { type: string; message: string; retry_count: number };
}

/** id as people refer to it: #42 for GitHub numbers, bd-a1 for beads. */
export const issueRef = (id: string) => (/^\d+$/.test(id) ? `#${id}` : id);

/** Output quoted as it is, in a fence longer than any backtick run inside it (nothing invisible added). */
const fence = (text: string) => fencedBlock(text.trimEnd() || '(no output)');

/**
 * Which run the agent output below comes from. An issue can be escalated before any agent run (an
 * agent-loop block that cannot be read), and the output is then an earlier issue's: said, so that it
 * is never read as the halted issue's.
 */
function lastRunLine(d: HaltDiagnostic): string {
  if (!d.lastRun) return 'none in this run, so there is no agent output below';
  const on = `iteration ${d.lastRun.iteration} on ${d.lastRun.issueIds.map(issueRef).join(', ')}`;
  const halted = new Set(d.issues.map((i) => i.id));
  return d.issues.length > 0 && !d.lastRun.issueIds.some((id) => halted.has(id))
    ? `${on}, not one of the issues above: the agent output below is that run's`
    : on;
}

export function renderMarkdown(d: HaltDiagnostic): string {
  const lines = [
    `# agent-loop halted: ${d.headline}`,
    '',
    `- Loop type: ${d.loopType}`,
    `- Issues: ${d.issues.map((i) => `${issueRef(i.id)}${i.title ? ` "${printable(i.title)}"` : ''}`).join(', ') || 'none'}`,
    `- Steps involved: ${d.steps.join(', ') || 'none'}`,
    `- Escalations: ${d.escalations.consecutive} consecutive (limit ${d.escalations.limit}), ${d.escalations.total} in the loop so far`,
    `- Iteration: ${d.iteration}; checkpoint ${d.checkpointId}`,
    `- Last agent run: ${lastRunLine(d)}`,
    ...(d.tddError
      ? [`- Error type: ${d.tddError.type} (${d.tddError.retry_count} attempts): ${d.tddError.message}`]
      : []),
    '',
    `What to do: ${d.advice}`,
    '',
    ...(d.lastFailure
      ? [
          `Last failure (${d.lastFailure.kind === 'tests' ? 'the test gate' : 'the agent'}): ${d.lastFailure.message}`,
          '',
          ...fence(d.lastFailure.tail),
          '',
        ]
      : []),
    // No agent run, no output to quote (a baseline that cannot be read halts before any): said once, above.
    ...(d.lastRun || d.lastOutput.trim()
      ? [`Last ${OUTPUT_CHARS} characters of agent output:`, '', ...fence(d.lastOutput), '']
      : []),
    'Nothing was reset: the checkpoint, the branch, the working tree and the escalation labels are as the run left them.',
  ];
  return `${lines.join('\n')}\n`;
}

export function toDiscordMessage(d: HaltDiagnostic): HaltMessage {
  return {
    title: `agent-loop halted: ${d.loopType}`,
    summary: `${d.headline}\n\n${d.advice}`,
    fields: [
      {
        name: 'Issues',
        value: d.issues.map((i) => `${issueRef(i.id)}${i.title ? ` ${printable(i.title)}` : ''}`).join('\n') || 'none',
      },
      { name: 'Steps', value: d.steps.join(', ') || 'none', inline: true },
      {
        name: 'Escalations',
        value: `${d.escalations.consecutive} consecutive (limit ${d.escalations.limit}), ${d.escalations.total} total`,
        inline: true,
      },
      ...(d.tddError ? [{ name: 'Error type', value: `${d.tddError.type}: ${d.tddError.message}` }] : []),
      { name: 'Checkpoint', value: `${d.checkpointId} (iteration ${d.iteration})` },
      { name: 'Last agent run', value: lastRunLine(d) },
    ],
    outputTail:
      d.lastFailure?.kind === 'tests'
        ? `${d.lastFailure.message}\n${d.lastFailure.tail}\n--- agent output ---\n${d.lastOutput}`
        : d.lastOutput,
    color: 0xd73a49,
  };
}
