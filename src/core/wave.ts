/**
 * The wave machine (issue 16, issue 41): what run --parallel's coordinator decides, pure, as a
 * machine the one interpreter drives (src/loop/interpreter.ts drive). Its handlers do the I/O
 * (src/app/effects/wave*.ts): the ready issues read, the wave recorded, the jobs run in their
 * worktrees, their branches landed on the base, the escalations labelled, the worktrees cleared,
 * the halt told, the result written.
 *
 * It decides which wave comes next (the one in flight first: a killed coordinator's; else one the
 * pure planner picks, src/core/wavePlan.ts), when the loop is saved, how a wave's jobs are summed
 * into it (src/core/waveReduce.ts), which escalations are labelled on the base, and when and how the
 * run ends: complete, stopped, halted (told through the outbox: halt.md and the Discord post), or
 * unable to start any job. Before the first wave it sends the posts a killed run left and writes
 * the labels an earlier run owes. The action's jobs drive it too: the reduce from what its matrix
 * jobs reported (src/core/waveMatrix.ts), the plan with `planning` set (src/core/wavePlanJob.ts).
 */
import { ESCALATED_LABEL } from '../issues/types.js';
import { JOB_LOCAL_HALTS } from './haltReasons.js';
import type { LoopState, Wave } from './state.js';
import { escalationsToLabel, labelsNoted, labelsOwed } from './waveLabels.js';
import { type WaveCandidate, type WavePlan, planWave } from './wavePlan.js';
import { reduceWave } from './waveReduce.js';
import { afterPosts, afterHalt, reported, reportedEnd } from './waveMatrix.js';
import { claimedRound, handOut, planRead } from './wavePlanJob.js';
import type {
  EndStatus,
  Flight,
  KeptJob,
  Stepped,
  WaveEffect,
  WaveEnd,
  WaveEvent,
  WaveHalted,
  WaveMachineSettings,
  WaveModel,
} from './waveTypes.js';

export type * from './waveTypes.js';
import { baseMovedHalt, describeRow, waveStartLine } from './waveWords.js';

export function initialWaveModel(loop: LoopState, settings: WaveMachineSettings): WaveModel {
  return { settings, loop, sliceStart: loop.iteration };
}

export function step(model: WaveModel, event: WaveEvent): Stepped {
  switch (event.type) {
    case 'started':
      if (model.planning) return { model, effects: [{ kind: 'readReady' }] };
      return { model, effects: [{ kind: 'sendLeftPosts', loop: model.loop }] };
    case 'postsSent':
      if (model.reducing) return afterPosts({ ...model, loop: event.loop });
      return catchUp({ ...model, loop: event.loop }, event.sent);
    case 'signalRead':
      if (event.aborted) return ended(model, { kind: 'aborted' });
      if (model.loop.wave) return start(model, model.loop.wave, true);
      return { model, effects: [{ kind: 'readReady' }] };
    case 'readyRead':
      if (model.planning) return planRead(model, event);
      return planned(model, event.ready, event.now);
    case 'waveRecorded':
      return start(model, model.loop.wave!, false);
    case 'jobsEnded':
      return jobsEnded(model, event);
    case 'landed':
      return landed(model, event);
    case 'labelled':
      return labelled(model, event);
    case 'waveCleared':
      if (model.reducing) return reportedEnd(model);
      return cleared(model, event.kept);
    case 'jobsReported':
      return reported(model, event);
    case 'claimed':
      return claimedRound(model, event);
    case 'claimsReleased':
      return handOut(model);
    case 'haltRecorded':
      if (model.reducing) return afterHalt({ ...model, loop: event.loop });
      return finish({ ...model, loop: event.loop }, 'halted', [halted(model).halt.message], event.diagnostic);
  }
}

