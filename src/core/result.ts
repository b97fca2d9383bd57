/** The run result (DESIGN.md "Command line"): what --json prints last and the action exposes. Pure. */
import { type HeldReason, heldLabel } from './held.js';
import type { Deferral } from './events.js';
import { HALT_REASONS } from './haltReasons.js';
import { type ResumeWay, resumeWays } from './resumeWays.js';
import type { HaltReason, IterationRecord, LoopState } from './state.js';

export type { Deferral };

/**
 * The counts and lists of a stretch of the loop: one run's (the result's own fields) or the whole
 * loop's across every run of its checkpoint (the result's `loop`, what --max-iterations and
 * --max-cost-usd bound).
 */
export interface LoopCounts {
  /** Iterations (agent invocations). */
  iterations: number;
  failedIterations: number;
  successfulIterations: number;
  /**
   * Test runs that judged the agent's work failing (distinct from agent failures): a rejected verdict,
   * a TDD phase whose run should pass and shows a failure that was not there before its cycle. A TDD
   * RED phase's failing run (its aim) and a test failing before the cycle do not count.
   */
  testFailures: number;
  /**
   * The last test gate's judgement of the work: true when it accepted it (every test that passed before
   * its cycle passes, no new test fails, the targets pass), false when it did not or the tests could not
   * run, null when the tests never ran. Tests that failed before the cycle and still fail, targeted by no
   * issue, do not make it false: they are listed in preexistingFailures. After a TDD RED phase it is
   * false (its new test fails, as RED means it to).
   */
  testsPassed: boolean | null;
  /** Issues finished: closed, or landed with their pull request. */
  issuesClosed: string[];
  issuesEscalated: string[];
  /**
   * Issues found already satisfied (nothing changed, nothing broke): those also in issuesClosed were
   * closed (beads; GitHub when their own targets pass), the others are left open, labelled
   * agent-loop:no-change for a person to close (GitHub).
   */
  issuesNoChange: string[];
  /**
   * Issues whose work was held for a person (issue 42), with why: `tests-changed` (it changed the
   * maintainer's tests) or `unverified` (no evidence of the fix). Left open, their work in a draft pull
   * request (pullRequests) or on its branch; never merged by the loop.
   */
  issuesHeld?: { id: string; reason: HeldReason }[];
  /** Pull requests opened (or reused) for finished cycles, when the work lands as pull requests (the loop's: the newest 100). */
  pullRequests: LoopState['pullRequests'];
  /** Iterations that completed a cycle (the last one is the completing iteration). */
  completedIterations: number[];
  /** Agent spend, in dollars (agents that report cost). */
  costUsd: number;
  /** Tokens reported by agents that count tokens (Codex); the dollar figures come from agents that report cost. */
  tokens: { input: number; output: number };
}

/**
 * The run result (DESIGN.md "Command line"): what --json prints last and the action exposes as its
 * outputs. Its counts and lists (LoopCounts) are this run's (this invocation: a slice; an idle run,
 * a halt that stands or a deferred run did nothing, so they are 0 and empty); `loop` holds the
 * loop's totals across runs.
 */
