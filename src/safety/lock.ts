/**
 * One run at a time: a lock file per state directory (and, in a git repository, one per
 * repository), holding who took it. A second `run`, `plan` or `cleanup` is refused naming the
 * holder; a lock whose process is gone (same host, pid not alive) is taken over and reported.
 *
 * The lock is created with O_EXCL, so two starters never both create it; a stale one is first
 * renamed away (atomic), and what was renamed is checked to be the stale lock that was judged,
 * so a fresh lock that another starter created in between is put back, never stolen.
 */
import { closeSync, linkSync, openSync, promises as fs, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
  cwd: string;
}

export interface LockDeps {
  /** Whether a process with this pid runs on this host (signal 0; a zombie counts as gone). */
  isAlive(pid: number): boolean;
}

export type LockResult =
  | { ok: true; release(): void; tookOver: Array<{ file: string; holder: LockHolder }> }
  | { ok: false; file: string; holder: LockHolder | undefined };

/** The file name of the lock inside a state directory; persistence never publishes it. */
export const LOCK_FILE = 'lock.json';

/** Takes every lock in `files` (all or none), in order. */
export async function acquireLocks(files: readonly string[], me: LockHolder, deps: LockDeps): Promise<LockResult> {
  const taken: string[] = [];
  const tookOver: Array<{ file: string; holder: LockHolder }> = [];
  const releaseAll = () => {
    for (const file of taken.splice(0)) releaseLock(file, me);
  };
  for (const file of files) {
    const r = await acquireOne(file, me, deps);
    if (!r.ok) {
      releaseAll();
      return { ok: false, file, holder: r.holder };
    }
    taken.push(file);
    if (r.tookOver) tookOver.push({ file, holder: r.tookOver });
  }
  return { ok: true, release: releaseAll, tookOver };
}

async function acquireOne(
  file: string,
  me: LockHolder,
  deps: LockDeps,
): Promise<{ ok: true; tookOver?: LockHolder } | { ok: false; holder: LockHolder | undefined }> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  let tookOver: LockHolder | undefined;
  // Bounded: each round either creates the lock, reports a live holder, or removes a stale one.
  for (let round = 0; round < 5; round++) {
    if (create(file, me)) return { ok: true, ...(tookOver ? { tookOver } : {}) };
    const holder = readHolder(file);
    if (holder === 'gone') continue; // released meanwhile: try again
    if (holder && (holder.host !== me.host || deps.isAlive(holder.pid))) return { ok: false, holder };
    if (!holder && !isOld(file)) return { ok: false, holder: undefined }; // being written right now
    // Stale (its process is gone, or unreadable and old): move it aside, then check what moved.
    const aside = `${file}.stale-${me.pid}-${Date.now()}`;
    try {
      await fs.rename(file, aside);
    } catch {
      continue; // someone else moved it first
    }
    const moved = readHolder(aside);
    const same =
      moved !== 'gone' &&
      (moved === undefined
        ? holder === undefined
        : holder !== undefined && moved.pid === holder.pid && moved.startedAt === holder.startedAt);
    if (!same) {
      // A fresh lock taken in between: put it back (link fails if yet another exists) and report it.
      try {
        linkSync(aside, file);
      } catch {
        // the newest lock stays
      }
      await fs.rm(aside, { force: true });
      return { ok: false, holder: moved === 'gone' ? undefined : moved };
    }
    await fs.rm(aside, { force: true });
    tookOver = holder ?? {
      pid: 0,
      host: me.host,
      startedAt: 'unknown',
      command: 'unknown (unreadable lock file)',
      cwd: '',
    };
  }
  return { ok: false, holder: undefined };
}

function create(file: string, me: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(me)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The holder in a lock file; 'gone' when there is no file; undefined when it cannot be read as one. */
export function readHolder(file: string): LockHolder | undefined | 'gone' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid === 'number' && typeof h.host === 'string' && typeof h.startedAt === 'string') {
      return {
        pid: h.pid,
        host: h.host,
        startedAt: h.startedAt,
        command: String(h.command ?? ''),
        cwd: String(h.cwd ?? ''),
      };
    }
  } catch {
    // not JSON
  }
  return undefined;
}

/** An unreadable lock file older than a few seconds was left half-written by a crash. */
function isOld(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > 5000;
  } catch {
    return true;
  }
}

/** Removes the lock when it is still ours (synchronous: also used on process exit). */
export function releaseLock(file: string, me: LockHolder): void {
  const holder = readHolder(file);
  if (holder === 'gone' || !holder || holder.pid !== me.pid || holder.startedAt !== me.startedAt) return;
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** One line naming the holder, for the refusal. */
export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'another agent-loop process (its lock file is being written or cannot be read)';
  const command = holder.command ? ` (${holder.command})` : '';
  const where = holder.cwd ? ` in ${holder.cwd}` : '';
  return `agent-loop pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}${command}${where}`;
}
