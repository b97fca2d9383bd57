/**
 * The wave machine (src/core/wave.ts) for the action's plan job (`fan-out: plan`, issue 16): one
 * wave of the matrix planned from the ready issues, claimed, and handed on. Pure: the handlers
 * (src/action/planEffects.ts) read the issues, claim them on GitHub and write the outputs.
 *
 * A halt that stands holds the wave back (unless --resume-halted); issues that could not be listed
 * defer it. Finished work of earlier waves and the notices they owe go to the wave's landing job,
 * alone when nothing else is to work. The planned issues are claimed before the matrix goes out; a
 * claim lost to another run planning at the same moment plans again without it, for up to
 * `parallel` rounds, and an issue won but no longer planned is let go.
 */
import { haltGate } from './haltGate.js';
import type { LoopState } from './state.js';
import { NOTICE_LANDINGS, landingDue, noticesOwed } from './waveOutbox.js';
import { type WavePlan, planWave } from './wavePlan.js';
import { type PlanNote, type Planning, noticesNote, outboxNote } from './wavePlanNotes.js';
import type { Stepped, WaveEffect, WaveEvent, WaveModel } from './waveTypes.js';

const note = (n: PlanNote): WaveEffect => ({ kind: 'note', note: n });

/** The ready issues read (or not): the halt weighed, the wave planned and its claims asked, or no wave. */
export function planRead(model: WaveModel, event: Extract<WaveEvent, { type: 'readyRead' }>): Stepped {
  const { loop, settings } = model;
  const ready = event.unlisted ? undefined : event.ready;
  const said: WaveEffect[] = [];
  // A halt that stands holds the wave back; unread issues change nothing (a halt lifted by the issues is lifted by a run that reads them).
  if (loop.halt && !model.planning!.resumeHalted) {
    const seen = {
      ...(ready ? { ready } : {}),
      maxIterations: settings.maxIterations,
      maxCostUsd: settings.maxCostUsd,
    };
    const gate = haltGate(loop, seen);
    const { halt } = loop;
    if (gate.stands)
      return {
        model,
        effects: [
          note({ kind: 'haltStands', halt, baseBranch: loop.baseBranch }),
          { kind: 'noWave', status: 'halted', why: `the halt stands (${halt.reason})`, haltReason: halt.reason },
        ],
      };
    said.push(note({ kind: 'haltLifted', reason: halt.reason, because: gate.because }));
  }
  // Never "no issues": which are workable is unknown, so no wave goes out (status deferred, green).
  if (!ready) {
    const failed = `${event.unlisted?.what ?? 'listing the issues'} failed`;
    return {
      model,
      effects: [
        ...said,
        note({ kind: 'unlisted', message: event.unlisted?.message }),
        { kind: 'noWave', status: 'deferred', why: failed },
      ],
    };
  }
  const landing = landingDue(loop, Date.parse(event.now));
  if (loop.outbox.length > 0) said.push(note(outboxNote(loop, landing)));
  const first = planWave(ready, { ...loop, halt: undefined }, planSettings(model));
  const owed = noticesOwed(loop);
  const alone = loop.notices.some((n) => owed.includes(n.id) && n.attempts < NOTICE_LANDINGS);
  if (owed.length > 0) said.push(note(noticesNote(loop, owed)));
  for (const issueId of first.claimedElsewhere) said.push(note({ kind: 'claimedElsewhere', issueId }));
  const planning: Planning = { ...model.planning!, ready, now: event.now, landing, owed, alone, plan: first, round: 1 };
  const next = { ...model, planning };
  if (first.jobs.length === 0 && withNotices(planning, 0).length > 0) {
    // Only earlier work to land: a wave of the landing job alone (a halt found now is found again after it).
    if (first.stop?.kind === 'halted') said.push(note({ kind: 'landFirst', message: first.stop.message }));
    return { model: next, effects: [...said, handWave(planning, [], first.deferred)] };
  }
  if (first.jobs.length === 0) return { model: next, effects: [...said, ...noWork(first.stop, loop)] };
  // Claimed before the matrix goes out: the work jobs (this run) take the claims on as their own.
  const jobs = first.jobs.map((j) => j.issueId);
  return { model: next, effects: [...said, { kind: 'claimJobs', issueIds: jobs, held: [], since: event.now }] };
}

/** A round of claims answered: all held, or the wave planned again without those lost (up to `parallel` rounds). */
export function claimedRound(model: WaveModel, event: Extract<WaveEvent, { type: 'claimed' }>): Stepped {
  const p = model.planning!;
  const won = [...p.won, ...event.won];
  const lost = [...p.lost, ...event.lost];
  let plan = p.plan!;
  const done = plan.jobs.every((j) => won.includes(j.issueId)) || p.round > model.settings.parallel;
  if (!done)
    plan = planWave(
      p.ready!.filter((i) => !lost.includes(i.id)),
      { ...model.loop, halt: undefined },
      planSettings(model),
    );
  const planning: Planning = { ...p, won, lost, plan, round: p.round + 1 };
  const next = { ...model, planning };
  if (!done) {
    const issueIds = plan.jobs.filter((j) => !won.includes(j.issueId)).map((j) => j.issueId);
    return { model: next, effects: [{ kind: 'claimJobs', issueIds, held: won, since: p.now! }] };
  }
  // Claimed in an earlier round and not in the wave planned last (rare): let go, the comment deleted.
  const release = won.filter((id) => !plan.jobs.some((j) => j.issueId === id));
  if (release.length > 0) return { model: next, effects: [{ kind: 'releaseClaims', issueIds: release }] };
  return handOut(next);
}

/** The wave handed on: the jobs claimed, and the landing job's part. */
export function handOut(model: WaveModel): Stepped {
  const p = model.planning!;
  const claimed = p.plan!.jobs.filter((j) => p.won.includes(j.issueId));
  return { model, effects: [handWave(p, claimed, p.plan!.deferred)] };
}

function handWave(p: Planning, jobs: WavePlan['jobs'], deferred: WavePlan['deferred']): WaveEffect {
  const lands = withNotices(p, jobs.length);
  return {
    kind: 'handWave',
    startedAt: p.now!,
    jobs,
    ...(lands.length > 0 ? { landing: lands } : {}),
    deferred,
    owed: p.owed!,
  };
}

/** The landing job's keys: the cycles due, and the notices owed with a wave that goes out anyway, or alone. */
function withNotices(p: Planning, jobs: number): string[] {
  const keys = p.landing!;
  const owed = p.owed!;
  return owed.length > 0 && (jobs > 0 || keys.length > 0 || p.alone) ? [...keys, ...owed] : [...keys];
}

/** No issue to work: a new halt handed to the reduce as a wave with no job, or the end (or a wait to land). */
function noWork(stop: WavePlan['stop'], loop: LoopState): WaveEffect[] {
  // A new halt: the reduce records it in the checkpoint, posts it once and publishes it, so that later runs see it stand.
  if (stop?.kind === 'halted')
    return [
      note({ kind: 'newHalt', message: stop.message }),
      { kind: 'noWave', status: 'halted', why: stop.message, haltReason: stop.reason, handOn: true },
    ];
  // Work waiting to land is not the end (as a slice that waits out the landing's backoff: continuing).
  const status = loop.outbox.length > 0 ? 'continuing' : 'complete';
  return [{ kind: 'noWave', status, why: stop?.message ?? 'no issue to work' }];
}

function planSettings({ settings }: WaveModel) {
  return {
    parallel: settings.parallel,
    maxIterations: settings.maxIterations,
    ...(settings.maxCostUsd !== undefined ? { maxCostUsd: settings.maxCostUsd } : {}),
  };
}
