/**
 * Fan-out (issue 16), the plan job (`fan-out: plan`): the loop's checkpoint restored (read only),
 * the ready issues read once, up to `parallel` of them picked (src/core/wavePlan.ts: not escalated,
 * not claimed by a live lease, never two that depend on each other, each with its share of the
 * iterations and spend left) and claimed on GitHub before the matrix is output: a work job runs only
 * on an issue this run holds. The claims are race-safe (claimComments.ts): a second run planning at
 * the same moment, or while this wave is in flight, sees the leases and takes other issues or none.
 * The plan publishes nothing: the wave travels to the work and reduce jobs as its outputs, and the
 * claims on GitHub are what other runs see.
 *
 * What the plan decides is the wave machine's (src/core/wave.ts, planning: src/core/wavePlanJob.ts),
 * driven through the one interpreter; its I/O is the handlers' (src/action/planEffects.ts).
 */
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { openCheckpoint } from '../loop/slice.js';
import { loopOutputs } from './summary.js';
import type { FanOutJob, WaveSource } from './fanOutJob.js';
import { loopTotals } from '../core/result.js';
import { initialWaveModel } from '../core/wave.js';
import { driveWave, waveMachineSettings } from '../app/effects/waveContext.js';
import { type PlanContext, planHandlers } from './planEffects.js';

export type { FanOutJob, WaveSource } from './fanOutJob.js';

export async function planJob(job: FanOutJob & { source: WaveSource }): Promise<void> {
  const { core, options, clock, redact, source } = job;
  const store = new FileCheckpointStore(job.stateDir, { clock, redact, terms: 'action' });
  const opened = await openCheckpoint(
    {
      settings: { fresh: options.fresh, resume: options.resume, maxIterations: options.maxIterations, terms: 'action' },
      store,
      clock,
    },
    (_event, message) => core.warning(redact(message)),
  );
  if (opened.sourceState !== undefined) source.importState?.(opened.sourceState);
  const loop = opened.state;
  // The plan runs no agent: this run's counts are 0 until the reduce adds the wave's; the loop's are its totals.
  const c: PlanContext = {
    job,
    opened,
    counts: { iterations: '0', 'cost-usd': (0).toFixed(4), ...loopOutputs(loopTotals(loop)) },
  };
  const settings = waveMachineSettings(options, opened.id);
  const planning = { resumeHalted: options.resumeHalted, won: [], lost: [], round: 0 };
  const model = { ...initialWaveModel(loop, settings), planning };
  await driveWave(planHandlers, c, model, { type: 'started' }, () => c.done);
}
