/**
 * Text quoted verbatim in Markdown (CommonMark, as GitHub renders halt.md, the job summary and
 * comments). A fenced code block ends at a fence of at least its opening fence's length, so a fence
 * longer than every backtick run in the text keeps the text whole and unchanged: what a reader
 * copies is what was printed, with no invisible character put in. Pure.
 */

/** The longest run of backticks in `text` (0 when there is none). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** The lines of a fenced code block holding `text` as it is (`info`: the language, e.g. yaml). */
export function fencedBlock(text: string, info = ''): string[] {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return [`${fence}${info}`, text, fence];
}

/**
 * Text on one line: a line break of any kind (CommonMark ends a line at a lone CR too) would end the
 * list item or the quote it stands in and start markdown of the text's own.
 */
export const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/** `text` on one line as inline code, whatever it holds: a delimiter longer than its backtick runs. */
export function inlineCode(text: string): string {
  const flat = oneLine(text);
  const ticks = '`'.repeat(longestBacktickRun(flat) + 1);
  // CommonMark strips one space each side when both are there: added when the text starts or ends with a backtick.
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}
