import { readPhase } from '../checkpoint/phase.js';
import { ageInDays, describeAge, isResumable, newestFirst, resumePoint } from '../checkpoint/resume.js';
import { pickRunnable, skippedByRun } from '../core/resumable.js';
import { noChangeWords } from '../core/result.js';
import { checkpointWarnings } from '../checkpoint/schema.js';
import { PIPELINE_PHASES, type Checkpoint, type CheckpointStore, type RunStage } from '../checkpoint/types.js';
import { failingBefore, nothingToResume, wouldFindHalted, wouldResume } from './messages.js';
import { escapeControls, printable } from '../util/printable.js';

/** The longest an issue id is shown (a branch name holds it too). */
const ID_MAX = 80;

/** `agent-loop status [--state-dir DIR] [--json]`: what is checkpointed, and what a run would resume. */

export interface StatusOptions {
  stateDir: string;
  json: boolean;
}

export interface StatusDeps {
  store: CheckpointStore;
  now: Date;
  out: (line: string) => void;
}

/** The loop's progress as recorded in `state.loop`; every field is null when it is absent or malformed. */
export interface LoopProgress {
  iteration: number | null;
  maxIterations: number | null;
  failedIterations: number | null;
  successfulIterations: number | null;
  issuesClosed: string[] | null;
  issuesEscalated: string[] | null;
  currentCycleIssueIds: string[] | null;
  haltReason: string | null;
  haltMessage: string | null;
  /** Escalated cycles in a row (the failure-loop counter) and in all. */
  consecutiveEscalations: number | null;
  totalEscalations: number | null;
  rateLimitedUntil: string | null;
  /** Tests failing before their cycle and still failing, targeted by no issue (reported, never blocking). */
  preexistingFailures: string[] | null;
  /** Issues found already satisfied: closed (also in issuesClosed), or left open for a person (agent-loop:no-change). */
  issuesNoChange: string[] | null;
  /**
   * Issues whose work was held for a person (issue 42), with why (tests-changed, unverified); absent
   * when the checkpoint holds none (an older version's too).
   */
  issuesHeld?: { id: string; reason: string }[];
  /** Test gates that rejected the agent's work, in all. */
  testFailures: number | null;
  /** What came of the iterations: test verdicts and agent failures told apart (issue 15); null when nothing says. */
  outcomes: IterationTally | null;
}

/**
 * The iterations by what came of them. An agent run that succeeded is not a success of the
 * iteration: its work passed the tests, failed them, or was not judged yet. From the recorded
 * history when it holds every iteration, else from the run's counters (`byOutcome` null then).
 */
export interface IterationTally {
  from: 'history' | 'counters';
  total: number;
  /** The work was accepted by the tests (a cycle completed, or the issue was found already satisfied). */
  passedTests: number;
  /** The agent ran; the tests rejected its work. */
  failedTests: number;
  /** The agent run itself failed (exit code, timeout, rate limit, auth…). */
  agentFailed: number;
  /** The agent ran and no test verdict came of it (work remaining, stuck, a step back…). */
  noVerdict: number;
  /** Each history outcome's count (agent_failed, continuing, tests_failed, complete, no_change, stuck…). */
  byOutcome: Record<string, number> | null;
}

/** Reads the tally from `state.loop`'s history, or its counters; null when neither is there. Pure. */
export function tallyIterations(loop: Record<string, unknown>): IterationTally | null {
  const compacted = count(loop.compactedIterations) ?? 0;
  const records = Array.isArray(loop.history) ? loop.history.filter(isRecord) : null;
  if (records && compacted === 0 && records.length === (loop.history as unknown[]).length) {
    const byOutcome: Record<string, number> = {};
    for (const r of records) {
      const name = typeof r.outcome === 'string' ? r.outcome : 'unknown';
      byOutcome[name] = (byOutcome[name] ?? 0) + 1;
    }
    const n = (name: string) => byOutcome[name] ?? 0;
    const passedTests = n('complete') + n('no_change') + n('held');
    const failedTests = n('tests_failed');
    const agentFailed = n('agent_failed');
    return {
      from: 'history',
      total: records.length,
      passedTests,
      failedTests,
      agentFailed,
      noVerdict: records.length - passedTests - failedTests - agentFailed,
      byOutcome,
    };
  }
  const ran = count(loop.successfulIterations);
  const agentFailed = count(loop.failedIterations);
  const failedTests = count(loop.testFailures);
  const completed = Array.isArray(loop.completedIterations) ? loop.completedIterations.length : null;
  if (ran === null || agentFailed === null || failedTests === null || completed === null) return null;
  return {
    from: 'counters',
    total: ran + agentFailed,
    passedTests: completed,
    failedTests,
    agentFailed,
    noVerdict: Math.max(0, ran - completed - failedTests),
    byOutcome: null,
  };
}

