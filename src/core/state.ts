/**
 * The loop's progress, as stored in `checkpoint.state.loop`. Plain JSON, validated on resume, so a
 * run can stop anywhere and the next slice continues the same iteration count and history.
 */
import { z } from 'zod';
import { type HaltReason, HaltReasons } from './haltReasons.js';
import { CycleSchema, IterationRecordSchema, TddErrorSchema } from './cycleSchema.js';
import type { IterationRecord } from './cycleSchema.js';
import { HELD_REASONS, HeldSchema } from './held.js';

export {
  type CycleState,
  type IterationOutcomeName,
  type IterationRecord,
  type TddCycle,
  IterationOutcomes,
} from './cycleSchema.js';

export const HISTORY_KEPT = 500;

const EscalationSchema = z.object({
  issueIds: z.array(z.string()),
  titles: z.array(z.string()),
  iteration: z.number().int(),
  steps: z.array(z.string()),
  reason: z.string(),
  at: z.string(),
  /** The note left on the issue in the source. */
  note: z.string().default(''),
  /** What failed last in the cycle (the test output or the agent error), its end only. */
  lastFailure: z.object({ kind: z.enum(['agent', 'tests']), message: z.string(), tail: z.string() }).optional(),
  /** The escalated issues' fingerprints as they were worked: an issue edited since is tried again. */
  fingerprints: z.record(z.string(), z.string()).optional(),
});
export type EscalationRecord = z.infer<typeof EscalationSchema>;

/** --workflow tdd: tick the box of a checklist item in the issue once its red/green/refactor cycle is done. */
const TickSchema = z.object({ kind: z.literal('tick'), id: z.string(), item: z.string() });

const IssueActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('close'), id: z.string(), note: z.string() }),
  z.object({ kind: z.literal('markNoChange'), id: z.string(), note: z.string(), close: z.boolean() }),
  TickSchema,
  z.object({ kind: z.literal('markHeld'), id: z.string(), note: z.string(), label: z.string() }),
]);

/**
 * An outside effect recorded before it is performed (the outbox): a finished cycle whose work is
 * still to be landed (committed, then merged, or pushed with its pull request opened and its issues
 * labelled). It leaves the outbox once done; a run that dies or is refused on the way leaves it for
 * the next run, which performs it again, idempotently, without running the agent.
 */
const OutboxEntrySchema = z.object({
  kind: z.literal('finishCycle'),
  cycle: CycleSchema,
  /** The work needed no change: nothing to land, the branch is dropped. */
  noChange: z.boolean(),
  /** The iteration that finished the cycle. */
  iteration: z.number().int(),
  recordedAt: z.string(),
  /** Attempts that failed so far. */
  attempts: z.number().int().default(0),
  /**
   * Of those, the transient failures in a row: since the entry was recorded, refused, or given up
   * on (LANDING_POLICY's maximumAttempts of them halt publish_refused). Absent: none.
   */
  transientFailures: z.number().int().min(0).optional(),
  /** The last failure, in one line. */
  lastError: z.string().optional(),
  /** A transient failure's backoff: not tried again before this time (RFC 3339). */
  notBefore: z.string().optional(),
  /**
   * Where work is published: the commit holding the finished work, recorded before the push. A
   * later run lands the branch it fetches only when it holds this commit (else an older wip: would
   * be landed as the work); without it, the work was never committed and only this checkout has it.
   */
  tip: z.string().optional(),
  /** The work was committed by the landing (false: the agent's changes were all committed before). */
  committed: z.boolean().optional(),
  /**
   * Where work is published: the issues the cycle closed, counted closed (issuesClosed) only once the
   * work has landed; a run refused on the way does not report them closed.
   */
  closes: z.array(z.string()).optional(),
  /**
   * What the workflow asked of the issue source for this cycle (close, or label and comment an issue
   * that needed no change), performed by the landing before the commit and dropped from the entry
   * once done; each idempotent (found by its marker before anything is posted).
   */
  issueActions: z.array(IssueActionSchema).optional(),
  /**
   * Held for a person (issue 42, src/core/held.ts): landed as a draft pull request labelled with the
   * reason, or left on its branch; never merged, never pushed onto the base, its issues not closed.
   */
  held: HeldSchema.optional(),
});
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;

