/** What the judge tree (judgeTree.ts) reads from git's output, and whether a symlink leaves the tree. Pure. */
import path from 'node:path';

/** The paths `git diff-index -z --no-renames` (raw output) shows as symlinks on the new side (mode 120000), added or changed. */
export function changedLinks(raw: string): string[] {
  const fields = raw.split('\0');
  const links: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i] as string;
    const file = fields[i + 1] as string;
    // ":<old mode> <new mode> <old id> <new id> <status>"
    const newMode = meta.startsWith(':') ? meta.slice(1).split(' ')[1] : undefined;
    if (newMode === '120000') links.push(file);
  }
  return links;
}

/**
 * Whether a symlink at `link` (relative to the tree's top) whose target is `target` points outside
 * the tree, read by its text (an absolute target always does; `..` steps are counted from the link's
 * directory).
 */
export function leavesTree(link: string, target: string): boolean {
  if (path.posix.isAbsolute(target) || path.win32.isAbsolute(target)) return true;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(link), target));
  return resolved === '..' || resolved.startsWith('../');
}

/** Which of `paths` the base holds: a file listed by `git ls-tree -r -z --name-only`, or a directory above one. */
export function presentAt(lsTree: string, paths: readonly string[]): string[] {
  const files = lsTree.split('\0').filter((f) => f !== '');
  const held = new Set(files);
  const dirs = new Set<string>();
  for (const f of files) for (let d = path.posix.dirname(f); d !== '.'; d = path.posix.dirname(d)) dirs.add(d);
  return paths.filter((p) => held.has(trimSlashes(p)) || dirs.has(trimSlashes(p)));
}

const trimSlashes = (p: string) => p.replace(/^\/+|\/+$/g, '');
