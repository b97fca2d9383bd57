/**
 * How run --parallel ends (src/app/parallel.ts): a halt recorded and told through the one halt
 * pipeline (src/loop/effects/notices.ts: halt.md, the Discord post through the outbox), the
 * checkpoint written, the result logged and returned as an exit code.
 */
import path from 'node:path';
import { buildDiagnostic } from '../core/diagnostic.js';
import { buildResult, exitCodeFor, summaryLine } from '../core/result.js';
import { HALT_FILE, haltThroughOutbox } from '../loop/effects/notices.js';
import { stateFiles } from '../persist/stateFiles.js';
import { renderMarkdown } from '../report/diagnostic.js';
import { type Coordinator, type EndStatus, saveLoop } from './coordinator.js';
import type { WaveEnd } from './waveRun.js';

export async function finishRun(c: Coordinator, end: WaveEnd): Promise<number> {
  const { options, io } = c;
  const status: EndStatus = end.kind === 'halted' ? 'halted' : end.kind === 'complete' ? 'complete' : 'continuing';
  const diagnostic = end.kind === 'halted' ? await recordHalt(c, end) : null;
  await saveLoop(c, status, end.kind === 'halted' ? [end.halt.message] : []);
  const result = buildResult({
    status,
    state: c.loop,
    start: c.start,
    checkpointId: c.checkpointId,
    durationMs: io.clock.now().getTime() - c.startedAt,
    interrupted: io.signal?.aborted ?? false,
    diagnostic,
  });
  c.logger.result(
    { ...result, parallel: options.parallel, waves: c.loop.waves },
    `${summaryLine(result)}\n  waves ${c.loop.waves} (--parallel ${options.parallel})`,
  );
  await io.onResult?.(result);
  return exitCodeFor(result);
}

/** The run's halt in the loop, halt.md and Discord: the diagnostic as written. */
async function recordHalt(c: Coordinator, end: Extract<WaveEnd, { kind: 'halted' }>): Promise<string> {
  const { options, io } = c;
  const { halt, haltedJob, advice } = end;
  const keptNotes = end.keptNotes ?? [];
  const { issueId: _job, ...runHalt } = halt;
  c.loop = { ...c.loop, halt: { ...runHalt, at: io.clock.now().toISOString() } };
  // One job's own halt is diagnosed from that job's state (its cycle, its output), not the run's sums.
  const built = buildDiagnostic({
    ...runHalt,
    state: haltedJob?.loop ?? c.loop,
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
  const told = await haltThroughOutbox(c.loop, built, markdown, {
    files: stateFiles(io.stateDir, c.redact),
    save: (recorded) => saveLoop(c, 'halted', errors, recorded),
    ...(c.notify ? { notify: c.notify } : {}),
    now: io.clock.now(),
  });
  c.loop = told.loop;
  const kept = keptNotes.length ? ` ${keptNotes.join('. ')}.` : '';
  c.logger.error(
    'run.halted',
    `HALT (${halt.reason}): ${halt.message.replace(/\.$/, '')}.${kept} The diagnostic is in ${path.join(io.stateDir, HALT_FILE)}.`,
    { haltReason: halt.reason },
  );
  return told.written;
}
