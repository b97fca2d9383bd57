/**
 * A cycle as the loop state stores it (`LoopState.currentCycle`, an outbox entry's, an escalation's):
 * its issues, its step and counters, the agent's last failure, and (--workflow tdd) its red/green/
 * refactor progress; and an iteration's record in the history. Part of the checkpoint's schema
 * (src/core/state.ts).
 */
import { z } from 'zod';

const FailureSchema = z.object({
  class: z.enum(['transient', 'permanent']),
  reason: z.string(),
  message: z.string(),
  retryAfterMs: z.number().optional(),
});

const TDD_PHASE = z.enum(['RED', 'GREEN', 'REFACTOR']);
export const TddErrorSchema = z.object({ type: z.string(), message: z.string(), details: z.string() });

/** A red/green/refactor cycle's progress (--workflow tdd); the phase commits' git notes mirror it. */
const TddCycleSchema = z.object({
  tests: z.array(
    z.object({ description: z.string(), status: z.enum(['pending', 'done', 'problematic', 'duplicate']) }),
  ),
  /** The test being worked on (index into tests). */
  index: z.number().int(),
  phase: TDD_PHASE,
  /** The red/green/refactor round, from 1 (the note's `cycle`). */
  round: z.number().int().min(1),
  /** Failed attempts of the current phase. */
  retries: z.number().int(),
  /** The commit before the current phase started (the rollback target). */
  phaseBase: z.string().optional(),
  /** The tests RED left failing. */
  targetTests: z.array(z.string()),
  testFile: z.string(),
  /** The last phase commit this cycle wrote (a newer note on the branch means a run died after writing it). */
  lastCommit: z.string().optional(),
  /**
   * Issue 42: the commit the phases are judged by (src/workflows/tdd/judgeBase.ts) while `lastCommit`
   * is not one the judge passed (an abort's wip: commit): the phase commit before it, or the cycle's
   * base. Absent: `lastCommit` is it (or the cycle's base, before the first phase commit).
   */
  judgeBase: z.string().optional(),
  /** Why the previous attempt of this phase failed, for the retry prompt. */
  lastError: TddErrorSchema.optional(),
  /** Steps back this cycle took because a phase's precondition failed at its start (issue 12). */
  bounces: z.number().int().optional(),
});
export type TddCycle = z.infer<typeof TddCycleSchema>;

export const IterationOutcomes = [
  'agent_failed',
  'continuing',
  'tests_failed',
  'bounced',
  'complete',
  'no_change',
  /** Accepted, and held for a person (issue 42): the work changed the maintainer's tests, or has no evidence. */
  'held',
  'stuck',
  'contract_violation',
  'repository_moved',
  /** The agent said done, and the issue's agent-loop block could not be read: escalated, not judged. */
  'cannot_verify',
] as const;
/** The name of an iteration's outcome in the history (not core/events' IterationOutcome, what an iteration tells the engine). */
export type IterationOutcomeName = (typeof IterationOutcomes)[number];

export const IterationRecordSchema = z.object({
  n: z.number().int(),
  issueIds: z.array(z.string()),
  startedAt: z.string(),
  durationMs: z.number(),
  outcome: z.enum(IterationOutcomes),
  agent: z.object({
    ok: z.boolean(),
    exitCode: z.number().nullable(),
    signal: z.string().nullable(),
    durationMs: z.number(),
    failure: FailureSchema.optional(),
    costUsd: z.number().optional(),
    turns: z.number().optional(),
    tokens: z.object({ input: z.number(), output: z.number() }).optional(),
  }),
  tests: z.object({ passed: z.boolean(), exitCode: z.number().nullable(), durationMs: z.number() }).optional(),
  /** The verdict on the agent's work against the baseline (src/verdict/judge.ts), in one line. */
  verdict: z
    .object({
      kind: z.enum(['accepted', 'rejected', 'cannot_run']),
      summary: z.string(),
      /** The targets judged (the issue's named tests, else the baseline failures fixed), the first 30: the pull request names them. */
      targets: z.array(z.string()).optional(),
    })
    .optional(),
  workRemaining: z.string().optional(),
  /** The agent's own one-line account of the iteration (its report's `summary`), cut: the pull request quotes it. */
  summary: z.string().optional(),
  /** --workflow tdd: the phase this iteration worked on and what came of it. */
  tdd: z.object({ phase: TDD_PHASE, test: z.string(), decision: z.string(), error: z.string().optional() }).optional(),
});
export type IterationRecord = z.infer<typeof IterationRecordSchema>;

export const CycleSchema = z.object({
  issueIds: z.array(z.string()).min(1),
  titles: z.array(z.string()),
  branch: z.string().optional(),
  /** The base branch's commit when the cycle started (recorded before its first agent run). */
  baseTip: z.string().optional(),
  startedAtIteration: z.number().int(),
  iterations: z.number().int(),
  /** What went wrong last time, given to the agent as context. */
  lastFailure: z
    .object({
      kind: z.enum(['agent', 'tests']),
      message: z.string(),
      /** The end of the output (the test command's or the agent's). */
      tail: z.string(),
      /**
       * A rejection read per test: each failing test's id and its own failure text (judge.ts
       * rejectionDetails), bounded; given to the agent instead of the tail (issue 42).
       */
      failures: z.string().optional(),
    })
    .optional(),
  lastWorkRemaining: z.string().optional(),
  sameWorkRemainingCount: z.number().int(),
  /** Iterations in a row that ended with no report block (core/continuation.ts); absent is 0. */
  silentIterations: z.number().int().optional(),
  /** Agent runs of this cycle that ran and ended with its work still remaining (--max-iterations-per-issue); absent is 0. */
  unfinishedRuns: z.number().int().optional(),
  /** The agent session of the last successful iteration, resumed with --agent-session continue. */
  sessionId: z.string().optional(),
  /** The key of the suite's run on the cycle's starting tree (src/verdict/baseline.ts). */
  baselineKey: z.string().optional(),
  /** A digest of that run as this cycle first had it (checkpoints written before `LoopState.baselines`; read only). */
  baselineDigest: z.string().optional(),
  /** Where the cycle is in its workflow (see cycle.ts). */
  progress: z
    .object({
      index: z.number().int(),
      retries: z.record(z.string(), z.number().int()),
      bounces: z.number().int(),
      trail: z.array(z.string()),
    })
    .default({ index: 0, retries: {}, bounces: 0, trail: [] }),
  /** Timeouts and network errors in a row (the timeout policy). */
  timeoutRetries: z.number().int().default(0),
  /** Rate limits in a row (the backoff's exponent). */
  rateLimitAttempts: z.number().int().default(0),
  /** --workflow tdd only. */
  tdd: TddCycleSchema.optional(),
  /** Each issue's fingerprint (title and body) when the cycle started; an escalation keeps them. */
  fingerprints: z.record(z.string(), z.string()).optional(),
  /**
   * The issues' titles and bodies as the cycle's first iteration read them: its targets (the tests
   * the text names, its agent-loop block) are taken from this text in every iteration, never from an
   * issues file the agent has edited since (src/workflows/implement/iteration.ts).
   */
  targetsText: z.string().optional(),
});
export type CycleState = z.infer<typeof CycleSchema>;
