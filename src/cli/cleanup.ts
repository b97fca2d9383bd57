import { planCleanup } from '../checkpoint/cleanup.js';
import { ageInDays, describeAge } from '../checkpoint/resume.js';
import type { Checkpoint, CheckpointStore } from '../checkpoint/types.js';
import { cleanupDone } from './messages.js';

/** `agent-loop cleanup (--older-than DAYS | --all) [--state-dir DIR] [--dry-run] [--json]` */

export interface CleanupCommandOptions {
  stateDir: string;
  olderThanDays?: number;
  all: boolean;
  dryRun: boolean;
  json?: boolean;
}

export interface CleanupDeps {
  store: CheckpointStore;
  now: Date;
  out: (line: string) => void;
}

/**
 * Deletes old checkpoints, always keeping the newest resumable one unless `all`. Invalid files are
 * never touched. Exit code: 0 done, 1 a deletion failed (the others still ran), 2 invalid usage.
 */
export async function cleanupCommand(opts: CleanupCommandOptions, deps: CleanupDeps): Promise<number> {
  const { store, now, out } = deps;
  const usage = usageError(opts);
  if (usage) {
    out(`agent-loop cleanup: ${usage}`);
    return 2;
  }

  const { checkpoints, invalid } = await store.list();
  const plan = planCleanup(checkpoints, { olderThanDays: opts.olderThanDays, all: opts.all }, now);
  const deleted: Checkpoint[] = [];
  const failed: { id: string; reason: string }[] = [];
  if (!opts.dryRun) {
    for (const cp of plan.remove) {
      try {
        await store.delete(cp.id);
        deleted.push(cp);
      } catch (error) {
        failed.push({ id: cp.id, reason: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  const tempFiles = await store.removeStaleTempFiles(opts.dryRun);
  const done: CleanupDone = { plan, total: checkpoints.length, invalid, deleted, failed, tempFiles, dir: store.dir };
  if (opts.json) out(cleanupJson(opts, done, now));
  else for (const line of cleanupLines(opts, done, now)) out(line);
  return failed.length > 0 ? 1 : 0;
}

/** What a cleanup did (or, in a dry run, would do). */
interface CleanupDone {
  plan: ReturnType<typeof planCleanup>;
  total: number;
  invalid: Awaited<ReturnType<CheckpointStore['list']>>['invalid'];
  deleted: Checkpoint[];
  failed: { id: string; reason: string }[];
  tempFiles: string[];
  dir: string;
}

/** The --json result. Pure. */
function cleanupJson(opts: CleanupCommandOptions, done: CleanupDone, now: Date): string {
  const { plan } = done;
  const summary = (cp: Checkpoint) => ({
    id: cp.id,
    phase: cp.phase,
    timestamp: cp.timestamp,
    ageDays: ageInDays(cp, now),
  });
  return JSON.stringify({
    stateDir: opts.stateDir,
    dryRun: opts.dryRun,
    deleted: done.deleted.map(summary),
    wouldDelete: opts.dryRun ? plan.remove.map(summary) : [],
    failed: done.failed,
    kept: plan.keep.map(summary),
    keptNewestResumable: plan.keptNewestResumable?.id ?? null,
    invalid: done.invalid,
    tempFiles: done.tempFiles,
  });
}

/** The text report, a line each. Pure. */
function cleanupLines(opts: CleanupCommandOptions, done: CleanupDone, now: Date): string[] {
  const { plan, deleted, failed } = done;
  const lines: string[] = [];
  const describe = (cp: Checkpoint) => {
    const days = ageInDays(cp, now);
    return `${cp.id} (${cp.phase}, ${days < 0 ? describeAge(days) : `${days.toFixed(1)} days old`})`;
  };
  if (opts.dryRun) for (const cp of plan.remove) lines.push(`would delete ${describe(cp)}`);
  else for (const cp of deleted) lines.push(`deleted ${describe(cp)}`);
  for (const { id, reason } of failed) lines.push(`failed to delete ${id}: ${reason}`);

  const kept = plan.keptNewestResumable;
  if (kept) {
    const why = `it is the newest resumable checkpoint, the one \`agent-loop run\` would resume`;
    lines.push(
      plan.protectedNewestResumable
        ? `kept ${describe(kept)}: older than ${opts.olderThanDays} days, but ${why}; pass --all to delete it too`
        : `kept ${describe(kept)}: ${why}`,
    );
  }
  for (const bad of done.invalid) {
    lines.push(
      `left ${bad.path} (not a valid checkpoint, so cleanup does not touch it; remove it by hand if it is not needed): ${bad.reason}`,
    );
  }

  for (const file of done.tempFiles)
    lines.push(`${opts.dryRun ? 'would remove' : 'removed'} ${file} (left by a write that a crash cut short)`);

  const keptCount = done.total - (opts.dryRun ? plan.remove.length : deleted.length);
  lines.push(
    cleanupDone({
      dryRun: opts.dryRun,
      removed: plan.remove.length,
      deleted: deleted.length,
      total: done.total,
      dir: done.dir,
      kept: keptCount,
      failed: failed.length,
    }),
  );
  return lines;
}

/** What is wrong with the options, or undefined. */
function usageError(opts: CleanupCommandOptions): string | undefined {
  const days = opts.olderThanDays;
  if (days !== undefined && !(Number.isFinite(days) && days >= 0)) {
    return `--older-than must be a number of days, 0 or more (e.g. --older-than 30); got ${String(days)}`;
  }
  if (!opts.all && days === undefined) {
    return 'say which checkpoints to delete: --older-than DAYS (keeps the newest resumable one) or --all';
  }
  return undefined;
}
