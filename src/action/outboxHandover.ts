/**
 * Fan-out (issue 16): unlanded work handed between the loop's state and a wave's jobs. A push or
 * pull request that failed leaves its cycle in the job's outbox and its branch as a bundle in the
 * state directory's outbox/ (src/publish/pullRequest.ts). The reduce gathers every job's bundles
 * into the loop's state (and drops the ones no entry needs any more); the next wave's landing job
 * takes the loop's entries and their bundles, and its slice lands them (src/core/waveOutbox.ts).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LoopState, Notice, OutboxEntry } from '../core/state.js';
import { outboxKey } from '../core/waveOutbox.js';
import { bundleName } from '../publish/pullRequest.js';
import { savedLoop } from './waveHandoff.js';

/** The checkpoint's record, beside `loop`, of the entries a landing job took (the reduce's `took`). */
export const LANDING_KEY = 'landing';
/** Where the action keeps the bundles (its publisher's keepDir), under the state directory. */
export const OUTBOX_DIR = 'outbox';

/**
 * The landing job's start: the loop's state restored into `scratch` (`fetchLoop`), its outbox
 * entries named by `keys` taken, and every bundle copied into this job's state directory.
 */
export async function takeOutbox(input: {
  keys: readonly string[];
  checkpoint: string;
  stateDir: string;
  scratch: string;
  fetchLoop: (dir: string) => Promise<boolean>;
  warn: (message: string) => void;
}): Promise<{ entries: OutboxEntry[]; notices: Notice[]; what: string }> {
  const { scratch } = input;
  await fs.rm(scratch, { recursive: true, force: true });
  try {
    if (!(await input.fetchLoop(scratch))) {
      input.warn(
        `agent-loop: the loop's saved state (checkpoint ${input.checkpoint}) was not found: nothing to land; the next wave tries again.`,
      );
      return { entries: [], notices: [], what: 'none' };
    }
    const saved = await savedLoop(scratch, input.checkpoint);
    if ('problem' in saved) {
      input.warn(`agent-loop: checkpoint ${input.checkpoint} could not be read (${saved.problem}): nothing to land.`);
      return { entries: [], notices: [], what: 'none' };
    }
    const wanted = new Set(input.keys);
    const entries = saved.loop.outbox.filter((e) => wanted.has(outboxKey(e)));
    // The notices the work jobs could not send (waveOutbox.ts noticesOwed): sent by this job's slice first.
    const notices = saved.loop.notices.filter((n) => wanted.has(n.id));
    await gatherBundles(scratch, input.stateDir);
    return {
      entries,
      notices,
      what:
        [
          ...entries.map((e) => `${e.cycle.issueIds.join(', ')} (${e.cycle.branch ?? 'no branch'})`),
          ...notices.map((n) =>
            n.what.kind === 'markEscalated' ? `the escalation of ${n.what.issueIds.join(', ')}` : n.what.kind,
          ),
        ].join('; ') || 'none',
    };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The bundles of the state directory `from` copied into `into`'s (a newer copy of a branch replaces the older). */
export async function gatherBundles(from: string, into: string): Promise<number> {
  const source = path.join(from, OUTBOX_DIR);
  const names = (await fs.readdir(source).catch(() => [] as string[])).filter((n) => n.endsWith('.bundle'));
  if (names.length === 0) return 0;
  await fs.mkdir(path.join(into, OUTBOX_DIR), { recursive: true });
  for (const name of names) await fs.copyFile(path.join(source, name), path.join(into, OUTBOX_DIR, name));
  return names.length;
}

/** The bundles no outbox entry of `loop` lands any more, removed (they would be published for nothing). */
export async function dropLandedBundles(stateDir: string, loop: Pick<LoopState, 'outbox'>): Promise<void> {
  const dir = path.join(stateDir, OUTBOX_DIR);
  const needed = new Set(loop.outbox.flatMap((e) => (e.cycle.branch ? [bundleName(e.cycle.branch)] : [])));
  for (const name of await fs.readdir(dir).catch(() => [] as string[]))
    if (name.endsWith('.bundle') && !needed.has(name)) await fs.rm(path.join(dir, name), { force: true });
}

/** The keys a landing job's checkpoint says it took (none: not a landing job's state). */
export function tookFrom(state: Record<string, unknown> | undefined): string[] {
  const record = state?.[LANDING_KEY] as { took?: unknown } | undefined;
  return Array.isArray(record?.took) ? record.took.filter((k): k is string => typeof k === 'string') : [];
}
