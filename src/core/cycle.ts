/**
 * The cycle step machine: one target worked through its workflow's steps. Pure.
 * Per step: a failure is retried (with the failure as context) up to --max-retries-per-step; a
 * failed precondition steps back to the previous step (a bounce); more retries than allowed, or
 * more bounces than allowed in the cycle, escalate.
 */
import { type Terms, surface } from '../config/surface.js';

/** The `implement` workflow: the agent works (implement), then the work is checked (verify: test gate). */
export const WORKFLOWS = {
  implement: ['implement', 'verify'],
} as const satisfies Record<string, readonly string[]>;
export type WorkflowName = keyof typeof WORKFLOWS;

export interface StepProgress {
  /** Index of the current step in the workflow. */
  index: number;
  /** Failures so far, per step name. */
  retries: Record<string, number>;
  /** Step-back transitions in this cycle. */
  bounces: number;
  /** Steps that failed or bounced, in order (for the diagnostic). */
  trail: string[];
}

export type StepEvent =
  /** The step did what it must: go on to the next one. */
  | { type: 'succeeded' }
  /** The step failed: count it; the next attempt resumes at `resumeAt` (default: the same step). */
  | { type: 'failed'; reason: string; resumeAt?: number }
  /** The step cannot start because the previous one did not deliver: go back one step. */
  | { type: 'precondition_failed'; reason: string }
  /** No point in going on with this target (stuck, network retries exhausted, …). */
  | { type: 'escalate'; reason: string };

export type StepDecision =
  { kind: 'run'; step: string } | { kind: 'done' } | { kind: 'escalate'; reason: string; bounceLoop: boolean };

export const initialProgress = (): StepProgress => ({ index: 0, retries: {}, bounces: 0, trail: [] });

export function transition(
  workflow: readonly string[],
  progress: StepProgress,
  event: StepEvent,
  maxRetriesPerStep: number,
  /** Whose words the escalation's reason uses (default: the CLI's). */
  terms?: Terms,
): { progress: StepProgress; decision: StepDecision } {
  const step = workflow[progress.index] ?? workflow[0] ?? 'implement';
  switch (event.type) {
    case 'succeeded': {
      const index = progress.index + 1;
      const next = { ...progress, index };
      return index >= workflow.length
        ? { progress: next, decision: { kind: 'done' } }
        : { progress: next, decision: { kind: 'run', step: workflow[index] as string } };
    }
    case 'failed': {
      const count = (progress.retries[step] ?? 0) + 1;
      const resumeAt = Math.max(0, Math.min(event.resumeAt ?? progress.index, workflow.length - 1));
      const next: StepProgress = {
        ...progress,
        index: resumeAt,
        retries: { ...progress.retries, [step]: count },
        trail: [...progress.trail, step],
      };
      if (count > maxRetriesPerStep) {
        return {
          progress: next,
          decision: {
            kind: 'escalate',
            reason:
              `step ${step} failed ${count} times (retries exhausted: ${surface(terms).given('maxRetriesPerStep', String(maxRetriesPerStep))}` +
              `); last: ${event.reason}`,
            bounceLoop: false,
          },
        };
      }
      return { progress: next, decision: { kind: 'run', step: workflow[resumeAt] as string } };
    }
    case 'precondition_failed': {
      const bounces = progress.bounces + 1;
      const index = Math.max(0, progress.index - 1);
      const next: StepProgress = {
        ...progress,
        index,
        bounces,
        trail: [...progress.trail, `${step}→${workflow[index]}`],
      };
      if (bounces > maxRetriesPerStep) {
        return {
          progress: next,
          decision: {
            kind: 'escalate',
            reason: `${bounces} step-back transitions (${step} → ${workflow[index]}): ${event.reason}`,
            bounceLoop: true,
          },
        };
      }
      return { progress: next, decision: { kind: 'run', step: workflow[index] as string } };
    }
    case 'escalate':
      return {
        progress: { ...progress, trail: [...progress.trail, step] },
        decision: { kind: 'escalate', reason: event.reason, bounceLoop: false },
      };
  }
}
