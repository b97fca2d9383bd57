/**
 * GitHub's runner reads a workflow command from any line of a step's output: `::name::data` after
 * leading white space (its TryParseV2 trims the line first), and the older `##[name]data` anywhere
 * in a line. Text agent-loop did not write itself (agent and test output, issue text, a diagnostic
 * quoting them, a server's error message) must never be one: it could annotate, mask, end a group,
 * or stop the runner's command processing. `inert` makes such a line plain text by putting a
 * visible backslash inside the marker (`:\:error::`, `##\[error]`): no invisible character, so what
 * a reader copies from the log is what they see. agent-loop's own commands (groups, annotations,
 * masks) are written around it, never through it. Pure.
 */

/** `text` with no line the runner would read as a workflow command. */
export function inert(text: string): string {
  if (!text.includes('::') && !text.includes('##[')) return text;
  return text.replace(/^([^\S\r\n]*):(?=:)/gm, '$1:\\').replaceAll('##[', '##\\[');
}

/** The same for a line of JSON, which stays valid and decodes to the same value: `[` escaped. */
export function inertJson(json: string): string {
  return json.includes('##[') ? json.replaceAll('##[', '##\\u005b') : json;
}

/** Whether the runner would read `line` as a workflow command (for tests and checks). */
export function isWorkflowCommand(line: string): boolean {
  return line.trimStart().startsWith('::') || line.includes('##[');
}
