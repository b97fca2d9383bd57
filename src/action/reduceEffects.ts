/**
 * The action's reduce job as a driver of the wave machine (src/core/wave.ts, from `jobsReported`):
 * its handlers, one per effect the machine asks of it. The coordinator's (src/app/effects/wave*.ts)
 * run jobs in worktrees and land them; here the matrix jobs have run and pushed their own work, so
 * the machine is told what they left and the handlers write the loop's checkpoint, tell the halt,
 * hand the issues over and report.
 */
import { buildDiagnostic } from '../core/diagnostic.js';
import type { LoopState } from '../core/state.js';
import type { WaveEffect } from '../core/wave.js';
import type { WaveRow } from '../core/waveReduce.js';
import { renderMarkdown } from '../report/diagnostic.js';
import { haltThroughOutbox, sendLeftPosts, type Notify } from '../loop/effects/notices.js';
import { stateFiles } from '../persist/stateFiles.js';
import { type WaveHandlersOf, coordinatorOnly, notAsked, planOnly } from '../app/effects/waveContext.js';
import { dropLandedBundles } from './outboxHandover.js';
import type { FanOutJob } from './fanOutJob.js';

/** What the reduce's handlers work with. */
export interface ReduceContext {
  job: FanOutJob;
  /** The loop's checkpoint the wave is reduced into. */
  into: string;
  notify?: Notify;
  /** Writes the loop's checkpoint: the slices' `loop`, and the waves reduced into it. */
  save: (loop: LoopState) => Promise<void>;
  /** The unfinished issues' claims released for the next wave (src/action/reduceJob.ts handOver). */
  handOver: (rows: readonly WaveRow[]) => Promise<void>;
  /** The run's outputs, summary and a halt's error annotation. */
  report: (effect: Extract<WaveEffect, { kind: 'finish' }>) => Promise<void>;
  done?: true;
}

export const reduceHandlers: WaveHandlersOf<ReduceContext> = {
  log: async (effect, { job }) => {
    if (effect.level === 'warn') job.core.warning(job.redact(effect.message));
    else job.core.info(job.redact(effect.message));
    return undefined;
  },
  /** The Discord posts a reduce killed before posting left, sent first (as a slice does). */
  sendLeftPosts: async (effect, c) => {
    const loop = await sendLeftPosts(effect.loop, c.notify);
    return { type: 'postsSent', loop, sent: loop !== effect.loop };
  },
  /**
   * The wave's halt through the one halt pipeline (src/loop/effects/notices.ts): halt.md, and the
   * post recorded in the outbox with the halt before it is tried.
   */
  recordHalt: async ({ loop, end }, c) => {
    const { job } = c;
    const diagnostic = buildDiagnostic({
      ...end.halt,
      state: loop,
      checkpointId: c.into,
      maxConsecutiveEscalations: job.options.maxConsecutiveEscalations,
      terms: 'action',
    });
    const out = {
      files: stateFiles(job.stateDir, job.redact),
      save: c.save,
      ...(c.notify ? { notify: c.notify } : {}),
      now: job.clock.now(),
    };
    const told = await haltThroughOutbox(loop, diagnostic, renderMarkdown(diagnostic), out);
    return { type: 'haltRecorded', loop: told.loop, diagnostic: told.written };
  },
  save: async ({ loop }, c) => {
    await c.save(loop);
    return undefined;
  },
  handOver: async ({ loop, rows }, c) => {
    await dropLandedBundles(c.job.stateDir, loop);
    await c.handOver(rows);
    return { type: 'waveCleared', kept: [] };
  },
  finish: async (effect, c) => {
    c.job.core.saveState('state-dir', c.job.stateDir);
    c.job.core.saveState('checkpoint-id', c.into);
    await c.report(effect);
    c.done = true;
    return undefined;
  },
  readReady: notAsked,
  ...coordinatorOnly,
  ...planOnly,
};
