/** The run result (DESIGN.md "Command line"): what --json prints last and the action exposes. Pure. */
import type { ResumeWay } from './haltGate.js';
import type { HaltReason, IterationRecord, LoopState } from './state.js';

export interface RunResult {
  status: 'complete' | 'continuing' | 'halted';
  haltReason: HaltReason | null;
  /** "Max iterations (100) reached", or the halt's message; null otherwise. */
  error: string | null;
  /** Iterations run in the whole run, across slices. */
  iterations: number;
  maxIterations: number;
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
  issuesClosed: string[];
  issuesEscalated: string[];
  /**
   * Issues found already satisfied (nothing changed, nothing broke): those also in issuesClosed were
   * closed (beads; GitHub when their own targets pass), the others are left open, labelled
   * agent-loop:no-change for a person to close (GitHub).
   */
  issuesNoChange: string[];
  /** Tests that failed before their cycle started and still fail, targeted by no issue worked (the last verdict's): reported, never blocking. */
  preexistingFailures: string[];
  /** Pull requests opened (or reused) for finished cycles in the whole run, when the work lands as pull requests. */
  pullRequests: LoopState['pullRequests'];
  /** Iterations that completed a cycle (the last one is the run's completing iteration). */
  completedIterations: number[];
  checkpointId: string;
  costUsd: number;
  /** Tokens reported by agents that count tokens (Codex); the dollar figures come from agents that report cost. */
  tokens: { input: number; output: number };
  /** Iterations run in this slice, and their records. */
  sliceIterations: number;
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
   * The run had nothing to do (src/core/idle.ts): no ready issue, no cycle in flight, nothing in the
   * outbox. It wrote nothing and prepared no agent; checkpointId is the newest checkpoint, as it was
   * ('' when there is none).
   */
  idle: boolean;
  /** Issues this slice left alone because another run's live claim held them (issue 14). */
  issuesClaimedElsewhere: string[];
}

export function buildResult(input: {
  status: RunResult['status'];
  state: LoopState;
  checkpointId: string;
  sliceStartIteration: number;
  durationMs: number;
  interrupted: boolean;
  diagnostic?: string | null;
  standing?: RunResult['standing'];
  idle?: boolean;
  claimedElsewhere?: string[];
}): RunResult {
  const { state } = input;
  return {
    status: input.status,
    haltReason: state.halt?.reason ?? null,
    error: state.halt?.message ?? null,
    iterations: state.iteration,
    maxIterations: state.maxIterations,
    failedIterations: state.failedIterations,
    successfulIterations: state.successfulIterations,
    testFailures: state.testFailures,
    testsPassed: state.testsPassed,
    issuesClosed: state.issuesClosed,
    issuesEscalated: state.issuesEscalated,
    issuesNoChange: state.issuesNoChange,
    preexistingFailures: state.preexistingFailures,
    pullRequests: state.pullRequests,
    completedIterations: state.completedIterations,
    checkpointId: input.checkpointId,
    costUsd: state.costUsd,
    tokens: state.tokens,
    sliceIterations: state.iteration - input.sliceStartIteration,
    history: state.history.filter((r) => r.n > input.sliceStartIteration),
    durationMs: Math.round(input.durationMs),
    interrupted: input.interrupted,
    tddError: state.tddError ?? null,
    diagnostic: input.diagnostic ?? null,
    standing: input.standing ?? null,
    idle: input.idle ?? false,
    issuesClaimedElsewhere: input.claimedElsewhere ?? [],
  };
}

export function exitCodeFor(result: Pick<RunResult, 'status'>): number {
  return result.status === 'halted' ? 1 : 0;
}

/** The closing line in text mode. */
export function summaryLine(r: RunResult): string {
  const head = r.standing
    ? `STILL HALTED (${r.haltReason}) since ${r.standing.since ?? 'an earlier run'}: ${r.error}; no agent ran`
    : r.status === 'halted'
      ? `HALTED (${r.haltReason}): ${r.error}`
      : r.idle
        ? 'COMPLETE: nothing to do (no ready issue, no cycle in flight); nothing was written'
        : r.status === 'complete'
          ? 'COMPLETE'
          : `CONTINUING${r.interrupted ? ' (interrupted)' : ''}: work remains, run again to resume`;
  return [
    head,
    `  iterations ${r.iterations}/${r.maxIterations} (this slice ${r.sliceIterations}): ${r.successfulIterations} agent ok, ${r.failedIterations} agent failed, ${r.testFailures} test failures`,
    `  tests passed: ${testsPassedWords(r)}; closed: ${r.issuesClosed.join(', ') || 'none'}${r.issuesEscalated.length ? `; escalated: ${r.issuesEscalated.join(', ')}` : ''}`,
    ...(r.issuesNoChange.length ? [`  no change needed: ${noChangeWords(r)}`] : []),
    ...(r.preexistingFailures.length
      ? [
          `  failing before and still failing, not targeted (${r.preexistingFailures.length}): ${r.preexistingFailures.slice(0, 10).join(', ')}${r.preexistingFailures.length > 10 ? ', …' : ''}`,
        ]
      : []),
    ...(r.issuesClaimedElsewhere.length
      ? [`  left to other runs (claimed): ${r.issuesClaimedElsewhere.join(', ')}`]
      : []),
    ...(r.pullRequests.length
      ? [`  pull requests: ${r.pullRequests.map((p) => `#${p.number} (${p.issueIds.join(', ')})`).join(', ')}`]
      : []),
    ...(r.costUsd > 0 || r.tokens.input + r.tokens.output > 0
      ? [
          `  agent spend: $${r.costUsd.toFixed(4)}${r.tokens.input + r.tokens.output > 0 ? `, ${r.tokens.input} tokens in, ${r.tokens.output} out` : ''}`,
        ]
      : []),
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
