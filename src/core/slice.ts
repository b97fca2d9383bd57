/**
 * The engine's core, pure: one slice of the loop as `step(model, event) → (model, effects)`
 * (seed 001 REQ_019, seed 000 REQ_021, seed 002). It picks the next issues, keeps the run's and the
 * slice's bounds, starts cycles, hands each iteration to the workflow, finishes or escalates the
 * cycle, detects failure and bounce loops from the counters in the checkpoint, waits out rate
 * limits, and halts with a diagnostic. It performs nothing: src/loop/slice.ts performs the effects
 * through the ports and feeds back what happened. No processes, files or clocks here, so every path
 * is a unit test (__tests__/core/slice.test.ts).
 */
import { LANDING_POLICY, backoffMs, exhausted } from '../failure/policy.js';
import type { ClaimProgress } from '../issues/claims.js';
import { ESCALATED_LABEL } from '../issues/types.js';
import { OUTPUT_CHARS, issueRef } from '../report/diagnostic.js';
import { rfc3339 } from '../util/clock.js';
import { cycleBranchName } from './branch.js';
import { initialProgress } from './cycle.js';
import { describeTargets, seconds } from './describe.js';
import { type Terms, surface } from '../config/surface.js';
import { baselineHalt, foldBaseline } from './baseline.js';
import { buildDiagnostic } from './diagnostic.js';
import { foldIteration, toIterated } from './fold.js';
import {
  type IterationEffect,
  type IterationEvent,
  type IterationInFlight,
  type IterationMachine,
  untilFinish,
} from './iteration.js';
import type { SuiteRun } from '../verdict/results.js';
import {
  type Effect,
  type Event,
  type Halt,
  type IteratedOutcome,
  type LandingFailure,
  type NoticeResult,
  type PullRequestRecord,
  type ReadyIssue,
  type Status,
  log,
} from './events.js';
import { LIMIT_HALTS } from './haltReasons.js';
import type { CarriedCounts, CycleState, LoopState, Notice, OutboxEntry } from './state.js';
import type { LandingMode } from './landing.js';
import { JOB_LOCAL_HALTS } from './haltReasons.js';
import { cycleInFlight } from './inFlight.js';

export interface CoreSettings {
  /** Whose words the run's messages use: the CLI's flags (default) or the action's inputs. */
  terms?: Terms;
  maxIterations: number;
  sliceIterations?: number;
  sliceMinutes?: number;
  maxCostUsd?: number;
  /** Several ready issues in one cycle (--batch), when the workflow allows it. */
  batch: boolean;
  maxConsecutiveEscalations: number;
  onlyIssues?: readonly string[];
  /**
   * The issues live in the repository (beads) while the work is published from a runner that is
   * thrown away: the escalated label written into the issue file never reaches GitHub, so the
   * checkpoint's escalations decide instead of the label (an issue is tried again once edited).
   */
  closeOnBranch?: boolean;
  /** A fan-out job's: what its issue's earlier jobs counted (LoopState.issueCounts), for a cycle of that issue. */
  carried?: CarriedCounts;
  /**
   * A landing GitHub will refuse, seen before any agent ran (the action's preflight,
   * src/publish/preflight.ts): the slice halts publish_refused as it starts, after an earlier run's
   * notices and before anything else (a landing an earlier run left, an agent run).
   */
  refusedBeforehand?: { message: string; advice: string };
  /**
   * A person resumed this run's halted checkpoint by hand (--resume-halted, resume: true): a halt it
   * reaches before any agent ran is theirs to read in its output, not posted to Discord again
   * (haltPosted).
   */
  resumedByHand?: boolean;
  /** Halts are posted to Discord (a webhook is set): a halt that is not says why. */
  posts?: boolean;
  /** The test command (its baseline's halt names it). */
  testCommand?: string;
}

/**
 * Whether a halt is posted to Discord (issue 40). Not when the run was resumed by hand and halts
 * before any agent ran in it (only escalated issues left, GitHub still refusing, a limit still
 * reached): the person who resumed it is reading its output, and Discord was told of the halt they
 * resumed. Said in the run's log instead, when a webhook is set. Pure.
 */
export function haltPosted(model: Pick<SliceModel, 'loop' | 'sliceStartIteration'>, settings: CoreSettings): boolean {
  return !(settings.resumedByHand && model.loop.iteration === model.sliceStartIteration);
}

export interface CoreConfig {
  settings: CoreSettings;
  checkpointId: string;
  /** The slice's time bound (epoch ms). */
  deadline?: number;
  /** Work is published (pushed, pull requests): the runner is thrown away after the slice. */
  publishes: boolean;
  /** Cycles get a branch (there is a git repository). */
  branches: boolean;
  /**
   * Claims and leases (issue 14): set when the source claims issues (GitHub), the lease's length.
   * A cycle's issues are claimed before it opens (or resumes in a slice), renewed each iteration,
   * released when it lands or is escalated.
   */
  leaseMs?: number;
  /** How a finished cycle's work lands (landingMode), decided once per slice. */
  landing?: LandingMode;
  /** The slice is a job of run --parallel (its coordinator reduces the wave): some halts are the job's own end. */
  waveJob?: boolean;
  /** The workflow's iteration as a sub-machine of the core (src/core/iteration.ts). */
  machine: IterationMachine;
}

