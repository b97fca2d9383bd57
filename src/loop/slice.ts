/**
 * One slice of the implementation loop (seed 001 REQ_019, seed 000 REQ_021): resume the newest
 * checkpoint, run iterations (agent → delay → completion check → test gate) until the work is done,
 * the run must halt, or the slice's bounds are reached; write the checkpoint after every iteration.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Agent, AgentResult } from '../agents/types.js';
import { pickResumable } from '../checkpoint/resume.js';
import { newCheckpointId } from '../checkpoint/fileStore.js';
import type { CheckpointPhase, CheckpointStore } from '../checkpoint/types.js';
import { type Git, cycleBranch } from '../git/git.js';
import type { Issue, IssueSource } from '../issues/types.js';
import { isClosed } from '../issues/types.js';
import type { Logger } from '../report/logger.js';
import type { Clock } from '../util/clock.js';
import { rfc3339 } from '../util/clock.js';
import { TEMP_FILE_PATTERN } from '../util/atomicWrite.js';
import { LOGS_KEPT, pruneIterationLogs } from '../agents/streamLog.js';
import { decideContinuation, isCycleComplete } from './continuation.js';
import { buildPrompt } from './prompt.js';
import { type RunResult, buildResult } from './result.js';
import {
  type CycleState, type HaltReason, type IterationRecord, type LoopState,
  appendHistory, initialLoopState, parseLoopState,
} from './state.js';

export interface SliceSettings {
  maxIterations: number;
  sliceIterations?: number;
  sliceMinutes?: number;
  iterationDelaySeconds: number;
  agentTimeoutMinutes: number;
  batch: boolean;
  onSuccess: 'merge' | 'branch';
  strict: boolean;
  resume?: string;
  fresh: boolean;
  /** Halt before an iteration would start with the run's spend at or over this. */
  maxCostUsd?: number;
  /** continue: resume the cycle's previous agent session on its next iteration. */
  agentSession?: 'fresh' | 'continue';
  testCommand: string;
  plan?: string;
}

export interface TestOutcome {
  passed: boolean;
  exitCode: number | null;
  durationMs: number;
  tail: string;
}

export interface SliceDeps {
  settings: SliceSettings;
  cwd: string;
  stateDir: string;
  source: IssueSource;
  agent: Agent;
  store: CheckpointStore;
  git?: Git;
  runTests: (command: string, signal?: AbortSignal) => Promise<TestOutcome>;
  logger: Logger;
  clock: Clock;
  /** Aborted on SIGINT/SIGTERM: the in-flight iteration is dropped, the checkpoint written. */
  signal?: AbortSignal;
}

/** The run cannot start as asked (a --resume id that cannot be used, a cycle branch as base): exit 2. */
export class StartError extends Error {}

const IN_PROGRESS: CheckpointPhase = 'beads_integration-complete';
const PHASE_FOR: Record<RunResult['status'], CheckpointPhase> = {
  continuing: IN_PROGRESS,
  complete: 'implementation-complete',
  halted: 'implementation-failed',
};