export interface RunResult extends LoopCounts {
  /** deferred: a listing failed (see `deferred`); nothing was lost, the next run retries. */
  status: 'complete' | 'continuing' | 'halted' | 'deferred';
  haltReason: HaltReason | null;
  /** "Max iterations (100) reached", or the halt's message; null otherwise. */
  error: string | null;
  /** The loop's bound on its iterations (--max-iterations), across runs. */
  maxIterations: number;
  /** Tests that failed before their cycle started and still fail, targeted by no issue worked (this run's last verdict's): reported, never blocking. */
  preexistingFailures: string[];
  checkpointId: string;
  /** The loop's totals across runs. */
  loop: LoopCounts;
  /** The same as `iterations` (its name before the loop's totals moved to `loop`). */
  sliceIterations: number;
  /** This run's iteration records. */
  history: IterationRecord[];
  durationMs: number;
  interrupted: boolean;
  /** --workflow tdd: the error that aborted the workflow (seed 003's type, message, details), else null. */
  tddError: LoopState['tddError'] | null;
  /** On a halt: the diagnostic (Markdown, secrets redacted), as written to <state-dir>/halt.md. */
  diagnostic: string | null;
  /**
   * An earlier run's halt that still stands (src/core/haltGate.ts): this run ran no agent and wrote
   * nothing; since when (RFC 3339, null for a halt recorded before agent-loop kept the time), the
   * fix the halt named, and the ways to resume it. null otherwise.
   */
  standing: { since: string | null; advice: string | null; resume: ResumeWay[] } | null;
  /**
   * How the halt is resumed (issue 40): its ways (src/core/resumeWays.ts: explicit, unlabel,
   * base_commits, max_iterations, budget, fresh) in the order its advice names them, for a program
   * to follow; null unless the run is halted.
   */
  resume: ResumeWay[] | null;
  /**
   * The run had nothing to do (src/core/idle.ts): no ready issue, no cycle in flight, nothing in the
   * outbox. It wrote nothing and prepared no agent; checkpointId is the newest checkpoint, as it was
   * ('' when there is none).
   */
  idle: boolean;
  /** Issues this slice left alone because another run's live claim held them (issue 14). */
  issuesClaimedElsewhere: string[];
  /** Status deferred: what failed. null otherwise. */
  deferred: Deferral | null;
  /**
   * This run changed nothing the next run would read (the checkpoint's loop is as it found it): an
   * idle run, a halt that stands, a run deferred before it did anything. The action publishes nothing then.
   */
  unchanged: boolean;
}

/** The loop's totals as the state holds them. Pure. */
export function loopTotals(state: LoopState): LoopCounts {
  return {
    iterations: state.iteration,
    failedIterations: state.failedIterations,
    successfulIterations: state.successfulIterations,
    testFailures: state.testFailures,
    testsPassed: state.testsPassed,
    issuesClosed: state.issuesClosed,
    issuesEscalated: state.issuesEscalated,
    issuesNoChange: state.issuesNoChange,
    issuesHeld: state.issuesHeld,
    pullRequests: state.pullRequests,
    completedIterations: state.completedIterations,
    costUsd: state.costUsd,
    tokens: state.tokens,
  };
}

/** What the loop's state holds that a run's counts and lists are taken from. */
export type RunStart = Pick<
  LoopState,
  | 'iteration'
  | 'failedIterations'
  | 'successfulIterations'
  | 'testFailures'
  | 'issuesClosed'
  | 'issuesEscalated'
  | 'issuesNoChange'
  | 'issuesHeld'
  | 'pullRequests'
  | 'costUsd'
  | 'tokens'
>;

/**
 * What one run did, from the loop's state as the run found it (`start`) and as it left it: the
 * counters' differences, and the issues and pull requests that are new in the loop's lists. An
 * issue landed by this run from an earlier run's outbox is this run's (it was not closed before).
 * Pure.
 */
export function runPart(
  start: RunStart,
  state: LoopState,
): LoopCounts & Pick<RunResult, 'preexistingFailures' | 'history'> {
  const added = (before: readonly string[], after: readonly string[]) => {
    const had = new Set(before);
    return after.filter((id) => !had.has(id));
  };
  const prKey = (p: LoopState['pullRequests'][number]) => `${p.number} ${p.iteration} ${p.url} ${p.issueIds.join(' ')}`;
  const hadPr = new Set(start.pullRequests.map(prKey));
  const history = state.history.filter((r) => r.n > start.iteration);
  const tested = history.some((r) => r.tests !== undefined);
  const judged = history.some((r) => r.verdict !== undefined);
  return {
    iterations: state.iteration - start.iteration,
    failedIterations: state.failedIterations - start.failedIterations,
    successfulIterations: state.successfulIterations - start.successfulIterations,
    testFailures: state.testFailures - start.testFailures,
    testsPassed: tested ? state.testsPassed : null,
    issuesClosed: added(start.issuesClosed, state.issuesClosed),
    // An issue escalated again in this run (edited since, tried again) is this run's as well.
    issuesEscalated: [
      ...new Set([
        ...added(start.issuesEscalated, state.issuesEscalated),
        ...state.escalations.filter((e) => e.iteration > start.iteration).flatMap((e) => e.issueIds),
      ]),
    ],
    issuesNoChange: added(start.issuesNoChange, state.issuesNoChange),
    issuesHeld: state.issuesHeld.filter(
      (h) => !(start.issuesHeld ?? []).some((s) => s.id === h.id && s.reason === h.reason),
    ),
    preexistingFailures: judged || tested ? state.preexistingFailures : [],
    pullRequests: state.pullRequests.filter((p) => !hadPr.has(prKey(p))),
    completedIterations: state.completedIterations.filter((n) => n > start.iteration),
    costUsd: spent(state.costUsd - start.costUsd),
    tokens: {
      input: state.tokens.input - start.tokens.input,
      output: state.tokens.output - start.tokens.output,
    },
    history,
  };
}