export interface SliceModel {
  loop: LoopState;
  /** The iteration the slice started at. */
  sliceStartIteration: number;
  /** Messages for the checkpoint's `errors`. */
  errors: string[];
  /** The time of the last event that carried one (epoch ms). */
  now: number;
  /** The resumed cycle's branch was checked out in this slice. */
  onCycleBranch: boolean;
  /** The issues chosen for the next cycle. */
  next?: ReadyIssue[];
  /** The cycle as the last iteration started on it. */
  cycle?: CycleState;
  /** The workflow's iteration in progress (its sub-machine's model), from the baseline to its outcome. */
  iteration?: IterationInFlight;
  /** The outcome still being acted on while its cycle is finished. */
  outcome?: IteratedOutcome;
  /** What the pending `checkSource` is for. */
  checking?: 'end' | 'finishCycle';
  /** What the pending `sleep` is for: the window carried over from the last slice, or a retry. */
  waking?: 'carried' | 'retry';
  /** The outbox entry the pending `finishCycle` lands; `resumed`: recorded by an earlier run. */
  landing?: { entry: OutboxEntry; resumed: boolean };
  /** The notices an earlier run left were sent at this slice's start. */
  noticesResent?: boolean;
  /** The status the slice ended with (finish): the save after its last notices keeps it. */
  ended?: Status;
  /** This slice holds the claim on the current (or next) cycle's issues (issue 14). */
  claimHeld?: boolean;
  /** The iteration count when the claim was last taken or renewed (one renewal per iteration). */
  claimRenewedAt?: number;
  /** What the pending `claimIssues` or `holdClaim` is for: a new cycle, the cycle this loop had in flight, its renewal. */
  claiming?: 'new' | 'resumed' | 'renewing';
  /** Issues left alone in this slice because another run's live claim holds them, logged once each. */
  claimedElsewhere?: string[];
}

export type Step = { model: SliceModel; effects: Effect[] };

export function initialModel(loop: LoopState, now: number): SliceModel {
  return { loop, sliceStartIteration: loop.iteration, errors: [], now, onCycleBranch: false };
}

