/**
 * The cycle branches' tips agent-loop recorded in any checkpoint of the state directory
 * (src/core/cycleTips.ts tipsOf, the newest's win): what a new checkpoint starts with, and what
 * tells a finished branch of agent-loop's own from one the agent made. A listing that cannot be
 * read records none (the run reads the checkpoints again and says what is wrong with them).
 */
import { newestFirst } from '../checkpoint/resume.js';
import type { CheckpointStore } from '../checkpoint/types.js';
import { tipsOf } from '../core/cycleTips.js';
import { type LoopState, parseLoopState } from '../core/state.js';

export async function recordedTips(store: Pick<CheckpointStore, 'list'>): Promise<Record<string, string>> {
  const listed = await store.list().catch(() => undefined);
  const loops = newestFirst(listed?.checkpoints ?? [])
    .reverse()
    .map((checkpoint) => parseLoopState(checkpoint.state))
    .filter((loop): loop is LoopState => typeof loop === 'object');
  return tipsOf(loops);
}