/** An escalated issue's label and note, as a notice (or withheld: LoopState.withheldEscalation). */
const MarkEscalatedSchema = z.object({
  kind: z.literal('markEscalated'),
  issueIds: z.array(z.string()),
  note: z.string(),
  /** The escalated cycle's claims are released after the label (where the source claims): done only then. */
  releaseClaims: z.boolean().optional(),
  /** The cycle's iterations and spend, for the claim comment's last word (issue 15). */
  progress: z.object({ iterations: z.number().int(), costUsd: z.number().optional() }).optional(),
});

/**
 * An outside effect that is not a landing, recorded before it is performed and dropped once done
 * (the outbox's notices): an escalated issue's label and comment, the halt's Discord post, a checklist
 * item's box ticked in its issue (--workflow tdd; ticking a ticked box changes nothing). Performed
 * again by the next run until done; a label or comment is found by its marker, so at most once; a
 * Discord post cannot be found, so a run killed between the post and the save repeats it once.
 */
const NoticeSchema = z.object({
  /** Unique in the checkpoint: what it is and when it was recorded. */
  id: z.string(),
  what: z.discriminatedUnion('kind', [
    MarkEscalatedSchema,
    /** The halt diagnostic as built at the halt (src/report/diagnostic.ts HaltDiagnostic). */
    z.object({ kind: z.literal('notify'), diagnostic: z.record(z.string(), z.unknown()) }),
    TickSchema,
  ]),
  recordedAt: z.string(),
  /** Attempts that failed so far, and the last failure in one line. */
  attempts: z.number().int().default(0),
  lastError: z.string().optional(),
});
export type Notice = z.infer<typeof NoticeSchema>;

/** The halt reasons: the table's (src/core/haltReasons.ts), where each reason is one row. */
export { type HaltReason, HaltReasons };

/**
 * What an issue's earlier fan-out jobs left unfinished counted (the cycle's silentIterations and
 * unfinishedRuns): each wave's job starts a fresh cycle, so the loop carries them into the next
 * job of the same issue, and the stuck checks see every wave's runs, not one job's.
 */
export const IssueCountsSchema = z.object({
  unfinishedRuns: z.number().int().min(0),
  silentIterations: z.number().int().min(0),
});
export type IssueCounts = z.infer<typeof IssueCountsSchema>;
/** An issue's counts as a fan-out job (or a serial run's cycle) is given them. */
export type CarriedCounts = IssueCounts & { issueId: string };

/** One job of a wave (fan-out, issue 16): one issue, worked from a fresh slice bounded by its share. */
const WaveJobSchema = z.object({
  issueId: z.string(),
  title: z.string(),
  /** The job's share of the iterations left in the run (its own --max-iterations, counted from 0). */
  maxIterations: z.number().int().min(1),
  /** The job's share of the spend left under --max-cost-usd, when there is a cap. */
  maxCostUsd: z.number().optional(),
  /** Why the issue is worked again (a merge conflict on the new base), given to the agent as context. */
  context: z.string().optional(),
  /** The counts the issue's earlier jobs left (LoopState.issueCounts); the job's cycle starts from them. */
  counts: IssueCountsSchema.optional(),
});
export type WaveJob = z.infer<typeof WaveJobSchema>;

/** A wave in flight: planned and claimed, its jobs not yet reduced into the loop (src/core/wavePlan.ts). */
export const WaveSchema = z.object({
  id: z.string(),
  startedAt: z.string(),
  jobs: z.array(WaveJobSchema),
});
export type Wave = z.infer<typeof WaveSchema>;

