/**
 * The run's log file (--log-file, default <state-dir>/logs/run.log): the whole text log, whatever
 * the console shows — every event, the agent's and the test command's output — written as it
 * happens. Replaced when a process first opens it (a run's start; the loggers a run makes later
 * append to it), at most LOG_FILE_MAX_BYTES, then one line says it was cut. A file that cannot be
 * written is reported once and left alone: the run goes on with its console.
 */
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOG_FILE_MAX_BYTES = 32 * 1024 * 1024;

export interface LogFile {
  readonly path: string;
  write(text: string): void;
  /** Opened (and replaced) by this call: the first logger of the run. */
  readonly fresh?: boolean;
}

/** Files this process opened, by absolute path: each is replaced once, then appended to. */
const opened = new Map<string, LogFile>();

/** The log file at `file` (absolute), or why it cannot be written. */
export function openLogFile(file: string, maxBytes = LOG_FILE_MAX_BYTES): LogFile | { problem: string } {
  const known = opened.get(file);
  if (known) return { path: known.path, write: known.write };
  const named = JSON.stringify(file);
  // Only a regular file is replaced: a FIFO would block the run, a symlink (planted where the state
  // directory is writable by the agent) would have the log overwrite whatever it points at.
  const st = lstatOrUndefined(file);
  if (st && !st.isFile()) {
    const kind = st.isSymbolicLink()
      ? 'a symlink'
      : st.isDirectory()
        ? 'a directory'
        : st.isFIFO()
          ? 'a FIFO'
          : 'a special file';
    return { problem: `the log file ${named} is not a regular file (${kind}): nothing is written to it` };
  }
  let fd: number;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    fd = openSync(file, 'w', 0o600);
  } catch (error) {
    return {
      problem: `the log file ${named} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    };
  }
  let written = 0;
  let cut = false;
  const log: LogFile = {
    path: file,
    write(text) {
      if (cut) return;
      const bytes = Buffer.byteLength(text);
      try {
        if (written + bytes > maxBytes) {
          cut = true;
          writeSync(fd, `… the log was cut here at ${Math.round(maxBytes / 1024 / 1024)} MiB.\n`);
          closeSync(fd);
          return;
        }
        writeSync(fd, text);
        written += bytes;
      } catch {
        cut = true; // a full disk: the console goes on
      }
    },
  };
  opened.set(file, log);
  return { ...log, fresh: true };
}

function lstatOrUndefined(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The git working tree of the run (the first directory from `cwd` up holding `.git`) when it would
 * hold `file` as an untracked file (undefined: none, or `file` is under its `.git`): a --log-file
 * there makes the tree dirty, which the next run refuses, and the agent's commit could take it along.
 */
export function workTreeHolding(file: string, cwd: string): string | undefined {
  let top: string | undefined;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) {
      top = dir;
      break;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
  const inside = path.relative(top, path.resolve(file));
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return undefined;
  return inside.split(path.sep).includes('.git') ? undefined : top;
}
