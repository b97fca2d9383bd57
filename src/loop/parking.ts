/**
 * Where a halt leaves a cycle's branch checked out with its edits (the CLI: nothing moves on a
 * halt), a person reads them there, and often changes the issues there too: takes an escalated
 * issue's label away, clarifies one, files one (issue 40: what the halt's advice tells them to do).
 * The next run parks the branch's edits as a wip: commit on it and goes back to the base branch,
 * where the issues are read; a person's change to the issues file made on the branch would be parked
 * with the rest and never read. So the halt records a digest of each open issue as it left the file
 * (after the agent's last run: what the agent changed is in it), and parking carries to the base
 * branch the issues that differ from it: the changes a person made since. Pure, but for the record
 * being hashed.
 */
import { createHash } from 'node:crypto';
import type { CheckpointStore } from '../checkpoint/types.js';
import { type LoopState, parseLoopState } from '../core/state.js';
import type { OpenRecord } from '../issues/types.js';
import { branchLeft } from '../core/haltReads.js';

export { branchLeft };

/** A short digest of each open issue's record, by id. */
export function issueDigests(records: ReadonlyMap<string, OpenRecord>): Record<string, string> {
  return Object.fromEntries([...records].map(([id, r]) => [id, digestOf(r.record)]));
}

function digestOf(record: unknown): string {
  return createHash('sha256').update(JSON.stringify(record)).digest('hex').slice(0, 16);
}

/**
 * The open issues that differ from the digests the halt recorded (changed, or new since: reopened
 * or filed), in the order the source holds them. None without digests (a checkpoint from before).
 */
export function changedSinceHalt(
  digests: Readonly<Record<string, string>> | undefined,
  records: ReadonlyMap<string, OpenRecord>,
): Array<[string, OpenRecord]> {
  if (!digests) return [];
  return [...records].filter(([id, r]) => digests[id] !== digestOf(r.record));
}

/**
 * The newest loop in `store` that left `branch` checked out, with the base branch it works on: what
 * `--fresh` parks before it starts over there. Undefined when none did (the branch is someone else's).
 */
export async function loopLeftOn(
  store: Pick<CheckpointStore, 'list'>,
  branch: string,
): Promise<(LoopState & { baseBranch: string }) | undefined> {
  const { checkpoints } = await store.list();
  const newestFirst = [...checkpoints].sort((a, b) =>
    a.timestamp === b.timestamp ? b.sequence - a.sequence : a.timestamp < b.timestamp ? 1 : -1,
  );
  const found = newestFirst
    .map((c) => parseLoopState(c.state))
    .filter(
      (loop): loop is LoopState & { baseBranch: string } =>
        typeof loop !== 'string' && loop.baseBranch !== undefined && branchLeft(loop) === branch,
    );
  return found[0];
}
