/**
 * The text a JSON event line carries, for the output masker (outputMasker.ts). An agent that speaks
 * JSON events (Claude Code's stream-json, Codex's `exec --json`) puts what it says inside string
 * values: a secret split across two lines of one message is `…ABC\nDEF…` inside one line of
 * output, and across two messages it is at the end of one event's text and the start of the next
 * event's, never at a line's end. So the masker reads such a line as its strings, decoded, masks
 * them as it masks raw lines (per decoded line, across adjacent strings, across events), and puts
 * each changed string back in place: the line stays valid JSON, every other byte as printed.
 *
 * No state, no I/O: the masking functions change the event they are given (its strings' `text`).
 */
import type { SecretRedactor } from './redact.js';
import { maskAcross } from './maskAcross.js';

/** One string of an event, a key or a value: where its token stands in the line, and its decoded text. */
export interface EventString {
  /** [start, end) of the token, quotes included. */
  start: number;
  end: number;
  /** The decoded text, masked in place by the masker. */
  text: string;
  /** The decoded text as printed (the token is rewritten only when `text` differs). */
  readonly printed: string;
  /**
   * Text the agent says (a message, a tool's input or result), rather than framing (an event's
   * `type`, an id): a secret split across strings is looked for only between carried strings,
   * so that `"text":"…ABC"},{"type":"text","text":"DEF…"` joins `…ABC` to `DEF…`. Every string
   * is masked whole either way.
   */
  carried: boolean;
}

export interface EventLine {
  line: string;
  /** Its strings, keys (never carried) and values, in the order printed. */
  strings: EventString[];
  /** Whether any of its strings may hold a secret (`redact.mayHold`, set by maskWithinEvent): if not, none is masked. */
  suspect?: boolean;
}

/**
 * Keys whose values frame an event rather than carry text (Claude Code's and Codex's events):
 * left out of the joins across strings.
 */
const FRAMING_KEYS = new Set([
  'type',
  'subtype',
  'id',
  'uuid',
  'session_id',
  'parent_tool_use_id',
  'tool_use_id',
  'role',
  'model',
  'stop_reason',
  'stop_sequence',
  'thread_id',
  'status',
  'timestamp',
  'service_tier',
]);

const BACKSLASH = 0x5c;

function escaped(line: string, index: number): boolean {
  let n = 0;
  while (index - n - 1 >= 0 && line.charCodeAt(index - n - 1) === BACKSLASH) n++;
  return n % 2 === 1;
}

function isJsonObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * `line` read as a JSON object's strings, or undefined when it is no JSON object. A value's key
 * is the last key before it (inside an array, the array's), which is all `carried` needs.
 */
export function readEventLine(line: string): EventLine | undefined {
  if (line.charCodeAt(0) !== 0x7b || !isJsonObject(line)) return undefined;
  const strings: EventString[] = [];
  let key: string | undefined;
  // The next backslash at or after `pos`: whether a string has escapes to decode, in one pass.
  let backslash = line.indexOf('\\');
  for (let pos = 0; ;) {
    const open = line.indexOf('"', pos);
    if (open === -1) return { line, strings };
    let close = line.indexOf('"', open + 1);
    while (close !== -1 && escaped(line, close)) close = line.indexOf('"', close + 1);
    if (close === -1) return undefined;
    if (backslash !== -1 && backslash < open) backslash = line.indexOf('\\', open);
    const text =
      backslash !== -1 && backslash < close
        ? (JSON.parse(line.slice(open, close + 1)) as string)
        : line.slice(open + 1, close);
    let next = close + 1;
    while (next < line.length && line.charCodeAt(next) <= 0x20) next++;
    const isKey = line.charCodeAt(next) === 0x3a;
    if (isKey) key = text;
    strings.push({ start: open, end: close + 1, text, printed: text, carried: !isKey && !FRAMING_KEYS.has(key ?? '') });
    pos = close + 1;
  }
}

/** The line with every string whose text changed re-encoded in place; the line itself when none did. */
export function writeEventLine(event: EventLine): string {
  let out = '';
  let last = 0;
  for (const s of event.strings) {
    if (s.text === s.printed) continue;
    out += event.line.slice(last, s.start) + JSON.stringify(s.text);
    last = s.end;
  }
  return last === 0 ? event.line : out + event.line.slice(last);
}

/** The first and last carried strings of an event (undefined when it carries none). */
export function firstCarried(event: EventLine): EventString | undefined {
  return event.strings.find((s) => s.carried);
}
export function lastCarried(event: EventLine): EventString | undefined {
  for (let i = event.strings.length - 1; i >= 0; i--) if (event.strings[i]?.carried) return event.strings[i];
  return undefined;
}

/** A text's lines and the line breaks between them: lines at even indices. */
const linesOf = (text: string): string[] => text.split(/(\r\n|\n|\r)/);
const hasLineBreak = (text: string): boolean => /[\n\r]/.test(text);

/** A secret split across two adjacent lines of one string (`…ABC\nDEF…`) masked on both sides. */
export function maskAcrossLines(redact: SecretRedactor, text: string): string {
  if (!hasLineBreak(text)) return text;
  const parts = linesOf(text);
  for (let i = 2; i < parts.length; i += 2) {
    [parts[i - 2], parts[i]] = maskAcross(redact, parts[i - 2] as string, parts[i] as string);
  }
  return parts.join('');
}

/** Each line of a string masked whole and at its ends (`redact.edges`), as the masker does with raw lines. */
export function maskLines(redact: SecretRedactor, text: string): string {
  const whole = redact(text);
  if (!hasLineBreak(whole)) return redact.edges(whole);
  const parts = linesOf(whole);
  for (let i = 0; i < parts.length; i += 2) parts[i] = redact.edges(parts[i] as string);
  return parts.join('');
}

/**
 * What the masker does with an event when it arrives: within each carried string, across its
 * lines; then across each pair of adjacent carried strings (two content blocks, a tool's input
 * fields). Changes the strings' `text` in place. One scan first (`mayHold`) over the carried
 * strings joined, and over the others joined: most events hold nothing to mask, and are left as
 * they are.
 */
export function maskWithinEvent(redact: SecretRedactor, event: EventLine): void {
  const carried = event.strings.filter((s) => s.carried);
  // Joined by line breaks: each string on its own and each two adjacent ones joined are searched.
  event.suspect =
    redact.mayHold(carried.map((s) => s.text).join('\n')) ||
    redact.mayHold(
      event.strings
        .filter((s) => !s.carried)
        .map((s) => s.text)
        .join('\n'),
    );
  if (!event.suspect) return;
  let previous: EventString | undefined;
  for (const s of carried) {
    s.text = maskAcrossLines(redact, s.text);
    if (previous) [previous.text, s.text] = maskAcross(redact, previous.text, s.text);
    previous = s;
  }
}

/**
 * What the masker does with an event when it leaves: every string masked whole, carried ones per
 * line and at their lines' ends; the line with the changed strings re-encoded.
 */
export function maskEventStrings(redact: SecretRedactor, event: EventLine): string {
  if (event.suspect !== false) {
    for (const s of event.strings) s.text = s.carried ? maskLines(redact, s.text) : redact(s.text);
  }
  return writeEventLine(event);
}
