/**
 * Where the @actions/cache client reads and writes a state directory: always under one fixed name,
 * `agent-loop-state`, in a staging directory of its own, so that the entry is the same whatever
 * path the state directory has on the runner that saves or restores it.
 *
 * Why (node_modules/@actions/cache/lib): an entry's version, which a restore must match, is a
 * sha256 of the path strings given to saveCache / restoreCache as written (with the compression
 * method and, on Windows, `windows-only`); the archive's members are those paths resolved against
 * the process's working directory (@actions/glob) and made relative to GITHUB_WORKSPACE, and a
 * restore extracts them under GITHUB_WORKSPACE. Given the absolute state directory, the version
 * held RUNNER_TEMP's path, and a restore into another directory (the reduce's partial states)
 * missed. Given the relative `agent-loop-state` from inside the staging directory, the version is
 * the same on every runner and the archive holds `agent-loop-state/…` only.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { filesUnder, scratch } from './stateDirectory.js';

/** The one path every cache entry archives (relative: the entry's version is a hash of this string). */
export const CACHE_ENTRY_PATH = 'agent-loop-state';

/** A fresh staging directory beside `dir` (same filesystem: what a restore extracts is renamed into place). */
export async function stagingBeside(dir: string): Promise<string> {
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const base = scratch(dir, 'cache');
  await fs.mkdir(base);
  return base;
}

/** Copies the files of `dir` an artifact would hold (filesUnder) to `<base>/agent-loop-state`; the state directory stays untouched. */
export async function stageCopy(dir: string, base: string): Promise<void> {
  const into = path.join(base, CACHE_ENTRY_PATH);
  await fs.mkdir(into, { recursive: true });
  for (const file of await filesUnder(dir)) {
    const to = path.join(into, path.relative(dir, file));
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.copyFile(file, to);
  }
}

/**
 * Moves what a restore extracted (`<base>/agent-loop-state`) to `dir`, replacing it; false when the
 * archive held no such directory (nothing is changed).
 */
export async function unstage(base: string, dir: string): Promise<boolean> {
  const got = path.join(base, CACHE_ENTRY_PATH);
  const stat = await fs.stat(got).catch(() => undefined);
  if (!stat?.isDirectory()) return false;
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rename(got, dir);
  return true;
}

let running: Promise<unknown> = Promise.resolve();

/**
 * Runs one call of the cache client from `base`: the process's working directory (which @actions/glob
 * resolves the relative path against) and GITHUB_WORKSPACE (which tar archives relative to and
 * extracts under) are `base` during the call, and restored after it. The client offers no option
 * for either, so the process's are set; calls are queued, one at a time. Only the action's restore
 * and publish call the client, while nothing else of the process runs.
 */
export function inStaging<T>(base: string, call: () => Promise<T>): Promise<T> {
  const run = running.then(async () => {
    const cwd = process.cwd();
    const workspace = process.env.GITHUB_WORKSPACE;
    process.chdir(base);
    process.env.GITHUB_WORKSPACE = base;
    try {
      return await call();
    } finally {
      process.chdir(cwd);
      if (workspace === undefined) delete process.env.GITHUB_WORKSPACE;
      else process.env.GITHUB_WORKSPACE = workspace;
    }
  });
  running = run.catch(() => undefined);
  return run;
}
