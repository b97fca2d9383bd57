/**
 * Where the state directory lives when --state-dir is not given: outside the working tree, so no
 * `git add` can stage it and no branch switch touches it. In a git repository, under the git
 * directory (`<git-common-dir>/agent-loop`, shared by linked worktrees); in the GitHub Action,
 * under RUNNER_TEMP (src/action/main.ts); elsewhere `.agent-loop` in the working directory.
 * An old `.agent-loop/` at the top of the work tree (where earlier versions kept it) is moved there
 * once, with a message.
 */
import { type Terms, surface } from '../config/surface.js';
import { repoPaths } from '../git/repoPaths.js';
import { type Stats, constants as fsConstants, existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { SAFETY_MESSAGES } from './messages.js';
import { printable } from '../util/printable.js';

export const LEGACY_STATE_DIR = '.agent-loop';

/**
 * What agent-loop writes at the top of a state directory (checkpoints, logs, its runtime files, the
 * halt diagnostic…). When the state directory is the work tree's top level (`--state-dir .`), these
 * and only these are its own: never dirt, never staged (a user's file beside them still is).
 * __tests__/safety/stateDir checks the list against the modules that write each name.
 */
export const STATE_DIR_ENTRIES: readonly string[] = [
  'checkpoints',
  'logs',
  'run',
  'parallel',
  'quarantine',
  'baselines',
  'baselines-last-failing',
  'outbox',
  'pipeline',
  'prompt.md',
  'errors.jsonl',
  'halt.md',
  'generation.json',
  'repository.json',
];

/**
 * The paths that are the state directory's own: the directory itself (when it lies inside a work
 * tree, all of it) and each entry agent-loop writes in it (when it is the top level). Pure.
 */
export function stateDirOwnPaths(stateDir: string): string[] {
  return [stateDir, ...STATE_DIR_ENTRIES.map((name) => path.join(stateDir, name))];
}

export interface ResolvedStateDir {
  dir: string;
  /** What happened to an old in-tree state directory, for the log (once). */
  notes: string[];
}

/**
 * The state directory: the option when given (relative to `cwd`), else the default for where `cwd`
 * is. `migrate` moves an old in-tree `.agent-loop/` to the default location (run, plan, status,
 * cleanup all do, so each finds the same checkpoints).
 */
export async function resolveStateDir(
  option: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<ResolvedStateDir> {
  if (option) return { dir: path.resolve(cwd, option), notes: [] };
  const dirs = await repoPaths(cwd, env);
  if (!dirs) return { dir: path.resolve(cwd, LEGACY_STATE_DIR), notes: [] };
  const dir = path.join(dirs.commonDir, 'agent-loop');
  return { dir, notes: await migrate(path.join(dirs.topLevel, LEGACY_STATE_DIR), dir) };
}

async function migrate(legacy: string, dir: string): Promise<string[]> {
  if (!existsSync(path.join(legacy, 'checkpoints'))) return [];
  if (existsSync(dir)) {
    return [SAFETY_MESSAGES.legacyStateDirKept(legacy, dir)];
  }
  await fs.mkdir(path.dirname(dir), { recursive: true });
  try {
    await fs.rename(legacy, dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await fs.cp(legacy, dir, { recursive: true, errorOnExist: true });
    await fs.rm(legacy, { recursive: true, force: true });
  }
  return [SAFETY_MESSAGES.legacyStateDirMoved(legacy, dir)];
}

/**
 * Why `dir` cannot serve as the state directory, or undefined when it can: it must be a directory
 * or not exist yet under a directory; with `create` (the commands that write) it is created now, so
 * that a name too long, a read-only parent or a missing permission is said here, naming the
 * option, instead of failing later with a bare system error.
 */
export async function stateDirProblem(
  dir: string,
  opts: { create: boolean; terms?: Terms },
): Promise<string | undefined> {
  const say = surface(opts.terms);
  // The CLI also reads the option from its environment variable.
  const option = say.terms === 'cli' ? `${say.option('stateDir')} (AGENT_LOOP_STATE_DIR)` : say.option('stateDir');
  const what = (st: Stats) =>
    st.isFIFO()
      ? 'a named pipe'
      : st.isCharacterDevice()
        ? 'a character device'
        : st.isBlockDevice()
          ? 'a block device'
          : st.isSocket()
            ? 'a socket'
            : 'a file';
  const shown = (p: string) => printable(p);
  const advice = `Give ${option} a directory agent-loop may create and write, or leave it out for the default.`;
  for (let p = dir; ; p = path.dirname(p)) {
    let st: Stats;
    try {
      st = await fs.stat(p);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'ENOENT' || code === 'ENOTDIR') && path.dirname(p) !== p) continue;
      return `${say.option('stateDir')}: cannot use '${shown(dir)}' (${code ?? (error as Error).message}). ${advice}`;
    }
    if (!st.isDirectory())
      return `${say.option('stateDir')}: '${shown(p)}' is ${what(st)}, not a directory${p === dir ? '' : ` (on the way to '${shown(dir)}')`}. ${advice}`;
    break;
  }
  if (!opts.create) return undefined;
  try {
    await fs.mkdir(dir, { recursive: true });
    await fs.access(dir, fsConstants.W_OK);
  } catch (error) {
    const cause = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return `${say.option('stateDir')}: cannot create or write '${shown(dir)}' (${cause}). ${advice}`;
  }
  return undefined;
}
