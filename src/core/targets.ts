/**
 * Which ready issues the next cycle takes, and what an earlier wave carried for them. Pure. Part
 * of the core (src/core/slice.ts).
 */
import { ESCALATED_LABEL, HELD_LABELS } from '../issues/types.js';
import { type ReadyIssue } from './events.js';
import type { CycleState, LoopState } from './state.js';
import { type CoreSettings } from './model.js';

/** The issues of escalations whose label is still to be written (markEscalated notices: refused, or a run killed first), once each. Pure. */
export function unlabelledEscalations(loop: Pick<LoopState, 'notices'>): string[] {
  return [...new Set(loop.notices.flatMap((n) => (n.what.kind === 'markEscalated' ? n.what.issueIds : [])))];
}

/** What to work on next: the ready issues, less those done or held for a person in this run and the escalated ones. */
export function selectTargets(
  ready: readonly ReadyIssue[],
  loop: LoopState,
  batch: boolean,
  sliceStartIteration: number,
  only?: readonly string[],
  /** The checkpoint's escalations stand in for the label (CoreSettings.closeOnBranch). */
  labelsDoNotLast = false,
): { targets: ReadyIssue[]; escalated: string[] } {
  // Issues closed in this run stay done even when the base branch's issue file still lists them
  // open (--on-success branch leaves the closing commit on the cycle's branch).
  // Work held for a person (issue 42) is not picked again: by this loop, nor while its label is on.
  const held = new Set(loop.issuesHeld.map((h) => h.id));
  const open = ready.filter(
    (i) =>
      !loop.issuesClosed.includes(i.id) &&
      !loop.issuesNoChange.includes(i.id) &&
      !held.has(i.id) &&
      !i.labels.some((l) => HELD_LABELS.includes(l)) &&
      (!only || only.includes(i.id)),
  );
  // Across slices the label decides (removing it makes the issue eligible again), or the checkpoint
  // where the label does not last, unless the issue was edited since its escalation; within this
  // slice the escalations themselves, in case a label could not be written.
  const inThisSlice = new Set(
    loop.escalations.filter((e) => e.iteration > sliceStartIteration).flatMap((e) => e.issueIds),
  );
  const everEscalated = new Set(labelsDoNotLast ? loop.escalations.flatMap((e) => e.issueIds) : []);
  // An escalation whose label is still to be sent (a notice a killed run left) is labelled all the same.
  // So is one whose label is withheld until the agent is seen working (src/core/agentProblem.ts).
  const labelling = new Set([...unlabelledEscalations(loop), ...(loop.withheldEscalation?.issueIds ?? [])]);
  const labelled = (i: ReadyIssue) =>
    i.labels.includes(ESCALATED_LABEL) || labelling.has(i.id) || everEscalated.has(i.id);
  const isEscalated = (i: ReadyIssue) => inThisSlice.has(i.id) || (labelled(i) && !editedSinceEscalation(i, loop));
  const eligible = open.filter((i) => !isEscalated(i));
  return { targets: batch ? eligible : eligible.slice(0, 1), escalated: open.filter(isEscalated).map((i) => i.id) };
}

/**
 * The issue's title or body changed since the loop last escalated it (its fingerprint then and now
 * differ): whatever made it fail may be what the edit fixed. An escalation that recorded no
 * fingerprint (an older checkpoint) or an issue read without one says nothing.
 */
export function editedSinceEscalation(issue: ReadyIssue, loop: Pick<LoopState, 'escalations'>): boolean {
  if (issue.fingerprint === undefined) return false;
  for (let k = loop.escalations.length - 1; k >= 0; k--) {
    const then = loop.escalations[k]?.fingerprints?.[issue.id];
    if (then !== undefined) return then !== issue.fingerprint;
  }
  return false;
}

/**
 * What an issue brought from its earlier waves' jobs, for a cycle of that one issue (nothing for any
 * other cycle): a fan-out job's `carried`, else the loop's issueCounts (a serial run after a wave).
 * Its stuck checks then count every wave's runs. Pure.
 */
export function carriedCounts(
  loop: LoopState,
  carried: CoreSettings['carried'],
  next: readonly { id: string }[],
): Partial<Pick<CycleState, 'unfinishedRuns' | 'silentIterations'>> {
  const id = next.length === 1 ? next[0]?.id : undefined;
  if (id === undefined) return {};
  const counts = carried?.issueId === id ? carried : loop.issueCounts?.[id];
  if (!counts) return {};
  return {
    ...(counts.unfinishedRuns > 0 ? { unfinishedRuns: counts.unfinishedRuns } : {}),
    ...(counts.silentIterations > 0 ? { silentIterations: counts.silentIterations } : {}),
  };
}

/** `counts` without the entries of `ids`; absent when none is left. Pure. */
export function without(counts: LoopState['issueCounts'], ids: readonly string[]): LoopState['issueCounts'] {
  if (!counts || !ids.some((id) => id in counts)) return counts;
  const left = Object.fromEntries(Object.entries(counts).filter(([id]) => !ids.includes(id)));
  return Object.keys(left).length > 0 ? left : undefined;
}
