/**
 * What a Claude Code run's outcome means for the loop. Pure. The rules come from the CLI's real
 * output (shared/fixtures/claude-code-2.1.197): an API failure ends with subtype "success" AND
 * is_error true, so success is `subtype == "success" && !is_error`.
 */
import type { ProcessResult } from './process.js';
import type { ClaudeStreamState } from './claudeStream.js';
import type { AgentFailure } from './types.js';
import { classifyCommandOutcome } from './classifyCommand.js';

export interface ClaudeOutcomeInput {
  state: ClaudeStreamState;
  process: ProcessResult;
  timeoutMs?: number;
  /** Epoch ms, to turn a rate-limit reset time into a wait. */
  now: number;
  /** The command that was run, for "not found" messages. */
  command?: string;
}

export function classifyClaudeOutcome({
  state,
  process,
  timeoutMs,
  now,
  command = 'claude',
}: ClaudeOutcomeInput): AgentFailure | undefined {
  // Our own limits first: a run we killed is a timeout whatever it printed.
  if (process.spawnError || process.timedOut || process.aborted) return classifyCommandOutcome(process, timeoutMs);
  const result = state.result;
  if (!result) return withoutResult(process, command);
  if (result.subtype === 'success' && !result.isError) return undefined;

  const text = clip(result.text.replace(/\s+/g, ' ').trim(), 300);
  switch (result.subtype) {
    case 'error_max_turns':
      return {
        class: 'permanent',
        reason: 'max_turns',
        message: `stopped at the maximum number of turns (${result.numTurns ?? '?'} turns)`,
      };
    case 'error_max_budget_usd':
      return {
        class: 'permanent',
        reason: 'budget',
        message: `stopped at its budget (${result.costUsd ?? '?'} USD spent)`,
      };
    case 'error_during_execution':
      return {
        class: 'transient',
        reason: 'execution_error',
        message: `error during execution${text ? `: ${text}` : ''}`,
      };
  }
  const status = result.apiErrorStatus ?? state.lastRetry?.status ?? null;
  return byStatus(status, text, result.text, state, now) ?? byText(result.text, result.subtype, text);
}

/** A run that ended without its result event: Claude Code not found, or crashed. */
function withoutResult(process: ClaudeOutcomeInput['process'], command: string): AgentFailure {
  if (process.exitCode === 127) {
    return {
      class: 'permanent',
      reason: 'not_found',
      message: `${command} not found: install Claude Code (npm install -g @anthropic-ai/claude-code) or put it on PATH`,
    };
  }
  const stderr = lastLines(process.stderrTail, 3);
  const how =
    process.exitCode !== null
      ? `exited with code ${process.exitCode}`
      : `was killed by ${process.signal ?? 'a signal'}`;
  return {
    class: 'transient',
    reason: 'crashed',
    message: `Claude Code ${how} without a result${stderr ? `: ${stderr}` : ''}`,
  };
}

/** An error result by the API's HTTP status (the result's, or the last retry's); undefined without one that says. */
function byStatus(
  status: number | null,
  text: string,
  resultText: string,
  state: ClaudeOutcomeInput['state'],
  now: number,
): AgentFailure | undefined {
  if (status === 429) {
    const failure: AgentFailure = {
      class: 'transient',
      reason: 'rate_limit',
      message: `rate limited (HTTP 429): ${text}`,
    };
    const wait = state.rateLimitResetsAt !== undefined ? state.rateLimitResetsAt - now : state.lastRetry?.delayMs;
    if (wait !== undefined && wait > 0) failure.retryAfterMs = Math.ceil(wait);
    return failure;
  }
  if (status === 529)
    return { class: 'transient', reason: 'overloaded', message: `the API is overloaded (HTTP 529): ${text}` };
  if (status !== null && status >= 500)
    return { class: 'transient', reason: 'server_error', message: `API server error (HTTP ${status}): ${text}` };
  if (status === 401 || status === 403) {
    return {
      class: 'permanent',
      reason: 'auth',
      message: `authentication failed (HTTP ${status}): ${text}. Check ANTHROPIC_API_KEY (or the CLI's login)`,
    };
  }
  if (status === 402) return { class: 'permanent', reason: 'billing', message: `billing problem (HTTP 402): ${text}` };
  if (status !== null && status >= 400) {
    const named = /prompt is too long/i.test(resultText) ? 'prompt is too long' : 'invalid request';
    return { class: 'permanent', reason: 'invalid_request', message: `${named} (HTTP ${status}): ${text}` };
  }
  return undefined;
}

/** An error result with no status that says: a network error by its words, or the agent's own error. */
function byText(resultText: string, subtype: string, text: string): AgentFailure {
  if (/connection|network|ECONN|socket|fetch failed|timed? ?out/i.test(resultText)) {
    return { class: 'transient', reason: 'network', message: `network error: ${text}` };
  }
  return {
    class: 'transient',
    reason: 'agent_error',
    message: `Claude Code reported an error (${subtype}): ${text || 'no message'}`,
  };
}

function lastLines(text: string, n: number): string {
  return clip(text.trim().split('\n').slice(-n).join(' / '), 300);
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