/** Before the first wave: the posts were sent (saved when any was), then the labels an earlier run owes written. */
function catchUp(model: WaveModel, sent: boolean): Stepped {
  const saved: WaveEffect[] = sent ? [save(model.loop)] : [];
  const owed = labelsOwed(model.loop);
  if (owed.length === 0) return { model, effects: [...saved, { kind: 'readSignal' }] };
  const ids = owed.map((o) => o.issueId);
  const them = owed.length === 1 ? 'it' : 'them';
  const { base } = model.settings;
  const said = `Labelling ${ids.join(', ')} ${ESCALATED_LABEL} on ${base}: escalated by an earlier run that could not label ${them}.`;
  return {
    model: { ...model, labelling: { escalations: owed, owed: true } },
    effects: [
      ...saved,
      { kind: 'log', level: 'info', event: 'escalation.relabel', message: said, data: { issues: ids } },
      { kind: 'labelEscalations', escalations: owed },
    ],
  };
}

/** The next wave as the planner picks it, recorded before any job starts; or the run's end. */
function planned(model: WaveModel, ready: readonly WaveCandidate[], now: string): Stepped {
  const { settings, loop } = model;
  const plan: WavePlan = planWave(
    ready.filter((i) => !settings.issues || settings.issues.includes(i.id)),
    loop,
    {
      parallel: settings.parallel,
      maxIterations: settings.maxIterations,
      ...(settings.maxCostUsd !== undefined ? { maxCostUsd: settings.maxCostUsd } : {}),
      checkpointId: settings.checkpointId,
      // Escalated in this run: left alone even where its label could not be written.
      sliceStartIteration: model.sliceStart,
    },
  );
  if (plan.stop?.kind === 'halted')
    return ended(model, { kind: 'halted', halt: { reason: plan.stop.reason, message: plan.stop.message } });
  if (plan.stop) {
    const done: WaveEffect = { kind: 'log', level: 'info', event: 'parallel.done', message: plan.stop.message };
    const end = ended(model, { kind: 'complete' });
    return { model: end.model, effects: [done, ...end.effects] };
  }
  const wave: Wave = { id: `wave-${loop.waves + 1}`, startedAt: now, jobs: plan.jobs };
  const next = { ...loop, wave };
  const data = { wave: loop.waves + 1, jobs: wave.jobs.map((j) => j.issueId) };
  return {
    model: { ...model, loop: next },
    effects: [
      { kind: 'recordWave', loop: next, wave },
      {
        kind: 'log',
        level: 'info',
        event: 'wave.start',
        message: waveStartLine(loop.waves + 1, wave, plan.deferred),
        data,
      },
    ],
  };
}

function start(model: WaveModel, wave: Wave, resuming: boolean): Stepped {
  return { model, effects: [{ kind: 'runJobs', wave, resuming }] };
}

/** The jobs ended: landed on the base one at a time; none could start, the run ends as the serial one would. */
function jobsEnded(model: WaveModel, event: Extract<WaveEvent, { type: 'jobsEnded' }>): Stepped {
  const wave = model.loop.wave!;
  if (event.aborted) return ended(model, { kind: 'aborted' });
  const flight: Flight = { wave, ends: event.ends, baseTip: event.baseTip, requeued: [] };
  const cannot = event.ends.filter((e) => e.exitCode === 2 && !e.loop);
  if (cannot.length === event.ends.length) {
    const loop = { ...model.loop, wave: undefined };
    return {
      model: { ...model, loop, flight, end: { kind: 'cannot', stderr: cannot[0]?.stderrTail ?? '' } },
      effects: [{ kind: 'clearWave', wave, keep: [], baseTip: event.baseTip }],
    };
  }
  const number = model.loop.waves + 1;
  return {
    model: { ...model, flight },
    effects: [{ kind: 'landJobs', wave, ends: event.ends, baseTip: event.baseTip, waveNumber: number }],
  };
}

