/**
 * The run's log file (--log-file, default <state-dir>/logs/run.log): the whole text log, whatever
 * the console shows — every event, the agent's and the test command's output — written as it
 * happens. Replaced when a process first opens it (a run's start; the loggers a run makes later
 * append to it), at most LOG_FILE_MAX_BYTES, then one line says it was cut. A file that cannot be
 * written is reported once and left alone: the run goes on with its console.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
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
  let fd: number;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    fd = openSync(file, 'w', 0o600);
  } catch (error) {
    return {
      problem: `the log file ${file} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
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
