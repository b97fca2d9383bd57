/** The implement iteration's longer messages (log lines, halts, escalation reasons), one function each. Pure. */
import type { AgentFailure, AgentResult } from '../../agents/types.js';
import { seconds } from '../../core/describe.js';
import { NO_CHANGE_LABEL } from '../../issues/types.js';
import { type Held, heldWords } from '../../core/held.js';

export const MESSAGES = {
  strictHalts: (tag: string, workRemaining: string, strict: string) =>
    `${tag} the agent reported requires_continuation: false with work_remaining "${workRemaining}"; ${strict} halts.`,
  overridden: (tag: string, workRemaining: string) =>
    `${tag} the agent reported requires_continuation: false with work_remaining "${workRemaining}"; ` +
    'overriding to continue (logged to errors.jsonl).',
  contractViolation: (n: number, workRemaining: string, strict: string) =>
    `Agent contract violation at iteration ${n}: requires_continuation=false with work_remaining "${workRemaining}" (${strict})`,
  agentFailed: (agentName: string, n: number, failure: AgentFailure, result: AgentResult) => {
    const ended =
      result.exitCode !== null
        ? `exit code ${result.exitCode}`
        : result.signal
          ? `killed by ${result.signal}`
          : 'no exit code';
    return (
      `${agentName} iteration ${n} failed: ${failure.message} ` +
      `(${ended}, ${seconds(result.durationMs)}, ${failure.class} ${failure.reason})`
    );
  },
  retriesExhausted: (failure: AgentFailure, attempts: number) =>
    `${failure.reason === 'timeout' ? 'timed out' : 'network errors'} ${attempts} times in a row ` +
    `(${attempts - 1} retries with the same timeout): ${failure.message}`,
  overCycleLimit: (runs: number, workRemaining: string | undefined, limitOf: string, issues: number) =>
    `${runs} agent runs on this cycle ended with work still remaining${workRemaining ? ` (now: ${workRemaining})` : ''}: ` +
    `the limit is ${limitOf}${issues > 1 ? ` × ${issues} issues` : ''}`,
  noChange: (tag: string, targets: string, why: string, labelled: string[], closed: string[]) =>
    `${tag} ${targets}: no change was needed (${why}); ` +
    `${labelled.length ? `labelled ${labelled.join(', ')} ${NO_CHANGE_LABEL} for a person to close` : `closed ${closed.join(', ')}`}.`,
  rejected: (tag: string, summary: string, exitCode: number | null, durationMs: number) =>
    `${tag} rejected: ${summary} (exit code ${exitCode}, ${seconds(durationMs)}); the next iteration gets the failures as context.`,
  held: (tag: string, targets: string, held: Held, label: string, durationMs: number) =>
    `${tag} ${targets} held for a person (${held.reason}): the tests accept it (${seconds(durationMs)}), but ` +
    `${heldWords(held.reason)}: ${held.why}. Its work is left on its branch (a draft pull request labelled ${label} ` +
    `where work is published), never merged; the issue stays open, labelled ${label}.`,
  complete: (
    tag: string,
    targets: string,
    summary: string,
    durationMs: number,
    viaPullRequest: boolean,
    ids: string[],
  ) =>
    `${tag} ${targets} done: ${summary} (${seconds(durationMs)}); ` +
    `${viaPullRequest ? 'a pull request follows' : `closed ${ids.join(', ')}`}.`,
};
