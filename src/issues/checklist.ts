/**
 * An issue's Markdown checklist (`- [ ] item`, `- [x] done`): the red/green/refactor workflow's test
 * list, and the box agent-loop ticks in the issue as each item's cycle is done. Pure.
 */

/** One checklist line: its marker and box, the item's text. */
export const CHECKLIST_ITEM = /^(\s*[-*+]\s+\[)( |x|X)(\]\s+)(.+?)\s*$/;

/**
 * For each line, whether it belongs to a fenced code block (``` or ~~~, fence lines included): a
 * checklist shown there is an example, not the issue's list, and is neither read nor ticked.
 */
export function inCodeFence(lines: readonly string[]): boolean[] {
  let fence: { char: string; length: number } | undefined;
  return lines.map((line) => {
    const m = /^\s*(`{3,}|~{3,})(.*?)\r?$/.exec(line);
    const run = m?.[1] ?? '';
    if (fence) {
      if (run[0] === fence.char && run.length >= fence.length && (m?.[2] ?? '').trim() === '') fence = undefined;
      return true;
    }
    // An info string with a backtick is no backtick fence (CommonMark).
    if (m && !(run[0] === '`' && (m[2] ?? '').includes('`'))) fence = { char: run[0] as string, length: run.length };
    return fence !== undefined;
  });
}

/** An item's text as compared: white space runs collapsed. */
export const itemText = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * `body` with the box of the first unticked item whose text is `item` ticked, and nothing else
 * changed (line ends included); undefined when there is no such box (already ticked, or not there).
 */
export function tickItem(body: string, item: string): string | undefined {
  const wanted = itemText(item);
  const lines = body.split('\n');
  const fenced = inCodeFence(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (fenced[i]) continue;
    const m = CHECKLIST_ITEM.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (!m || m[2] !== ' ' || itemText(m[4] as string) !== wanted) continue;
    const at = (m[1] as string).length;
    lines[i] = `${line.slice(0, at)}x${line.slice(at + 1)}`;
    return lines.join('\n');
  }
  return undefined;
}

/** `body` with every box unticked: an issue's text as a person wrote it, whatever agent-loop ticked since. */
export function untickAll(body: string): string {
  return body
    .split('\n')
    .map((line) => line.replace(/^(\s*[-*+]\s+\[)[xX](\]\s+)/, '$1 $2'))
    .join('\n');
}
