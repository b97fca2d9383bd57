/**
 * What a `codex exec --json` run's outcome means for the loop. Pure. Codex reports API failures as
 * text (turn.failed / error events, e.g. "unexpected status 401 Unauthorized: …" or "exceeded retry
 * limit, last status: 429 Too Many Requests"), so the HTTP status is read out of the message.
 */
import type { CodexStreamState } from './codexStream.js';
import type { ProcessResult } from './process.js';
import type { AgentFailure } from './types.js';
import { classifyCommandOutcome } from './classifyCommand.js';

export function classifyCodexOutcome(input: {
  state: CodexStreamState;
  process: ProcessResult;
  timeoutMs?: number;
  command?: string;
}): AgentFailure | undefined {
  const { state, process, timeoutMs, command = 'codex' } = input;
  if (process.spawnError || process.timedOut || process.aborted) return classifyCommandOutcome(process, timeoutMs);
  const stderr = process.stderrTail.trim().split('\n').slice(-3).join(' / ');
  const error = state.fatalError ?? (process.exitCode !== 0 ? lastErrorLine(process.stderrTail) : undefined);
  if (!error) {
    if (process.exitCode === 0) return undefined;
    if (process.exitCode === 127)
      return {
        class: 'permanent',
        reason: 'not_found',
        message: `${command} not found: install the Codex CLI (npm install -g @openai/codex) or put it on PATH`,
      };
    return {
      class: 'transient',
      reason: 'crashed',
      message: `Codex exited with code ${process.exitCode ?? process.signal}${stderr ? `: ${clip(stderr, 300)}` : ''}`,
    };
  }
  const text = clip(error.replace(/\s+/g, ' ').trim(), 300);
  const status = httpStatus(error);
  if (status === 429 || /rate limit|too many requests|usage limit/i.test(error)) {
    const failure: AgentFailure = {
      class: 'transient',
      reason: 'rate_limit',
      message: `rate limited${status ? ` (HTTP ${status})` : ''}: ${text}`,
    };
    const wait = retryAfterMs(error);
    if (wait !== undefined) failure.retryAfterMs = wait;
    return failure;
  }
  if (status === 401 || status === 403 || /unauthori[sz]ed|invalid api key|authentication/i.test(error)) {
    return {
      class: 'permanent',
      reason: 'auth',
      message: `authentication failed${status ? ` (HTTP ${status})` : ''}: ${text}. Check OPENAI_API_KEY / CODEX_API_KEY (or codex login)`,
    };
  }
  if (status === 402 || /billing|quota|insufficient_quota/i.test(error))
    return { class: 'permanent', reason: 'billing', message: `billing problem: ${text}` };
  if (/high demand|overloaded|temporar(il)?y unavailable/i.test(error))
    return {
      class: 'transient',
      reason: 'overloaded',
      message: `the API is overloaded${status ? ` (HTTP ${status})` : ''}: ${text}`,
    };
  if (/context window|context_length_exceeded|too long/i.test(error))
    return { class: 'permanent', reason: 'invalid_request', message: `prompt is too long: ${text}` };
  if (/invalid_request_error|invalid_value/.test(error))
    return { class: 'permanent', reason: 'invalid_request', message: `invalid request: ${text}` };
  if (status !== undefined && status >= 500)
    return {
      class: 'transient',
      reason: status === 529 || status === 503 ? 'overloaded' : 'server_error',
      message: `API server error (HTTP ${status}): ${text}`,
    };
  if (status !== undefined && status >= 400) {
    const named = /context|too long|maximum context/i.test(error) ? 'prompt is too long' : 'invalid request';
    return { class: 'permanent', reason: 'invalid_request', message: `${named} (HTTP ${status}): ${text}` };
  }
  if (/stream disconnected|connection|network|timed? ?out|ECONN|error sending request/i.test(error))
    return { class: 'transient', reason: 'network', message: `network error: ${text}` };
  return { class: 'transient', reason: 'agent_error', message: `Codex reported an error: ${text}` };
}

/** The HTTP status in a Codex error text, if any: "status 429", "status: 500", "401 Unauthorized". */
export function httpStatus(text: string): number | undefined {
  const m = /status:?\s*(\d{3})\b/i.exec(text) ?? /\b([45]\d\d) (?:[A-Z][a-z]+)/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** "try again in 20s", "retry after 1.5 seconds", "Retry-After: 3", "try again in 2 days 3 hours", "1h 30m". */
export function retryAfterMs(text: string): number | undefined {
  const m = /(?:try again in|retry[- ]after:?)\s*((?:\d+(?:\.\d+)?\s*[a-z]*[\s,]*(?:and\s+)?)+)/i.exec(text);
  if (!m) return undefined;
  let total = 0;
  let found = false;
  for (const part of (m[1] ?? '').matchAll(/(\d+(?:\.\d+)?)\s*([a-z]*)/gi)) {
    const unit = MS_PER_UNIT.find(([re]) => re.test(part[2] ?? ''));
    if (part[2] && !unit) break; // a word that is not a unit ends the duration
    total += Number(part[1]) * (unit ? unit[1] : 1000);
    found = true;
  }
  return found ? Math.ceil(total) : undefined;
}

const MS_PER_UNIT: [RegExp, number][] = [
  [/^(ms|milliseconds?)$/i, 1],
  [/^(s|secs?|seconds?)$/i, 1000],
  [/^(m|mins?|minutes?)$/i, 60_000],
  [/^(h|hrs?|hours?)$/i, 3_600_000],
  [/^(d|days?)$/i, 86_400_000],
];

function lastErrorLine(stderr: string): string | undefined {
  const lines = stderr
    .trim()
    .split('\n')
    .filter((l) => /error/i.test(l));
  return lines.pop();
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
