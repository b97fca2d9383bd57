/**
 * The action's plan job as the wave machine decides it (src/core/wavePlanJob.ts): what it keeps
 * between its steps, and the notes it asks its handler to say. A note is structured (its kind and
 * the issues' ids); the action renders it in its own words (src/action/planSaid.ts).
 */
import type { HaltReason, LoopState } from './state.js';
import { unlabelledEscalations } from './slice.js';
import { awaitingLanding } from './waveOutbox.js';
import type { WaveCandidate, WavePlan } from './wavePlan.js';

/** The plan job's part of the wave model: set, the machine plans one wave of the action's matrix and stops. */
export interface Planning {
  /** --resume-halted: the loop's halt is not weighed. */
  resumeHalted: boolean;
  /** Once the issues are read: the ready ones and when they were read (ISO). */
  ready?: readonly WaveCandidate[];
  now?: string;
  /** Earlier waves' unlanded work due now, and the notices owed, for the wave's landing job. */
  landing?: readonly string[];
  owed?: readonly string[];
  /** The notices are landed even with no job and no cycle to land (they have failed only a few times). */
  alone?: boolean;
  /** The wave planned last, the issues claimed and those lost to another run, and the rounds of claiming. */
  plan?: WavePlan;
  won: string[];
  lost: string[];
  round: number;
}

export type PlanNote =
  /** The loop's halt holds the wave back (a warning, with how to resume). */
  | { kind: 'haltStands'; halt: NonNullable<LoopState['halt']>; baseBranch: string | undefined }
  | { kind: 'haltLifted'; reason: HaltReason; because: string }
  /** The issues could not be listed (a warning): the listing's own words, when it had any. */
  | { kind: 'unlisted'; message?: string }
  /** Finished cycles of earlier waves still to land: `landing` when this wave's landing job lands them. */
  | { kind: 'outbox'; count: number; landing?: string[]; notBefore?: string; lastError?: string | undefined }
  | { kind: 'notices'; count: number; escalated: string[]; lastError: string | undefined }
  | { kind: 'claimedElsewhere'; issueId: string }
  /** A halt the planner found, with earlier work to land first. */
  | { kind: 'landFirst'; message: string }
  /** A halt the planner found, handed to the reduce (a warning). */
  | { kind: 'newHalt'; message: string };

/** How a plan job that sends no wave out ends. */
export type NoWaveStatus = 'halted' | 'deferred' | 'continuing' | 'complete';

/** What of earlier waves is still to land, and whether this wave's landing job lands it (`landing`: the cycles due). */
export function outboxNote(loop: LoopState, landing: readonly string[]): PlanNote {
  const count = loop.outbox.length;
  if (landing.length > 0) return { kind: 'outbox', count, landing: [...awaitingLanding(loop)] };
  const [first] = loop.outbox;
  return { kind: 'outbox', count, notBefore: first?.notBefore, lastError: first?.lastError };
}

/** Which notices of earlier waves are still to send (`owed`), the escalations they label and their last failure. */
export function noticesNote(loop: LoopState, owed: readonly string[]): PlanNote {
  const lastError = loop.notices.find((n) => n.lastError)?.lastError;
  return { kind: 'notices', count: owed.length, escalated: unlabelledEscalations(loop), lastError };
}