export async function runSlice(deps: SliceDeps): Promise<RunResult> {
  const { settings, logger, clock, store, source, git } = deps;
  const startedAt = clock.now().getTime();
  const opened = await openCheckpoint(deps);
  const checkpointId = opened.id;
  let state: LoopState = { ...opened.state, slices: opened.state.slices + 1, maxIterations: settings.maxIterations, halt: undefined };
  const sliceStartIteration = state.iteration;
  const errors: string[] = [];

  const save = async (status: RunResult['status']) => {
    await store.write({ id: checkpointId, phase: PHASE_FOR[status], state: { loop: state }, ...(errors.length ? { errors } : {}) });
  };

  if (git) {
    await git.exclude(path.relative(git.topLevel, deps.stateDir) || '.agent-loop');
    await git.exclude(TEMP_FILE_PATTERN);
    if (!state.baseBranch) {
      const current = await git.currentRef();
      if (current.startsWith('agent-loop/')) {
        throw new StartError(`the checked-out branch ${current} is a cycle branch of an earlier run, not a base branch. Check out the branch the work should land on (e.g. git checkout main), or resume that run instead of --fresh.`);
      }
      state.baseBranch = current;
    }
  }
  await save('continuing');
  logger.info('run.start', `${opened.resumed ? `Resuming checkpoint ${checkpointId} at iteration ${state.iteration + 1}` : `Starting run ${checkpointId}`} (max ${settings.maxIterations} iterations, agent ${deps.agent.displayName}, tests: ${settings.testCommand})`, {
    checkpointId, resumed: opened.resumed, iteration: state.iteration, maxIterations: settings.maxIterations,
  });

  const finish = async (status: RunResult['status'], halt?: { reason: HaltReason; message: string }, interrupted = false) => {
    if (halt) {
      state = { ...state, halt };
      errors.push(halt.message);
    }
    await save(status);
    const result = buildResult({ status, state, checkpointId, sliceStartIteration, durationMs: clock.now().getTime() - startedAt, interrupted });
    if (halt) logger.error('run.halted', `HALT (${halt.reason}): ${halt.message}. Nothing was reset: checkpoint ${checkpointId}, branch and working tree are left for inspection.`, { haltReason: halt.reason });
    return result;
  };

  let onCycleBranch = false;
  for (;;) {
    if (deps.signal?.aborted) return finish('continuing', undefined, true);

    // 1. What to work on: the current cycle, or the next ready issues.
    let next: Issue[] | undefined;
    if (!state.currentCycle) {
      next = await selectTargets(source, state, settings.batch);
      if (next.length === 0) {
        logger.info('run.complete', `No ready issues left: the work is done (${state.issuesClosed.length} closed in this run).`);
        return finish('complete');
      }
    }

    // 2. Bounds: the run's, then the slice's.
    if (state.iteration >= settings.maxIterations) {
      return finish('halted', { reason: 'max_iterations', message: `Max iterations (${settings.maxIterations}) reached` });
    }
    if (settings.maxCostUsd !== undefined && state.costUsd >= settings.maxCostUsd) {
      return finish('halted', { reason: 'budget', message: `Budget reached: $${state.costUsd.toFixed(4)} spent of the $${settings.maxCostUsd} cap (--max-cost-usd)` });
    }
    const sliceDone = state.iteration - sliceStartIteration;
    if (settings.sliceIterations !== undefined && sliceDone >= settings.sliceIterations) {
      logger.info('slice.end', `Slice bound reached (${sliceDone} iterations): checkpoint ${checkpointId} continues next run.`);
      return finish('continuing');
    }
    if (settings.sliceMinutes !== undefined && clock.now().getTime() - startedAt >= settings.sliceMinutes * 60_000) {
      logger.info('slice.end', `Slice time bound reached (${settings.sliceMinutes} min): checkpoint ${checkpointId} continues next run.`);
      return finish('continuing');
    }

    // 3. Start a cycle when none is in flight.
    if (!state.currentCycle && next) {
      const cycle: CycleState = {
        issueIds: next.map((i) => i.id), titles: next.map((i) => i.title),
        startedAtIteration: state.iteration + 1, iterations: 0, sameWorkRemainingCount: 0,
      };
      if (git && state.baseBranch) {
        cycle.branch = cycleBranch(cycle.issueIds);
        await git.switchToBranch(cycle.branch, state.baseBranch);
      }
      state = { ...state, currentCycle: cycle };
      logger.info('cycle.start', `Cycle for ${describeTargets(cycle)}${cycle.branch ? ` on branch ${cycle.branch}` : ''}`, { issueIds: cycle.issueIds, branch: cycle.branch });
    } else if (git && state.currentCycle?.branch && !onCycleBranch) {
      // A resumed cycle: make sure its branch is checked out (once per slice, not per iteration).
      if ((await git.currentRef()) !== state.currentCycle.branch) await git.switchToBranch(state.currentCycle.branch, state.baseBranch ?? 'HEAD');
    }
    onCycleBranch = true;

    // 4. One iteration.
    const outcome = await runIteration(deps, state);
    if (outcome.interrupted) return finish('continuing', undefined, true);
    state = outcome.state;
    if (outcome.violation) {
      await appendError(deps, outcome.violation);
    }
    if (outcome.halt) return finish('halted', outcome.halt);
    await save('continuing');
  }
}

interface IterationOutcome {
  state: LoopState;
  halt?: { reason: HaltReason; message: string };
  violation?: Record<string, unknown>;
  interrupted?: boolean;
}

