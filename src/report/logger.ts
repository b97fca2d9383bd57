import type { Clock } from '../util/clock.js';
import { rfc3339 } from '../util/clock.js';
import type { Redactor, SecretRedactor } from '../secrets/redact.js';
import { inert, inertJson } from './workflowCommands.js';
import { wrapText } from './wrap.js';

export type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * Progress for people (text) or for programs (NDJSON, one event per line with a stable `event`
 * name). Everything passes through the redactor on its way out.
 */
export interface Logger {
  event(event: string, level: Level, message: string, fields?: Record<string, unknown>): void;
  info(event: string, message: string, fields?: Record<string, unknown>): void;
  warn(event: string, message: string, fields?: Record<string, unknown>): void;
  error(event: string, message: string, fields?: Record<string, unknown>): void;
  /** A line the agent or the test command printed, shown indented in text mode; `cut` marks a piece of an overlong line. */
  output(
    source: 'agent' | 'tests',
    line: string,
    stream: 'stdout' | 'stderr',
    cut?: { before: boolean; after: boolean },
  ): void;
  /** The final result: in JSON mode, the last line. */
  result(result: object, text: string): void;
}

export interface LoggerOptions {
  json: boolean;
  write: (text: string) => void;
  clock: Clock;
  redact: Redactor;
  /** Text to write before an event (the action's ::group:: and ::warning:: commands); redacted too. */
  before?: (event: string, level: Level, message: string) => string;
  /**
   * The terminal's width, in text mode: agent-loop's own lines (events, the closing summary) are
   * wrapped at word boundaries to fit it (wrap.ts); the agent's and the tests' output is not. Unset:
   * nothing is wrapped.
   */
  width?: number;
}

export function createLogger({ json, write: writeRaw, clock, redact, before, width }: LoggerOptions): Logger {
  // No line of the log can be a workflow command but those `before` writes (workflowCommands.ts).
  const write = (text: string) => writeRaw(json ? inertJson(text) : inert(text));
  // Wrapped once masked: a mask is what the line shows.
  const fit = (text: string) => (width === undefined ? text : wrapText(text, width));
  const emit = (event: string, level: Level, message: string, fields?: Record<string, unknown>) => {
    const prefix = before?.(event, level, message);
    if (prefix) writeRaw(redact(prefix));
    const time = rfc3339(clock.now());
    if (json) {
      write(redact(JSON.stringify({ time, level, event, message, ...fields })) + '\n');
    } else {
      const tag = level === 'info' || level === 'debug' ? '' : `${level.toUpperCase()} `;
      write(fit(redact(`${time} ${tag}${message}`)) + '\n');
    }
  };
  return {
    event: emit,
    info: (e, m, f) => emit(e, 'info', m, f),
    warn: (e, m, f) => emit(e, 'warn', m, f),
    error: (e, m, f) => emit(e, 'error', m, f),
    output(source, rawLine, stream, cut) {
      // A piece of an overlong line: a secret may straddle the cut, so its edges are masked too.
      const line = cut && 'piece' in redact ? (redact as SecretRedactor).piece(rawLine, cut) : rawLine;
      if (json)
        write(redact(JSON.stringify({ event: `${source}.output`, stream, line, ...(cut ? { cut } : {}) })) + '\n');
      else write(redact(`  │ ${line}`) + '\n');
    },
    result(result, textLine) {
      if (json) write(redact(JSON.stringify(result)) + '\n');
      else write(fit(redact(textLine)) + '\n');
    },
  };
}
