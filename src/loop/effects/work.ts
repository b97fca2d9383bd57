/** The cycle's work: its baseline (the suite on its starting tree) and one iteration of the workflow. */
import { cycleBaseline } from '../baseline.js';
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
    return { type: 'baselineRan', state: loop, ...(seen.run ? { run: seen.run } : {}) };
  const b = await cycleBaseline(ctx.deps, loop, ctx.checkpointId);
  const seenKey = b.state.currentCycle?.baselineKey;
  run.baselineSeen = !b.halt && !b.interrupted && seenKey !== undefined ? { key: seenKey, run: b.run } : undefined;
  return { type: 'baselineRan', ...b };
};

export const iterate: Handler<'iterate'> = async (effect, ctx) => {
  const { deps } = ctx;
  // The reason may quote the agent's stderr or the tests' output: masked where they entered the engine.
  const outcome = await deps.workflow.iterate(deps, ctx.run.model.loop, effect.baseline);
  return { type: 'iterated', outcome, now: deps.clock.now().getTime() };
};
