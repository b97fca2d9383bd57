/**
 * A cycle branch made by hand in a test as agent-loop would have left it (an escalated cycle's wip:):
 * its tip recorded in a checkpoint, as the escalation that makes it records it (issue 42: only such a
 * branch is continued). Written only before the first slice, when the store has no checkpoint yet.
 */
import { randomUUID } from 'node:crypto';
import type { CheckpointStore } from '../../src/checkpoint/types.js';
import { initialLoopState } from '../../src/core/state.js';

export async function recordTip(
  store: CheckpointStore,
  maxIterations: number,
  branch: string,
  tip: string,
): Promise<void> {
  if ((await store.list()).checkpoints.length > 0) return;
  const loop = { ...initialLoopState(maxIterations), cycleTips: { [branch]: tip } };
  await store.write({ id: randomUUID(), phase: 'beads_integration-complete', state: { loop } });
}
