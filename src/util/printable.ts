/**
 * A value the user (or an issue's author) supplied, made fit to print in a message: an option's value,
 * a path, an issue id, a title. Such a value reaches the console, the log file, a problems list and
 * the action's annotations, where a raw newline starts a new line (`::error::…` would be a workflow
 * command in the action's log), a CR or an escape sequence rewrites the terminal, and 50 MB of title
 * is 50 MB of log. Every such value is printed through `printable`, once, where the message is made.
 * Pure.
 */

/** The longest a printed value is, in characters, by default: a long path is still recognisable. */
export const PRINTABLE_MAX = 240;

/** The fewest characters a value is bounded to (the cut's own words need room). */
const MIN_MAX = 40;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\x1b': '\\e' };

/**
 * Control characters (C0, DEL, C1), the line and paragraph separators, and the bidirectional
 * overrides and isolates (text that reads differently from what it is) are shown escaped.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this escapes
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function escapeChar(char: string): string {
  if (!UNPRINTABLE.test(char)) return char;
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `value` with every control character escaped (no raw newline, CR, escape, C1 or bidi control). */
export function escapeControls(value: string): string {
  // eslint-disable-next-line no-control-regex -- as UNPRINTABLE
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, escapeChar);
}

/**
 * `value` on one line, its control characters escaped, and at most `max` characters long: a longer
 * one keeps its head and its tail (where a path's file name is) around `…[N characters cut]…`.
 */
export function printable(value: string, max = PRINTABLE_MAX): string {
  const limit = Math.max(MIN_MAX, Math.floor(max));
  if (value.length <= limit) {
    const whole = escapeControls(value);
    if (whole.length <= limit) return whole;
  }
  const chars = Array.from(value.length > 4 * limit ? headAndTail(value, 2 * limit) : value);
  // The cut's words at their longest: the number of characters cut has at most as many digits as the length.
  const room = limit - `…[${value.length.toLocaleString('en-US')} characters cut]…`.length;
  const headRoom = Math.ceil(room / 2);
  const tailRoom = room - headRoom;
  let head = '';
  let headCount = 0;
  for (const char of chars) {
    const shown = escapeChar(char);
    if (head.length + shown.length > headRoom) break;
    head += shown;
    headCount += char.length;
  }
  let tail = '';
  let tailCount = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const char = chars[i]!;
    const shown = escapeChar(char);
    if (tail.length + shown.length > tailRoom) break;
    tail = shown + tail;
    tailCount += char.length;
  }
  const cut = value.length - headCount - tailCount;
  return `${head}…[${cut.toLocaleString('en-US')} characters cut]…${tail}`;
}

/** The first and last `n` characters of a long value (never splitting a surrogate pair at the seam). */
function headAndTail(value: string, n: number): string {
  let start = n;
  if (/[\ud800-\udbff]/.test(value[start - 1] ?? '')) start--;
  let end = value.length - n;
  if (/[\udc00-\udfff]/.test(value[end] ?? '')) end++;
  return value.slice(0, start) + value.slice(end);
}
