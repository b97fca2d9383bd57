/**
 * The halt diagnostic built from the loop's state (seed 002 AC4): which issues and steps were
 * involved, the counts, the last output and what a person should do, by halt reason, in the words
 * of the surface that ran (src/config/surface.ts), with the ways to resume kept beside the text;
 * the loop type, what to fix and how to resume are the reason's row (haltReasons.ts).
 * Pure; the renderers are src/report/diagnostic.ts.
 */
import { type Terms, surface } from '../config/surface.js';
import { type HaltDiagnostic, OUTPUT_CHARS } from '../report/diagnostic.js';
import { type ResumeWay, describeResume, resumeWays } from './resumeWays.js';
import { type HaltReason, HALT_REASONS } from './haltReasons.js';
import type { LoopState } from './state.js';

/** A halt's advice: what to fix (its own, or its reason's), then how to resume, in the words of `terms`. */
export function haltAdvice(input: { reason: HaltReason; advice?: string; terms: Terms; baseBranch?: string }): {
  advice: string;
  resume: ResumeWay[];
} {
  const row = HALT_REASONS[input.reason];
  const resume = resumeWays(input);
  const fix = input.advice ?? row.advice(surface(input.terms));
  const onResume = row.onResume;
  return {
    advice: [fix, describeResume(resume, input.terms, input.baseBranch), ...(onResume ? [onResume] : [])].join(' '),
    resume,
  };
}

export function buildDiagnostic(input: {
  reason: HaltReason;
  message: string;
  state: LoopState;
  checkpointId: string;
  maxConsecutiveEscalations: number;
  /** The halt's own advice (what to fix), when it has one. */
  advice?: string;
  /** Whose words the advice uses (default: the CLI's). */
  terms?: Terms;
}): HaltDiagnostic {
  const { state, reason } = input;
  const { advice, resume } = haltAdvice({
    reason,
    terms: input.terms ?? 'cli',
    ...(input.advice ? { advice: input.advice } : {}),
    ...(state.baseBranch ? { baseBranch: state.baseBranch } : {}),
  });
  const involved =
    reason === 'failure_loop' || reason === 'all_escalated'
      ? state.escalations.slice(reason === 'failure_loop' ? -state.consecutiveEscalations : 0)
      : [];
  const issues =
    involved.length > 0
      ? involved.flatMap((e) => e.issueIds.map((id, i) => ({ id, title: e.titles[i] ?? '' })))
      : (state.currentCycle?.issueIds ?? state.escalations.at(-1)?.issueIds ?? []).map((id, i) => ({
          id,
          title: state.currentCycle?.titles[i] ?? state.escalations.at(-1)?.titles[i] ?? '',
        }));
  // A halting escalation has already closed its cycle: then its steps are in its record.
  const cycleSteps = state.currentCycle
    ? state.currentCycle.progress.trail
    : involved.length === 0
      ? (state.escalations.at(-1)?.steps ?? [])
      : [];
  const steps = [...new Set([...involved.flatMap((e) => e.steps), ...cycleSteps])];
  return {
    reason,
    headline: input.message,
    loopType: HALT_REASONS[reason].loopType,
    issues: dedupe(issues),
    steps,
    escalations: {
      consecutive: state.consecutiveEscalations,
      limit: input.maxConsecutiveEscalations,
      total: state.totalEscalations,
    },
    lastOutput: state.lastAgentOutput.slice(-OUTPUT_CHARS),
    ...lastRunOf(state),
    ...(lastFailureOf(state, involved) ? { lastFailure: lastFailureOf(state, involved) } : {}),
    advice,
    resume,
    checkpointId: input.checkpointId,
    iteration: state.iteration,
    ...(reason === 'workflow_aborted' && state.tddError
      ? {
          tddError: {
            type: state.tddError.type,
            message: state.tddError.message,
            retry_count: state.tddError.retry_count,
          },
        }
      : {}),
  };
}

/** The run whose output the state keeps (the history's last record: every agent run adds one, and sets that output). */
function lastRunOf(state: LoopState): Pick<HaltDiagnostic, 'lastRun'> {
  const last = state.history.at(-1);
  return last ? { lastRun: { iteration: last.n, issueIds: [...last.issueIds] } } : {};
}

function lastFailureOf(state: LoopState, involved: LoopState['escalations']): HaltDiagnostic['lastFailure'] {
  const f = involved.at(-1)?.lastFailure ?? state.currentCycle?.lastFailure ?? state.escalations.at(-1)?.lastFailure;
  return f ? { ...f, tail: f.tail.slice(-OUTPUT_CHARS) } : undefined;
}

function dedupe<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => (seen.has(i.id) ? false : (seen.add(i.id), true)));
}