async function runIteration(deps: SliceDeps, before: LoopState): Promise<IterationOutcome> {
  const { settings, logger, clock, source, agent } = deps;
  const cycle = before.currentCycle as CycleState;
  const n = before.iteration + 1;
  const started = clock.now();
  const issues = await Promise.all(cycle.issueIds.map(async (id, i) => (await source.get(id)) ?? { id, title: cycle.titles[i] ?? id, body: '' }));
  const prompt = buildPrompt({
    issues, iteration: n, maxIterations: settings.maxIterations, testCommand: settings.testCommand,
    plan: settings.plan, lastFailure: cycle.lastFailure, sourceHint: source.description,
  });
  const promptFile = path.join(deps.stateDir, 'prompt.md');
  await fs.writeFile(promptFile, prompt);
  const logDir = path.join(deps.stateDir, 'logs');
  await pruneIterationLogs(logDir, LOGS_KEPT - 1);
  const resumeSessionId = settings.agentSession === 'continue' ? cycle.sessionId : undefined;
  logger.info('iteration.start', `[iteration ${n}/${settings.maxIterations}] ${describeTargets(cycle)} …`, { iteration: n, issueIds: cycle.issueIds });

  const result = await agent.run({
    prompt, iteration: n, issueIds: cycle.issueIds, cwd: deps.cwd, promptFile,
    timeoutMs: settings.agentTimeoutMinutes * 60_000, signal: deps.signal,
    onLine: (line, stream) => logger.output('agent', line, stream),
    logFile: path.join(logDir, `iteration-${n}.ndjson`), resumeSessionId,
  });
  if (deps.signal?.aborted) return { state: before, interrupted: true };

  if (settings.iterationDelaySeconds > 0) await clock.sleep(settings.iterationDelaySeconds * 1000, deps.signal);

  const record: IterationRecord = {
    n, issueIds: cycle.issueIds, startedAt: rfc3339(started), durationMs: 0, outcome: 'continuing',
    agent: {
      ok: result.ok, exitCode: result.exitCode, signal: result.signal, durationMs: Math.round(result.durationMs),
      ...(result.failure ? { failure: result.failure } : {}), ...(result.costUsd !== undefined ? { costUsd: result.costUsd } : {}),
      ...(result.turns !== undefined ? { turns: result.turns } : {}), ...(result.tokens ? { tokens: result.tokens } : {}),
    },
  };
  let state: LoopState = {
    ...before, iteration: n, costUsd: before.costUsd + (result.costUsd ?? 0),
    tokens: { input: before.tokens.input + (result.tokens?.input ?? 0), output: before.tokens.output + (result.tokens?.output ?? 0) },
    currentCycle: { ...cycle, iterations: cycle.iterations + 1, sessionId: result.ok ? result.sessionId : undefined },
  };
  if (result.costUsd !== undefined || result.tokens || result.turns !== undefined) {
    const parts = [
      result.turns !== undefined ? `${result.turns} turns` : undefined,
      result.tokens ? `${result.tokens.input} tokens in, ${result.tokens.output} out` : undefined,
      result.costUsd !== undefined ? `$${result.costUsd.toFixed(4)} (run total $${state.costUsd.toFixed(4)})` : undefined,
    ].filter(Boolean);
    logger.info('agent.usage', `[iteration ${n}/${settings.maxIterations}] ${agent.displayName}: ${parts.join(', ')}`, {
      iteration: n, costUsd: result.costUsd ?? null, totalCostUsd: state.costUsd, turns: result.turns ?? null,
      tokens: result.tokens ?? null, totalTokens: state.tokens, sessionId: result.sessionId ?? null,
    });
  }
  const elapsed = () => clock.now().getTime() - started.getTime();
  const close = (s: LoopState, r: IterationRecord): LoopState => appendHistory(s, { ...r, durationMs: elapsed() });

  // Agent failures never end the loop (REQ_021.1): log, remember as context, go on.
  if (!result.ok) {
    const failure = result.failure ?? { class: 'transient' as const, reason: 'unknown', message: 'failed' };
    logger.event('iteration.failed', failure.class === 'permanent' ? 'error' : 'warn',
      `${agent.displayName} iteration ${n} failed: ${failure.message} (${result.exitCode !== null ? `exit code ${result.exitCode}` : result.signal ? `killed by ${result.signal}` : 'no exit code'}, ${seconds(result.durationMs)}, ${failure.class} ${failure.reason})`,
      { iteration: n, exitCode: result.exitCode, signal: result.signal, elapsedMs: Math.round(result.durationMs), class: failure.class, reason: failure.reason, error: failure.message, retryAfterMs: failure.retryAfterMs ?? null });
    state = {
      ...state, failedIterations: state.failedIterations + 1,
      currentCycle: { ...state.currentCycle!, lastFailure: { kind: 'agent', message: failure.message, tail: result.outputTail } },
    };
    return { state: close(state, { ...record, outcome: 'agent_failed' }) };
  }
  state = { ...state, successfulIterations: state.successfulIterations + 1 };

  // Defensive validation of the report (seed 004).
  const decision = decideContinuation(result.report, { workRemaining: cycle.lastWorkRemaining, sameCount: cycle.sameWorkRemainingCount });
  state = { ...state, currentCycle: { ...state.currentCycle!, lastWorkRemaining: decision.workRemaining, sameWorkRemainingCount: decision.sameWorkRemainingCount } };
  record.workRemaining = decision.workRemaining;
  let violation: Record<string, unknown> | undefined;
  if (decision.contractViolation) {
    const { workRemaining } = decision.contractViolation;
    violation = {
      timestamp: rfc3339(clock.now()), type: 'validation_error', iteration: n, issueIds: cycle.issueIds,
      message: 'Agent contract violation: requires_continuation=false with work_remaining non-empty',
      details: { work_remaining: workRemaining, requires_continuation: false, override: settings.strict ? 'halt' : 'forced_true' },
    };
    if (settings.strict) {
      logger.error('validation.violation', `Iteration ${n}: the agent reported requires_continuation: false with work_remaining "${workRemaining}"; --strict halts.`);
      return {
        state: close(state, { ...record, outcome: 'contract_violation' }), violation,
        halt: { reason: 'contract_violation', message: `Agent contract violation at iteration ${n}: requires_continuation=false with work_remaining "${workRemaining}" (--strict)` },
      };
    }
    logger.warn('validation.override', `Iteration ${n}: the agent reported requires_continuation: false with work_remaining "${workRemaining}"; overriding to continue (logged to errors.jsonl).`, { iteration: n, workRemaining });
  }
  if (decision.stuck) {
    logger.error('cycle.stuck', `Iteration ${n}: stuck on ${describeTargets(cycle)}: ${decision.stuck}.`);
    return {
      state: close(state, { ...record, outcome: 'stuck' }), violation,
      halt: { reason: 'stuck', message: `Stuck on ${cycle.issueIds.join(', ')} at iteration ${n}: ${decision.stuck}` },
    };
  }

  // Completion check: the targets are closed in the source, or the report says no work remains.
  const closed = await Promise.all(cycle.issueIds.map(async (id) => { const i = await source.get(id); return i ? isClosed(i) : false; }));
  if (!isCycleComplete(closed, decision.reportSaysDone)) {
    logger.info('iteration.end', `[iteration ${n}/${settings.maxIterations}] agent ok in ${seconds(result.durationMs)}; work remains${decision.workRemaining ? `: ${decision.workRemaining}` : ''}.`, { iteration: n, outcome: 'continuing' });
    return { state: close(state, record), violation };
  }

  // The test gate.
  logger.info('tests.start', `[iteration ${n}/${settings.maxIterations}] the agent says the work is done; running the tests: ${settings.testCommand}`, { iteration: n, command: settings.testCommand });
  const tests = await deps.runTests(settings.testCommand, deps.signal);
  if (deps.signal?.aborted) return { state: before, interrupted: true };
  record.tests = { passed: tests.passed, exitCode: tests.exitCode, durationMs: Math.round(tests.durationMs) };
  state = { ...state, testsPassed: tests.passed };
  if (!tests.passed) {
    logger.warn('tests.failed', `[iteration ${n}/${settings.maxIterations}] tests failed (exit code ${tests.exitCode}, ${seconds(tests.durationMs)}); the next iteration gets the failure as context.`, { iteration: n, exitCode: tests.exitCode });
    state = {
      ...state, testFailures: state.testFailures + 1,
      currentCycle: { ...state.currentCycle!, lastFailure: { kind: 'tests', message: `\`${settings.testCommand}\` exited with code ${tests.exitCode}`, tail: tests.tail } },
    };
    return { state: close(state, { ...record, outcome: 'tests_failed' }), violation };
  }

  // Success: close what the agent did not, commit, merge, next cycle.
  for (const [i, id] of cycle.issueIds.entries()) {
    if (!closed[i]) await source.close(id, `agent-loop: tests passed at iteration ${n}`);
  }
  await finishCycleInGit(deps, state, cycle);
  logger.info('cycle.complete', `[iteration ${n}/${settings.maxIterations}] ${describeTargets(cycle)} done: tests passed in ${seconds(tests.durationMs)}; closed ${cycle.issueIds.join(', ')}.`, { iteration: n, issueIds: cycle.issueIds });
  state = {
    ...state, currentCycle: undefined, consecutiveEscalations: 0,
    issuesClosed: [...state.issuesClosed, ...cycle.issueIds.filter((id) => !state.issuesClosed.includes(id))],
    completedIterations: [...state.completedIterations, n],
  };
  return { state: close(state, { ...record, outcome: 'complete' }), violation };
}

