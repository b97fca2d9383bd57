import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Marks our temporary files: `.<name>.agent-loop-<pid>-<hex>.tmp`. */
const TEMP_MARK = 'agent-loop-';
/** A git exclude pattern for them, so a write cut short by a crash is never committed. */
export const TEMP_FILE_PATTERN = `*.${TEMP_MARK}*.tmp`;

/** The pid that wrote a temporary file of ours, or undefined when `name` is not one. */
export function tempFileOwner(name: string): number | undefined {
  const m = /\.agent-loop-(\d+)-[0-9a-f]+\.tmp$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/**
 * Replaces `file` with `content` so that a reader (or a crash at any moment) sees either the old
 * file or the new one, never a mix: write a temporary file in the same directory, fsync it,
 * rename it over the target, then fsync the directory so the rename itself is durable.
 * `durable: false` skips the two fsyncs, for files that are rewritten every iteration and worth
 * nothing after a crash (the prompt copy): still never half-written, no longer sure to survive a
 * power cut. The directory is created when it is missing.
 *
 * The calls are synchronous on purpose: the engine writes between agent runs, when nothing else is
 * waiting on its event loop, and each of the eight steps would otherwise be a round trip through
 * libuv's thread pool (measured: about a third of an iteration's own time; bench/overhead.mjs).
 */
export async function writeFileAtomic(
  file: string,
  content: string | Buffer,
  options: { durable?: boolean } = {},
): Promise<void> {
  writeFileAtomicSync(file, content, options);
}

function writeFileAtomicSync(file: string, content: string | Buffer, options: { durable?: boolean }): void {
  const durable = options.durable ?? true;
  const dir = path.dirname(file);
  const tmp = path.join(
    dir,
    `.${path.basename(file)}.${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  const fd = openNew(tmp, dir);
  try {
    fs.writeFileSync(fd, content);
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  if (durable) syncDir(dir);
}

/** Opens `tmp` for writing; creates its directory only when it is missing (a write per iteration must not pay a mkdir). */
function openNew(tmp: string, dir: string): number {
  try {
    return fs.openSync(tmp, 'w', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    fs.mkdirSync(dir, { recursive: true });
    return fs.openSync(tmp, 'w', 0o644);
  }
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Directory fsync is not supported everywhere (e.g. some network filesystems); the rename is done.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
