/**
 * One agent turn, the same for every workflow (implement, tdd): the prompt written to the state
 * directory, the agent run (resuming the cycle's session with --agent-session continue), the old
 * iteration logs pruned, the delay, the iteration's record and counters, the usage logged, and
 * the lane checked before anything judges the work. What the turn's result means is each
 * workflow's business.
 */
import path from 'node:path';
import { type Terms, surface } from '../config/surface.js';
import { LOGS_KEPT, logFileFor, pruneIterationLogs } from '../agents/streamLog.js';
import { cappedEcho } from '../report/echo.js';
import type { AgentFailure, AgentResult, AgentRunRequest } from '../agents/types.js';
import { type FailureDecision, decideFailure, environmentAdvice } from '../failure/policy.js';
import { rfc3339 } from '../util/clock.js';
import type { Halt } from '../core/events.js';
import type { OpenRecord } from '../issues/types.js';
import { type TrustedFile, untrustedMessage } from '../issues/trustedIssues.js';
import type { StateFiles } from '../persist/stateFiles.js';
import { type SliceDeps, filesOf } from './deps.js';
import type { CycleState, IterationRecord, LoopState } from '../core/state.js';
import { cycleInFlight } from '../core/inFlight.js';

export interface Turn {
  result: AgentResult;
  /** The iteration's record so far (outcome `continuing`); the workflow sets the outcome. */
  record: IterationRecord;
  /** The state with the iteration counted, its spend added and the session kept (when it succeeded). */
  state: LoopState;
  started: Date;
  /** The halt when the agent moved the repository behind the engine's back: its work is not to be judged. */
  moved?: Halt;
}

/** A turn as a workflow's step machine observes it: its `agentRan` event, `now` when it ended. */
export interface AgentRan extends Pick<Turn, 'result' | 'record' | 'state' | 'moved'> {
  type: 'agentRan';
  now: number;
}

const OUTPUT_KEPT = 2000;

/** What one agent run needs from the engine, whichever workflow asks for it (the loop's or the planning pipeline's). */
export interface TurnPorts {
  agent: SliceDeps['agent'];
  clock: SliceDeps['clock'];
  logger: SliceDeps['logger'];
  cwd: string;
  stateDir: string;
  files: StateFiles;
  signal?: AbortSignal;
}

export interface TurnRequest {
  prompt: string;
  /** AGENT_LOOP_ITERATION for the agent, and the number of its log file. */
  iteration: number;
  issueIds: string[];
  timeoutMs: number;
  resumeSessionId?: string;
  /** Keep the agent's output as logs/iteration-<iteration>.ndjson or .log (the older ones pruned). */
  keepLog: boolean;
  /** --workflow tdd: the phase and the test this run is asked for (a command agent's environment). */
  tdd?: AgentRunRequest['tdd'];
}

/**
 * The logs' housekeeping never stops the run, as a log that cannot be written never stops the agent
 * (src/agents/streamLog.ts): logs/ made a file, or a directory at a log's name, makes the removal
 * throw (ENOTDIR, EISDIR), and after the run that would throw away the run that just happened.
 */
const bestEffort = (done: Promise<void>): Promise<void> => done.catch(() => undefined);

/**
 * --iteration-delay as the least time between two agent invocations (seed 001 REQ_019.2: "sleeps for
 * 10 seconds between Claude invocations"): what is left of it since the previous run ended, its test
 * gate and any rate-limit wait counted. None before the run's first invocation (no earlier one, or one
 * long past), none after the last (the completion check and the run's end wait for nothing). Pure.
 */
export function pauseBeforeRun(
  delayMs: number,
  previous: Pick<IterationRecord, 'startedAt' | 'agent'> | undefined,
  now: number,
): number {
  if (delayMs <= 0 || !previous) return 0;
  const ended = Date.parse(previous.startedAt) + previous.agent.durationMs;
  if (!Number.isFinite(ended)) return delayMs;
  return Math.min(delayMs, Math.max(0, delayMs - (now - ended)));
}

/**
 * The agent run itself, the same for every workflow: the prompt written to the state directory,
 * the agent run with its timeout, output streamed to the log, the old iteration logs pruned.
 * undefined when the run was interrupted.
 */
