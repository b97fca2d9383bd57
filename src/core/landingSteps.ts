/**
 * How a slice opens (an earlier run's work landed first, its notices resent) and how a finished
 * cycle lands: recorded in the outbox, committed, merged, left or published, and what a failed
 * landing comes to. Part of the core (src/core/slice.ts).
 */
import { LANDING_POLICY, backoffMs, exhausted } from '../failure/policy.js';
import type { ClaimProgress } from '../issues/claims.js';
import { rfc3339 } from '../util/clock.js';
import { describeTargets, seconds } from './describe.js';
import { type Effect, type LandingFailure, type NoticeResult, type PullRequestRecord, log } from './events.js';
import type { OutboxEntry } from './state.js';
import { type CoreConfig, type SliceModel, type Step } from './model.js';
import { save, finish } from './finish.js';
import { release, cycleProgress } from './claims.js';
import { afterCycle } from './outcome.js';
import { afterNoticesSent } from './notices.js';

/**
 * The slice opens: work an earlier run finished and could not land is landed first (the agent does
 * not run for it); then a rate-limit window carried over from the previous slice is waited out.
 */
export function started(model: SliceModel, config: CoreConfig): Step {
  if (!model.noticesResent && model.loop.notices.length > 0) {
    // Notices an earlier run recorded and did not see done: sent again first (idempotent; a Discord post at most twice).
    const next = started({ ...model, noticesResent: true }, config);
    return {
      model: next.model,
      effects: [...model.loop.notices.map((notice): Effect => ({ kind: 'sendNotice', notice })), ...next.effects],
    };
  }
  const refused = config.settings.refusedBeforehand;
  if (refused)
    return finish(model, config, 'halted', {
      reason: 'publish_refused',
      message: `PUBLISH REFUSED: ${refused.message}`,
      advice: refused.advice,
    });
  const pending = model.loop.outbox[0];
  if (pending) return land(model, pending, config, true);
  const until = model.loop.rateLimitedUntil;
  if (!until) return { model, effects: [{ kind: 'next' }] };
  const wait = Date.parse(until) - model.now;
  if (wait > 0 && config.deadline !== undefined && model.now + wait > config.deadline) {
    return finish(model, config, 'continuing', undefined, false, [
      log('info', 'rate.limited', `Rate limited until ${until}: nothing to do in this slice; the next run continues.`, {
        rateLimitedUntil: until,
      }),
    ]);
  }
  if (wait > 0) {
    return {
      model: { ...model, waking: 'carried' },
      effects: [
        log('info', 'rate.limited', `Rate limited until ${until}: waiting ${seconds(wait)}.`, {
          rateLimitedUntil: until,
        }),
        { kind: 'sleep', ms: wait },
      ],
    };
  }
  return { model: { ...model, loop: { ...model.loop, rateLimitedUntil: undefined } }, effects: [{ kind: 'next' }] };
}

/** Lands a finished cycle's work (merge, or push and pull request), recorded in the outbox first. */
export function land(model: SliceModel, entry: OutboxEntry, config: CoreConfig, resumed: boolean): Step {
  const what = `the work on ${describeTargets(entry.cycle)} (finished at iteration ${entry.iteration})`;
  if (resumed && entry.notBefore !== undefined && Date.parse(entry.notBefore) > model.now)
    return finish(model, config, 'continuing', undefined, false, [
      log(
        'info',
        'cycle.landing_later',
        `Landing ${what} failed ${entry.attempts} time(s), last: ${entry.lastError ?? 'unknown'}. The next ` +
          `attempt is due at ${entry.notBefore}; nothing else runs before it.`,
        { issueIds: entry.cycle.issueIds, attempts: entry.attempts, notBefore: entry.notBefore },
      ),
    ]);
  const effects: Effect[] = resumed
    ? [
        log(
          'info',
          'cycle.landing',
          `Landing ${what}, recorded by an earlier run${entry.attempts ? ` (attempt ${entry.attempts + 1})` : ''}: the agent does not run again for it.`,
          { issueIds: entry.cycle.issueIds, attempts: entry.attempts },
        ),
      ]
    : [];
  // Where work is published, this slice's work is committed (and its commit recorded) before the push.
  const commitFirst = !resumed && config.publishes && !entry.noChange && entry.tip === undefined;
  effects.push(
    commitFirst
      ? { kind: 'commitCycle', cycle: entry.cycle, ...(entry.issueActions ? { issueActions: entry.issueActions } : {}) }
      : finishCycleEffect(entry, resumed),
  );
  return { model: { ...model, landing: { entry, resumed } }, effects };
}

