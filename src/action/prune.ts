/**
 * Before post publishes the state directory (issue 14): the checkpoints it holds are pruned to the
 * newest KEPT_CHECKPOINTS, never the one in use, the newest resumable one, or one whose halt or
 * outbox still needs it (src/checkpoint/cleanup.ts: planPrune). An older checkpoint stays in the
 * artifacts earlier runs published (90 days), where `checkpoint-id` still finds it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { planPrune } from '../checkpoint/cleanup.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import type { Checkpoint } from '../checkpoint/types.js';
import { parseLoopState } from '../core/state.js';

/**
 * Ten: each checkpoint is one stretch of work (a run with nothing to do writes none), so ten cover
 * the checkpoints the last ten job summaries named in a busy week; a checkpoint is a few kB (at most
 * about 410 kB after 10,000 iterations), so the published state stays small.
 */
export const KEPT_CHECKPOINTS = 10;

/** Still needed whatever its age: a halt (it stands until resumed) or finished work not landed yet. */
export function stillNeeded(checkpoint: Checkpoint): boolean {
  const loop = parseLoopState(checkpoint.state);
  return typeof loop === 'object' && (loop.halt !== undefined || loop.outbox.length > 0);
}

/** Removes the checkpoints planPrune does not keep; the ids removed. A file that cannot be removed is a warning. */
export async function pruneCheckpoints(
  stateDir: string,
  options: { inUse?: string; log: { info(m: string): void; warning(m: string): void } },
): Promise<string[]> {
  const store = new FileCheckpointStore(stateDir);
  const { checkpoints } = await store.list();
  const plan = planPrune(checkpoints, {
    keep: KEPT_CHECKPOINTS,
    ...(options.inUse ? { inUse: options.inUse } : {}),
    needed: stillNeeded,
  });
  const removed: string[] = [];
  for (const cp of plan.remove) {
    try {
      await store.delete(cp.id);
      removed.push(cp.id);
    } catch (error) {
      options.log.warning(
        `Could not prune checkpoint ${cp.id}: ${(error as Error).message}; it is published as it is.`,
      );
    }
  }
  if (removed.length > 0)
    options.log.info(
      `Pruned ${removed.length} older checkpoint(s) before publishing (${removed.join(', ')}): the state ` +
        `keeps the newest ${KEPT_CHECKPOINTS}, the one in use and any a halt or unlanded work needs; the ` +
        `artifacts of earlier runs still hold the others.`,
    );
  return removed;
}

/**
 * The iteration logs published with the state, at most this many bytes (the newest logs first): 50
 * logs of up to 32 MiB each would otherwise put 1.6 GB in every artifact and cache entry (a
 * repository's caches share 10 GB). The newest log is always kept.
 */
export const PUBLISHED_LOG_BYTES = 64 * 1024 * 1024;

/** Removes the oldest iteration logs beyond `budget` bytes in all; the names removed. */
export async function pruneLogs(
  stateDir: string,
  options: { budget?: number; log: { info(m: string): void; warning(m: string): void } },
): Promise<string[]> {
  const budget = options.budget ?? PUBLISHED_LOG_BYTES;
  const dir = path.join(stateDir, 'logs');
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const logs: Array<{ name: string; n: number; size: number }> = [];
  for (const name of names) {
    const n = Number(/^iteration-(\d+)\./.exec(name)?.[1]);
    if (!Number.isFinite(n)) continue;
    const st = await fs.lstat(path.join(dir, name)).catch(() => undefined);
    if (st?.isFile()) logs.push({ name, n, size: st.size });
  }
  logs.sort((a, b) => b.n - a.n || a.name.localeCompare(b.name));
  const removed: string[] = [];
  let total = 0;
  for (const [k, entry] of logs.entries()) {
    total += entry.size;
    if (k === 0 || total <= budget) continue;
    try {
      await fs.rm(path.join(dir, entry.name), { force: true });
      removed.push(entry.name);
    } catch (error) {
      options.log.warning(
        `Could not prune the log ${entry.name}: ${(error as Error).message}; it is published as it is.`,
      );
    }
  }
  if (removed.length > 0)
    options.log.info(
      `Left ${removed.length} older iteration log(s) out of the published state (${removed.join(', ')}): ` +
        `the logs published are the newest, at most ${Math.round(budget / 1024 / 1024)} MiB in all.`,
    );
  return removed;
}