/** Reads `state.loop` without trusting its shape (it may come from an older or newer version). undefined when there is none. */
export function readLoopProgress(state: Record<string, unknown>): LoopProgress | undefined {
  const loop = state.loop;
  if (!isRecord(loop)) return undefined;
  const cycle = isRecord(loop.currentCycle) ? loop.currentCycle : {};
  const halt = isRecord(loop.halt) ? loop.halt : {};
  return {
    iteration: count(loop.iteration),
    maxIterations: count(loop.maxIterations),
    failedIterations: count(loop.failedIterations),
    successfulIterations: count(loop.successfulIterations),
    issuesClosed: ids(loop.issuesClosed),
    issuesEscalated: ids(loop.issuesEscalated),
    currentCycleIssueIds: ids(cycle.issueIds),
    haltReason: typeof halt.reason === 'string' && halt.reason !== '' ? halt.reason : null,
    haltMessage: typeof halt.message === 'string' && halt.message !== '' ? halt.message : null,
    consecutiveEscalations: typeof loop.consecutiveEscalations === 'number' ? loop.consecutiveEscalations : null,
    totalEscalations: typeof loop.totalEscalations === 'number' ? loop.totalEscalations : null,
    rateLimitedUntil: typeof loop.rateLimitedUntil === 'string' ? loop.rateLimitedUntil : null,
    preexistingFailures: ids(loop.preexistingFailures),
    issuesNoChange: ids(loop.issuesNoChange),
    ...heldOf(loop.issuesHeld),
    testFailures: count(loop.testFailures),
    outcomes: tallyIterations(loop),
  };
}

/** The held issues as a checkpoint of any version holds them (well-formed entries only); nothing when none. */
function heldOf(value: unknown): Pick<LoopProgress, 'issuesHeld'> {
  if (!Array.isArray(value)) return {};
  const held = value.flatMap((h) =>
    isRecord(h) && typeof h.id === 'string' && typeof h.reason === 'string' ? [{ id: h.id, reason: h.reason }] : [],
  );
  return held.length ? { issuesHeld: held } : {};
}

/** The planning pipeline's progress, phase by phase (`agent-loop plan`); undefined for a checkpoint of `run`. */
export interface PipelineProgress {
  goal: string;
  phases: { phase: string; status: 'complete' | 'failed' | 'pending'; detail: string | null }[];
}

export function readPipelineProgress(cp: Pick<Checkpoint, 'phase' | 'state'>): PipelineProgress | undefined {
  const pipeline = cp.state.pipeline;
  if (!isRecord(pipeline) || typeof pipeline.goal !== 'string') return undefined;
  const cut = cp.phase.lastIndexOf('-');
  const at = PIPELINE_PHASES.indexOf(cp.phase.slice(0, cut) as (typeof PIPELINE_PHASES)[number]);
  const failed = cp.phase.endsWith('-failed');
  const { state } = cp;
  const detail = (phase: string): string | null => {
    const v = (key: string) => state[key];
    switch (phase) {
      case 'research':
        return typeof v('research_output') === 'string'
          ? `research.md, ${(v('research_output') as string).length} characters`
          : null;
      case 'decomposition': {
        const c = isRecord(v('decomposition_result'))
          ? (v('decomposition_result') as Record<string, unknown>).components
          : undefined;
        return Array.isArray(c) ? `${c.length} component(s)` : null;
      }
      case 'planning':
        return typeof v('planning_output') === 'string'
          ? `plan.md, ${(v('planning_output') as string).length} characters`
          : null;
      case 'phase_decomposition':
        return Array.isArray(v('phase_files')) ? `${(v('phase_files') as unknown[]).length} phase file(s)` : null;
      case 'beads_integration': {
        const b = v('beads_data');
        const planned = isRecord(b) ? ids(b.planned) : null;
        const real = isRecord(b) && isRecord(b.ids) ? (b.ids as Record<string, unknown>) : {};
        return planned
          ? `issues ${planned.map((k) => (typeof real[k] === 'string' ? `${real[k]} (${k})` : k)).join(', ')}`
          : null;
      }
      default: {
        const loop = readLoopProgress(state);
        return loop?.issuesClosed ? `${loop.issuesClosed.length} issue(s) closed` : null;
      }
    }
  };
  return {
    goal: pipeline.goal,
    phases: PIPELINE_PHASES.map((phase, i) => ({
      phase,
      detail: detail(phase),
      status: i < at || (i === at && !failed) ? 'complete' : i === at ? 'failed' : 'pending',
    })),
  };
}

