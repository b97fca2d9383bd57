/** The cycle's baseline (the suite on its starting tree), kept when the core says so. */
import { cycleBaseline, keepBaseline as keep } from '../baseline.js';
import type { Handler } from './context.js';

export const runBaseline: Handler<'runBaseline'> = async (_effect, ctx) => {
  const { run } = ctx;
  const loop = run.model.loop;
  // The suite on the cycle's starting tree (the base tip's, not an earlier cycle's work on the
  // branch), before its first agent run (kept: run once per tree; read from the state directory
  // once per slice).
  const key = loop.currentCycle?.baselineKey;
  const seen = run.baselineSeen;
  if (key !== undefined && seen?.key === key)
    return { type: 'baselineRan', baseline: { key, source: 'seen', ...(seen.run ? { run: seen.run } : {}) } };
  const baseline = await cycleBaseline(ctx.deps, loop, ctx.checkpointId);
  if (!baseline) {
    run.baselineSeen = undefined;
    return { type: 'baselineRan', interrupted: true };
  }
  // A baseline that halts ends the slice: remembering it here changes nothing.
  run.baselineSeen = { key: baseline.key, run: baseline.run };
  return { type: 'baselineRan', baseline };
};

export const keepBaseline: Handler<'keepBaseline'> = async (effect, ctx) => {
  await keep(ctx.deps, effect.key, effect.run, effect.ownTree);
  return undefined;
};
