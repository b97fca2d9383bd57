/** The cycle's work: its baseline (the suite on its starting tree), kept when the core says so, and one iteration of the workflow. */
import { toIterated } from '../../core/fold.js';
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

export const iterate: Handler<'iterate'> = async (effect, ctx) => {
  const { deps, redact } = ctx;
  const before = ctx.run.model.loop;
  if (!deps.workflow.iterate) throw new Error(`agent-loop: the ${deps.workflow.name} workflow has no iterate`);
  const outcome = await deps.workflow.iterate(deps, before, effect.baseline);
  // The reason may quote the agent's stderr; it goes into the note and a commit message.
  const masked = outcome.escalate
    ? { ...outcome, escalate: { ...outcome.escalate, reason: redact(outcome.escalate.reason) } }
    : outcome;
  return { type: 'iterated', outcome: toIterated(before, masked), now: deps.clock.now().getTime() };
};