export function step(model: SliceModel, event: Event, config: CoreConfig): Step {
  switch (event.type) {
    case 'started':
      return started({ ...model, now: event.now }, config);
    case 'woke': {
      const m = { ...model, now: event.now, waking: undefined };
      if (model.waking === 'carried')
        return { model: { ...m, loop: { ...m.loop, rateLimitedUntil: undefined } }, effects: [{ kind: 'next' }] };
      return { model: m, effects: [save(m), { kind: 'next' }] };
    }
    case 'tick': {
      const m = { ...model, now: event.now };
      if (event.aborted) return finish(m, config, 'continuing', undefined, true);
      if (!m.loop.currentCycle) return { model: m, effects: [{ kind: 'readIssues' }] };
      return beforeIteration(m, config);
    }
    case 'issuesRead':
      return issuesRead(model, event.ready, config);
    case 'issuesUnlisted':
      // Never "no issues": which are workable is unknown, so none is started; the next run lists them again.
      return finish(model, config, 'deferred', undefined, false, [
        log(
          'warn',
          'run.deferred',
          `Deferred: ${event.failed.message.replace(/\.$/, '')}. No issue is started on an incomplete list; the checkpoint keeps what this run did, and the next run lists the issues again.`,
          { what: event.failed.what, status: event.failed.status },
        ),
      ]);
    case 'sourceChecked': {
      const m = { ...model, checking: undefined };
      // A cycle about to be recorded stays in flight: nothing of it was committed, so it closed nothing yet.
      if (event.unreadable)
        return finish(
          model.checking === 'finishCycle' && model.cycle ? notClosed(m, model.cycle.issueIds) : m,
          config,
          'halted',
          event.unreadable,
        );
      if (model.checking === 'finishCycle' && model.cycle) {
        // Record before act: the finished cycle goes into the outbox, with the iteration's counts, before
        // anything is committed or pushed; a run that dies or is refused from here on lands it later,
        // without running the agent again.
        // Where work is published, its issues count as closed only once it has landed (cycleFinished).
        const closes = config.publishes ? model.cycle.issueIds.filter((id) => m.loop.issuesClosed.includes(id)) : [];
        const actions = model.outcome?.issueActions ?? [];
        const entry: OutboxEntry = {
          kind: 'finishCycle',
          cycle: model.cycle,
          noChange: !!model.outcome?.noChange,
          iteration: m.loop.iteration,
          recordedAt: rfc3339(new Date(m.now)),
          attempts: 0,
          ...(closes.length ? { closes } : {}),
          // The issues' close or label travels with the work: performed before its commit, again by a later run until done.
          ...(actions.length ? { issueActions: actions } : {}),
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
    case 'cycleOpened': {
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
    case 'baselineRan':
      return baselineRan(model, event, config);
    case 'iterated':
      return iterated(model, event.outcome, event.now, config);
    case 'cycleCommitted': {
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
    case 'cycleFinished':
      return cycleFinished(model, event.published, event.failed, config);
    case 'refused':
      // Refused while landing this slice's cycle (its commit held a secret, or the repository moved):
      // nothing of it was committed, so it is the cycle again, not work to land: a runner thrown
      // away meanwhile would otherwise land whatever older wip: of the branch GitHub holds.
      return finish(unrecord(model), config, 'halted', {
        reason: event.reason,
        message:
          event.reason === 'repository_moved'
            ? `REPOSITORY MOVED: ${event.message}`
            : `SECRET IN CHANGE: ${event.message}; nothing was committed`,
      });
    case 'noticesSent':
      return noticesSent(model, event.results);
    case 'claimed':
      return claimed(model, event.lost, event.adopted, config);
    case 'crashed':
      if (event.unreadable) return finish(model, config, 'halted', event.unreadable);
      return { model, effects: [{ kind: 'rethrow' }] };
    case 'cycleIssuesRead':
    case 'agentRan':
    case 'closedRead':
    case 'judged':
    case 'notesRead':
    case 'headRead':
    case 'workRead':
    case 'filesRead':
    case 'testsRan':
    case 'noteWritten':
      return iterationStepped(model, event, config);
    case 'interrupted':
      return finish({ ...model, iteration: undefined }, config, 'continuing', undefined, true);
  }
}

/** The workflow's iteration begins (its sub-machine, CoreConfig.machine), after `before` (the baseline kept, the checkpoint saved). */
function startIteration(model: SliceModel, before: Effect[], baseline: SuiteRun | undefined, config: CoreConfig): Step {
  const started = config.machine.start(model.loop, baseline);
  return subStep({ ...model, iteration: { before: model.loop, sub: started.sub } }, started.effects, before, config);
}

/** One of the iteration's events, stepped by its sub-machine. */
function iterationStepped(model: SliceModel, event: IterationEvent, config: CoreConfig): Step {
  const held = model.iteration;
  if (!held) throw new Error(`agent-loop: ${event.type} with no iteration in progress`);
  const stepped = config.machine.step(held.sub, event);
  const now = 'now' in event ? event.now : model.now;
  return subStep({ ...model, iteration: { ...held, sub: stepped.sub } }, stepped.effects, [], config, now);
}

/** The sub-machine's effects asked as the core's; once it finishes, its outcome folded in as any iteration's. */
function subStep(
  model: SliceModel,
  effects: IterationEffect[],
  before: Effect[],
  config: CoreConfig,
  now = model.now,
): Step {
  const split = untilFinish(effects);
  const held = model.iteration;
  if (!split.outcome || !held) return { model, effects: [...before, ...split.effects] };
  const done = iterated({ ...model, iteration: undefined }, toIterated(held.before, split.outcome), now, config);
  return { model: done.model, effects: [...before, ...split.effects, ...done.effects] };
}

/**
 * The cycle's baseline, folded into the loop state and judged: one that gives no verdict halts
 * (`baseline_unreadable`); one run now and sound is kept; then the iteration.
 */
function baselineRan(model: SliceModel, event: Extract<Event, { type: 'baselineRan' }>, config: CoreConfig): Step {
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

/**
 * The slice opens: work an earlier run finished and could not land is landed first (the agent does
 * not run for it); then a rate-limit window carried over from the previous slice is waited out.
 */
function started(model: SliceModel, config: CoreConfig): Step {
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
function land(model: SliceModel, entry: OutboxEntry, config: CoreConfig, resumed: boolean): Step {
  const what = `the work on ${describeTargets(entry.cycle)} (finished at iteration ${entry.iteration})`;
  if (resumed && entry.notBefore !== undefined && Date.parse(entry.notBefore) > model.now)
    return finish(model, config, 'continuing', undefined, false, [
      log(
        'info',
        'cycle.landing_later',
        `Landing ${what} failed ${entry.attempts} time(s), last: ${entry.lastError ?? 'unknown'}. The next attempt is due at ${entry.notBefore}; nothing else runs before it.`,
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

function finishCycleEffect(entry: OutboxEntry, resumed: boolean): Effect {
  return {
    kind: 'finishCycle',
    cycle: entry.cycle,
    noChange: entry.noChange,
    ...(resumed ? { resumed } : {}),
    ...(entry.tip ? { tip: entry.tip } : {}),
    ...(entry.committed !== undefined ? { committed: entry.committed } : {}),
    ...(entry.issueActions ? { issueActions: entry.issueActions } : {}),
  };
}

/** Records a notice in the outbox: saved before it is sent, dropped once `noticesSent` says it is done. */
function recordNotice(model: SliceModel, what: Notice['what'], status?: Status): Step {
  const at = rfc3339(new Date(model.now));
  const notice: Notice = {
    id: `${what.kind}-${model.loop.iteration}-${at}-${model.loop.notices.length}`,
    what,
    recordedAt: at,
    attempts: 0,
  };
  const m = { ...model, loop: { ...model.loop, notices: [...model.loop.notices, notice] } };
  return { model: m, effects: [save(m, status), { kind: 'sendNotice', notice }] };
}

/** The notices sent: the done ones leave the outbox, the others stay for the next run, counted. */
function noticesSent(model: SliceModel, results: readonly NoticeResult[]): Step {
  const byId = new Map(results.map((r) => [r.id, r]));
  const notices = model.loop.notices
    .filter((n) => !byId.get(n.id)?.done)
    .map((n) => {
      const r = byId.get(n.id);
      return r ? { ...n, attempts: n.attempts + 1, ...(r.error ? { lastError: r.error } : {}) } : n;
    });
  const m = { ...model, loop: { ...model.loop, notices } };
  return { model: m, effects: [save(m, model.ended)] };
}

/**
 * The cycle of a landing begun in this slice back in flight, its outbox entry dropped, its issues
 * no longer counted closed (nothing of it was committed: the run that lands it closes them).
 */
function unrecord(model: SliceModel): SliceModel {
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
function notClosed(model: SliceModel, ids: readonly string[]): SliceModel {
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
function cycleFinished(
  model: SliceModel,
  published: PullRequestRecord | undefined,
  failed: LandingFailure | undefined,
  config: CoreConfig,
): Step {
  const landing = model.landing;
  // The entry in flight is the outbox's first: older ones are landed before anything else runs.
  const others = model.loop.outbox.filter((e) => e !== landing?.entry);
  if (!failed || failed.class === 'lost') {
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
        state: failed ? 'lost' : published ? 'pull_request' : entry.noChange ? 'no_change' : 'done',
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
      message: `PUBLISH FAILING: landing the work on ${landing ? describeTargets(landing.entry.cycle) : 'the cycle'} failed ${inRow} times in a row, each time for a reason that should pass by itself (a server error, the network, a rate limit); the last: ${failed.message}`,
      advice:
        "Check the remote's status (GitHub's: https://www.githubstatus.com), the network from this machine or runner, and the token. Resumed, the landing is tried again, its retries counted from the start; the agent does not run again for this work, which stays recorded in the outbox.",
    });
  return finish(m, config, 'continuing', undefined, false, [
    log(
      'warn',
      'cycle.landing_failed',
      `Could not land the work on ${landing ? describeTargets(landing.entry.cycle) : 'the cycle'} (attempt ${attempts}): ${failed.message}. It stays recorded; a later run tries again from ${notBefore}, without running the agent.`,
      { attempts, notBefore, error: failed.message },
    ),
  ]);
}

/** The issues of escalations whose label is still to be written (markEscalated notices: refused, or a run killed first), once each. Pure. */
export function unlabelledEscalations(loop: Pick<LoopState, 'notices'>): string[] {
  return [...new Set(loop.notices.flatMap((n) => (n.what.kind === 'markEscalated' ? n.what.issueIds : [])))];
}

/** What to work on next: the ready issues, less those done in this run and the escalated ones. */
export function selectTargets(
  ready: readonly ReadyIssue[],
  loop: LoopState,
  batch: boolean,
  sliceStartIteration: number,
  only?: readonly string[],
  /** The checkpoint's escalations stand in for the label (CoreSettings.closeOnBranch). */
  labelsDoNotLast = false,
): { targets: ReadyIssue[]; escalated: string[] } {
  // Issues closed in this run stay done even when the base branch's issue file still lists them
  // open (--on-success branch leaves the closing commit on the cycle's branch).
  const open = ready.filter(
    (i) => !loop.issuesClosed.includes(i.id) && !loop.issuesNoChange.includes(i.id) && (!only || only.includes(i.id)),
  );
  // Across slices the label decides (removing it makes the issue eligible again), or the checkpoint
  // where the label does not last, unless the issue was edited since its escalation; within this
  // slice the escalations themselves, in case a label could not be written.
  const inThisSlice = new Set(
    loop.escalations.filter((e) => e.iteration > sliceStartIteration).flatMap((e) => e.issueIds),
  );
  const everEscalated = new Set(labelsDoNotLast ? loop.escalations.flatMap((e) => e.issueIds) : []);
  // An escalation whose label is still to be sent (a notice a killed run left) is labelled all the same.
  const labelling = new Set(unlabelledEscalations(loop));
  const labelled = (i: ReadyIssue) =>
    i.labels.includes(ESCALATED_LABEL) || labelling.has(i.id) || everEscalated.has(i.id);
  const isEscalated = (i: ReadyIssue) => inThisSlice.has(i.id) || (labelled(i) && !editedSinceEscalation(i, loop));
  const eligible = open.filter((i) => !isEscalated(i));
  return { targets: batch ? eligible : eligible.slice(0, 1), escalated: open.filter(isEscalated).map((i) => i.id) };
}

/**
 * The issue's title or body changed since the loop last escalated it (its fingerprint then and now
 * differ): whatever made it fail may be what the edit fixed. An escalation that recorded no
 * fingerprint (an older checkpoint) or an issue read without one says nothing.
 */
export function editedSinceEscalation(issue: ReadyIssue, loop: Pick<LoopState, 'escalations'>): boolean {
  if (issue.fingerprint === undefined) return false;
  for (let k = loop.escalations.length - 1; k >= 0; k--) {
    const then = loop.escalations[k]?.fingerprints?.[issue.id];
    if (then !== undefined) return then !== issue.fingerprint;
  }
  return false;
}

function issuesRead(model: SliceModel, listed: ReadyIssue[], config: CoreConfig): Step {
  // Issues another run is working on are left alone (issue 14), each logged once per slice.
  const { free: ready, claimed, newly } = leaveClaimed(listed, model.claimedElsewhere ?? [], config.checkpointId);
  if (newly.length > 0) {
    const m: SliceModel = {
      ...model,
      claimedElsewhere: [...(model.claimedElsewhere ?? []), ...newly.map((i) => i.id)],
    };
    const next = issuesRead(m, listed, config);
    return {
      model: next.model,
      effects: [
        ...newly.map((i) =>
          log(
            'info',
            'claim.skipped',
            `Skipped ${issueRef(i.id)}: run ${i.claimedBy?.run} is working on it (its lease runs until ${i.claimedBy?.expires}); it is left to that run.`,
            { issueId: i.id, run: i.claimedBy?.run, expires: i.claimedBy?.expires },
          ),
        ),
        ...next.effects,
      ],
    };
  }
  const { targets, escalated } = selectTargets(
    ready,
    model.loop,
    config.settings.batch,
    model.sliceStartIteration,
    config.settings.onlyIssues,
    config.settings.closeOnBranch,
  );
  if (targets.length === 0) {
    if (escalated.length > 0 && claimed.length === 0)
      return finish(model, config, 'halted', {
        reason: 'all_escalated',
        message: `ALL ISSUES ESCALATED: only escalated issues remain (${escalated.map(issueRef).join(', ')})`,
      });
    return { model: { ...model, checking: 'end' }, effects: [{ kind: 'checkSource' }] };
  }
  return beforeIteration({ ...model, next: targets }, config);
}

/**
 * What an issue brought from its earlier waves' jobs, for a cycle of that one issue (nothing for any
 * other cycle): a fan-out job's `carried`, else the loop's issueCounts (a serial run after a wave).
 * Its stuck checks then count every wave's runs. Pure.
 */
function carriedCounts(
  loop: LoopState,
  carried: CoreSettings['carried'],
  next: readonly { id: string }[],
): Partial<Pick<CycleState, 'unfinishedRuns' | 'silentIterations'>> {
  const id = next.length === 1 ? next[0]?.id : undefined;
  if (id === undefined) return {};
  const counts = carried?.issueId === id ? carried : loop.issueCounts?.[id];
  if (!counts) return {};
  return {
    ...(counts.unfinishedRuns > 0 ? { unfinishedRuns: counts.unfinishedRuns } : {}),
    ...(counts.silentIterations > 0 ? { silentIterations: counts.silentIterations } : {}),
  };
}

/** `counts` without the entries of `ids`; absent when none is left. Pure. */
function without(counts: LoopState['issueCounts'], ids: readonly string[]): LoopState['issueCounts'] {
  if (!counts || !ids.some((id) => id in counts)) return counts;
  const left = Object.fromEntries(Object.entries(counts).filter(([id]) => !ids.includes(id)));
  return Object.keys(left).length > 0 ? left : undefined;
}

/** The run's bounds, then the slice's; then a new cycle, or the resumed one on its branch. */
function beforeIteration(model: SliceModel, config: CoreConfig): Step {
  const { settings, checkpointId, deadline } = config;
  const loop = model.loop;
  if (loop.iteration >= settings.maxIterations)
    return finish(model, config, 'halted', {
      reason: 'max_iterations',
      message: `Max iterations (${settings.maxIterations}) reached`,
    });
  if (settings.maxCostUsd !== undefined && loop.costUsd >= settings.maxCostUsd)
    return finish(model, config, 'halted', {
      reason: 'budget',
      message: `Budget reached: $${loop.costUsd.toFixed(4)} spent of the $${settings.maxCostUsd} cap (${surface(settings.terms).option('maxCostUsd')})`,
    });
  const sliceDone = loop.iteration - model.sliceStartIteration;
  if (settings.sliceIterations !== undefined && sliceDone >= settings.sliceIterations)
    return finish(model, config, 'continuing', undefined, false, [
      log(
        'info',
        'slice.end',
        `Slice bound reached (${sliceDone} iterations): checkpoint ${checkpointId} continues next run.`,
      ),
    ]);
  if (deadline !== undefined && model.now >= deadline)
    return finish(model, config, 'continuing', undefined, false, [
      log(
        'info',
        'slice.end',
        `Slice time bound reached (${settings.sliceMinutes} min): checkpoint ${checkpointId} continues next run.`,
      ),
    ]);
  if (!loop.currentCycle && model.next) {
    const next = model.next;
    // Claimed before the cycle opens (issue 14): a run that loses the race leaves the issue. Record
    // before act: the checkpoint is saved first, so that a run of this loop killed after claiming
    // finds the claim its own (by the checkpoint it names) instead of waiting out the lease.
    if (config.leaseMs !== undefined && !model.claimHeld) {
      const own = next.some((i) => i.claimedBy !== undefined && i.claimedBy.checkpoint === config.checkpointId);
      const c = claim(
        model,
        config,
        next.map((i) => i.id),
        'new',
        own,
      );
      return { model: c.model, effects: [save(model), ...c.effects] };
    }
    const fingerprints = Object.fromEntries(
      next.flatMap((i) => (i.fingerprint !== undefined ? [[i.id, i.fingerprint]] : [])),
    );
    const carried = carriedCounts(loop, config.settings.carried, next);
    const cycle: CycleState = {
      issueIds: next.map((i) => i.id),
      titles: next.map((i) => i.title),
      startedAtIteration: loop.iteration + 1,
      iterations: 0,
      sameWorkRemainingCount: 0,
      progress: initialProgress(),
      timeoutRetries: 0,
      rateLimitAttempts: 0,
      ...carried,
      ...(config.branches ? { branch: cycleBranchName(next.map((i) => i.id)) } : {}),
      ...(Object.keys(fingerprints).length > 0 ? { fingerprints } : {}),
    };
    const edited = next.filter((i) => editedSinceEscalation(i, loop));
    const retried = edited.length
      ? [
          log(
            'info',
            'issue.edited',
            `${edited.map((i) => issueRef(i.id)).join(', ')} ${edited.length === 1 ? 'was' : 'were'} edited since ${edited.length === 1 ? 'its' : 'their'} escalation: trying again.`,
            { issueIds: edited.map((i) => i.id) },
          ),
        ]
      : [];
    return { model, effects: [...retried, { kind: 'openCycle', cycle }] };
  }
  const current = loop.currentCycle;
  // The cycle this loop had in flight: claimed again before its branch is entered (another run may
  // have taken it over once its lease expired); then the lease is renewed at each iteration.
  if (config.leaseMs !== undefined && current && !model.claimHeld)
    return claim(model, config, current.issueIds, 'resumed');
  // Renewed, and answered: a claim taken over meanwhile (this loop's lease ran out during a long
  // iteration) drops the cycle before the agent runs again.
  if (config.leaseMs !== undefined && current && model.claimRenewedAt !== loop.iteration)
    return {
      model: { ...model, claiming: 'renewing' },
      effects: [
        {
          kind: 'holdClaim',
          issueIds: current.issueIds,
          expires: leaseEnd(model, config.leaseMs),
          progress: working(model, current),
        },
      ],
    };
  const branch = current?.branch;
  const enter: Effect[] = branch && !model.onCycleBranch ? [{ kind: 'enterCycleBranch', branch }] : [];
  return { model: { ...model, onCycleBranch: true }, effects: [...enter, { kind: 'runBaseline' }] };
}

/** The lease taken or renewed now ends at this time (RFC 3339, whole seconds up). */
function leaseEnd(model: SliceModel, leaseMs: number): string {
  return rfc3339(new Date(Math.ceil((model.now + leaseMs) / 1000) * 1000));
}

/** `ownEarlier`: a run of this loop claimed these issues before it was killed: that claim is taken on in place. */
function claim(
  model: SliceModel,
  config: CoreConfig,
  issueIds: string[],
  claiming: 'new' | 'resumed',
  ownEarlier = false,
): Step {
  return {
    model: { ...model, claiming },
    effects: [
      {
        kind: 'claimIssues',
        issueIds,
        expires: leaseEnd(model, config.leaseMs ?? 0),
        resuming: claiming === 'resumed' || ownEarlier,
        progress: working(model, claiming === 'resumed' ? model.loop.currentCycle : undefined),
      },
    ],
  };
}

/** The claim's answer: the cycle goes on (opens, or resumes), or its issue is left to the run that holds it. */
function claimed(
  model: SliceModel,
  lost: { id: string; run: string; expires: string } | undefined,
  adopted: string[],
  config: CoreConfig,
): Step {
  // A renewal that finds the claim taken over is the resumed cycle's case: the cycle is theirs.
  const resumed = model.claiming === 'resumed' || model.claiming === 'renewing';
  const m: SliceModel = { ...model, claiming: undefined };
  if (lost) {
    const claimedElsewhere = [...new Set([...(m.claimedElsewhere ?? []), lost.id])];
    if (!resumed)
      return {
        model: { ...m, next: undefined, claimedElsewhere },
        effects: [
          log(
            'info',
            'claim.lost',
            `Left ${issueRef(lost.id)} to run ${lost.run}, which claimed it first (its lease runs until ${lost.expires}).`,
            { issueId: lost.id, run: lost.run, expires: lost.expires },
          ),
          { kind: 'next' },
        ],
      };
    // This loop's lease had expired and another run took the cycle over: it is theirs now.
    const dropped: SliceModel = {
      ...m,
      cycle: undefined,
      claimedElsewhere,
      loop: { ...m.loop, currentCycle: undefined },
    };
    return {
      model: dropped,
      effects: [
        log(
          'warn',
          'claim.lost',
          `The cycle on ${issueRef(lost.id)} was taken over by run ${lost.run} after this loop's lease expired (its lease runs until ${lost.expires}); this loop leaves it to that run.`,
          { issueId: lost.id, run: lost.run, expires: lost.expires },
        ),
        save(dropped),
        { kind: 'next' },
      ],
    };
  }
  const held: SliceModel = { ...m, claimHeld: true, claimRenewedAt: m.loop.iteration };
  const ids = resumed ? (m.loop.currentCycle?.issueIds ?? []) : (m.next ?? []).map((i) => i.id);
  const go = beforeIteration(held, config);
  const took: Effect[] =
    adopted.length > 0
      ? [
          log(
            'info',
            'claim.adopted',
            `Took over ${ids.map(issueRef).join(', ')} from run ${adopted.join(', ')}, whose lease expired without a release (the run died): its branch and pull request, if any, are continued.`,
            { issueIds: ids, runs: adopted },
          ),
        ]
      : [];
  return { model: go.model, effects: [...took, ...go.effects] };
}

/** The claims of a finished cycle's issues released (where the source claims), saying how it ended. */
function release(issueIds: string[], model: SliceModel, config: CoreConfig, progress: ClaimProgress): Effect[] {
  return config.leaseMs !== undefined
    ? [{ kind: 'releaseClaim', issueIds, at: rfc3339(new Date(model.now)), progress }]
    : [];
}

/**
 * A cycle's iterations and spend up to iteration `upTo` (issue 15, the claim comment): one cycle
 * runs at a time, so the loop's iterations from the cycle's first are its own; the spend is what
 * the agent reported for them in the history.
 */
export function cycleProgress(
  loop: LoopState,
  cycle: CycleState,
  upTo: number,
): { iterations: number; costUsd?: number } {
  const from = cycle.startedAtIteration;
  const spent = loop.history
    .filter((h) => h.n >= from && h.n <= upTo && h.agent.costUsd !== undefined)
    .reduce((sum, h) => sum + (h.agent.costUsd ?? 0), 0);
  return { iterations: Math.max(0, upTo - from + 1), ...(spent > 0 ? { costUsd: spent } : {}) };
}

/** The claim comment while the cycle runs: its iterations and spend so far (none before it opens). */
function working(model: SliceModel, cycle: CycleState | undefined): ClaimProgress {
  return { state: 'working', ...(cycle ? cycleProgress(model.loop, cycle, model.loop.iteration) : { iterations: 0 }) };
}

/**
 * Beads issues where work is published (closeOnBranch): a cycle that needed no change still closed
 * its issue in the repository's issues file, a change that lands like any other (not a branch
 * dropped). Pure.
 */
function landsAsChange(outcome: IteratedOutcome, settings: Pick<CoreSettings, 'closeOnBranch'>): IteratedOutcome {
  return settings.closeOnBranch && outcome.noChange ? { ...outcome, noChange: false } : outcome;
}

function iterated(model: SliceModel, told: IteratedOutcome, now: number, config: CoreConfig): Step {
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
function afterCycle(model: SliceModel, outcome: IteratedOutcome, config: CoreConfig): Step {
  let m: SliceModel = { ...model, outcome: undefined };
  const effects: Effect[] = [];
  if (outcome.escalate && m.loop.currentCycle) {
    const e = escalate(m, outcome.escalate.reason, outcome.escalate.bounceLoop, config);
    m = e.model;
    effects.push(...e.effects);
    if (e.halt) return finish(m, config, 'halted', e.halt, false, effects, e.after);
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

/** Records an escalated cycle in the checkpoint and the source; a failure or bounce loop halts. */
function escalate(
  model: SliceModel,
  reason: string,
  bounceLoop: boolean,
  config: CoreConfig,
): Step & { halt?: Halt; after?: Effect[] } {
  const { settings } = config;
  let loop = model.loop;
  const cycle = cycleInFlight(loop);
  const at = rfc3339(new Date(model.now));
  const note = `agent-loop escalated this issue at iteration ${loop.iteration} (${at}): ${reason}. Remove the ${ESCALATED_LABEL} label to let agent-loop try it again.`;
  const record = {
    issueIds: cycle.issueIds,
    titles: cycle.titles,
    iteration: loop.iteration,
    steps: [...new Set(cycle.progress.trail)],
    reason,
    at,
    note,
    ...(cycle.lastFailure
      ? { lastFailure: { ...cycle.lastFailure, tail: cycle.lastFailure.tail.slice(-OUTPUT_CHARS) } }
      : {}),
    ...(cycle.fingerprints ? { fingerprints: cycle.fingerprints } : {}),
  };
  loop = {
    ...loop,
    issuesEscalated: [...loop.issuesEscalated, ...cycle.issueIds.filter((id) => !loop.issuesEscalated.includes(id))],
    consecutiveEscalations: loop.consecutiveEscalations + 1,
    totalEscalations: loop.totalEscalations + 1,
    escalations: [...loop.escalations, record].slice(-100),
  };
  const effects: Effect[] = [
    log(
      'error',
      'cycle.escalated',
      `Escalated ${describeTargets(cycle)}: ${reason} (${loop.consecutiveEscalations} escalation(s) in a row, limit ${settings.maxConsecutiveEscalations}).`,
      {
        issueIds: cycle.issueIds,
        reason,
        steps: record.steps,
        consecutiveEscalations: loop.consecutiveEscalations,
        bounceLoop,
      },
    ),
  ];
  const refs = (ids: string[]) => ids.map(issueRef).join(', ');
  let halt: Halt | undefined;
  if (bounceLoop) {
    halt = {
      reason: 'bounce_loop',
      message: `BOUNCE LOOP DETECTED: ${cycle.progress.bounces} step-back transitions in cycle for issue ${refs(cycle.issueIds)} (${cycle.progress.trail.join(', ')})`,
    };
  } else if (loop.consecutiveEscalations >= settings.maxConsecutiveEscalations) {
    const recent = loop.escalations.slice(-loop.consecutiveEscalations).flatMap((e) => e.issueIds);
    halt = {
      reason: 'failure_loop',
      message: `FAILURE LOOP DETECTED: ${loop.consecutiveEscalations} consecutive escalations (issues ${refs(recent)}); last: ${reason}`,
    };
  }
  // The escalated cycle is over: its claim is released after the label (the escalated label keeps runs
  // off it), as part of the same notice, so a run killed before the release leaves it to the next run.
  const leased = config.leaseMs !== undefined;
  const claimState = leased ? { claimHeld: false } : {};
  // The label and the note are a notice: recorded in the outbox, then sent (again by a later run until done).
  // Record before act: the escalation and its notice are saved (with the halt, when it halts) before
  // the wip: push and the label, so a run killed during either never works the cycle again.
  const l = recordNotice(
    { ...model, ...claimState, loop: { ...loop, currentCycle: undefined } },
    {
      kind: 'markEscalated',
      issueIds: cycle.issueIds,
      note,
      ...(leased ? { releaseClaims: true, progress: cycleProgress(loop, cycle, loop.iteration) } : {}),
    },
  );
  const [recorded, send] = l.effects as [Effect, Effect];
  const shelve: Effect[] = [{ kind: 'shelveCycle', cycle, reason, halting: !!halt }];
  if (halt && !config.publishes) {
    // Nothing moves on a halt: the label goes into the working tree as it is, and the cycle's
    // branch and edits stay for inspection (the next run parks them).
    const parked = { ...l.model, loop: { ...l.model.loop, parkedBranch: cycle.branch } };
    return { model: parked, effects, halt, after: [send] };
  }
  if (halt) return { model: l.model, effects, halt, after: [...shelve, send] };
  return { model: l.model, effects: [...effects, recorded, ...shelve, send] };
}

function save(model: SliceModel, status: Status = 'continuing'): Effect {
  return { kind: 'save', status, loop: model.loop, errors: model.errors };
}

/** The slice ends: the halt's diagnostic, the checkpoint, the open cycle kept where work is published. */
function finish(
  model: SliceModel,
  config: CoreConfig,
  status: Status,
  halt?: Halt,
  interrupted = false,
  before: Effect[] = [],
  /** Effects to perform right after the halt's save (an escalation's push and label, recorded in it). */
  after: Effect[] = [],
  /** A cycle the halt gave up before any agent worked on it: the diagnostic names it, the state no longer holds it. */
  givenUp?: CycleState,
): Step {
  let m = model;
  const effects: Effect[] = [...before];
  if (halt) {
    m = {
      ...m,
      loop: {
        ...m.loop,
        halt: {
          reason: halt.reason,
          message: halt.message,
          ...(halt.advice ? { advice: halt.advice } : {}),
          at: rfc3339(new Date(m.now)),
        },
      },
      errors: [...m.errors, halt.message],
    };
    const diagnostic = buildDiagnostic({
      reason: halt.reason,
      message: halt.message,
      state: givenUp ? { ...m.loop, currentCycle: givenUp } : m.loop,
      checkpointId: config.checkpointId,
      maxConsecutiveEscalations: config.settings.maxConsecutiveEscalations,
      advice: halt.advice,
      terms: config.settings.terms ?? 'cli',
    });
    // A wave job's share or issue ran out: its end, not the run's halt (the coordinator's reduce decides that).
    const jobLocal = config.waveJob === true && JOB_LOCAL_HALTS.has(halt.reason);
    effects.push({ kind: 'recordHalt', halt, diagnostic, ...(jobLocal ? { jobLocal } : {}) });
    if (haltPosted(m, config.settings)) {
      // The Discord post: recorded (saved with the halt), then sent.
      const posted = recordNotice({ ...m, ended: status }, { kind: 'notify', diagnostic: { ...diagnostic } }, status);
      m = posted.model;
      const [saved, post] = posted.effects as [Effect, Effect];
      effects.push(saved, ...after, post);
    } else {
      m = { ...m, ended: status };
      effects.push(save(m, status), ...after);
      if (config.settings.posts)
        effects.push(
          log(
            'info',
            'discord.skipped',
            `Not posted to Discord: this run was resumed by hand (${surface(config.settings.terms).given('resumeHalted')}) and halted before any agent ran, so whoever resumed it reads the halt here; Discord was told of the halt it resumed.`,
          ),
        );
    }
  } else {
    m = { ...m, ended: status };
    effects.push(save(m, status), ...after);
  }
  // A cycle still in flight at the slice's end: on a runner that is thrown away its branch is
  // pushed (work as wip:), and the next slice fetches it. Also when a bound ends it (iterations or
  // spend used up: a wave's job whose share ran out): the work is sound, the run resumes it.
  const open = m.loop.currentCycle;
  const bound = status === 'halted' && halt !== undefined && LIMIT_HALTS.has(halt.reason);
  if (config.publishes && open?.branch && (status === 'continuing' || bound))
    effects.push({
      kind: 'keepOpenCycle',
      branch: open.branch,
      message:
        `wip: ${open.issueIds.join(' ')} (${bound ? `${halt?.reason} reached` : 'slice ended'} at iteration ${m.loop.iteration})`.slice(
          0,
          120,
        ),
    });
  effects.push({ kind: 'done', status, interrupted });
  return { model: m, effects };
}

/**
 * Issue 14: the listed issues another run's live claim holds (or that one held earlier in this
 * slice: `skipped`) are left alone; `newly`: those not logged yet. Pure.
 */
export function leaveClaimed(
  listed: readonly ReadyIssue[],
  skipped: readonly string[],
  ownCheckpoint?: string,
): { free: ReadyIssue[]; claimed: ReadyIssue[]; newly: ReadyIssue[] } {
  // A claim of this loop's own checkpoint (a run of it killed after claiming) is this run's to take on.
  const elsewhere = (i: ReadyIssue) => i.claimedBy !== undefined && i.claimedBy.checkpoint !== ownCheckpoint;
  const claimed = listed.filter((i) => elsewhere(i) || skipped.includes(i.id));
  return {
    free: listed.filter((i) => !claimed.includes(i)),
    claimed,
    newly: claimed.filter((i) => !skipped.includes(i.id)),
  };
}
