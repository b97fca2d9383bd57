/**
 * agent-loop's own text on a terminal, wrapped at word boundaries (issue 40). A terminal breaks a
 * line that is wider than itself wherever the edge falls, mid-word: the halt's "What to do", one
 * line of 400 characters, read "remove the agent-loop:esca" / "lated label". Lines are broken at
 * spaces, one column short of the width; a word (a path, a URL) or an inline code span (`agent-loop
 * run --resume-halted`) is never broken, and stands on a line of its own when it is wider than the
 * line. A continued line is indented under its list item, or by two spaces. Fenced blocks (the agent's
 * and the tests' output quoted in a diagnostic) are left as they are: they are output, not advice.
 * Where the width is unknown (a pipe, a file, the action's log) nothing is wrapped. Pure.
 */

/** Narrower than this, wrapping helps nobody: the text is left as it is. */
const MIN_WIDTH = 20;

/**
 * The console's width: COLUMNS when it holds a whole number (a user's or a test's choice, as
 * Python's shutil and GNU tools take it), else the terminal's columns, else undefined (not a
 * terminal: nothing is wrapped).
 */
export function consoleWidth(columnsEnv: string | undefined, terminalColumns: number | undefined): number | undefined {
  const fromEnv = columnsEnv !== undefined && /^\s*\d+\s*$/.test(columnsEnv) ? Number(columnsEnv) : undefined;
  const width = fromEnv ?? terminalColumns;
  return width !== undefined && Number.isInteger(width) && width >= MIN_WIDTH ? width : undefined;
}

/** `text` with every line wider than `width` - 1 broken at spaces (see above). */
export function wrapText(text: string, width: number): string {
  if (width < MIN_WIDTH) return text;
  const max = width - 1;
  let fence: { char: string; length: number } | undefined;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence.char && marker.length >= fence.length && line.trim() === marker)
        fence = undefined;
      out.push(line);
      continue;
    }
    if (marker) {
      fence = { char: marker[0] as string, length: marker.length };
      out.push(line);
      continue;
    }
    out.push(...wrapLine(line, max));
  }
  return out.join('\n');
}

/** Words, each glued to what touches it: an inline code span keeps its spaces. */
const WORD = /(?:`[^`\n]*`|[^\s`]|`)+/g;

function wrapLine(line: string, max: number): string[] {
  if (line.length <= max) return [line];
  const lead = /^(\s*)((?:[-*+]|\d+[.)])\s+)?/.exec(line) as RegExpExecArray;
  const first = lead[0];
  const hang = (lead[1] ?? '') + ' '.repeat((lead[2] ?? '').length || 2);
  const words = line.slice(first.length).match(WORD) ?? [];
  const lines: string[] = [];
  let current = first;
  let empty = true;
  for (const word of words) {
    if (!empty && current.length + 1 + word.length > max) {
      lines.push(current);
      current = hang;
      empty = true;
    }
    current += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(current);
  return lines;
}
