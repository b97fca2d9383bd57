/**
 * The engine's core, pure: one slice of the loop as `step(model, event) → (model, effects)`
 * (seed 001 REQ_019, seed 000 REQ_021, seed 002). It picks the next issues, keeps the run's and the
 * slice's bounds, starts cycles, hands each iteration to the workflow, finishes or escalates the
 * cycle, detects failure and bounce loops from the counters in the checkpoint, waits out rate
 * limits, and halts with a diagnostic. It performs nothing: src/loop/slice.ts performs the effects
 * through the ports and feeds back what happened. No processes, files or clocks here, so every path
 * is a unit test (__tests__/core/slice.test.ts). Its parts, by what they decide: model.ts (what a
 * slice is given and keeps), targets.ts (which issues next), claims.ts (leases), iterationSteps.ts
 * (the baseline and the workflow's iteration, a sub-machine), outcome.ts (an iteration's outcome),
 * escalate.ts, landingSteps.ts (the slice's opening, a cycle's landing), finish.ts (the save, the
 * notices, the slice's end), haltReads.ts (what a halt keeps of the world, read before each of its
 * saves); here each event is routed, and what comes before an iteration decided.
 */
import { issueRef } from '../report/diagnostic.js';
import { cycleBranchName } from './branch.js';
import { leaveUnbranchable, unbranchableLog } from './unbranchable.js';
import { initialProgress } from './cycle.js';
import { surface } from '../config/surface.js';
import { type Effect, type Event, type ReadyIssue, log } from './events.js';
import type { CycleState } from './state.js';
import { type CoreConfig, type SliceModel, type Step } from './model.js';
import { save, finish } from './finish.js';
import { leaseEnd, claim, working, leaveClaimed, claimLost } from './claims.js';
import { baselineRan, iterationStepped } from './iterationSteps.js';
import { started, noticesSent, cycleFinished } from './landingSteps.js';
import { recordTips } from './cycleTips.js';
import { woke, issuesUnlisted, sourceChecked, cycleOpened, cycleCommitted, refused } from './sliceEvents.js';
import { selectTargets, editedSinceEscalation, carriedCounts } from './targets.js';
import { haltRead, readBeforeSaving } from './haltReads.js';
import { leaveWaiting, readIssuesEffect } from './waiting.js';

export { type CoreSettings, type CoreConfig, type SliceModel, type Step, haltPosted, initialModel } from './model.js';
export { cycleProgress, leaveClaimed } from './claims.js';
export { editedSinceEscalation, selectTargets, unlabelledEscalations } from './targets.js';

export function step(model: SliceModel, event: Event, config: CoreConfig): Step {
  // A read before a halted loop's save answered: the save it held goes on (haltReads.ts).
  if (event.type === 'baseTipRead' || event.type === 'leftIssuesRead') return haltRead(model, event, config);
  return readBeforeSaving(route(model, event, config), config);
}

function route(model: SliceModel, event: Event, config: CoreConfig): Step {
  switch (event.type) {
    case 'started':
      return started({ ...model, now: event.now }, config);
    case 'woke':
      return woke(model, event);
    case 'tick': {
      const m = { ...model, now: event.now };
      if (event.aborted) return finish(m, config, 'continuing', undefined, true);
      if (!m.loop.currentCycle) return { model: m, effects: [readIssuesEffect(m, config)] };
      return beforeIteration(m, config);
    }
    case 'issuesRead': {
      const left = leaveWaiting(model, event.ready, event.inReview, event.onBranch);
      const next = issuesRead(left.model, left.ready, config);
      return { model: next.model, effects: [...left.effects, ...next.effects] };
    }
    case 'issuesUnlisted':
      return issuesUnlisted(model, event, config);
    case 'sourceChecked':
      return sourceChecked(model, event, config);
    case 'cycleOpened':
      return cycleOpened(model, event);
    case 'baselineRan':
      return baselineRan(model, event, config);
    case 'cycleCommitted':
      return cycleCommitted(model, event);
    case 'cycleFinished':
      return cycleFinished(model, event.published, event.failed, config);
    case 'refused':
      return refused(model, event, config);
    case 'noticesSent':
      return noticesSent(model, event.results);
    case 'tipsLeft': {
      const m = { ...model, loop: recordTips(model.loop, event.tips) };
      return { model: m, effects: [save(m, model.ended)] };
    }
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
    case 'baseTipRead':
    case 'leftIssuesRead':
      return haltRead(model, event, config);
  }
}

function issuesRead(model: SliceModel, listed: ReadyIssue[], config: CoreConfig): Step {
  // An issue whose id cannot be a branch name is left out, said once per slice (issue 43).
  if (config.branches) {
    const { usable, newly } = leaveUnbranchable(listed, model.toldUnbranchable ?? []);
    const told = [...(model.toldUnbranchable ?? []), ...newly.map((n) => n.issue.id)];
    if (usable.length < listed.length) {
      const next = issuesReadBranchable({ ...model, toldUnbranchable: told }, usable, config);
      return {
        model: next.model,
        effects: [...newly.map((n) => unbranchableLog(n.issue, n.branch, n.why)), ...next.effects],
      };
    }
  }
  return issuesReadBranchable(model, listed, config);
}

function issuesReadBranchable(model: SliceModel, listed: ReadyIssue[], config: CoreConfig): Step {
  // Issues another run is working on are left alone (issue 14), each logged once per slice.
  const { free: ready, claimed, newly } = leaveClaimed(listed, model.claimedElsewhere ?? [], config.checkpointId);
  if (newly.length > 0) {
    const m: SliceModel = {
      ...model,
      claimedElsewhere: [...(model.claimedElsewhere ?? []), ...newly.map((i) => i.id)],
    };
    const next = issuesReadBranchable(m, listed, config);
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

/** The run's bounds, then the slice's: the step that ends the slice at one, else undefined. */
function boundReached(model: SliceModel, config: CoreConfig): Step | undefined {
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
  return undefined;
}

/** A new cycle for the issues picked: claimed first (when leases are on), then opened. */
function openNext(model: SliceModel, config: CoreConfig, next: ReadyIssue[]): Step {
  const loop = model.loop;
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
          `${edited.map((i) => issueRef(i.id)).join(', ')} ${edited.length === 1 ? 'was' : 'were'} edited since ` +
            `${edited.length === 1 ? 'its' : 'their'} escalation: trying again.`,
          { issueIds: edited.map((i) => i.id) },
        ),
      ]
    : [];
  return { model, effects: [...retried, { kind: 'openCycle', cycle }] };
}

/** The run's bounds, then the slice's; then a new cycle, or the resumed one on its branch. */
function beforeIteration(model: SliceModel, config: CoreConfig): Step {
  const bound = boundReached(model, config);
  if (bound) return bound;
  const loop = model.loop;
  if (!loop.currentCycle && model.next) return openNext(model, config, model.next);
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
  if (lost) return claimLost(m, lost, resumed);
  const held: SliceModel = { ...m, claimHeld: true, claimRenewedAt: m.loop.iteration };
  const ids = resumed ? (m.loop.currentCycle?.issueIds ?? []) : (m.next ?? []).map((i) => i.id);
  const go = beforeIteration(held, config);
  const took: Effect[] =
    adopted.length > 0
      ? [
          log(
            'info',
            'claim.adopted',
            `Took over ${ids.map(issueRef).join(', ')} from run ${adopted.join(', ')}, whose lease expired without ` +
              `a release (the run died): its branch and pull request, if any, are continued.`,
            { issueIds: ids, runs: adopted },
          ),
        ]
      : [];
  return { model: go.model, effects: [...took, ...go.effects] };
}
