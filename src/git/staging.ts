/**
 * What is committed is what the tests ran on. The verdict judges the working tree, and a commit is
 * what `git add --all` stages of it; besides the files themselves, that depends on settings the
 * agent can write: a `clean` filter in .git/config with its attribute in .git/info/attributes (the
 * committed content is the filter's output), a pattern in .git/info/exclude (a file the work needs
 * is left out), and the index's skip-worktree and assume-unchanged flags (a file's change is not
 * staged). Each is read when agent-loop's git opens, before any agent runs in this process, and put
 * back before every commit and at the end of every slice (Git.putBackStaging): what the agent added
 * goes, what the person had stays (their own assume-unchanged settings files included), and the
 * patterns agent-loop itself added to the exclude file (the state directory, what the test command
 * wrote) are kept.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomicWrite.js';

/** The line agent-loop writes before each pattern it adds to .git/info/exclude. */
export const EXCLUDE_MARK = '# agent-loop (never committed)';

export interface StagingSettings {
  /** .git/config, .git/info/attributes and .git/info/exclude as they were (undefined: no such file). */
  config: string | undefined;
  attributes: string | undefined;
  exclude: string | undefined;
  /** Paths with the skip-worktree or assume-unchanged flag. */
  flagged: string[];
  /**
   * The work tree is a sparse checkout: git itself marks skip-worktree the paths outside its
   * patterns, absent from the tree, at every checkout and merge (a branch's new file included).
   */
  sparse: boolean;
}

/** The paths `git ls-files -v -z` shows flagged: `S` (skip-worktree), or a lowercase tag (assume-unchanged). Pure. */
export function flaggedPaths(lsFilesV: string): string[] {
  const out: string[] = [];
  for (const entry of lsFilesV.split('\0')) {
    if (entry.length < 3) continue;
    const tag = entry[0] as string;
    if (tag === 'S' || (tag >= 'a' && tag <= 'z')) out.push(entry.slice(2));
  }
  return out;
}

/**
 * The exclude file as it was, with the patterns agent-loop added since (each after EXCLUDE_MARK)
 * that it did not hold; undefined when it did not exist and agent-loop added none. Pure.
 */
export function excludeAsBefore(before: string | undefined, ours: readonly string[]): string | undefined {
  const lines = before === undefined ? [] : before.split('\n');
  const added = ours.filter((line) => !lines.includes(line));
  if (added.length === 0) return before;
  const base = before === undefined || before === '' || before.endsWith('\n') ? (before ?? '') : `${before}\n`;
  return base + added.map((line) => `${EXCLUDE_MARK}\n${line}\n`).join('');
}

export interface StagingFiles {
  config: string;
  attributes: string;
  exclude: string;
}

/** The three files in a repository's common git directory. Pure. */
export function stagingFiles(commonDir: string): StagingFiles {
  return {
    config: path.join(commonDir, 'config'),
    attributes: path.join(commonDir, 'info', 'attributes'),
    exclude: path.join(commonDir, 'info', 'exclude'),
  };
}

const readOrUndefined = (file: string) => fs.readFile(file, 'utf8').catch(() => undefined);

export async function readStaging(
  files: StagingFiles,
  lsFilesV: () => Promise<string>,
  isSparse: () => Promise<boolean>,
): Promise<StagingSettings> {
  return {
    config: await readOrUndefined(files.config),
    attributes: await readOrUndefined(files.attributes),
    exclude: await readOrUndefined(files.exclude),
    flagged: flaggedPaths(await lsFilesV()),
    sparse: await isSparse(),
  };
}

/** Puts `text` at `file` atomically (a new file renamed over it: never written through a link put there), or removes it (undefined). */
async function put(file: string, text: string | undefined): Promise<void> {
  if (text === undefined) {
    await fs.rm(file, { force: true });
    return;
  }
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, text);
}

/**
 * Puts back what decides staging as `before` had it, keeping agent-loop's own exclude patterns
 * (`ours`); clears the flags set since (through `clearFlags`), except, in a sparse checkout, those of
 * paths absent from the work tree (`inTree`): git's own, which cleared would read as deletions and be
 * committed (until 2026-11-28, a branch's new file outside the sparse patterns). Returns what was
 * put back, named for a person (empty: nothing had changed).
 */
export async function restoreStaging(
  files: StagingFiles,
  before: StagingSettings,
  ours: readonly string[],
  lsFilesV: () => Promise<string>,
  clearFlags: (paths: string[]) => Promise<void>,
  inTree: (path: string) => boolean,
): Promise<string[]> {
  const restored: string[] = [];
  if ((await readOrUndefined(files.config)) !== before.config) {
    await put(files.config, before.config);
    restored.push('.git/config');
  }
  if ((await readOrUndefined(files.attributes)) !== before.attributes) {
    await put(files.attributes, before.attributes);
    restored.push('.git/info/attributes');
  }
  const exclude = excludeAsBefore(before.exclude, ours);
  if ((await readOrUndefined(files.exclude)) !== exclude) {
    await put(files.exclude, exclude);
    restored.push('.git/info/exclude');
  }
  const had = new Set(before.flagged);
  const flagged = flaggedPaths(await lsFilesV()).filter((p) => !had.has(p) && (!before.sparse || inTree(p)));
  if (flagged.length > 0) {
    await clearFlags(flagged);
    restored.push(
      `the skip-worktree/assume-unchanged flag of ${flagged.slice(0, 5).join(', ')}${flagged.length > 5 ? ', …' : ''}`,
    );
  }
  return restored;
}
