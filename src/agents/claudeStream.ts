/**
 * Incremental reader of `claude -p --output-format stream-json --verbose`: one line at a time,
 * keeping only what the outcome needs (session, last API retry, rate-limit reset, the result event)
 * so memory does not depend on the stream's size. Non-JSON lines, partial lines and unknown event
 * types are counted and otherwise ignored.
 */
import path from 'node:path';
import { parseEventLine } from './streamingCli.js';

export interface ClaudeResultEvent {
  subtype: string;
  isError: boolean;
  apiErrorStatus: number | null;
  /** The final message text (or the error text when isError). */
  text: string;
  costUsd?: number;
  numTurns?: number;
  sessionId?: string;
  permissionDenials: number;
  usage?: { input: number; output: number };
}

export interface ClaudeStreamState {
  sessionId?: string;
  result?: ClaudeResultEvent;
  /** The last `system/api_retry` event: the CLI retrying an API error itself. */
  lastRetry?: { status?: number; error?: string; delayMs?: number };
  /** From a `rate_limit_event`: when the window resets, epoch ms. */
  rateLimitResetsAt?: number;
  toolCalls: number;
  /** Lines that were not JSON objects (partial lines, warnings, garbage). */
  ignoredLines: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export class ClaudeStreamParser {
  readonly state: ClaudeStreamState = { toolCalls: 0, ignoredLines: 0 };

  /** `mask` masks the decoded events' strings (see parseEventLine). */
  constructor(
    private readonly cwd: string,
    private readonly mask?: (text: string) => string,
  ) {}

  /** Feeds one line of stdout; returns the compact lines to show for it (tool calls, assistant text). */
  push(line: string): string[] {
    // Tool results (type "user") can be megabytes and carry nothing the outcome needs: skip the parse.
    if (line.startsWith('{"type":"user"') || line.startsWith('{"type":"stream_event"')) return [];
    const event = parseEventLine(line, () => this.state.ignoredLines++, this.mask);
    if (!event) return [];
    const sessionId = str(event.session_id);
    if (sessionId) this.state.sessionId = sessionId;
    switch (event.type) {
      case 'assistant':
        return this.assistant(event);
      case 'system':
        if (event.subtype === 'api_retry') {
          this.state.lastRetry = {
            status: num(event.error_status),
            error: str(event.error),
            delayMs: num(event.retry_delay_ms),
          };
        }
        return [];
      case 'rate_limit_event': {
        const resets = findResetsAt(event);
        if (resets !== undefined) this.state.rateLimitResetsAt = resets;
        return [];
      }
      case 'result':
        this.state.result = readResult(event);
        return [];
      default:
        return [];
    }
  }

  private assistant(event: Json): string[] {
    const message = event.message;
    if (!isObject(message) || !Array.isArray(message.content)) return [];
    const out: string[] = [];
    for (const block of message.content) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_use') {
        this.state.toolCalls++;
        out.push(
          `  ▸ ${describeToolUse(str(block.name) ?? 'tool', isObject(block.input) ? block.input : {}, this.cwd)}`,
        );
      } else if (block.type === 'text') {
        const first = (str(block.text) ?? '').trim().split('\n')[0] ?? '';
        if (first) out.push(`  ✎ ${clip(first, 160)}`);
      }
    }
    return out;
  }
}

function readResult(event: Json): ClaudeResultEvent {
  const usage = isObject(event.usage) ? event.usage : undefined;
  const denials = event.permission_denials;
  const result: ClaudeResultEvent = {
    subtype: str(event.subtype) ?? 'unknown',
    isError: event.is_error === true,
    apiErrorStatus: num(event.api_error_status) ?? null,
    // Errors (max turns, a session that cannot be resumed) come as an `errors` list without `result`.
    text:
      str(event.result) ??
      (Array.isArray(event.errors) ? event.errors.filter((e) => typeof e === 'string').join('; ') : ''),
    permissionDenials: Array.isArray(denials) ? denials.length : 0,
  };
  // A spend below zero is no spend: it would lower the run's total under --max-cost-usd.
  const cost = num(event.total_cost_usd);
  if (cost !== undefined && cost >= 0) result.costUsd = cost;
  const turns = num(event.num_turns);
  if (turns !== undefined) result.numTurns = turns;
  const session = str(event.session_id);
  if (session) result.sessionId = session;
  if (usage) {
    const input =
      (num(usage.input_tokens) ?? 0) +
      (num(usage.cache_creation_input_tokens) ?? 0) +
      (num(usage.cache_read_input_tokens) ?? 0);
    result.usage = { input, output: num(usage.output_tokens) ?? 0 };
  }
  return result;
}

/** `resetsAt` anywhere in a rate_limit_event, as epoch ms (seconds are converted). */
function findResetsAt(event: Json): number | undefined {
  const stack: unknown[] = [event];
  while (stack.length > 0) {
    const v = stack.pop();
    if (!isObject(v)) continue;
    const r = num(v.resetsAt) ?? num(v.resets_at);
    if (r !== undefined) return r < 1e12 ? r * 1000 : r;
    stack.push(...Object.values(v));
  }
  return undefined;
}

/** One line a person watching the log understands: "Bash: npm test", "Edit: src/parser.ts". */
export function describeToolUse(name: string, input: Json, cwd: string): string {
  const rel = (p: unknown) => {
    const s = str(p);
    if (!s) return '';
    const r = path.isAbsolute(s) ? path.relative(cwd, s) : s;
    return r && !r.startsWith('..') ? r : s;
  };
  let detail: string;
  switch (name) {
    case 'Bash':
      detail = (str(input.command) ?? '').split('\n')[0] ?? '';
      break;
    case 'Read':
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit':
      detail = rel(input.file_path ?? input.notebook_path);
      break;
    case 'Grep':
      detail = `${str(input.pattern) ?? ''}${input.path ? ` in ${rel(input.path)}` : ''}`;
      break;
    case 'Glob':
      detail = str(input.pattern) ?? '';
      break;
    case 'WebFetch':
    case 'WebSearch':
      detail = str(input.url) ?? str(input.query) ?? '';
      break;
    case 'Task':
    case 'Agent':
      detail = str(input.description) ?? '';
      break;
    default:
      detail = Object.values(input).find((v): v is string => typeof v === 'string') ?? '';
  }
  return detail ? `${name}: ${clip(detail.trim(), 120)}` : name;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