export function finishCycleEffect(entry: OutboxEntry, resumed: boolean): Effect {
  return {
    kind: 'finishCycle',
    cycle: entry.cycle,
    noChange: entry.noChange,
    ...(resumed ? { resumed } : {}),
    ...(entry.tip ? { tip: entry.tip } : {}),
    ...(entry.committed !== undefined ? { committed: entry.committed } : {}),
    ...(entry.issueActions ? { issueActions: entry.issueActions } : {}),
    ...(entry.held ? { held: entry.held } : {}),
  };
}

/** The notices sent: the done ones leave the outbox, the others stay for the next run, counted. */
export function noticesSent(model: SliceModel, results: readonly NoticeResult[]): Step {
  const m = { ...model, loop: { ...model.loop, notices: afterNoticesSent(model.loop.notices, results) } };
  return { model: m, effects: [save(m, model.ended)] };
}

/**
 * The cycle of a landing begun in this slice back in flight, its outbox entry dropped, its issues
 * no longer counted closed (nothing of it was committed: the run that lands it closes them).
 */
export function unrecord(model: SliceModel): SliceModel {
  const landing = model.landing;
  if (!landing || landing.resumed) return model;
  return notClosed(
    {
      ...model,
      landing: undefined,
      loop: {
        ...model.loop,
        currentCycle: landing.entry.cycle,
        outbox: model.loop.outbox.filter((e) => e !== landing.entry),
      },
    },
    landing.entry.cycle.issueIds,
  );
}

/** The model with `ids` taken out of the loop's closed (and closed-as-no-change) issues. */
export function notClosed(model: SliceModel, ids: readonly string[]): SliceModel {
  const keep = (list: string[]) => list.filter((id) => !ids.includes(id));
  return {
    ...model,
    loop: {
      ...model.loop,
      issuesClosed: keep(model.loop.issuesClosed),
      issuesNoChange: keep(model.loop.issuesNoChange),
    },
  };
}

/** The landing's answer: the entry leaves the outbox, or stays with the failure (a refusal halts). */
export function cycleFinished(
  model: SliceModel,
  published: PullRequestRecord | undefined,
  failed: LandingFailure | undefined,
  config: CoreConfig,
): Step {
  const landing = model.landing;
  // The entry in flight is the outbox's first: older ones are landed before anything else runs.
  const others = model.loop.outbox.filter((e) => e !== landing?.entry);
  if (!failed || failed.class === 'lost') return cycleOver(model, published, failed, config, others);
  return landingFailed(model, failed, config);
}

