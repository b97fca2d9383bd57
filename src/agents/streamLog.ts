/** The agent's full output stream, kept per iteration under <state-dir>/logs/, size-capped and rotated. */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { StateFiles } from '../persist/stateFiles.js';

export const LOG_MAX_BYTES = 32 * 1024 * 1024;
export const LOGS_KEPT = 50;

/** Appends lines synchronously (memory stays flat whatever the stream's size) until the cap. */
export class StreamLog {
  private fd: number | undefined;
  private written = 0;
  private capped = false;

  constructor(
    readonly file: string | undefined,
    private readonly maxBytes = LOG_MAX_BYTES,
  ) {
    if (!file) return;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      this.fd = openSync(file, 'w');
    } catch {
      this.fd = undefined; // A log we cannot write must never stop the agent.
    }
  }

  write(line: string): void {
    if (this.fd === undefined || this.capped) return;
    const bytes = Buffer.byteLength(line) + 1;
    if (this.written + bytes > this.maxBytes) {
      this.capped = true;
      writeSync(this.fd, `{"type":"agent_loop_log_truncated","after_bytes":${this.written}}\n`);
      return;
    }
    this.written += bytes;
    writeSync(this.fd, `${line}\n`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Keeps the newest `keep` iteration-N.* logs in `dir` (by iteration number). */
export async function pruneIterationLogs(
  files: Pick<StateFiles, 'list' | 'remove'>,
  dir: string,
  keep = LOGS_KEPT,
): Promise<void> {
  const names = (await files.list(dir)).map((e) => e.name);
  const numbered = names
    .map((name) => ({ name, n: Number(/^iteration-(\d+)\./.exec(name)?.[1]) }))
    .filter((x) => Number.isFinite(x.n))
    .sort((a, b) => b.n - a.n);
  await Promise.all(numbered.slice(keep).map((x) => files.remove(path.join(dir, x.name))));
}
