/**
 * The wave machine (src/core/wave.ts) for the action's reduce job: the wave its matrix jobs ran
 * (issue 16), started from what they reported. The landing job's outcome first (the loop's
 * unlanded work it took, landed or handed back), then the wave summed into the loop
 * (src/core/waveReduce.ts); a wave with no job carries the halt its plan found, recorded here,
 * once. A halt another run's reduce recorded while this wave ran stands. Then, as the coordinator
 * does: the posts a killed reduce left sent, the halt told through the outbox, the loop saved, the
 * jobs' issues handed over, the run reported. Pure.
 */
import type { LoopState } from './state.js';
import { reduceLanding } from './waveOutbox.js';
import { type WaveReduction, reduceWave, standingHalt } from './waveReduce.js';
import type { Reducing, Stepped, WaveEffect, WaveEvent, WaveModel } from './waveTypes.js';

export const REDUCE_SAID = {
  landingProblem: (problem: string) => `agent-loop reduce: landing job: ${problem}.`,
  standing: (reason: string, wave: string) =>
    `agent-loop reduce: another run halted the loop (${reason}) while wave ${wave} ran: ` +
    'the halt stands, and later runs stay halted until it is resumed.',
};

/** The matrix jobs' results summed into the loop; the posts a killed reduce left are sent first. */
export function reported(model: WaveModel, event: Extract<WaveEvent, { type: 'jobsReported' }>): Stepped {
  const { settings, loop: main } = model;
  const { wave } = event;
  const said: WaveEffect[] = [];
  const landing = wave.landing?.length ? reduceLanding(main, event.landing) : undefined;
  if (landing?.problem)
    said.push({
      kind: 'log',
      level: 'warn',
      event: 'reduce.landing',
      message: REDUCE_SAID.landingProblem(landing.problem),
    });
  const base = landing?.loop ?? main;
  const merged: WaveReduction =
    wave.jobs.length === 0 && !landing
      ? { loop: base, rows: [], ...(wave.halt ? { halt: wave.halt } : {}) }
      : reduceWave({ ...base, halt: undefined }, wave, event.partials, {
          maxIterations: settings.maxIterations,
          ...(settings.maxCostUsd !== undefined ? { maxCostUsd: settings.maxCostUsd } : {}),
          maxConsecutiveEscalations: settings.maxConsecutiveEscalations,
        });
  const halt = landing?.halt ?? merged.halt;
  const reduction: WaveReduction = { loop: merged.loop, rows: merged.rows, ...(halt ? { halt } : {}) };
  // Another run's reduce may have halted the loop while this wave ran: its halt stands (posted there).
  const standing = halt ? undefined : standingHalt(main, wave);
  if (standing)
    said.push({
      kind: 'log',
      level: 'warn',
      event: 'reduce.standing',
      message: REDUCE_SAID.standing(standing.reason, wave.id),
    });
  // The run's halt as the reduction says it, its fix included, less which job it was.
  const runHalt = halt ? withoutJob(halt) : undefined;
  const loop: LoopState = {
    ...reduction.loop,
    maxIterations: settings.maxIterations,
    halt: runHalt ? { ...runHalt, at: event.now } : standing,
  };
  const reducing: Reducing = { main, reduction, ...(landing ? { landing } : {}), ...(runHalt ? { runHalt } : {}) };
  return {
    model: { ...model, loop, reducing },
    effects: [...said, { kind: 'sendLeftPosts', loop }],
  };
}

/** The left posts sent: the wave's halt told through the outbox, or the loop saved and the issues handed over. */
export function afterPosts(model: WaveModel): Stepped {
  const { runHalt } = model.reducing!;
  if (!runHalt) return afterHalt(model);
  return { model, effects: [{ kind: 'recordHalt', loop: model.loop, end: { kind: 'halted', halt: runHalt } }] };
}

/** The loop saved (halted when it is), then the jobs' issues handed over. */
export function afterHalt(model: WaveModel): Stepped {
  const { loop } = model;
  return {
    model,
    effects: [
      { kind: 'save', status: loop.halt ? 'halted' : 'continuing', loop },
      { kind: 'handOver', loop, rows: model.reducing!.reduction.rows },
    ],
  };
}

/** The reduce's end: its outputs and summary, a halt's error annotation. */
export function reportedEnd(model: WaveModel): Stepped {
  const reducing = model.reducing!;
  const { loop } = model;
  const halt = reducing.reduction.halt;
  return {
    model,
    effects: [
      {
        kind: 'finish',
        status: loop.halt ? 'halted' : 'continuing',
        loop,
        errors: halt ? [halt.message] : [],
        diagnostic: null,
        reduced: reducing,
      },
    ],
  };
}

function withoutJob({ issueId: _job, ...halt }: NonNullable<WaveReduction['halt']>) {
  return halt;
}