/** The cycle is over: landed (its issues closed), or lost (its issues free to be worked again); its claim released. */
function cycleOver(
  model: SliceModel,
  published: PullRequestRecord | undefined,
  failed: LandingFailure | undefined,
  config: CoreConfig,
  others: SliceModel['loop']['outbox'],
): Step {
  const landing = model.landing;
  // Lost work is not done: its issues may be picked again. Landed work closes its issues now.
  const lostIds = failed && landing ? new Set(landing.entry.cycle.issueIds) : undefined;
  const closed = model.loop.issuesClosed;
  const landedIds = !failed ? (landing?.entry.closes ?? []).filter((id) => !closed.includes(id)) : [];
  const m: SliceModel = {
    ...model,
    landing: undefined,
    loop: {
      ...model.loop,
      currentCycle: undefined,
      outbox: others,
      issuesClosed: lostIds ? closed.filter((id) => !lostIds.has(id)) : [...closed, ...landedIds],
      ...(published ? { pullRequests: [...model.loop.pullRequests, published].slice(-100) } : {}),
    },
  };
  const lost: Effect[] =
    failed && landing
      ? [
          log(
            'warn',
            'cycle.lost',
            `The work on ${describeTargets(landing.entry.cycle)} is lost: ${failed.message}. Its issues stay open and are worked again.`,
            { issueIds: landing.entry.cycle.issueIds },
          ),
        ]
      : [];
  // The cycle is over (landed, or lost and free to be worked again): its claim is released, saying how it ended.
  if (landing) {
    const { entry } = landing;
    const ended: ClaimProgress = {
      state: failed ? 'lost' : entry.held ? 'held' : published ? 'pull_request' : entry.noChange ? 'no_change' : 'done',
      ...cycleProgress(model.loop, entry.cycle, entry.iteration),
      ...(published && !failed
        ? { pullRequest: { number: published.number, url: published.url, reused: published.reused } }
        : {}),
    };
    lost.push(...release(entry.cycle.issueIds, m, config, ended));
  }
  const freed: SliceModel = landing && config.leaseMs !== undefined ? { ...m, claimHeld: false } : m;
  if (landing?.resumed) {
    const next = started(freed, config);
    return { model: next.model, effects: [...lost, save(freed), ...next.effects] };
  }
  const after = afterCycle(freed, model.outcome ?? { delta: {} }, config);
  return { model: after.model, effects: [...lost, ...after.effects] };
}

/** The landing failed: a refusal halts, a transient failure waits out its backoff (or halts, given up). */
function landingFailed(model: SliceModel, failed: LandingFailure, config: CoreConfig): Step {
  const landing = model.landing;
  const attempts = (landing?.entry.attempts ?? 0) + 1;
  // Transient failures that go on for about a day halt as a refusal does: a person must look.
  const inRow = failed.class === 'transient' ? (landing?.entry.transientFailures ?? 0) + 1 : 0;
  const givenUp = failed.class === 'transient' && exhausted(LANDING_POLICY, inRow);
  const notBefore =
    failed.class === 'transient' && !givenUp
      ? rfc3339(new Date(Math.ceil((model.now + backoffMs(LANDING_POLICY, attempts)) / 1000) * 1000))
      : undefined;
  // A halt (a refusal, or given up) starts the row over: a resumed run has the whole policy again.
  const entry = landing && {
    ...landing.entry,
    attempts,
    transientFailures: givenUp ? undefined : inRow || undefined,
    lastError: failed.message,
    notBefore,
  };
  const m: SliceModel = {
    ...model,
    landing: undefined,
    outcome: undefined,
    loop: {
      ...model.loop,
      currentCycle: undefined,
      outbox: entry ? model.loop.outbox.map((e) => (e === landing?.entry ? entry : e)) : model.loop.outbox,
    },
  };
  if (failed.class === 'refused')
    return finish(m, config, 'halted', {
      reason: 'publish_refused',
      message: `PUBLISH REFUSED: ${failed.message}`,
      ...(failed.advice ? { advice: failed.advice } : {}),
    });
  if (givenUp)
    return finish(m, config, 'halted', {
      reason: 'publish_refused',
      message:
        `PUBLISH FAILING: landing the work on ${landing ? describeTargets(landing.entry.cycle) : 'the cycle'}` +
        ` failed ${inRow} times in a row, each time for a reason that should pass by itself (a server error, ` +
        `the network, a rate limit); the last: ${failed.message}`,
      advice:
        "Check the remote's status (GitHub's: https://www.githubstatus.com), the network from this machine " +
        'or runner, and the token. Resumed, the landing is tried again, its retries counted from the start; ' +
        'the agent does not run again for this work, which stays recorded in the outbox.',
    });
  return finish(m, config, 'continuing', undefined, false, [
    log(
      'warn',
      'cycle.landing_failed',
      `Could not land the work on ${landing ? describeTargets(landing.entry.cycle) : 'the cycle'} (attempt ` +
        `${attempts}): ${failed.message}. It stays recorded; a later run tries again from ${notBefore}, without running the agent.`,
      { attempts, notBefore, error: failed.message },
    ),
  ]);
}
