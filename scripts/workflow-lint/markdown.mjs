// The whole workflows a Markdown file shows: its fenced ```yaml blocks (or ```yml, ~~~yaml) that have
// both `on:` and `jobs:` at their top level. A fragment (one step, one job) is no workflow and is
// left out. Each block keeps where it stands in the Markdown file, so that a problem in it is
// reported at the Markdown file's own line and column.

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;

/**
 * The fenced code blocks of a Markdown text: `{ info, line, indent, text }` where `line` is the
 * 1-based line of the block's first content line and `indent` the fence's indentation, removed from
 * every content line (a block in a list item). Fences nest as CommonMark has them: a block opened by
 * four backticks holds a three-backtick fence as its text.
 */
export function fencedBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]);
      if (close && close[3] === '' && close[2][0] === fence[0] && close[2].length >= fence.length) break;
      body.push(dedent(lines[j], indent.length));
    }
    blocks.push({ info: info.toLowerCase(), line: i + 2, indent: indent.length, text: body.join('\n') + '\n' });
    i = j;
  }
  return blocks;
}

const dedent = (line, n) => line.slice(Math.min(n, /^\s*/.exec(line)[0].length));

/** Whether a YAML text is a whole workflow: `on:` and `jobs:` at its top level. */
export const isWholeWorkflow = (yaml) => /^["']?on["']?\s*:/m.test(yaml) && /^["']?jobs["']?\s*:/m.test(yaml);

/** The whole-workflow YAML blocks of a Markdown text (see fencedBlocks for their fields). */
export const workflowBlocks = (markdown) =>
  fencedBlocks(markdown).filter((b) => (b.info === 'yaml' || b.info === 'yml') && isWholeWorkflow(b.text));
