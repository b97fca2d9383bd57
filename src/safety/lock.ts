/**
 * One run at a time: a lock file per state directory (and, in a git repository, one per
 * repository), holding who took it. A second `run`, `plan` or `cleanup` is refused naming the
 * holder; a lock whose holder is provably dead is taken over and reported with why (issue 43): its
 * pid is not running, or it runs a process started at another time than the holder (the pid given to
 * another process since, e.g. a `--parallel` job killed with its coordinator), or the machine restarted.
 *
 * The lock is created with O_EXCL, so two starters never both create it; a stale one is first
 * renamed away (atomic), and what was renamed is checked to be the stale lock that was judged,
 * so a fresh lock that another starter created in between is put back, never stolen.
 */
import { closeSync, linkSync, openSync, promises as fs, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { printable } from '../util/printable.js';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
  cwd: string;
  /** The holder's start, in /proc's clock ticks since boot (field 22 of /proc/<pid>/stat); absent where unknown. */
  procStart?: string;
  /** /proc/sys/kernel/random/boot_id when the lock was taken; absent where unknown. */
  bootId?: string;
}

export interface LockDeps {
  /** Whether a process with this pid runs on this host (signal 0; a zombie counts as gone). */
  isAlive(pid: number): boolean;
  /** The start (clock ticks since boot) of the process with this pid, where /proc says it. */
  startOf?(pid: number): string | undefined;
  /** This boot's id, where /proc says it. */
  bootId?: string;
}

/** Why a holder on this host is provably dead; undefined when it may still run. Pure over deps. */
export function deadHolder(holder: LockHolder, deps: LockDeps): string | undefined {
  if (holder.bootId && deps.bootId && holder.bootId !== deps.bootId) return 'the machine has restarted since';
  if (!deps.isAlive(holder.pid)) return 'its process is no longer running';
  const now = holder.procStart ? deps.startOf?.(holder.pid) : undefined;
  if (holder.procStart && now && now !== holder.procStart)
    return `pid ${holder.pid} now belongs to another process (started at tick ${now}, the holder at tick ${holder.procStart})`;
  return undefined;
}

export type LockResult =
  | { ok: true; release(): void; tookOver: Array<{ file: string; holder: LockHolder; why: string }> }
  | { ok: false; file: string; holder: LockHolder | undefined };

/** The file name of the lock inside a state directory; persistence never publishes it. */
export const LOCK_FILE = 'lock.json';

/** Takes every lock in `files` (all or none), in order. */
export async function acquireLocks(files: readonly string[], me: LockHolder, deps: LockDeps): Promise<LockResult> {
  const taken: string[] = [];
  const tookOver: Array<{ file: string; holder: LockHolder; why: string }> = [];
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
    if (r.tookOver) tookOver.push({ file, ...r.tookOver });
  }
  return { ok: true, release: releaseAll, tookOver };
}

async function acquireOne(
  file: string,
  me: LockHolder,
  deps: LockDeps,
): Promise<
  { ok: true; tookOver?: { holder: LockHolder; why: string } } | { ok: false; holder: LockHolder | undefined }
> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  let tookOver: { holder: LockHolder; why: string } | undefined;
  // Bounded: each round either creates the lock, reports a live holder, or removes a stale one.
  for (let round = 0; round < 5; round++) {
    if (create(file, me)) return { ok: true, ...(tookOver ? { tookOver } : {}) };
    const holder = readHolder(file);
    if (holder === 'gone') continue; // released meanwhile: try again
    const why = holder && holder.host === me.host ? deadHolder(holder, deps) : undefined;
    if (holder && !why) return { ok: false, holder };
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
    tookOver = holder
      ? { holder, why: why ?? 'its process is no longer running' }
      : {
          holder: { pid: 0, host: me.host, startedAt: 'unknown', command: 'unknown (unreadable lock file)', cwd: '' },
          why: 'its lock file was left half-written',
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
        ...(typeof h.procStart === 'string' ? { procStart: h.procStart } : {}),
        ...(typeof h.bootId === 'string' ? { bootId: h.bootId } : {}),
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
  // What a lock file says is printed on one line, bounded: anyone who can write it chose it (issue 43).
  const command = holder.command ? ` (${printable(holder.command)})` : '';
  const where = holder.cwd ? ` in ${printable(holder.cwd)}` : '';
  const [pid, host, at] = [holder.pid, holder.host, holder.startedAt].map((v) => printable(String(v)));
  return `agent-loop pid ${pid} on ${host}, started ${at}${command}${where}`;
}
