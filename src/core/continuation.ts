/**
 * Defensive validation of the agent's report (seed 004) and the completion check (seed 001).
 * Pure: the report is never trusted alone.
 */
import type { ReportBlock } from '../agents/types.js';

export interface ContinuationDecision {
  /** The agent said requires_continuation: false while work_remaining is not empty. */
  contractViolation?: { workRemaining: string; requiresContinuation: boolean };
  /** The agent flagged itself stuck, or the same non-empty work_remaining came back twice in a row. */
  stuck?: string;
  /** The report says no work remains (work_remaining empty and no continuation asked for). */
  reportSaysDone: boolean;
  /** To remember for the next iteration's comparison. */
  workRemaining?: string;
  sameWorkRemainingCount: number;
}

export function decideContinuation(
  report: ReportBlock | undefined,
  previous: { workRemaining?: string; sameCount: number },
): ContinuationDecision {
  if (!report) {
    return { reportSaysDone: false, workRemaining: previous.workRemaining, sameWorkRemainingCount: previous.sameCount };
  }
  const remaining = report.workRemainingEmpty ? undefined : (report.workRemaining ?? '').trim();
  const same = remaining !== undefined && remaining === previous.workRemaining;
  const sameCount = remaining === undefined ? 0 : same ? previous.sameCount + 1 : 1;
  const decision: ContinuationDecision = {
    reportSaysDone: remaining === undefined && report.requiresContinuation !== true,
    workRemaining: remaining,
    sameWorkRemainingCount: sameCount,
  };
  if (remaining !== undefined && report.requiresContinuation === false) {
    decision.contractViolation = { workRemaining: remaining, requiresContinuation: false };
  }
  if (report.stuckDetected === true) decision.stuck = 'the agent reported stuck_detected: true';
  else if (sameCount >= 2)
    decision.stuck = `work_remaining unchanged for ${sameCount} consecutive iterations: ${remaining}`;
  return decision;
}

/** Complete when every target is closed in the source, or the report says no work remains. */
export function isCycleComplete(closedInSource: boolean[], reportSaysDone: boolean): boolean {
  return reportSaysDone || (closedInSource.length > 0 && closedInSource.every(Boolean));
}
