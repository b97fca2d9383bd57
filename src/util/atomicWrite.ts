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

/** Unique within this process: a random prefix drawn once, then a counter (no RNG call per write); openNew skips a name taken. */
const TEMP_PREFIX = randomBytes(4).toString('hex');
let tempCount = 0;
const tempSuffix = () => `${TEMP_PREFIX}${(tempCount++).toString(16)}`;

/**
 * Replaces `file` with `content` so that a reader (or a crash at any moment) sees either the old
 * file or the new one, never a mix: write a temporary file in the same directory, fsync it, rename
 * it over the target. The first time this process writes a file, the directory is fsynced too, so
 * that the new name is durable; a later replace of the same file skips that second fsync (one per
 * iteration for the checkpoint): a power cut right after it may lose that one rename, and the file
 * is then the previous complete version, which the next journal commit would have replaced.
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
  writeFileAtomicSync(file, content, options);
}

/** writeFileAtomic, throwing where it fails rather than rejecting: for a caller that must know at once. */
export function writeFileAtomicSync(file: string, content: string | Buffer, options: { fsync?: boolean } = {}): void {
  const durable = options.fsync ?? true;
  const dir = path.dirname(file);
  const { fd, tmp } = openNew(file, dir);
  try {
    try {
      fs.writeFileSync(fd, content);
      if (durable) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (error) {
    // A write that failed (a full disk) must not leave its temporary file to fill the disk further.
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  if (durable && !named.has(file)) {
    syncDir(dir);
    named.add(file);
  }
}

/**
 * The files whose name this process has made durable (their directory fsynced after their first
 * write); forgotten for a directory this process has to make again (it was removed meanwhile).
 */
const named = new Set<string>();

/**
 * Creates a new temporary file next to `file`, exclusively (O_EXCL: never an existing file, never
 * through a symlink someone placed at a name they guessed); the directory is created only when it is
 * missing (a write per iteration must not pay a mkdir).
 */
function openNew(file: string, dir: string): { fd: number; tmp: string } {
  for (let attempt = 0; ; attempt++) {
    const tmp = path.join(dir, `.${path.basename(file)}.${TEMP_MARK}${process.pid}-${tempSuffix()}.tmp`);
    try {
      return { fd: fs.openSync(tmp, 'wx', 0o644), tmp };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && attempt === 0) {
        fs.mkdirSync(dir, { recursive: true });
        for (const f of named) if (path.dirname(f) === dir) named.delete(f);
      } else if (code !== 'EEXIST' || attempt >= 100) throw error;
    }
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

/**
 * Rewrites `file` in place with `content`, without fsync: written over the old bytes from offset 0,
 * then cut to the new length. For a scratch copy rewritten before every agent run (the prompt),
 * where a reader only ever comes after the write: no temporary file and no rename (which, like a
 * truncation to zero, makes ext4 flush the file's data at once: about a tenth of an iteration's own
 * time). Anything but our own regular file (a symlink, a FIFO, a hard link to another file, e.g.
 * one an agent put in its place) is replaced atomically instead, never written through.
 */
export function rewriteInPlace(file: string, content: string): Promise<void> {
  try {
    rewriteInPlaceSync(file, content);
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** rewriteInPlace, throwing where it fails rather than rejecting: for a caller that must know at once. */
export function rewriteInPlaceSync(file: string, content: string): void {
  const bytes = Buffer.from(content);
  let fd: number | undefined;
  try {
    fd = fs.openSync(
      file,
      fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
      0o644,
    );
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1) throw new Error('not a file of its own');
    for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done, done);
    if (st.size > bytes.length) fs.ftruncateSync(fd, bytes.length);
  } catch {
    if (fd !== undefined) fs.closeSync(fd);
    writeFileAtomicSync(file, content, { fsync: false });
    return;
  }
  fs.closeSync(fd);
}