/** A difference of dollar sums, without the float's noise (1e-9 of a cent) or a negative zero. */
const spent = (usd: number) => Math.max(0, Math.round(usd * 1e9) / 1e9);

export function buildResult(input: {
  status: RunResult['status'];
  state: LoopState;
  /** The loop's state as this run found it (its counts and lists are the difference). */
  start: RunStart;
  checkpointId: string;
  durationMs: number;
  interrupted: boolean;
  diagnostic?: string | null;
  standing?: RunResult['standing'];
  idle?: boolean;
  claimedElsewhere?: string[];
  deferred?: Deferral;
  /** This run changed nothing the next run reads (default: only when idle or standing). */
  unchanged?: boolean;
}): RunResult {
  const { state } = input;
  const part = runPart(input.start, state);
  return {
    status: input.status,
    haltReason: state.halt?.reason ?? null,
    error: state.halt?.message ?? null,
    ...part,
    maxIterations: state.maxIterations,
    checkpointId: input.checkpointId,
    loop: loopTotals(state),
    sliceIterations: part.iterations,
    durationMs: Math.round(input.durationMs),
    interrupted: input.interrupted,
    tddError: state.tddError ?? null,
    diagnostic: input.diagnostic ?? null,
    standing: input.standing ?? null,
    resume: input.status === 'halted' && state.halt ? resumeWays(state.halt) : null,
    idle: input.idle ?? false,
    issuesClaimedElsewhere: input.claimedElsewhere ?? [],
    deferred: input.deferred ?? null,
    unchanged: input.unchanged ?? (input.idle === true || input.standing != null),
  };
}

/**
 * The run's exit code (the README's Exit codes): halted, its reason's (src/core/haltReasons.ts: 1); 75 deferred (sysexits.h EX_TEMPFAIL,
 * "temporary failure; the user is invited to retry": nothing was lost, the next run retries); 0
 * otherwise.
 */
export const EXIT_DEFERRED = 75;
/** A halted result without its reason. */
const HALTED = 1;

export function exitCodeFor(result: Pick<RunResult, 'status'> & { haltReason?: HaltReason | null }): number {
  if (result.status === 'halted') return result.haltReason ? HALT_REASONS[result.haltReason].exitCode : HALTED;
  return result.status === 'deferred' ? EXIT_DEFERRED : 0;
}

