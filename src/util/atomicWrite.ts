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

/** Unique within this process: a random prefix drawn once, then a counter (no RNG call per write). */
const TEMP_PREFIX = randomBytes(4).toString('hex');
let tempCount = 0;
const tempSuffix = () => `${TEMP_PREFIX}${(tempCount++).toString(16)}`;

/**
 * Replaces `file` with `content` so that a reader (or a crash at any moment) sees either the old
 * file or the new one, never a mix: write a temporary file in the same directory, fsync it,
 * rename it over the target, then fsync the directory so the rename itself is durable.
 * The directory is created when it is missing. `fsync: false` keeps the atomic replace and skips
 * both fsyncs (a scratch copy that a power cut may lose).
 *
 * The calls are synchronous on purpose: the engine writes between agent runs, when nothing else is
 * waiting on its event loop, and each of the eight steps would otherwise be a round trip through
 * libuv's thread pool (measured: about a third of an iteration's own time; bench/overhead.mjs).
 */
export async function writeFileAtomic(
  file: string,
  content: string | Buffer,
  options: { fsync?: boolean } = {},
): Promise<void> {
  const durable = options.fsync ?? true;
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${TEMP_MARK}${process.pid}-${tempSuffix()}.tmp`);
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
