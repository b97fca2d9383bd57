/**
 * Halted stays halted (issue 14): whether a persisted halt still stands when a later run opens its
 * checkpoint, or its cause has changed so that the run resumes by itself. Pure: the caller reads
 * the issues and the base branch and passes what it saw.
 *
 * What lifts a halt by itself is its reason's row (src/core/haltReasons.ts, `resume.liftedBy`):
 * - unlabel: an issue is ready and not escalated (a person removed the agent-loop:escalated label, or
 *   edited an escalated issue: its fingerprint). all_escalated: any issue, a new one too; a failure
 *   or bounce loop: one of the issues it escalated.
 * - base_commits: the base branch has new commits (the cause may be fixed there).
 * - max_iterations, budget: the limit is above what was spent.
 * A halt none of these lifts (the agent moved the repository, a secret, GitHub refused, …) waits
 * for a person: resumed by hand, or started over (resumeWays; each surface words them).
 * Rate limits never halt: their window is carried to the next run and waited out there.
 */
import { ESCALATED_LABEL } from '../issues/types.js';
import { HALT_REASONS } from './haltReasons.js';
import type { ReadyIssue } from './events.js';
import { selectTargets, unlabelledEscalations } from './slice.js';
import type { LoopState } from './state.js';

export interface HaltObservation {
  /** The issues ready now (read only for the halts that depend on them). */
  ready?: readonly ReadyIssue[];
  /** The base branch's tip now. */
  baseTip?: string;
  maxIterations: number;
  maxCostUsd?: number;
  /** The escalated label does not outlast the runner (beads in the action): the checkpoint's escalations decide. */
  labelsDoNotLast?: boolean;
}

export type HaltGate = { stands: true } | { stands: false; because: string };

export function haltGate(loop: LoopState, seen: HaltObservation): HaltGate {
  const halt = loop.halt;
  if (!halt) return { stands: false, because: 'the checkpoint holds no halt' };
  const lift = (because: string): HaltGate => ({ stands: false, because });
  const liftedBy = HALT_REASONS[halt.reason].resume.liftedBy;
  if (liftedBy.includes('max_iterations') && seen.maxIterations > loop.iteration)
    return lift(`the iteration limit is now ${seen.maxIterations}, above the ${loop.iteration} agent run(s) used`);
  if (liftedBy.includes('budget') && (seen.maxCostUsd === undefined || seen.maxCostUsd > loop.costUsd))
    return lift(
      seen.maxCostUsd === undefined
        ? 'the spend cap is no longer set'
        : `the spend cap is now $${seen.maxCostUsd}, above the $${loop.costUsd.toFixed(4)} spent`,
    );
  if (liftedBy.includes('base_commits') && halt.baseTip && seen.baseTip && seen.baseTip !== halt.baseTip)
    return lift(
      `the base branch${loop.baseBranch ? ` ${loop.baseBranch}` : ''} has new commits since the halt (${halt.baseTip.slice(0, 7)}` +
        ` → ${seen.baseTip.slice(0, 7)})`,
    );
  if (liftedBy.includes('unlabel') && seen.ready) {
    // As the next slice would choose (nothing escalated in it yet). A failure or bounce loop is lifted
    // by its own issues only (those it escalated), once a person took their label away or edited them.
    const { targets } = selectTargets(seen.ready, loop, true, loop.iteration, undefined, seen.labelsDoNotLast);
    const own = halt.reason === 'failure_loop' ? Math.max(loop.consecutiveEscalations, 1) : 1;
    const looped = new Set(loop.escalations.slice(-own).flatMap((e) => e.issueIds));
    // (selectTargets counts an escalation whose label a killed run left unsent as labelled.)
    const eligible = halt.reason === 'all_escalated' ? targets : targets.filter((t) => looped.has(t.id));
    const edited = eligible.filter((t) => t.labels.includes(ESCALATED_LABEL));
    const ids = (list: readonly ReadyIssue[]) => list.map((t) => t.id).join(', ');
    if (edited.length > 0)
      return lift(`${ids(edited)} ${edited.length === 1 ? 'was' : 'were'} edited since the escalation`);
    if (eligible.length > 0) {
      // Said of each as it is: an escalated issue whose label was taken away, or one never escalated.
      const was = new Set(loop.escalations.flatMap((e) => e.issueIds));
      const unlabelled = eligible.filter((t) => was.has(t.id));
      const never = eligible.filter((t) => !was.has(t.id));
      const are = (list: readonly ReadyIssue[]) => (list.length === 1 ? 'is' : 'are');
      return lift(
        [
          unlabelled.length ? `${ids(unlabelled)} ${are(unlabelled)} no longer escalated` : '',
          never.length ? `${ids(never)} ${are(never)} ready and never escalated` : '',
        ]
          .filter(Boolean)
          .join('; '),
      );
    }
  }
  return { stands: true };
}

/**
 * The escalated issues whose agent-loop:escalated label is still to be written (the source refused
 * it, or a run was killed first), said in a sentence; undefined when there are none. A standing halt
 * sends nothing: the run that resumes writes them first. Until then they count as escalated, so
 * "remove the label" does not apply to them: there is none. Pure.
 */
export function owedLabels(loop: Pick<LoopState, 'notices'>): string | undefined {
  const ids = unlabelledEscalations(loop);
  if (ids.length === 0) return undefined;
  const failed = loop.notices.filter((n) => n.what.kind === 'markEscalated' && n.attempts > 0);
  const last = [...failed].reverse().find((n) => n.lastError)?.lastError;
  const one = ids.length === 1;
  return (
    `${ids.join(', ')} ${one ? 'has' : 'have'} no ${ESCALATED_LABEL} label yet (${
      failed.length > 0 ? `writing it failed${last ? `: ${last}` : ''}` : 'a run ended before writing it'
    }); the run that resumes writes it first, and until then ${one ? 'it counts' : 'they count'} as escalated ` +
    `(edit ${one ? 'it' : 'them'} to have ${one ? 'it' : 'them'} tried again).`
  );
}