export async function runTurn(ports: TurnPorts, req: TurnRequest): Promise<AgentResult | undefined> {
  const promptFile = path.join(ports.stateDir, 'prompt.md');
  // A copy for the agent and for a person, rewritten every run.
  await ports.files.writeScratch(promptFile, req.prompt);
  const logDir = path.join(ports.stateDir, 'logs');
  const logBase = path.join(logDir, `iteration-${req.iteration}`);
  // A log of this number is an earlier run's (a --fresh run counts from 1 again): this run's own is
  // made only when its agent prints (src/agents/streamLog.ts), so the earlier one must not stand for it.
  if (req.keepLog)
    for (const format of ['ndjson', 'text'] as const)
      await bestEffort(ports.files.remove(logFileFor(logBase, format) as string));
  const result = await ports.agent.run({
    prompt: req.prompt,
    iteration: req.iteration,
    issueIds: req.issueIds,
    cwd: ports.cwd,
    promptFile,
    timeoutMs: req.timeoutMs,
    signal: ports.signal,
    onLine: cappedEcho(ports.logger, 'agent', req.keepLog ? `${logBase}.*` : undefined),
    ...(req.keepLog ? { logBase } : {}),
    resumeSessionId: req.resumeSessionId,
    ...(req.tdd ? { tdd: req.tdd } : {}),
  });
  // After the run, not before it: nothing but the next agent run waits on it then.
  if (req.keepLog) await bestEffort(pruneIterationLogs(ports.files, logDir, LOGS_KEPT - 1, req.iteration));
  if (ports.signal?.aborted) return undefined;
  return result;
}

/** Runs the agent once on `prompt` for the current cycle; undefined when the run was interrupted. */
export async function agentTurn(
  deps: SliceDeps,
  before: LoopState,
  prompt: string,
  what: string,
  tdd?: AgentRunRequest['tdd'],
): Promise<Turn | undefined> {
  const { settings, clock } = deps;
  const cycle = cycleInFlight(before);
  const n = before.iteration + 1;
  // --iteration-delay: between two invocations, before the next, never after the last.
  const pauseMs = pauseBeforeRun(settings.iterationDelaySeconds * 1000, before.history.at(-1), clock.now().getTime());
  if (pauseMs > 0) {
    await clock.sleep(pauseMs, deps.signal);
    if (deps.signal?.aborted) return undefined;
  }
  const started = clock.now();
  // Only the engine closes an issue, after its verdict: what the agent closes or removes outside its cycle is put back.
  const open = await openRecords(deps);
  // Issue 42: only a person's issues are worked; what the agent adds, rewrites or removes is put back after it.
  const snapshot = await deps.source.snapshot?.().catch(() => undefined);
  const result = await runTurn(
    { ...deps, files: filesOf(deps) },
    {
      prompt,
      iteration: n,
      issueIds: cycle.issueIds,
      timeoutMs: settings.agentTimeoutMinutes * 60_000,
      resumeSessionId: settings.agentSession === 'continue' ? cycle.sessionId : undefined,
      keepLog: true,
      ...(tdd ? { tdd } : {}),
    },
  );
  // Also when the run was interrupted (an agent can signal agent-loop itself): what it closed is put back before the stop.
  if (open) await reinstateOthers(deps, open, cycle.issueIds, n);
  if (snapshot) await keepTrusted(deps, snapshot, cycle.issueIds, n);
  if (!result) return undefined;
  const after = turnState(before, started, result);
  const state = after.state;
  logUsage(deps, n, result, state);
  // The agent stays in its lane: work done on a branch it switched to (or after it moved the base) is not judged.
  const moved = await deps.laneMoved?.(`judge ${what}`);
  return {
    result,
    record: after.record,
    state,
    started,
    ...(moved ? { moved: { reason: 'repository_moved', message: `REPOSITORY MOVED: ${moved}` } } : {}),
  };
}

