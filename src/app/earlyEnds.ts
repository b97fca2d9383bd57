/**
 * Runs that end before they start: an earlier halt still stands, there is nothing to do, or the
 * issues could not be listed. Each is said in the log and the result, and nothing else is done: no
 * agent, no checkpoint written, no lock taken.
 */
import type { Options } from '../config/options.js';
import { owedLabels } from '../core/haltGate.js';
import { buildResult, exitCodeFor, summaryLine } from '../core/result.js';
import { describeResumeWay, resumeWays } from '../core/resumeWays.js';
import type { Logger } from '../report/logger.js';
import { createRedactor } from '../secrets/redact.js';
import type { HaltCheck } from './haltCheck.js';
import type { IdleCheck } from './idleCheck.js';
import { type RunIO, runLogger } from './runPorts.js';

/**
 * The halt of an earlier run still stands: said in the log and the result (status halted, with
 * `standing`), and nothing else done: no agent, no checkpoint written, no Discord post. Exit 1 (the
 * action turns it into a warning and a green step).
 */
export async function standingHalt(
  options: Options,
  io: RunIO,
  halt: Extract<HaltCheck, { kind: 'stands' }>,
  startedAt: number,
): Promise<number> {
  const redact = createRedactor(io.secrets);
  const logger = runLogger(options, io, redact, false);
  const { loop } = halt;
  const stood = loop.halt!;
  const ways = resumeWays(stood).map((w) => describeResumeWay(w, io.terms ?? 'cli', loop.baseBranch));
  const owed = owedLabels(loop);
  const said =
    `Still halted since ${stood.at ?? 'an earlier run'} (${stood.reason}): ${stood.message}. ` +
    `Nothing was run. To resume: ${ways.join('; ')}.${owed ? ` ${owed}` : ''}`;
  logger.warn('run.still_halted', said, {
    haltReason: stood.reason,
    since: stood.at ?? null,
    checkpointId: halt.checkpointId,
  });
  return endedEarly(io, logger, startedAt, {
    status: 'halted',
    state: loop,
    checkpointId: halt.checkpointId,
    standing: { since: stood.at ?? null, advice: stood.advice ?? null, resume: resumeWays(stood) },
  });
}

/**
 * Nothing to do (src/core/idle.ts): said in the log and the result (status complete, `idle`, the
 * newest checkpoint's id and counters), and nothing else done: no checkpoint written, no agent
 * installed or prepared, no lock taken. Exit 0.
 */
export async function idleRun(
  io: RunIO,
  logger: Logger,
  idle: Extract<IdleCheck, { kind: 'idle' }>,
  where: string,
  startedAt: number,
): Promise<number> {
  const { loop, checkpointId } = idle;
  const left = checkpointId
    ? `Checkpoint ${checkpointId} is left as it was`
    : 'There is no checkpoint yet, and none is written';
  const said = `Nothing to do: no ready issue in ${where}, no cycle in flight, nothing waiting to land. ${left}; no agent was prepared.`;
  logger.info('run.idle', said, { checkpointId: checkpointId || null });
  return endedEarly(io, logger, startedAt, { status: 'complete', state: loop, checkpointId, idle: true });
}

/**
 * The issues could not be listed before the run started (src/app/idleCheck.ts): said in the log and
 * the result (status deferred, what failed), and nothing else done: no checkpoint written, no agent
 * installed or prepared, no lock taken. Exit 75 (the action: green, with a warning).
 */
export async function deferredRun(
  io: RunIO,
  logger: Logger,
  deferred: Extract<IdleCheck, { kind: 'deferred' }>,
  startedAt: number,
): Promise<number> {
  const { loop, checkpointId, failed } = deferred;
  const redact = createRedactor(io.secrets);
  const kept = checkpointId ? ` (checkpoint ${checkpointId} is left as it was)` : '';
  const said =
    `Deferred: ${failed.message.replace(/\.$/, '')}. No issue was started and nothing was written${kept}; ` +
    'the next run lists the issues again.';
  logger.warn('run.deferred', said, { what: failed.what, status: failed.status, checkpointId: checkpointId || null });
  const deferredAs = { ...failed, message: redact(failed.message) };
  return endedEarly(io, logger, startedAt, {
    status: 'deferred',
    state: loop,
    checkpointId,
    deferred: deferredAs,
    unchanged: true,
  });
}

/** A run that ended before it started: its result (counted from the loop as it stands: nothing added) logged and handed over. */
async function endedEarly(
  io: RunIO,
  logger: Logger,
  startedAt: number,
  end: Omit<Parameters<typeof buildResult>[0], 'start' | 'durationMs' | 'interrupted'>,
): Promise<number> {
  const result = buildResult({
    ...end,
    start: end.state,
    durationMs: io.clock.now().getTime() - startedAt,
    interrupted: false,
  });
  logger.result(result, summaryLine(result));
  await io.onResult?.(result);
  return exitCodeFor(result);
}
