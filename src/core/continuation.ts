/**
 * Defensive validation of the agent's report (seed 004) and the completion check (seed 001).
 * Pure: the report is never trusted alone.
 */
import type { ReportBlock } from '../agents/types.js';

/**
 * Iterations in a row ending with no report block after which a cycle that is not complete is stuck:
 * nothing says the work moves on. Until 2026-11-28 such an agent ran until max-iterations (100 runs
 * of one issue).
 */
export const SILENT_ITERATIONS_LIMIT = 3;

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
  /** Iterations in a row, this one included, that ended with no report block (0 when there was one). */
  silentIterations: number;
  /**
   * Why a cycle that is not complete is stuck for want of reports: SILENT_ITERATIONS_LIMIT in a row.
   * Decided after the completion check, since an agent may close its issue in the source instead.
   */
  silent?: string;
}

export function decideContinuation(
  report: ReportBlock | undefined,
  previous: { workRemaining?: string; sameCount: number; silentCount?: number },
): ContinuationDecision {
  if (!report) {
    const silentIterations = (previous.silentCount ?? 0) + 1;
    return {
      reportSaysDone: false,
      workRemaining: previous.workRemaining,
      sameWorkRemainingCount: previous.sameCount,
      silentIterations,
      ...(silentIterations >= SILENT_ITERATIONS_LIMIT
        ? {
            silent:
              `the agent ended ${silentIterations} iterations in a row without a report block (work_remaining, ` +
              `requires_continuation, stuck_detected) and the issue is not closed: nothing says the work moves on`,
          }
        : {}),
    };
  }
  const remaining = report.workRemainingEmpty ? undefined : (report.workRemaining ?? '').trim();
  const same = remaining !== undefined && remaining === previous.workRemaining;
  const sameCount = remaining === undefined ? 0 : same ? previous.sameCount + 1 : 1;
  const decision: ContinuationDecision = {
    reportSaysDone: remaining === undefined && report.requiresContinuation !== true,
    workRemaining: remaining,
    sameWorkRemainingCount: sameCount,
    silentIterations: 0,
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