/** The source's open issues before the agent runs; undefined when it cannot say (then nothing is put back). */
async function openRecords(deps: SliceDeps): Promise<ReadonlyMap<string, OpenRecord> | undefined> {
  if (!deps.source.reinstate) return undefined;
  try {
    return await deps.source.openRecords?.();
  } catch {
    return undefined; // An unreadable issues file is reported where the issues are read.
  }
}

/**
 * Puts back, as they were before the agent ran, the issues outside `cycleIds` that it closed, removed
 * or otherwise kept off the ready list (it can edit a beads file in its tree; a lying agent closes the
 * issues it did not do, and the run would end "complete" without ever working them). Said in the
 * log, issue by issue.
 */
async function reinstateOthers(
  deps: SliceDeps,
  before: ReadonlyMap<string, OpenRecord>,
  cycleIds: readonly string[],
  n: number,
): Promise<void> {
  const { source, logger } = deps;
  let now: ReadonlyMap<string, OpenRecord> | undefined;
  try {
    now = await source.openRecords?.();
  } catch {
    return; // The agent left the file unreadable: the next read of the issues says so and stops the run.
  }
  if (!now) return;
  for (const [id, open] of before) {
    // Gone, closed, given another status (tombstone, blocked…) or other dependencies: off the ready list either way.
    if (cycleIds.includes(id) || now.get(id)?.standing === open.standing) continue;
    try {
      await source.reinstate?.(id, open.record);
      logger.warn(
        'issue.reinstated',
        `[iteration ${n}] The agent closed, removed, re-statused or re-linked issue ${id}, which is not this ` +
          `cycle's (${cycleIds.join(', ')}): put back as it was. Only agent-loop closes an issue, once its ` +
          `own work passes the tests.`,
        { iteration: n, issueId: id, cycle: [...cycleIds] },
      );
    } catch (error) {
      logger.warn(
        'issue.reinstate_failed',
        `[iteration ${n}] The agent closed or removed issue ${id}, which is not this cycle's, and it could ` +
          `not be put back: ${(error as Error).message}. Check ${source.description} and reopen ${id} by hand.`,
        { iteration: n, issueId: id },
      );
    }
  }
}

/**
 * Issue 42: the issues file put back as it was before the agent ran, but for what the agent may say
 * of its cycle's own issues (src/issues/trustedIssues.ts): an issue it added is removed and never
 * worked, one it rewrote or removed is put back (so the landing finds its issue), each told in a
 * warning (`issue.untrusted`) that names it and keeps the agent's line for a person.
 */
async function keepTrusted(deps: SliceDeps, before: Buffer, cycleIds: readonly string[], n: number): Promise<void> {
  const { source, logger } = deps;
  let trusted: TrustedFile | undefined;
  try {
    trusted = await source.keepTrusted?.(before, cycleIds);
  } catch (error) {
    logger.warn(
      'issue.untrusted_failed',
      `[iteration ${n}] The issues the agent changed in ${source.description} could not be checked or put back: ` +
        `${(error as Error).message}. Check the file (git diff) before its work lands.`,
      { iteration: n },
    );
    return;
  }
  if (!trusted) return;
  for (const u of trusted.untrusted)
    logger.warn('issue.untrusted', `[iteration ${n}] ${untrustedMessage(u, source.description)}`, {
      iteration: n,
      issueId: u.id,
      what: u.what,
      cycle: [...cycleIds],
    });
  if (trusted.garbled > 0)
    logger.warn(
      'issue.untrusted',
      `[iteration ${n}] The agent left ${trusted.garbled} malformed line(s) in ${source.description}: removed, ` +
        `the file put back as it was before the agent ran.`,
      { iteration: n, garbled: trusted.garbled, cycle: [...cycleIds] },
    );
}

