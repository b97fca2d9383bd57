/**
 * A wave of run --parallel landed: its finished jobs merged into the base branch one at a time
 * (src/app/waveLanding.ts landWave), and its escalated issues labelled there.
 */
import { labelEscalations as label } from '../waveLanding.js';
import { landWave } from '../waveLanding.js';
import type { WaveHandler } from './waveContext.js';

export const landJobs: WaveHandler<'landJobs'> = async ({ wave, ends, baseTip, waveNumber }, c) => {
  const { trees, runner, logger, base, issuesFile } = c;
  const { partials, requeued, moved } = await landWave(
    { trees, runner, logger, base, issuesFile, waveNumber, baseTip },
    wave,
    ends,
  );
  return { type: 'landed', partials, requeued, ...(moved ? { moved } : {}) };
};

/** The escalations labelled on the base branch, one commit each; those not labelled said with why. */
export const labelEscalations: WaveHandler<'labelEscalations'> = async ({ escalations }, c) => {
  const why = new Map<string, string>();
  await label(
    { runner: c.runner, logger: c.logger, base: c.base, issuesFile: c.issuesFile },
    c.source,
    escalations,
    why,
  );
  return { type: 'labelled', failed: [...why], at: c.io.clock.now().toISOString() };
};
