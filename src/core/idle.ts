/**
 * Idle runs cost nothing (issue 14): whether a run has anything to do before it writes, installs or
 * prepares anything. A scheduled run over a backlog with no ready issue would otherwise start a new
 * checkpoint, install the agent and publish the state again, every half hour. Pure: the caller
 * opens the checkpoint and reads the ready issues, and passes what it saw.
 *
 * Idle means the slice would end `complete` at once: no cycle in flight, nothing in the outbox or
 * left to notify, no escalated cycle's branch to park, no halt (a halt that stands is quiet by itself; a lifted one
 * is work), and no issue the core would pick or halt over (`selectTargets`: an escalated issue
 * among the ready ones halts `all_escalated`, which is not idle).
 */
import type { ReadyIssue } from './events.js';
import { selectTargets } from './slice.js';
import type { LoopState } from './state.js';

export type Idleness = { idle: true } | { idle: false; because: string };

export function idleness(
  loop: LoopState,
  ready: readonly ReadyIssue[],
  settings: { batch: boolean; onlyIssues?: readonly string[] },
): Idleness {
  const work = (because: string): Idleness => ({ idle: false, because });
  if (loop.halt) return work('the checkpoint holds a halt');
  if (loop.currentCycle) return work(`a cycle is in flight (${loop.currentCycle.issueIds.join(', ')})`);
  if (loop.outbox.length > 0) return work('finished work waits in the outbox');
  // A label, comment or Discord post a killed run left unsent: sent first, before the issues are read.
  if (loop.notices.length > 0) return work('notices wait to be sent');
  if (loop.parkedBranch) return work(`the branch ${loop.parkedBranch} waits to be parked`);
  const { targets, escalated } = selectTargets(ready, loop, settings.batch, loop.iteration, settings.onlyIssues);
  if (targets.length > 0) return work(`${targets.map((t) => t.id).join(', ')} is ready`);
  if (escalated.length > 0) return work(`only escalated issues are ready (${escalated.join(', ')})`);
  return { idle: true };
}
