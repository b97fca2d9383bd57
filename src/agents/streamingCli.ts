/**
 * What the claude and codex adapters share: run a CLI that prints one JSON event per line, feed
 * each stdout line to the adapter's parser (which says what to show), keep the raw stream in the
 * iteration's log (stderr's lines among the events, as agent_loop_stderr events) and a tail of what
 * was shown.
 */
import { type ProcessResult, runProcess } from './process.js';
import { StreamLog, logFileFor } from './streamLog.js';
import { TailBuffer } from './tail.js';
import type { AgentRunRequest } from './types.js';

/** The log's event for a line the agent printed on stderr: `{"type":"agent_loop_stderr","line":…}`. */
export const STDERR_EVENT = 'agent_loop_stderr';

/**
 * The share of the iteration log's cap (LOG_MAX_BYTES) stderr may take: an agent that floods stderr
 * must not push its own JSON events (the final `result` above all) out of the log.
 */
export const STDERR_LOG_MAX_BYTES = 4 * 1024 * 1024;

/** One stream-json line may carry a whole file the agent read; longer lines arrive in pieces. */
const MAX_LINE_BYTES = 8 * 1024 * 1024;

export interface LineParser {
  /** Feeds one line of stdout; returns the compact lines to show for it. */
  push(line: string): string[];
}

export async function runStreamingCli(input: {
  command: string;
  args: string[];
  request: AgentRunRequest;
  parser: LineParser;
  env?: NodeJS.ProcessEnv;
  killGraceMs?: number;
  /** The log's caps (tests make them small). */
  logLimits?: { maxBytes: number; stderrMaxBytes: number };
}): Promise<{ process: ProcessResult; shown: string }> {
  const { request, parser } = input;
  const log = new StreamLog(logFileFor(request.logBase, 'ndjson'), input.logLimits?.maxBytes);
  const stderrLog = stderrEvents(log, input.logLimits?.stderrMaxBytes ?? STDERR_LOG_MAX_BYTES);
  // What a person would call the agent's output: its messages and tool calls, and stderr.
  const shown = new TailBuffer(16 * 1024);
  const show = (line: string, stream: 'stdout' | 'stderr', cut?: { before: boolean; after: boolean }) => {
    shown.push(`${line}\n`);
    if (cut) request.onLine?.(line, stream, cut);
    else request.onLine?.(line, stream);
  };
  try {
    const process = await runProcess({
      command: input.command,
      args: input.args,
      cwd: request.cwd,
      env: input.env,
      stdin: request.prompt,
      stdinFile: request.promptFile,
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      killGraceMs: input.killGraceMs,
      endEscaped: true,
      maxLineBytes: MAX_LINE_BYTES,
      onSpawn: request.onSpawn,
      mask: request.mask,
      onLine: (line, stream, cut) => {
        if (stream === 'stderr') {
          // Kept in the log too (a crash's message is often only there), as an event of its own.
          stderrLog.push(JSON.stringify({ type: STDERR_EVENT, line, ...(cut ? { cut } : {}) }));
          return show(line, 'stderr', cut);
        }
        // A line over MAX_LINE_BYTES comes in pieces: they are one line of the log, as printed.
        log.write(cut || !request.mask ? line : decodedMasked(line, request.mask), !cut?.after);
        stderrLog.afterStdout(!cut?.after);
        for (const display of parser.push(line)) show(display, 'stdout');
      },
    });
    return { process, shown: shown.toString() };
  } finally {
    stderrLog.afterStdout(true);
    log.close();
  }
}

/**
 * Writes stderr's events into the log, never inside a stdout line that arrives in pieces (they wait
 * for its end), and at most `maxBytes` of them: then one `agent_loop_stderr_truncated` event, and the
 * rest of stderr is left out of the log (it is still shown and in the halt's tail).
 */
function stderrEvents(log: StreamLog, maxBytes: number) {
  let written = 0;
  let truncated = false;
  let midLine = false;
  const waiting: string[] = [];
  const write = (event: string) => (midLine ? waiting.push(event) : log.write(event));
  return {
    push(event: string): void {
      if (truncated) return;
      const bytes = Buffer.byteLength(event) + 1;
      if (written + bytes > maxBytes) {
        truncated = true;
        write(`{"type":"agent_loop_stderr_truncated","after_bytes":${written}}`);
        return;
      }
      written += bytes;
      write(event);
    },
    /** After a piece of stdout is written: the events that waited go in once its line has ended. */
    afterStdout(lineEnded: boolean): void {
      midLine = !lineEnded;
      if (lineEnded) for (const event of waiting.splice(0)) log.write(event);
    },
  };
}

/**
 * The line as the iteration's log keeps it: as printed, unless a `\\u` escape hid a secret from the
 * output's mask (`\\u0073k-ant-…`), then its event with the decoded strings masked. Any JSON reader
 * of the log would decode the secret.
 */
function decodedMasked(line: string, mask: (text: string) => string): string {
  if (!line.includes('\\u')) return line;
  const masked = parseEventLine(line, () => undefined, mask);
  if (!masked) return line;
  const json = JSON.stringify(masked);
  return json === JSON.stringify(JSON.parse(line)) ? line : json;
}

/**
 * A JSON event object from one line, or undefined. `ignored` counts lines that should have been
 * events and were not (garbage, partial lines); blank lines and non-object JSON are not counted.
 * The decoded strings enter the engine here and `mask` masks each: JSON writes any character as a
 * \u escape (`\u0073k-ant-…`), so a line the output masker saw clean can decode to a secret.
 */
export function parseEventLine(
  line: string,
  onIgnored: () => void,
  mask?: (text: string) => string,
): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) {
    if (line.trim() !== '') onIgnored();
    return undefined;
  }
  let event: unknown;
  try {
    event = mask
      ? JSON.parse(line, (_key, value: unknown) => (typeof value === 'string' ? mask(value) : value))
      : JSON.parse(line);
  } catch {
    onIgnored();
    return undefined;
  }
  return typeof event === 'object' && event !== null && !Array.isArray(event)
    ? (event as Record<string, unknown>)
    : undefined;
}
