/**
 * The slice's events that are neither an iteration's nor a landing's, one handler each (routed by
 * slice.ts's step): waking from a wait, the issues unlisted, the source checked (the finished cycle
 * recorded, or the slice's end), a cycle opened, a cycle committed, a git operation refused.
 */
import { rfc3339 } from '../util/clock.js';
import { describeTargets } from './describe.js';
import { type Event, log } from './events.js';
import type { OutboxEntry } from './state.js';
import type { CoreConfig, SliceModel, Step } from './model.js';
import { save, finish } from './finish.js';
import { land, finishCycleEffect, unrecord, notClosed } from './landingSteps.js';
import { without } from './targets.js';

type EventOf<T extends Event['type']> = Extract<Event, { type: T }>;

/** Woken from a wait: a rate limit carried from an earlier run is cleared, else the wait is saved as done. */
export function woke(model: SliceModel, event: EventOf<'woke'>): Step {
  const m = { ...model, now: event.now, waking: undefined };
  if (model.waking === 'carried')
    return { model: { ...m, loop: { ...m.loop, rateLimitedUntil: undefined } }, effects: [{ kind: 'next' }] };
  return { model: m, effects: [save(m), { kind: 'next' }] };
}

/** Never "no issues": which are workable is unknown, so none is started; the next run lists them again. */
export function issuesUnlisted(model: SliceModel, event: EventOf<'issuesUnlisted'>, config: CoreConfig): Step {
  return finish(model, config, 'deferred', undefined, false, [
    log(
      'warn',
      'run.deferred',
      `Deferred: ${event.failed.message.replace(/\.$/, '')}. No issue is started on an incomplete list; ` +
        `the checkpoint keeps what this run did, and the next run lists the issues again.`,
      { what: event.failed.what, status: event.failed.status },
    ),
  ]);
}

/** The source's health: a halt when unreadable; else the finished cycle recorded and landed, or the slice's end. */
export function sourceChecked(model: SliceModel, event: EventOf<'sourceChecked'>, config: CoreConfig): Step {
  const m = { ...model, checking: undefined };
  // A cycle about to be recorded stays in flight: nothing of it was committed, so it closed nothing yet.
  if (event.unreadable)
    return finish(
      model.checking === 'finishCycle' && model.cycle ? notClosed(m, model.cycle.issueIds) : m,
      config,
      'halted',
      event.unreadable,
    );
  if (model.checking === 'finishCycle' && model.cycle) return recordFinishedCycle(model, m, model.cycle, config);
  const elsewhere = m.claimedElsewhere?.length ?? 0;
  return finish(m, config, 'complete', undefined, false, [
    log(
      'info',
      'run.complete',
      elsewhere > 0
        ? `No ready issue left for this run: ${elsewhere} being worked by other runs (${m.loop.issuesClosed.length} closed by the loop so far).`
        : `No ready issues left: the work is done (${m.loop.issuesClosed.length} closed by the loop so far).`,
    ),
  ]);
}

/**
 * Record before act: the finished cycle goes into the outbox, with the iteration's counts, before
 * anything is committed or pushed; a run that dies or is refused from here on lands it later,
 * without running the agent again.
 */
function recordFinishedCycle(
  model: SliceModel,
  m: SliceModel,
  cycle: NonNullable<SliceModel['cycle']>,
  config: CoreConfig,
): Step {
  // Where work is published, its issues count as closed only once it has landed (cycleFinished).
  const closes = config.publishes ? cycle.issueIds.filter((id) => m.loop.issuesClosed.includes(id)) : [];
  const actions = model.outcome?.issueActions ?? [];
  const entry: OutboxEntry = {
    kind: 'finishCycle',
    cycle,
    noChange: !!model.outcome?.noChange,
    iteration: m.loop.iteration,
    recordedAt: rfc3339(new Date(m.now)),
    attempts: 0,
    ...(closes.length ? { closes } : {}),
    // The issues' close or label travels with the work: performed before its commit, again by a later run until done.
    ...(actions.length ? { issueActions: actions } : {}),
    // Held for a person (issue 42): landed as a draft pull request or left on its branch, never merged.
    ...(model.outcome?.held ? { held: model.outcome.held } : {}),
  };
  const recorded = {
    ...m,
    loop: {
      ...m.loop,
      currentCycle: undefined,
      outbox: [...m.loop.outbox, entry],
      issuesClosed: m.loop.issuesClosed.filter((id) => !closes.includes(id)),
    },
  };
  const landing = land(recorded, entry, config, false);
  return { model: landing.model, effects: [save(recorded), ...landing.effects] };
}

/** The new cycle, saved before its first agent run; then its baseline. */
export function cycleOpened(model: SliceModel, event: EventOf<'cycleOpened'>): Step {
  const cycle = event.cycle;
  // The counts an earlier wave carried for its issues are now the cycle's (carriedCounts): none stays behind.
  const loop = { ...model.loop, currentCycle: cycle, issueCounts: without(model.loop.issueCounts, cycle.issueIds) };
  const m = { ...model, loop, next: undefined, onCycleBranch: true };
  return {
    model: m,
    // Record before act: the cycle (its issues, branch and base tip) is in the checkpoint before
    // its first agent run, so a run killed during that run resumes this cycle instead of skipping it.
    effects: [
      save(m),
      log(
        'info',
        'cycle.start',
        `Cycle for ${describeTargets(cycle)}${cycle.branch ? ` on branch ${cycle.branch}` : ''}`,
        {
          issueIds: cycle.issueIds,
          branch: cycle.branch,
        },
      ),
      { kind: 'runBaseline' },
    ],
  };
}

/** The cycle's commit, recorded before it leaves the machine; then the cycle is finished (pushed, published). */
export function cycleCommitted(model: SliceModel, event: EventOf<'cycleCommitted'>): Step {
  const landing = model.landing;
  if (!landing) return { model, effects: [{ kind: 'next' }] };
  // Record the commit before it leaves the machine: a later run lands only a branch that holds it.
  // The issue actions were performed before the commit: done.
  const { issueActions: _done, ...before } = landing.entry;
  const entry: OutboxEntry = {
    ...before,
    committed: event.committed,
    ...(event.tip ? { tip: event.tip } : {}),
  };
  const m: SliceModel = {
    ...model,
    landing: { ...landing, entry },
    loop: { ...model.loop, outbox: model.loop.outbox.map((e) => (e === landing.entry ? entry : e)) },
  };
  return { model: m, effects: [save(m), finishCycleEffect(entry, landing.resumed)] };
}

/**
 * Refused while landing this slice's cycle (its commit held a secret, or the repository moved):
 * nothing of it was committed, so it is the cycle again, not work to land: a runner thrown
 * away meanwhile would otherwise land whatever older wip: of the branch GitHub holds.
 */
export function refused(model: SliceModel, event: EventOf<'refused'>, config: CoreConfig): Step {
  return finish(unrecord(model), config, 'halted', {
    reason: event.reason,
    message:
      event.reason === 'repository_moved'
        ? `REPOSITORY MOVED: ${event.message}`
        : `SECRET IN CHANGE: ${event.message}; nothing was committed`,
  });
}
