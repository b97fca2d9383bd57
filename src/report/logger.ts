import type { Clock } from '../util/clock.js';
import { rfc3339 } from '../util/clock.js';
import type { Redactor, SecretRedactor } from '../secrets/redact.js';
import { inert, inertJson } from './workflowCommands.js';
import { wrapText } from './wrap.js';

export type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * What the text console shows (--quiet, --verbose): `quiet` warnings, errors and the final result;
 * `default` every event of agent-loop's own (each verdict, the failing tests), not the output it
 * echoes; `verbose` the agent's and the test command's output too. NDJSON (--json) is every event.
 */
export type ConsoleLevel = 'quiet' | 'default' | 'verbose';

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
  /** Whether `output` lines are shown (absent: they are); echo.ts's budget counts only what is shown. */
  readonly showsOutput?: boolean;
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
  /** What the text log shows (default: `verbose`, everything); NDJSON is every event whatever it says. */
  level?: ConsoleLevel;
}

export function createLogger({
  json,
  write: writeRaw,
  clock,
  redact,
  before,
  width,
  level: shown = 'verbose',
}: LoggerOptions): Logger {
  // No line of the log can be a workflow command but those `before` writes (workflowCommands.ts).
  const write = (text: string) => writeRaw(json ? inertJson(text) : inert(text));
  // Wrapped once masked: a mask is what the line shows.
  const fit = (text: string) => (width === undefined ? text : wrapText(text, width));
  const emit = (event: string, level: Level, message: string, fields?: Record<string, unknown>) => {
    if (!json && shown === 'quiet' && (level === 'info' || level === 'debug')) return;
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
    showsOutput: json || shown === 'verbose',
    output(source, rawLine, stream, cut) {
      if (!json && shown !== 'verbose') return;
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