export const LoopStateSchema = z.object({
  version: z.literal(1),
  iteration: z.number().int().min(0),
  maxIterations: z.number().int(),
  failedIterations: z.number().int(),
  successfulIterations: z.number().int(),
  testFailures: z.number().int(),
  /** The last test gate's judgement of the work (RunResult.testsPassed), not the test command's exit code. */
  testsPassed: z.boolean().nullable(),
  issuesClosed: z.array(z.string()),
  issuesEscalated: z.array(z.string()),
  consecutiveEscalations: z.number().int(),
  completedIterations: z.array(z.number().int()),
  baseBranch: z.string().optional(),
  currentCycle: CycleSchema.optional(),
  /**
   * The halt, kept until a run resumes it (src/core/haltGate.ts): since when (RFC 3339), the fix
   * it names, and the base branch's tip when it was recorded (new commits there lift some halts).
   */
  halt: z
    .object({
      reason: z.enum(HaltReasons),
      message: z.string(),
      advice: z.string().optional(),
      at: z.string().optional(),
      baseTip: z.string().optional(),
      /**
       * Where the halt left a cycle's branch checked out: a digest of each open issue as it left the
       * issues file, by id (src/loop/parking.ts). What differs from it when the next run parks the
       * branch, a person changed, and it is carried to the base branch.
       */
      issues: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  slices: z.number().int(),
  costUsd: z.number(),
  /** Tokens reported by agents that report tokens (Codex reports no dollars). */
  tokens: z.object({ input: z.number(), output: z.number() }).default({ input: 0, output: 0 }),
  /** Escalated cycles, newest last (the newest 100 kept; totalEscalations stays exact). */
  escalations: z.array(EscalationSchema).default([]),
  totalEscalations: z.number().int().default(0),
  /**
   * Issue 43 (src/core/agentProblem.ts): an escalation whose every attempt failed the same way, its
   * label withheld: when the next issue's cycle fails that same way with no agent run working in
   * between, the agent is the problem (halt agent_unavailable, neither labelled); the label is sent
   * once the agent is seen working, or the loop ends otherwise. Its issues count as escalated meanwhile.
   */
  withheldEscalation: z
    .object({
      issueIds: z.array(z.string()),
      /** The iteration at which it was escalated: an agent run that worked after it clears the agent. */
      iteration: z.number().int(),
      /** How every attempt failed (agentProblem.ts failureSignature). */
      signature: z.string(),
      /** The notice to send when the label is released. */
      what: MarkEscalatedSchema,
    })
    .optional(),
  /** Permanent failures of the environment (auth, billing, permissions) in a row. */
  environmentFailures: z.number().int().default(0),
  /** A rate limit's window: no agent runs before this time (RFC 3339). */
  rateLimitedUntil: z.string().optional(),
  /** A cycle branch a halt left checked out with its work; the next run parks it as wip: and returns to the base. */
  parkedBranch: z.string().optional(),
  /**
   * Issue 42: by cycle branch, the commit agent-loop last left it at (an escalation's wip:, a halted
   * cycle's work parked, a slice's work kept): a new cycle continues on an existing branch only at that
   * commit (src/core/cycleTips.ts), the newest CYCLE_TIPS_KEPT.
   */
  cycleTips: z.record(z.string(), z.string()).optional(),
  /** Pull requests opened or reused for finished cycles (onSuccess pull-request), newest last (the newest 100). */
  pullRequests: z
    .array(
      z.object({
        issueIds: z.array(z.string()),
        number: z.number().int(),
        url: z.string(),
        reused: z.boolean(),
        iteration: z.number().int(),
      }),
    )
    .default([]),
  /** Outside effects recorded and not yet done, oldest first (see OutboxEntrySchema). */
  outbox: z.array(OutboxEntrySchema).default([]),
  /** The outbox's other effects (escalation labels and comments, Discord posts) not yet done, oldest first. */
  notices: z.array(NoticeSchema).default([]),
  /** The error that aborted a red/green/refactor workflow (seed 003's types), as in its git note. */
  tddError: TddErrorSchema.extend({ retry_count: z.number().int(), timestamp: z.string() }).optional(),
  /**
   * The baselines this run recorded or trusted, by key (src/verdict/baseline.ts): a digest of each as
   * the run first had it, the newest BASELINES_REMEMBERED. A kept file that no longer matches is not
   * trusted by any cycle (the agent can write there, and a later cycle on the same base tip shares
   * the key), and is removed at the end of the slice.
   */
  baselines: z.record(z.string(), z.string()).optional(),
  /**
   * By test command (its key in `<state-dir>/baselines-last-failing/`), a digest of the failing tests
   * this run last recorded there (src/verdict/baseline.ts): a record that does not match it (the agent
   * can write there) or that this run did not write is not trusted to skip a red baseline's second run.
   */
  lastFailing: z.record(z.string(), z.string()).optional(),
  /** Tests that failed before a cycle started and still fail, untargeted (the last verdict's): reported, never blocking. */
  preexistingFailures: z.array(z.string()).default([]),
  /**
   * Issues found already satisfied in this run (no change needed): closed (beads, or their own targets
   * pass: also in issuesClosed), or left open labelled agent-loop:no-change for a person (GitHub). Not
   * picked again. Before issue 40 only those left open were listed.
   */
  issuesNoChange: z.array(z.string()).default([]),
  /**
   * Issues whose work this run held for a person (issue 42): accepted by the verdict but changing the
   * maintainer's tests, or without evidence of the fix; left open (labelled where the source labels),
   * their work on its branch or in a draft pull request. Not picked again by this loop.
   */
  issuesHeld: z.array(z.object({ id: z.string(), reason: z.enum(HELD_REASONS) })).default([]),
  /** Fan-out (issue 16): the wave planned and not yet reduced, so a crash resumes each of its jobs. */
  wave: WaveSchema.optional(),
  /** Waves reduced into this loop so far. */
  waves: z.number().int().default(0),
  /** Issues to work again in a later wave, with why (a merge conflict on the new base), oldest first. */
  requeued: z.array(z.object({ issueId: z.string(), reason: z.string() })).default([]),
  /** Fan-out: per issue a job left unfinished, its cycle's counts, carried into its next job (absent: none). */
  issueCounts: z.record(z.string(), IssueCountsSchema).optional(),
  /** The end of the last agent output (for the halt diagnostic). */
  lastAgentOutput: z.string().default(''),
  history: z.array(IterationRecordSchema),
  /** Iterations dropped from `history` to bound the checkpoint's size; the counters above stay exact. */
  compactedIterations: z.number().int(),
});
export type LoopState = z.infer<typeof LoopStateSchema>;

export function initialLoopState(maxIterations: number): LoopState {
  return {
    version: 1,
    iteration: 0,
    maxIterations,
    failedIterations: 0,
    successfulIterations: 0,
    testFailures: 0,
    testsPassed: null,
    issuesClosed: [],
    issuesEscalated: [],
    consecutiveEscalations: 0,
    completedIterations: [],
    slices: 0,
    costUsd: 0,
    tokens: { input: 0, output: 0 },
    escalations: [],
    totalEscalations: 0,
    environmentFailures: 0,
    pullRequests: [],
    outbox: [],
    notices: [],
    preexistingFailures: [],
    issuesNoChange: [],
    issuesHeld: [],
    waves: 0,
    requeued: [],
    lastAgentOutput: '',
    history: [],
    compactedIterations: 0,
  };
}

/** Reads `state.loop` from a checkpoint; a string reason when it is not a loop state we understand. */
export function parseLoopState(state: Record<string, unknown>): LoopState | string {
  const parsed = LoopStateSchema.safeParse(state.loop);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  return `state.loop is not a valid loop state (${first ? `${first.path.join('.') || 'loop'}: ${first.message}` : 'unknown'})`;
}

/** Appends a record, keeping only the newest HISTORY_KEPT in full. Pure. */
export function appendHistory(state: LoopState, record: IterationRecord): LoopState {
  const history = [...state.history, record];
  const drop = Math.max(0, history.length - HISTORY_KEPT);
  return { ...state, history: history.slice(drop), compactedIterations: state.compactedIterations + drop };
}