export async function statusCommand(opts: StatusOptions, deps: StatusDeps): Promise<number> {
  const { store, now, out } = deps;
  const { checkpoints, invalid } = await store.list();
  const sorted = newestFirst(checkpoints);
  // What `run` would resume by itself: the same decision (src/loop/resumable.ts).
  const resumable = pickRunnable(checkpoints, now).checkpoint;

  if (opts.json) {
    out(
      JSON.stringify({
        stateDir: opts.stateDir,
        resumable: resumable?.id ?? null,
        checkpoints: sorted.map((cp) => ({
          id: cp.id,
          // Seed 001's phase (an older version's name translated), the run's stage, the name as written.
          ...readPhase(cp),
          timestamp: cp.timestamp,
          ageDays: ageOf(cp, now),
          errors: cp.errors ?? [],
          resumable: isResumable(cp),
          wouldResume: cp === resumable,
          runSkips: skippedByRun(cp, now) ?? null,
          resumeAt: resumePoint(cp) ?? null,
          loop: readLoopProgress(cp.state) ?? null,
          pipeline: readPipelineProgress(cp) ?? null,
          warnings: checkpointWarnings(cp),
        })),
        invalid,
      }),
    );
    return 0;
  }

  if (sorted.length === 0) {
    out(`No ${invalid.length > 0 ? 'valid ' : ''}checkpoints in ${store.dir}.`);
    out(
      `\`agent-loop run --state-dir ${opts.stateDir}\` writes one as it works, and resumes from the newest on its next start.`,
    );
  } else {
    out(`Checkpoints in ${store.dir} (${sorted.length}, newest first):`);
    for (const cp of sorted) {
      out('');
      // A checkpoint holds what anyone may have written: each line stays one line (ids, messages, errors).
      for (const line of describeCheckpoint(cp, cp === resumable, now, skippedByRun(cp, now)))
        out(escapeControls(line));
    }
    out('');
    out(
      resumable && readPhase(resumable).stage === 'halted'
        ? wouldFindHalted(opts.stateDir, resumable.id)
        : resumable
          ? wouldResume(
              opts.stateDir,
              resumable.id,
              readPipelineProgress(resumable)
                ? `at the ${resumePoint(resumable)} phase`
                : `(${readPhase(resumable).stage ?? resumable.phase})`,
            )
          : nothingToResume(opts.stateDir),
    );
  }
  if (invalid.length > 0) {
    out('');
    for (const bad of invalid) out(`skipped ${bad.path}: ${bad.reason}`);
  }
  return 0;
}

/** What a run's stage tells a person. */
const RUN_STAGE_MEANING: Record<RunStage, string> = {
  working: 'work remains: a run goes on from here',
  red: 'work remains: the next test is to be written (--workflow tdd)',
  green: 'work remains: the failing test is to be made to pass (--workflow tdd)',
  refactor: 'work remains: the code is to be refactored with the tests green (--workflow tdd)',
  complete: 'nothing left to do',
  halted: 'halted on purpose: a run resumes here once the cause is fixed',
};

function describeCheckpoint(cp: Checkpoint, wouldResume: boolean, now: Date, skipped?: string): string[] {
  const lines = [`${cp.id}${wouldResume ? '  ← would be resumed' : ''}`];
  const pipeline = readPipelineProgress(cp);
  const next = resumePoint(cp);
  const { phase, stage, writtenAs } = readPhase(cp);
  const runStage = pipeline ? null : stage;
  if (runStage) {
    lines.push(`  phase:      ${phase}${writtenAs ? ` (written as ${writtenAs} by an older version)` : ''}`);
    lines.push(`  stage:      ${runStage} (${RUN_STAGE_MEANING[runStage]})`);
  } else lines.push(`  phase:      ${phase}${next ? ` (resumes at ${next})` : ' (nothing left to do)'}`);
  if (skipped) lines.push(`  run:        skips it, so no run goes on from here: ${skipped}`);
  lines.push(`  timestamp:  ${cp.timestamp}`);
  lines.push(`  age:        ${describeAge(ageOf(cp, now))}`);
  if (pipeline) {
    lines.push(`  pipeline:   ${pipeline.goal.split('\n')[0]?.slice(0, 100)}`);
    for (const p of pipeline.phases)
      lines.push(
        `    ${p.status === 'complete' ? '✓' : p.status === 'failed' ? '✗' : '·'} ${p.phase.padEnd(20)} ${p.status}${p.detail ? `: ${p.detail}` : ''}`,
      );
  }
  const loop = readLoopProgress(cp.state);
  if (loop) lines.push(...describeLoop(loop));
  else if (!pipeline) lines.push('  loop:       no loop progress recorded');
  for (const warning of checkpointWarnings(cp)) lines.push(`  warning:    ${warning}`);
  if (cp.errors && cp.errors.length > 0) {
    lines.push('  errors:');
    for (const error of cp.errors) lines.push(`    - ${error}`);
  }
  return lines;
}