/** The head line of a deferred run: what failed, and that nothing was lost. */
export function deferredLine(d: Deferral): string {
  return (
    `DEFERRED: ${d.message.replace(/\.$/, '')}. Nothing was lost, and no issue was started on an incomplete ` +
    `list: the issues are as they were, the checkpoint keeps what this run did, and the next run lists them again.`
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The closing lines in text mode: how the run ended, what this run did, then the loop's totals. */
export function summaryLine(r: RunResult): string {
  const head = r.standing
    ? `STILL HALTED (${r.haltReason}) since ${r.standing.since ?? 'an earlier run'}: ${r.error}; no agent ran`
    : r.deferred
      ? deferredLine(r.deferred)
      : r.status === 'halted'
        ? `HALTED (${r.haltReason}): ${r.error}`
        : r.idle
          ? 'COMPLETE: nothing to do (no ready issue, no cycle in flight); nothing was written'
          : r.status === 'complete'
            ? 'COMPLETE'
            : `CONTINUING${r.interrupted ? ' (interrupted)' : ''}: work remains, run again to resume`;
  const loop = r.loop;
  return [
    head,
    `  this run: ${plural(r.iterations, 'iteration')} (${r.successfulIterations} agent ok, ${r.failedIterations}` +
      ` agent failed, ${r.testFailures} test failures); tests passed: ${testsPassedWords(r)}`,
    `  closed in this run: ${r.issuesClosed.join(', ') || 'none'}${r.issuesEscalated.length ? `; escalated: ${r.issuesEscalated.join(', ')}` : ''}`,
    ...(r.issuesNoChange.length ? [`  no change needed: ${noChangeWords(r)}`] : []),
    ...(r.issuesHeld?.length ? [`  held for a person (never merged, left open): ${heldWordsOf(r.issuesHeld)}`] : []),
    ...(r.preexistingFailures.length
      ? [
          `  failing before and still failing, not targeted (${r.preexistingFailures.length}): ${r.preexistingFailures.slice(0, 10).join(', ')}` +
            `${r.preexistingFailures.length > 10 ? ', …' : ''}`,
        ]
      : []),
    ...(r.issuesClaimedElsewhere.length
      ? [`  left to other runs (claimed): ${r.issuesClaimedElsewhere.join(', ')}`]
      : []),
    ...(r.pullRequests.length
      ? [
          `  pull requests of this run: ${r.pullRequests.map((p) => `#${p.number} (${p.issueIds.join(', ')})`).join(', ')}`,
        ]
      : []),
    ...(r.costUsd > 0 || r.tokens.input + r.tokens.output > 0
      ? [
          `  agent spend of this run: $${r.costUsd.toFixed(4)}` +
            (r.tokens.input + r.tokens.output > 0 ? `, ${r.tokens.input} tokens in, ${r.tokens.output} out` : ''),
        ]
      : []),
    `  the loop so far: iterations ${loop.iterations}/${r.maxIterations}; ${plural(loop.issuesClosed.length, 'issue')}` +
      ` closed, ${loop.issuesEscalated.length} escalated` +
      `${loop.issuesHeld?.length ? `, ${loop.issuesHeld.length} held for a person` : ''}` +
      `${loop.pullRequests.length ? `, ${plural(loop.pullRequests.length, 'pull request')}` : ''}` +
      `${loop.costUsd > 0 ? `; spend $${loop.costUsd.toFixed(4)}` : ''}`,
    `  checkpoint ${r.checkpointId || 'none'}`,
  ].join('\n');
}

/**
 * The closing line's "tests passed": the last verdict, with the failures it did not count beside it
 * (a test failing before the cycle is no failure of the work, and is not hidden either).
 */
function testsPassedWords(r: Pick<RunResult, 'testsPassed' | 'preexistingFailures'>): string {
  if (r.testsPassed === null) return 'not run';
  const before = r.preexistingFailures.length;
  return r.testsPassed && before > 0 ? `true, except ${before} failing before (listed below)` : String(r.testsPassed);
}

/** The issues held for a person, with the label that says why: `42 (agent-loop:tests-changed)`. */
export function heldWordsOf(held: readonly { id: string; reason: HeldReason }[]): string {
  return held.map((h) => `${h.id} (${heldLabel(h.reason)})`).join(', ');
}

/** The issues that needed no change: which were closed, which are left open for a person. */
export function noChangeWords(r: Pick<RunResult, 'issuesNoChange' | 'issuesClosed'>): string {
  const { closed, open } = splitNoChange(r);
  return [
    ...(closed.length ? [`${closed.join(', ')} (closed)`] : []),
    ...(open.length ? [`${open.join(', ')} (labelled agent-loop:no-change, left open)`] : []),
  ].join('; ');
}

/** issuesNoChange split into those closed and those left open for a person. Pure. */
export function splitNoChange(r: Pick<RunResult, 'issuesNoChange' | 'issuesClosed'>): {
  closed: string[];
  open: string[];
} {
  return {
    closed: r.issuesNoChange.filter((id) => r.issuesClosed.includes(id)),
    open: r.issuesNoChange.filter((id) => !r.issuesClosed.includes(id)),
  };
}