/** Landed: the wave reduced into the loop and its escalations labelled; the base moved, the run halts with the wave kept. */
function landed(model: WaveModel, event: Extract<WaveEvent, { type: 'landed' }>): Stepped {
  const flight = model.flight!;
  const { settings } = model;
  if (event.moved) {
    // Nothing more is merged, nothing is reset: the wave stays in the checkpoint with its worktrees
    // and branches, not reduced yet; resumed, its finished jobs are merged.
    const ran = flight.ends.reduce((n, e) => n + (e.loop?.iteration ?? 0), 0);
    const said = baseMovedHalt(event.moved, settings.base, model.loop.waves + 1, ran);
    const halt = { reason: event.moved.reason, message: said.message };
    return ended(model, { kind: 'halted', halt, advice: said.advice });
  }
  const reduction = reduceWave(model.loop, flight.wave, event.partials, {
    maxIterations: settings.maxIterations,
    ...(settings.maxCostUsd !== undefined ? { maxCostUsd: settings.maxCostUsd } : {}),
    maxConsecutiveEscalations: settings.maxConsecutiveEscalations,
  });
  const stillQueued = reduction.loop.requeued.filter((r) => !event.requeued.some((q) => q.issueId === r.issueId));
  const loop = { ...reduction.loop, requeued: [...stillQueued, ...event.requeued] };
  // The escalated jobs' labels, committed on the base one issue at a time (their branches are not merged).
  const escalations = escalationsToLabel(flight.wave, flight.ends);
  return {
    model: {
      ...model,
      loop,
      flight: { ...flight, requeued: event.requeued, reduction },
      labelling: { escalations, owed: false },
    },
    effects: [{ kind: 'labelEscalations', escalations }],
  };
}

/**
 * Labels tried: those not written stay owed in the checkpoint (later runs leave them alone and
 * label them). Before the first wave, the next wave; after a wave, its rows said, the loop saved
 * and its worktrees cleared (its halted jobs kept first).
 */
function labelled(model: WaveModel, event: Extract<WaveEvent, { type: 'labelled' }>): Stepped {
  const tried = model.labelling!;
  const loop = labelsNoted(model.loop, tried.escalations, new Map(event.failed), event.at);
  const next = { ...model, loop, labelling: undefined };
  if (tried.owed) return { model: next, effects: [save(loop), { kind: 'readSignal' }] };
  const flight = model.flight!;
  const rows: WaveEffect[] = flight.reduction!.rows.map((row) => ({
    kind: 'log',
    level: 'info',
    event: 'wave.job',
    message: describeRow(row, flight.requeued),
    data: { ...row, wave: loop.waves },
  }));
  const keep = flight.wave.jobs.flatMap((job, k) => {
    const reason = flight.ends[k]?.loop?.halt?.reason;
    return reason && !JOB_LOCAL_HALTS.has(reason) ? [{ issueId: job.issueId, reason }] : [];
  });
  return {
    model: next,
    effects: [...rows, save(loop), { kind: 'clearWave', wave: flight.wave, keep, baseTip: flight.baseTip }],
  };
}

/** The wave's worktrees gone: the next wave, or the run's end (the reduction's halt, with its job's state and what was kept). */
function cleared(model: WaveModel, kept: [string, KeptJob][]): Stepped {
  const flight = model.flight!;
  const next = { ...model, flight: undefined };
  if (model.end) return ended(next, model.end);
  const halt = flight.reduction?.halt;
  if (!halt) return { model: next, effects: [{ kind: 'readSignal' }] };
  const k = flight.wave.jobs.findIndex((j) => j.issueId === halt.issueId);
  const job = flight.wave.jobs[k];
  const haltedJob = job
    ? { loop: flight.ends[k]?.loop, kept: kept.find(([id]) => id === job.issueId)?.[1] }
    : undefined;
  return ended(next, {
    kind: 'halted',
    halt,
    ...(haltedJob ? { haltedJob } : {}),
    keptNotes: kept.map(([, one]) => one.note),
  });
}

/** The run ends: a halt told first, through the outbox (halt.md, the post); no job could start, said as the serial run says it. */
function ended(model: WaveModel, end: WaveEnd): Stepped {
  const next = { ...model, end };
  if (end.kind === 'cannot')
    return { model: next, effects: [save(model.loop), { kind: 'cannotStart', stderr: end.stderr }] };
  if (end.kind === 'halted') return { model: next, effects: [{ kind: 'recordHalt', loop: model.loop, end }] };
  return finish(next, end.kind === 'complete' ? 'complete' : 'continuing', [], null);
}

function finish(model: WaveModel, status: EndStatus, errors: string[], diagnostic: string | null): Stepped {
  return { model, effects: [{ kind: 'finish', status, loop: model.loop, errors, diagnostic }] };
}

function halted(model: WaveModel): WaveHalted {
  return model.end as WaveHalted;
}

function save(loop: LoopState): WaveEffect {
  return { kind: 'save', status: 'continuing', loop };
}
