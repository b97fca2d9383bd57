/**
 * The agent's full output, kept per iteration under <state-dir>/logs/, size-capped and rotated:
 * `iteration-N.ndjson` for an agent that prints JSON events (claude, codex), `iteration-N.log` for
 * any other (command). The lines arrive masked (src/secrets/outputMasker.ts).
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOG_MAX_BYTES = 32 * 1024 * 1024;
export const LOGS_KEPT = 50;

/** How the log's lines are written: JSON events, or the output as printed. */
export type LogFormat = 'ndjson' | 'text';

/** The iteration's log file for an agent whose output has `format`, from the base path `logs/iteration-N`. */
export function logFileFor(base: string | undefined, format: LogFormat): string | undefined {
  return base === undefined ? undefined : `${base}.${format === 'ndjson' ? 'ndjson' : 'log'}`;
}

/**
 * Appends lines synchronously (memory stays flat whatever the stream's size) until the cap. The file
 * is made at the first line, so while the agent runs: an agent that prints nothing leaves no log, and
 * no file is made between two agent runs (on ext4 a new file right after the checkpoint's fsync costs
 * about a tenth of the engine's own time per iteration: bench/overhead.mjs).
 */
export class StreamLog {
  private fd: number | undefined;
  /** The file was opened, or could not be: never tried again. */
  private tried = false;
  private written = 0;
  private capped = false;
  /** The last write was a piece of a line that has not ended yet. */
  private midLine = false;

  constructor(
    readonly file: string | undefined,
    private readonly maxBytes = LOG_MAX_BYTES,
    private readonly format: LogFormat = 'ndjson',
  ) {}

  private open(): number | undefined {
    if (this.tried || !this.file) return this.fd;
    this.tried = true;
    try {
      try {
        this.fd = openSync(this.file, 'w');
      } catch (error) {
        // The directory is made when it is missing (not a mkdir per agent run).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        mkdirSync(path.dirname(this.file), { recursive: true });
        this.fd = openSync(this.file, 'w');
      }
    } catch {
      this.fd = undefined; // A log we cannot write must never stop the agent.
    }
    return this.fd;
  }

  /** Appends `line` and a newline; `ends: false` for a piece of a longer line that goes on in the next write. */
  write(line: string, ends = true): void {
    if (this.capped) return;
    const fd = this.open();
    if (fd === undefined) return;
    const text = ends ? `${line}\n` : line;
    const bytes = Buffer.byteLength(text);
    if (this.written + bytes > this.maxBytes) {
      this.capped = true;
      writeSync(
        fd,
        this.format === 'ndjson'
          ? `${this.midLine ? '\n' : ''}{"type":"agent_loop_log_truncated","after_bytes":${this.written}}\n`
          : `${this.midLine ? '\n' : ''}[agent-loop: the rest of this output is left out, the log stops at ${this.written} bytes]\n`,
      );
      return;
    }
    this.written += bytes;
    this.midLine = !ends;
    writeSync(fd, text);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * What pruning needs of the state directory's files: its two calls of src/persist/stateFiles.ts's
 * StateFiles, which the caller passes (named here so that the agents import nothing of persist/).
 */
export interface LogFiles {
  list(dir: string, options?: { names?: boolean }): Promise<Array<{ name: string; stamp: string }>>;
  remove(file: string): Promise<void>;
}

/**
 * Keeps the newest `keep` iteration-N.* logs in `dir` (by iteration number), not counting those of
 * iteration `current` (the run that just wrote it), which are kept. A log numbered above `current`
 * is an earlier run's (a --fresh run counts from 1 again, and this run has not got there yet): it
 * counts as older than every one of this run's, so it goes first.
 */
export async function pruneIterationLogs(
  files: LogFiles,
  dir: string,
  keep = LOGS_KEPT,
  current?: number,
): Promise<void> {
  const names = (await files.list(dir, { names: true })).map((e) => e.name);
  // Newest first: this run's logs by number, then an earlier run's (above `current`) by number.
  const earlier = (n: number) => (current !== undefined && n > current ? 1 : 0);
  const numbered = names
    .map((name) => ({ name, n: Number(/^iteration-(\d+)\./.exec(name)?.[1]) }))
    .filter((x) => Number.isFinite(x.n) && x.n !== current)
    .sort((a, b) => earlier(a.n) - earlier(b.n) || b.n - a.n);
  await Promise.all(numbered.slice(keep).map((x) => files.remove(path.join(dir, x.name))));
}
