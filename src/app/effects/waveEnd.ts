/**
 * How run --parallel ends: a halt recorded and told through the one halt pipeline
 * (src/loop/effects/notices.ts: halt.md, the Discord post through the outbox), the checkpoint
 * written, the result logged and returned as an exit code; or no job could start, said as the
 * serial run says it.
 */
import path from 'node:path';
import { buildDiagnostic } from '../../core/diagnostic.js';
import { buildResult, exitCodeFor, summaryLine } from '../../core/result.js';
import { HALT_FILE, haltThroughOutbox } from '../../loop/effects/notices.js';
import { stateFiles } from '../../persist/stateFiles.js';
import { renderMarkdown } from '../../report/diagnostic.js';
import { saveLoop } from '../coordinator.js';
import type { WaveHandler } from './waveContext.js';

/** The run's halt in the loop, halt.md and Discord: the diagnostic as written. */
export const recordHalt: WaveHandler<'recordHalt'> = async ({ loop: found, end }, c) => {
  const { options, io } = c;
  const { halt, haltedJob, advice } = end;
  const keptNotes = end.keptNotes ?? [];
  const { issueId: _job, ...runHalt } = halt;
  const loop = { ...found, halt: { ...runHalt, at: io.clock.now().toISOString() } };
  // One job's own halt is diagnosed from that job's state (its cycle, its output), not the run's sums.
  const built = buildDiagnostic({
    ...runHalt,
    state: haltedJob?.loop ?? loop,
    checkpointId: c.checkpointId,
    maxConsecutiveEscalations: options.maxConsecutiveEscalations,
    ...(advice ? { advice } : {}),
    terms: 'cli',
  });
  const jobs = `This halt is ${halt.issueId}'s job's (its diagnostic above). ${keptNotes.join('. ')}.`;
  const markdown = haltedJob?.kept?.diagnostic
    ? `${haltedJob.kept.diagnostic.trimEnd()}\n\n## run --parallel\n\n${jobs}\n`
    : renderMarkdown(built);
  const errors = [halt.message];
  const told = await haltThroughOutbox(loop, built, markdown, {
    files: stateFiles(io.stateDir, c.redact),
    save: (recorded) => saveLoop(c, 'halted', errors, recorded),
    ...(c.notify ? { notify: c.notify } : {}),
    now: io.clock.now(),
  });
  const kept = keptNotes.length ? ` ${keptNotes.join('. ')}.` : '';
  c.logger.error(
    'run.halted',
    `HALT (${halt.reason}): ${halt.message.replace(/\.$/, '')}.${kept} The diagnostic is in ${path.join(io.stateDir, HALT_FILE)}.`,
    { haltReason: halt.reason },
  );
  return { type: 'haltRecorded', loop: told.loop, diagnostic: told.written };
};

/** The checkpoint written with the run's end, the result logged and told; the exit code set. */
export const finish: WaveHandler<'finish'> = async ({ status, loop, errors, diagnostic }, c) => {
  const { options, io } = c;
  await saveLoop(c, status, errors, loop);
  const result = buildResult({
    status,
    state: loop,
    start: c.start,
    checkpointId: c.checkpointId,
    durationMs: io.clock.now().getTime() - c.startedAt,
    interrupted: io.signal?.aborted ?? false,
    diagnostic,
  });
  c.logger.result(
    { ...result, parallel: options.parallel, waves: loop.waves },
    `${summaryLine(result)}\n  waves ${loop.waves} (--parallel ${options.parallel})`,
  );
  await io.onResult?.(result);
  c.exitCode = exitCodeFor(result);
  return undefined;
};

/** No job could start: the first one's stderr, as the serial run says it (exit 2). */
export const cannotStart: WaveHandler<'cannotStart'> = async ({ stderr }, c) => {
  c.io.stderr(stderr);
  c.exitCode = 2;
  return undefined;
};
