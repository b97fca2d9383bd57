import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
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
 */
export async function writeFileAtomic(file: string, content: string | Buffer): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(
    dir,
    `.${path.basename(file)}.${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  const handle = await fs.open(tmp, 'w', 0o644);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  await syncDir(dir);
}

async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Directory fsync is not supported everywhere (e.g. some network filesystems); the rename is done.
  } finally {
    await handle?.close();
  }
}