function describeLoop(loop: LoopProgress): string[] {
  const lines: string[] = [];
  if (loop.iteration !== null) {
    lines.push(`  iteration:  ${loop.iteration}${loop.maxIterations !== null ? ` of ${loop.maxIterations}` : ''}`);
  } else if (loop.maxIterations !== null) {
    lines.push(`  iteration:  max ${loop.maxIterations}`);
  }
  const outcomes = describeOutcomes(loop);
  if (outcomes) lines.push(`  iterations: ${outcomes}`);
  if (loop.issuesClosed !== null) lines.push(`  closed:     ${listIds(loop.issuesClosed)}`);
  if (loop.issuesEscalated !== null) lines.push(`  escalated:  ${listIds(loop.issuesEscalated)}`);
  if (loop.issuesNoChange?.length)
    lines.push(
      `  no change:  ${loop.issuesNoChange.length}: ${noChangeWords({ issuesNoChange: loop.issuesNoChange, issuesClosed: loop.issuesClosed ?? [] })}`,
    );
  if (loop.issuesHeld?.length) {
    const held = loop.issuesHeld.map((h) => `${printable(h.id, ID_MAX)} (agent-loop:${printable(h.reason, ID_MAX)})`);
    lines.push(`  held:       ${loop.issuesHeld.length} for a person, never merged: ${held.join(', ')}`);
  }
  if (loop.currentCycleIssueIds !== null) lines.push(`  in cycle:   ${listIds(loop.currentCycleIssueIds)}`);
  if (loop.preexistingFailures?.length)
    lines.push(failingBefore(listIds(loop.preexistingFailures.slice(0, 20)), loop.preexistingFailures.length));
  if (loop.haltReason !== null)
    lines.push(`  halted:     ${loop.haltReason}${loop.haltMessage ? `: ${loop.haltMessage}` : ''}`);
  if (loop.totalEscalations)
    lines.push(`  escalations: ${loop.consecutiveEscalations ?? 0} in a row, ${loop.totalEscalations} in all`);
  if (loop.rateLimitedUntil) lines.push(`  rate limited until ${loop.rateLimitedUntil}`);
  return lines;
}

/** The iterations worded as they went: "8: 0 passed their tests, 8 failed their tests (agent ran), 0 agent runs failed". */
function describeOutcomes(loop: LoopProgress): string | undefined {
  const t = loop.outcomes;
  if (!t) {
    // An older or partial record: only the agent's side is known.
    const parts = [
      loop.successfulIterations !== null ? `${loop.successfulIterations} agent runs succeeded` : undefined,
      loop.failedIterations !== null ? `${loop.failedIterations} agent runs failed` : undefined,
    ].filter((part): part is string => part !== undefined);
    return parts.length > 0 ? `${parts.join(', ')} (no test verdicts recorded)` : undefined;
  }
  const parts = [
    `${t.passedTests} passed their tests`,
    `${t.failedTests} failed their tests (agent ran)`,
    `${t.agentFailed} agent run${t.agentFailed === 1 ? '' : 's'} failed`,
  ];
  if (t.noVerdict > 0) {
    const kinds = t.byOutcome
      ? Object.entries(t.byOutcome)
          .filter(([name]) => !['complete', 'no_change', 'held', 'tests_failed', 'agent_failed'].includes(name))
          .map(([name, n]) => `${n} ${name.replace(/_/g, ' ')}`)
      : [];
    parts.push(`${t.noVerdict} with no test verdict (agent ran${kinds.length ? `: ${kinds.join(', ')}` : ''})`);
  }
  return `${t.total}${t.from === 'counters' ? " (from the run's counters)" : ''}: ${parts.join(', ')}`;
}

function listIds(ids: string[]): string {
  return ids.length === 0 ? 'none' : `${ids.length} (${ids.map((id) => printable(id, ID_MAX)).join(', ')})`;
}

/** Age in days; a checkpoint from the store always has a valid timestamp, but a foreign store might not. */
function ageOf(cp: Checkpoint, now: Date): number {
  try {
    return ageInDays(cp, now);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function ids(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  return value
    .filter((item): item is string | number => typeof item === 'string' || typeof item === 'number')
    .map(String);
}