async function finishCycleInGit(deps: SliceDeps, state: LoopState, cycle: CycleState): Promise<void> {
  const { git, settings, logger } = deps;
  if (!git || !cycle.branch || !state.baseBranch) return;
  const subject = `agent-loop: ${cycle.issueIds.join(' ')} ${cycle.titles.join('; ')}`.slice(0, 120);
  const committed = await git.commitAll(subject);
  await git.checkout(state.baseBranch);
  if (settings.onSuccess === 'merge') {
    if (committed || (await git.branchExists(cycle.branch))) {
      await git.merge(cycle.branch, `Merge ${cycle.branch}: ${subject}`);
      await git.deleteBranch(cycle.branch);
    }
    logger.info('git.merged', `Merged ${cycle.branch} into ${state.baseBranch}${committed ? '' : ' (the agent changed no files)'}.`);
  } else {
    logger.info('git.branch', `Left the work on branch ${cycle.branch}; ${state.baseBranch} is checked out again.`);
  }
}

async function selectTargets(source: IssueSource, state: LoopState, batch: boolean): Promise<Issue[]> {
  // Issues closed in this run stay done even when the base branch's issue file still lists them
  // open (--on-success branch leaves the closing commit on the cycle's branch).
  const ready = (await source.ready()).filter((i) => !state.issuesEscalated.includes(i.id) && !state.issuesClosed.includes(i.id));
  return batch ? ready : ready.slice(0, 1);
}