function logUsage(deps: SliceDeps, n: number, result: AgentResult, state: LoopState): void {
  if (result.costUsd === undefined && !result.tokens && result.turns === undefined) return;
  const parts = [
    result.turns !== undefined ? `${result.turns} turns` : undefined,
    result.tokens ? `${result.tokens.input} tokens in, ${result.tokens.output} out` : undefined,
    result.costUsd !== undefined ? `$${result.costUsd.toFixed(4)} (run total $${state.costUsd.toFixed(4)})` : undefined,
  ].filter(Boolean);
  deps.logger.info(
    'agent.usage',
    `[iteration ${n}/${deps.settings.maxIterations}] ${deps.agent.displayName}: ${parts.join(', ')}`,
    {
      iteration: n,
      costUsd: result.costUsd ?? null,
      totalCostUsd: state.costUsd,
      turns: result.turns ?? null,
      tokens: result.tokens ?? null,
      totalTokens: state.tokens,
      sessionId: result.sessionId ?? null,
    },
  );
}

/**
 * The policy's answer to the turn's failure (src/failure/policy.ts), with its counters and the
 * failed iteration counted in the state. Every workflow acts on the answer its own way.
 */
export function afterFailure(state: LoopState, failure: AgentFailure): { state: LoopState; decision: FailureDecision } {
  const cycle = cycleInFlight(state);
  const decision = decideFailure(failure, {
    rateLimitAttempts: cycle.rateLimitAttempts,
    timeoutRetries: cycle.timeoutRetries,
    environmentFailures: state.environmentFailures,
  });
  const { rateLimitAttempts, timeoutRetries, environmentFailures } = decision.counters;
  return {
    state: {
      ...state,
      failedIterations: state.failedIterations + 1,
      environmentFailures,
      currentCycle: {
        ...cycle,
        rateLimitAttempts,
        timeoutRetries,
        // With --agent-session continue, the next attempt resumes the session unless the row says fresh.
        sessionId: decision.freshSession ? undefined : cycle.sessionId,
      },
    },
    decision,
  };
}

/** The halt when the environment keeps failing the agent (auth, billing, not installed): no issue is to blame. */
export function agentUnavailable(attempts: number, failure: AgentFailure, terms?: Terms): Halt {
  return {
    reason: 'agent_unavailable',
    message: `AGENT UNAVAILABLE: ${attempts} environment failures in a row (${failure.reason}): ${failure.message}`,
    advice: environmentAdvice(failure.reason, surface(terms)),
  };
}

/**
 * The turn's record and the loop state once the agent has run (afterAgentRun), with the session
 * to resume kept: a failed run's own session is not one to resume, the last good one is kept (and
 * afterFailure drops it too when the policy's row says freshSession). Pure.
 */
export function turnState(
  before: LoopState,
  started: Date,
  result: AgentResult,
): { record: IterationRecord; state: LoopState } {
  const cycle = cycleInFlight(before);
  const after = afterAgentRun(before, cycle, before.iteration + 1, started, result);
  return {
    record: after.record,
    state: {
      ...after.state,
      currentCycle: { ...cycleInFlight(after.state), sessionId: result.ok ? result.sessionId : cycle.sessionId },
    },
  };
}

/** The iteration's record and the loop state once the agent has run: counters, spend, output tail. Pure. */
export function afterAgentRun(
  before: LoopState,
  cycle: CycleState,
  n: number,
  started: Date,
  result: AgentResult,
): { record: IterationRecord; state: LoopState } {
  const record: IterationRecord = {
    n,
    issueIds: cycle.issueIds,
    startedAt: rfc3339(started),
    durationMs: 0,
    outcome: 'continuing',
    agent: {
      ok: result.ok,
      exitCode: result.exitCode,
      signal: result.signal,
      durationMs: Math.round(result.durationMs),
      ...(result.failure ? { failure: result.failure } : {}),
      ...(result.costUsd !== undefined ? { costUsd: result.costUsd } : {}),
      ...(result.turns !== undefined ? { turns: result.turns } : {}),
      ...(result.tokens ? { tokens: result.tokens } : {}),
    },
  };
  const state: LoopState = {
    ...before,
    iteration: n,
    costUsd: before.costUsd + (result.costUsd ?? 0),
    tokens: {
      input: before.tokens.input + (result.tokens?.input ?? 0),
      output: before.tokens.output + (result.tokens?.output ?? 0),
    },
    lastAgentOutput: result.outputTail.slice(-OUTPUT_KEPT),
    currentCycle: { ...cycle, iterations: cycle.iterations + 1 },
  };
  return { record, state };
}
