/**
 * An iteration's outcome, folded into the loop state (src/core/fold.ts) and acted on: its issue
 * actions, a halt, the finished cycle checked before it is recorded, an escalation, a rate-limit
 * wait. Part of the core (src/core/slice.ts).
 */
import { rfc3339 } from '../util/clock.js';
import { seconds } from './describe.js';
import { foldIteration } from './fold.js';
import { type Effect, type IteratedOutcome, log } from './events.js';
import { type CoreSettings, type CoreConfig, type SliceModel, type Step } from './model.js';
import { recordNotice, save, finish } from './finish.js';
import { leaseEnd, working } from './claims.js';
import { escalate } from './escalate.js';

/**
 * Beads issues where work is published (closeOnBranch): a cycle that needed no change still closed
 * its issue in the repository's issues file, a change that lands like any other (not a branch
 * dropped). Pure.
 */
export function landsAsChange(
  outcome: IteratedOutcome,
  settings: Pick<CoreSettings, 'closeOnBranch'>,
): IteratedOutcome {
  return settings.closeOnBranch && outcome.noChange ? { ...outcome, noChange: false } : outcome;
}

/** A workflow's iteration finished (its sub-machine, src/core/iterationSteps.ts): its outcome folded in and acted on. */
export function iterationFinished(model: SliceModel, told: IteratedOutcome, now: number, config: CoreConfig): Step {
  if (told.interrupted) return finish({ ...model, now }, config, 'continuing', undefined, true);
  const outcome = landsAsChange(told, config.settings);
  let m: SliceModel = { ...model, now, loop: foldIteration(model.loop, outcome.delta), outcome };
  const effects: Effect[] = outcome.violation ? [{ kind: 'appendError', entry: outcome.violation }] : [];
  // A finished cycle's issue actions go into the outbox with its work (sourceChecked); others are done now:
  // a checklist item's tick as a notice (record before act), the rest at once.
  if (outcome.issueActions?.length && !(outcome.cycleDone && !outcome.halt)) {
    const now = outcome.issueActions.filter((a) => a.kind !== 'tick');
    if (now.length) effects.push({ kind: 'updateIssues', actions: now });
    for (const tick of outcome.issueActions.filter((a) => a.kind === 'tick')) {
      const recorded = recordNotice(m, tick);
      m = recorded.model;
      effects.push(...recorded.effects);
    }
  }
  if (outcome.halt) return finish(m, config, 'halted', outcome.halt, false, effects);
  // The agent stays in its lane: the iteration checked right after the agent ran; this covers what followed.
  effects.push({ kind: 'verifyLane', what: `go on after iteration ${m.loop.iteration}` });
  if (outcome.cycleDone) {
    // A "finished" cycle that left the issues unreadable is not merged.
    return { model: { ...m, checking: 'finishCycle' }, effects: [...effects, { kind: 'checkSource' }] };
  }
  const after = afterCycle(m, outcome, config);
  return { model: after.model, effects: [...effects, ...after.effects] };
}

/** After the iteration (and its cycle's finish): escalation, the rate-limit wait, the checkpoint. */
export function afterCycle(model: SliceModel, outcome: IteratedOutcome, config: CoreConfig): Step {
  let m: SliceModel = { ...model, outcome: undefined };
  const effects: Effect[] = [];
  if (outcome.escalate && m.loop.currentCycle) {
    const e = escalate(m, outcome.escalate.reason, outcome.escalate.bounceLoop, config);
    m = e.model;
    effects.push(...e.effects);
    if (e.halt) return finish(m, config, 'halted', e.halt, false, effects, e.after, e.givenUp);
  }
  if (outcome.waitMs !== undefined) {
    const until = m.now + outcome.waitMs;
    if (config.deadline !== undefined && until > config.deadline) {
      // Whole seconds, rounded up: the next run must not start inside the window.
      const rateLimitedUntil = rfc3339(new Date(Math.ceil(until / 1000) * 1000));
      m = { ...m, loop: { ...m.loop, rateLimitedUntil } };
      return finish(m, config, 'continuing', undefined, false, [
        ...effects,
        log(
          'info',
          'rate.limited',
          `Rate limited until ${rateLimitedUntil}, past this slice's end: the next run waits or resumes then.`,
          { rateLimitedUntil },
        ),
      ]);
    }
    m = { ...m, waking: 'retry' };
    // The claim outlives the wait (issue 14): renewed now until the wait's end plus a lease.
    const held = m.loop.currentCycle;
    const renew: Effect[] =
      config.leaseMs !== undefined && held && m.claimHeld
        ? [
            {
              kind: 'renewClaim',
              issueIds: held.issueIds,
              expires: leaseEnd({ ...m, now: m.now + outcome.waitMs }, config.leaseMs),
              progress: working(m, held),
            },
          ]
        : [];
    effects.push(
      log('info', 'rate.limited', `Rate limited: waiting ${seconds(outcome.waitMs)} before the next attempt.`, {
        waitMs: outcome.waitMs,
      }),
      save(m),
      ...renew,
      { kind: 'sleep', ms: outcome.waitMs },
    );
    return { model: m, effects };
  }
  return { model: m, effects: [...effects, save(m), { kind: 'next' }] };
}
