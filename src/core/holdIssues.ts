/**
 * Holding a cycle's issues for a person (issue 42), as every workflow does it: each issue is
 * recorded in `issuesHeld` (not picked again by this loop) and gets the label and the note
 * (src/core/held.ts), issue actions that travel with the work. Pure.
 */
import type { IssueAction } from './events.js';
import { type Held, heldLabel, heldNote } from './held.js';
import type { LoopState } from './state.js';

export function holdIssues(
  state: LoopState,
  cycle: { issueIds: readonly string[]; branch?: string | undefined },
  held: Held,
  iteration: number,
): { state: LoopState; issueActions: IssueAction[]; label: string } {
  const label = heldLabel(held.reason);
  const note = heldNote(held, { iteration, ...(cycle.branch ? { branch: cycle.branch } : {}) });
  return {
    label,
    issueActions: cycle.issueIds.map((id) => ({ kind: 'markHeld', id, note, label })),
    state: {
      ...state,
      issuesHeld: [
        ...state.issuesHeld.filter((h) => !cycle.issueIds.includes(h.id)),
        ...cycle.issueIds.map((id) => ({ id, reason: held.reason })),
      ],
    },
  };
}