async function openCheckpoint(deps: SliceDeps): Promise<{ id: string; state: LoopState; resumed: boolean }> {
  const { settings, store, logger } = deps;
  const fresh = () => ({ id: newCheckpointId(), state: initialLoopState(settings.maxIterations), resumed: false });
  if (settings.fresh) return fresh();
  if (settings.resume) {
    let cp;
    try {
      cp = await store.load(settings.resume);
    } catch (error) {
      throw new StartError(`--resume ${settings.resume}: ${(error as Error).message}`);
    }
    const loop = parseLoopState(cp.state);
    if (typeof loop === 'string') throw new StartError(`--resume ${settings.resume}: ${loop}. Start over with --fresh.`);
    return { id: cp.id, state: loop, resumed: true };
  }
  const listing = await store.list();
  for (const bad of listing.invalid) logger.warn('checkpoint.invalid', `Skipped checkpoint ${bad.path}: ${bad.reason}`, { path: bad.path, reason: bad.reason });
  const candidates = [...listing.checkpoints];
  for (;;) {
    const cp = pickResumable(candidates);
    if (!cp) return fresh();
    const loop = parseLoopState(cp.state);
    if (typeof loop !== 'string') return { id: cp.id, state: loop, resumed: true };
    logger.warn('checkpoint.invalid', `Skipped checkpoint ${path.join(store.dir, `${cp.id}.json`)}: ${loop}`);
    candidates.splice(candidates.indexOf(cp), 1);
  }
}

async function appendError(deps: SliceDeps, entry: Record<string, unknown>): Promise<void> {
  await fs.mkdir(deps.stateDir, { recursive: true });
  await fs.appendFile(path.join(deps.stateDir, 'errors.jsonl'), `${JSON.stringify(entry)}\n`);
}

function describeTargets(cycle: Pick<CycleState, 'issueIds' | 'titles'>): string {
  return cycle.issueIds.map((id, i) => `${id} "${cycle.titles[i] ?? ''}"`).join(', ');
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

export type { AgentResult };
