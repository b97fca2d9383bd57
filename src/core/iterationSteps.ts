/**
 * The workflow's iteration as the core steps it (src/core/iteration.ts): the cycle's baseline folded
 * in and judged, the sub-machine started, its events routed to it, its outcome folded in when it
 * finishes. Part of the core (src/core/slice.ts).
 */
import { baselineHalt, foldBaseline } from './baseline.js';
import { toIterated } from './fold.js';
import { type IterationEffect, type IterationEvent, untilFinish } from './iteration.js';
import type { SuiteRun } from '../verdict/results.js';
import { type Effect, type Event } from './events.js';
import { type CoreConfig, type SliceModel, type Step } from './model.js';
import { save, finish } from './finish.js';
import { iterationFinished } from './outcome.js';

/** The workflow's iteration begins (its sub-machine, CoreConfig.machine), after `before` (the baseline kept, the checkpoint saved). */
export function startIteration(
  model: SliceModel,
  before: Effect[],
  baseline: SuiteRun | undefined,
  config: CoreConfig,
): Step {
  const started = config.machine.start(model.loop, baseline);
  return subStep({ ...model, iteration: { before: model.loop, sub: started.sub } }, started.effects, before, config);
}

/** One of the iteration's events, stepped by its sub-machine. */
export function iterationStepped(model: SliceModel, event: IterationEvent, config: CoreConfig): Step {
  const held = model.iteration;
  if (!held) throw new Error(`agent-loop: ${event.type} with no iteration in progress`);
  const stepped = config.machine.step(held.sub, event);
  const now = 'now' in event ? event.now : model.now;
  return subStep({ ...model, iteration: { ...held, sub: stepped.sub } }, stepped.effects, [], config, now);
}

/** The sub-machine's effects asked as the core's; once it finishes, its outcome folded in as any iteration's. */
export function subStep(
  model: SliceModel,
  effects: IterationEffect[],
  before: Effect[],
  config: CoreConfig,
  now = model.now,
): Step {
  const split = untilFinish(effects);
  const held = model.iteration;
  if (!split.outcome || !held) return { model, effects: [...before, ...split.effects] };
  const done = iterationFinished(
    { ...model, iteration: undefined },
    toIterated(held.before, split.outcome),
    now,
    config,
  );
  return { model: done.model, effects: [...before, ...split.effects, ...done.effects] };
}

/**
 * The cycle's baseline, folded into the loop state and judged: one that gives no verdict halts
 * (`baseline_unreadable`); one run now and sound is kept; then the iteration.
 */
export function baselineRan(
  model: SliceModel,
  event: Extract<Event, { type: 'baselineRan' }>,
  config: CoreConfig,
): Step {
  const delta = event.baseline;
  if (event.interrupted || !delta) return finish(model, config, 'continuing', undefined, true);
  const hadKey = model.loop.currentCycle?.baselineKey !== undefined;
  const halt = baselineHalt(delta, config.settings, config.waveJob === true);
  const loop = foldBaseline(model.loop, delta, halt !== undefined);
  const m = { ...model, loop, cycle: loop.currentCycle };
  if (halt) {
    const cycle = m.loop.currentCycle;
    // No agent has worked on the cycle (issue 40): it is given up, the base branch checked out
    // again, so that the fix the halt names (the suite, on the base branch) is made where it counts,
    // and the run that resumes opens the cycle afresh from the base as it is then.
    if (cycle && m.loop.iteration < cycle.startedAtIteration)
      return finish(
        { ...m, cycle: undefined, loop: { ...m.loop, currentCycle: undefined } },
        config,
        'halted',
        halt,
        false,
        cycle.branch ? [{ kind: 'leaveCycle', branch: cycle.branch }] : [],
        [],
        cycle,
      );
    return finish(m, config, 'halted', halt);
  }
  const keep: Effect[] =
    delta.source === 'ran' && delta.run
      ? [{ kind: 'keepBaseline', key: delta.key, run: delta.run, ownTree: delta.ownTree === true }]
      : [];
  return startIteration(m, [...keep, ...(hadKey ? [] : [save(m)])], delta.run, config);
}
