// What the workflow lint reads: the workflow files, and the whole workflows the documentation shows.
// Each is a unit: its text, the name its linters know it by, and where its text stands in its file
// (a Markdown block starts some lines down, perhaps indented), so that every problem is reported at
// the file's own line and column.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { workflowBlocks } from './markdown.mjs';

export const WORKFLOW_DIRS = ['.github/workflows', 'examples/workflows'];
/** The documentation whose whole-workflow blocks are linted: README.md, and every .md under docs/. */
export const MARKDOWN = ['README.md', 'docs'];
/** The action's metadata, checked against GitHub's action schema. */
export const ACTION_FILE = 'action.yml';

const isWorkflowFile = (name) => /\.ya?ml$/.test(name);
const isMarkdown = (name) => /\.md$/i.test(name);

/** The files under `dir` (relative to root) whose names pass `keep`, relative to root, all levels down; none when it is absent. */
function filesUnder(root, dir, keep, deep) {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
    throw error;
  }
  return entries.flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return deep ? filesUnder(root, rel, keep, deep) : [];
    return keep(e.name) ? [rel] : [];
  });
}

/** The workflow files under WORKFLOW_DIRS, relative to root, sorted. */
export const workflowFiles = (root) =>
  WORKFLOW_DIRS.flatMap((dir) => filesUnder(root, dir, isWorkflowFile, false)).sort();

/** README.md and the Markdown files under docs/ (either may be absent), relative to root, sorted. */
export function markdownFiles(root) {
  const files = [];
  for (const entry of MARKDOWN) {
    let stat;
    try {
      stat = statSync(path.join(root, entry));
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      throw error;
    }
    if (stat.isDirectory()) files.push(...filesUnder(root, entry, isMarkdown, true).sort());
    else files.push(entry);
  }
  return files;
}

/**
 * The units of one file: a workflow file is one, action.yml one (kind 'action'); a Markdown file one
 * per whole-workflow block.
 * `name` is what the linters call it (a block: FILE:LINE, its first line); `line` and `column` are
 * added to a linter's 1-based line and column to give the file's own.
 */
export function unitsOf(file, text) {
  if (/(^|\/)action\.ya?ml$/.test(file)) return [{ file, name: file, text, line: 0, column: 0, kind: 'action' }];
  if (!isMarkdown(file)) return [{ file, name: file, text, line: 0, column: 0 }];
  return workflowBlocks(text).map((b) => ({
    file,
    name: `${file}:${b.line}`,
    text: b.text,
    line: b.line - 1,
    column: b.indent,
  }));
}

/** Every unit the lint checks by default, under root. */
export const defaultFiles = (root) => [ACTION_FILE, ...workflowFiles(root), ...markdownFiles(root)];

/** The units of the given files (relative to root). */
export const unitsOfFiles = (files, root) =>
  files.flatMap((file) => unitsOf(file, readFileSync(path.resolve(root, file), 'utf8')));
