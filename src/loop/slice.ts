/**
 * The interpreter of one slice (seed 001 REQ_019, seed 000 REQ_021, seed 002): opens the checkpoint
 * and prepares the repository, then runs the pure core (src/core/slice.ts), performing each effect
 * it asks for through the ports (the issue source, the workflow's iteration, git, the checkpoint
 * store, the clock) and feeding back what happened as the next event, until the core says done.
 */
import path from 'node:path';
import { type DirSnapshot, foreignChanges, quarantine, snapshotCheckpoints } from '../checkpoint/foreign.js';
import { surface, upperFirst } from '../config/surface.js';
import { newCheckpointId } from '../checkpoint/fileStore.js';
import type { SeedPhase } from '../checkpoint/types.js';
import { STAGE_KEY, runCheckpointPhase } from '../checkpoint/phase.js';
import type {
  Deferral,
  Effect,
  Event,
  Halt,
  IssueAction,
  IssueEffectFailure,
  LandingFailure,
  NoticeResult,
  Status,
} from '../core/events.js';
import type { HaltDiagnostic } from '../report/diagnostic.js';
import { ESCALATED_LABEL, NO_CHANGE_LABEL } from '../issues/types.js';
import type { SuiteRun } from '../verdict/results.js';
import { pickRunnable } from '../core/resumable.js';
import { type RunResult, buildResult } from '../core/result.js';
import { type CoreConfig, cycleProgress, initialModel, step } from '../core/slice.js';
import { type CycleState, type LoopState, initialLoopState, parseLoopState } from '../core/state.js';
import { MergeConflictError, SecretInChangeError } from '../git/git.js';
import { RepositoryMovedError, guardLane } from '../git/lane.js';
import { JOB_LOCAL_HALTS } from '../core/haltReasons.js';
import { toReadyIssue } from '../issues/fingerprint.js';
import { type ClaimProgress, type Claimant, leaseMinutes } from '../issues/claims.js';
import { type CyclePublisher, LandingError } from './publish.js';
import type { Issue } from '../issues/types.js';
import { renderMarkdown } from '../report/diagnostic.js';
import { workTreePath } from '../git/repoPaths.js';
import { TEMP_FILE_PATTERN } from '../util/atomicWrite.js';
import { cycleBaseline, forgetBaselines, mendBaselines } from './baseline.js';
import { finishedBranchMessage, finishedBranches } from './finishedBranches.js';
import { ownRecords, putBackOwnIssues } from './ownIssues.js';
import { branchLeft, changedSinceHalt, issueDigests, loopLeftOn } from './parking.js';
import type { OpenRecord } from '../issues/types.js';
import { ListingError, listingFailed } from '../issues/listing.js';

export type { SliceDeps, SliceSettings, TestOutcome, TestPurpose } from './deps.js';
export { filesOf } from './deps.js';
import { type SliceDeps, filesOf } from './deps.js';

/** The run cannot start as asked (a --resume id that cannot be used, a cycle branch as base): exit 2. */
export class StartError extends Error {}

/** The phase of the planning pipeline's checkpoint when it hands over to the loop (its issues exist, seed 001). */
const IN_PROGRESS: SeedPhase = 'beads_integration-complete';

export async function runSlice(unguarded: SliceDeps): Promise<RunResult> {
  // Every commit, merge and reset below (and in the iterations) first checks the agent moved nothing.
  const guard = unguarded.git ? guardLane(unguarded.git) : undefined;
  const deps: SliceDeps = guard ? { ...unguarded, git: guard.git, laneMoved: (what) => guard.moved(what) } : unguarded;
  const workflow = deps.workflow;
  const { settings, logger, clock, store, source, git } = deps;
  const redact = deps.redact ?? ((t: string) => t);
  const startedAt = clock.now().getTime();
  const opened = await openCheckpoint(deps, (event, message, data) => logger.warn(event, message, data));
  const checkpointId = opened.id;
  if (opened.sourceState !== undefined) source.importState?.(opened.sourceState);
  let state: LoopState = {
    ...opened.state,
    slices: opened.state.slices + 1,
    maxIterations: settings.maxIterations,
    halt: undefined,
  };

  // Checkpoint files as they were before any agent ran: one that appears or changes later, other
  // than this run's own, was forged (the agent has a shell) and is quarantined, never resumed.
  let known: DirSnapshot | undefined;
  const save = async (status: Status, loop: LoopState, errors: readonly string[]) => {
    const sourceState = source.exportState?.();
    // Seed 001's phase; where the run stands within it (tdd: its step) is the state's stage.
    const { phase, stage } = runCheckpointPhase(status, workflow.stage?.(loop));
    // Other keys of the checkpoint (the planning pipeline's outputs) are kept as they were.
    await store.write(
      {
        id: checkpointId,
        phase,
        state: {
          ...opened.extra,
          [STAGE_KEY]: stage,
          loop,
          ...(sourceState !== undefined ? { source: sourceState } : {}),
        },
        ...(errors.length ? { errors: [...errors] } : {}),
      },
      { readBack: false },
    );
    const now = await snapshotCheckpoints(filesOf(deps), store.dir);
    const foreign = known ? foreignChanges(known, now, `${checkpointId}.json`) : [];
    if (foreign.length > 0) {
      const moved = await quarantine(store.dir, deps.stateDir, foreign);
      logger.warn(
        'checkpoint.forged',
        `Checkpoint file(s) written during this run by something other than agent-loop (most likely the agent): ${foreign.join(', ')}. Moved to ${path.join(deps.stateDir, 'quarantine')}; they are never resumed.`,
        { files: foreign, movedTo: moved },
      );
    }
    known = foreign.length > 0 ? await snapshotCheckpoints(filesOf(deps), store.dir) : now;
  };

  const classifyIssue =
    deps.classifyIssueFailure ??
    ((error: unknown, issue: string, what: string): IssueEffectFailure => ({
      class: 'transient',
      message: `could not ${what} ${issue} in ${source.description}: ${(error as Error).message}`,
    }));
  /** One issue effect; a failure classified: `gone` is warned about and dropped (it can never succeed), the rest returned. */
  const issueEffect = async (
    id: string,
    what: string,
    run: () => Promise<void>,
  ): Promise<LandingFailure | undefined> => {
    try {
      await run();
      return undefined;
    } catch (error) {
      const failure = classifyIssue(error, id, what);
      if (failure.class !== 'gone') return { ...failure, message: redact(failure.message) };
      logger.warn('issue.gone', `${redact(failure.message)}: dropped (it can never be done).`, { issueId: id, what });
      return undefined;
    }
  };
  /** A finished cycle's issue actions, before its commit; a failure that is not `gone` is the landing's. */
  const performIssueActions = async (actions: readonly IssueAction[] | undefined) => {
    for (const action of actions ?? []) {
      const failed =
        action.kind === 'tick'
          ? await issueEffect(action.id, `tick "${action.item}" in`, () => tick(action))
          : action.kind === 'markNoChange' && source.markNoChange
            ? await issueEffect(action.id, `label ${NO_CHANGE_LABEL}`, () =>
                source.markNoChange!(action.id, action.note, action.close),
              )
            : await issueEffect(action.id, 'close', () => source.close(action.id, action.note));
      if (failed) throw new LandingError(failed);
    }
  };
  /** A checklist item's box ticked in its issue (--workflow tdd); sources without checklists do nothing. */
  const tick = async (action: Extract<IssueAction, { kind: 'tick' }>) => {
    if (!source.tickChecklistItem || !(await source.tickChecklistItem(action.id, action.item))) return;
    logger.info('issue.ticked', `Ticked "${action.item}" in ${action.id} (${source.description}).`, {
      issueId: action.id,
      item: action.item,
    });
  };
  /**
   * A tick as a notice, between iterations: where the issues live in the repository (beads), the
   * change is committed at once (on the cycle's branch, it lands with the work), so that the next
   * phase starts from a clean tree. Whether it was done.
   */
  const tickNotice = async (action: Extract<IssueAction, { kind: 'tick' }>): Promise<string[]> => {
    const failed = await issueEffect(action.id, `tick "${action.item}" in`, () => tick(action));
    if (failed) {
      logger.warn(
        'source.warning',
        `Could not tick "${action.item}" in ${action.id} (${source.description}): ${failed.message}. It stays recorded; the next run tries again.`,
      );
      return [failed.message];
    }
    if (git) await git.commitAll(`agent-loop: ${action.id} ticks "${action.item}"`.slice(0, 120));
    return [];
  };
  /** Labels and notes the issues in the source; on a git base branch, commits that bookkeeping. Whether all were done. */
  const labelEscalated = async (ids: string[], note: string, baseBranch: string | undefined) => {
    if (settings.closeOnBranch) {
      // Beads issues published from a runner that is thrown away: a label committed here would never
      // reach GitHub (and would move the base branch the halt compares with). The checkpoint keeps it.
      logger.info(
        'escalation.kept',
        `${ids.join(', ')} escalated: kept in the checkpoint, not labelled in ${source.description} (the label would not outlast this runner). Later runs skip ${ids.length === 1 ? 'it' : 'them'} until ${ids.length === 1 ? 'it is' : 'they are'} edited on the base branch, or start over with the input fresh: true.`,
        { issueIds: ids },
      );
      return [];
    }
    const failures: string[] = [];
    for (const id of ids) {
      const failed = await issueEffect(id, `label ${ESCALATED_LABEL}`, () => source.markEscalated(id, note));
      if (!failed) continue;
      failures.push(failed.message);
      logger.warn(
        'source.warning',
        `Could not label ${id} as escalated in ${source.description}: ${failed.message}. It stays recorded; the next run tries again.`,
      );
    }
    if (git && (await git.currentRef()) === baseBranch) await git.commitAll(`agent-loop: ${ids.join(' ')} escalated`);
    return failures;
  };

  if (git) {
    // An in-tree --state-dir is excluded (and never staged: see openGit's protect).
    const inTree = workTreePath(git.topLevel, deps.stateDir);
    if (inTree) await git.exclude(inTree);
    await git.exclude(TEMP_FILE_PATTERN);
    /**
     * The work a halted (or stopped) loop left on `branch` committed there as wip:, the base branch
     * checked out again; the escalation that halted it labelled there, and the issues a person
     * changed on the branch since the halt carried there (parking.ts), where later runs read them.
     */
    const park = async (left: LoopState, branch: string, base: string) => {
      const changed = changedSinceHalt(
        left.halt?.issues,
        (await source.openRecords?.().catch(() => undefined)) ?? new Map(),
      );
      const escalated = left.parkedBranch === branch;
      await git.commitAll(`wip: ${branch} (${escalated ? 'escalated' : 'stopped'}; parked by the next run)`);
      await git.checkout(base);
      const last = left.escalations.at(-1);
      if (escalated && last) await labelEscalated(last.issueIds, last.note, base);
      logger.info('git.parked', `Committed the work left on ${branch} as wip: and returned to ${base}.`);
      if (changed.length === 0 || !source.reinstate) return;
      const ids = changed.map(([id]) => id);
      for (const [id, open] of changed) await source.reinstate(id, open.record);
      await git.commitAll(`agent-loop: ${ids.join(' ')} as changed by hand on ${branch}`.slice(0, 120));
      logger.info(
        'issue.carried',
        `${ids.join(', ')} ${ids.length === 1 ? 'was' : 'were'} changed on ${branch} after the halt (by a person): carried to ${base}, where the issues are read.`,
        { issueIds: ids },
      );
    };
    if (!state.baseBranch) {
      const current = await git.currentRef();
      if (current.startsWith('agent-loop/')) {
        // Starting over (--fresh) on the branch a halted loop left checked out: parked as the run
        // that resumed it would, then started from its base branch.
        const left = settings.fresh ? await loopLeftOn(store, current) : undefined;
        if (!left)
          throw new StartError(
            `the checked-out branch ${current} is a cycle branch of an earlier run, not a base branch. Check out the branch the work should land on (e.g. git checkout main; edits that run left uncommitted here would go along to it, so commit or stash them on this branch first: git stash -u), or resume that run instead of starting over (${surface(deps.settings.terms).given('fresh')}).`,
          );
        await park(left, current, left.baseBranch);
        state.baseBranch = left.baseBranch;
      } else state.baseBranch = current;
    }
    // A halt left an escalated cycle's branch checked out for inspection: park its work now, and
    // record the escalation on the base branch, where later runs read the issues.
    if (state.parkedBranch && state.baseBranch) {
      if ((await git.currentRef()) === state.parkedBranch)
        await park(opened.state, state.parkedBranch, state.baseBranch);
      else {
        // A person left the branch themselves: the escalation is recorded on the base all the same.
        const last = state.escalations.at(-1);
        if (last && (await git.currentRef()) === state.baseBranch)
          await labelEscalated(last.issueIds, last.note, state.baseBranch);
      }
      state = { ...state, parkedBranch: undefined };
    }
    if (guard && state.baseBranch) await guard.anchor(state.baseBranch);
  }
  const startHealth = await source.health?.();
  /** The halt when the issues had readable records and have none now (the agent garbled the file). */
  const unreadableSource = async (): Promise<Halt | undefined> => {
    const health = await source.health?.();
    if (!health || health.valid > 0 || (health.unreadable === 0 && (startHealth?.valid ?? 0) === 0)) return undefined;
    return {
      reason: 'source_unreadable',
      message: `ISSUES UNREADABLE: ${source.description} had ${startHealth?.valid ?? 'some'} issue(s) when the slice started and now has no readable one (${health.unreadable} malformed line(s))`,
    };
  };
  // Starting over forgets the suites' recorded baselines too (src/loop/baseline.ts); once the run
  // is sure to start: a refused one changes nothing.
  if (settings.fresh) await forgetBaselines(deps);
  await save('continuing', state, []);
  logger.info(
    'run.start',
    `${opened.resumed ? `Resuming checkpoint ${checkpointId} at iteration ${state.iteration + 1}` : `Starting run ${checkpointId}`} (max ${settings.maxIterations} iterations, agent ${deps.agent.displayName}, tests: ${settings.testCommand})`,
    {
      checkpointId,
      resumed: opened.resumed,
      iteration: state.iteration,
      maxIterations: settings.maxIterations,
    },
  );

  // From here the core decides (src/core/slice.ts) and this interpreter performs its effects.
  const config: CoreConfig = {
    settings: { ...settings, batch: settings.batch && workflow.batches },
    checkpointId,
    ...(settings.sliceMinutes !== undefined ? { deadline: startedAt + settings.sliceMinutes * 60_000 } : {}),
    publishes: deps.publisher !== undefined,
    branches: git !== undefined && state.baseBranch !== undefined,
    // Claims and leases where the source has them (GitHub): a lease outlives one iteration.
    ...(source.claim ? { leaseMs: leaseMinutes(settings.agentTimeoutMinutes) * 60_000 } : {}),
  };
  const me: Claimant = { run: deps.runId ?? `local-${checkpointId}`, checkpoint: checkpointId };
  /** Claim, renewal or release of one issue failed: the cycle goes on; the lease runs out by itself. */
  const claimWarning = (what: string, id: string, error: unknown) =>
    logger.warn(
      'claim.failed',
      `Could not ${what} the claim on ${id} in ${source.description}: ${(error as Error).message}. The work goes on; the claim's lease runs out by itself.`,
      { issueId: id },
    );
  /** Releases this run's claims on `ids` at `at`; a release that fails is a warning (the lease runs out). */
  const letGo = async (ids: string[], at: string, progress?: ClaimProgress) => {
    for (const id of ids)
      await source.releaseClaim?.(id, me, at, progress).catch((e) => claimWarning('release', id, e));
  };
  let model = initialModel(state, clock.now().getTime());
  /** Why the slice was deferred (a listing failed), once it is. */
  let deferral: Deferral | undefined;
  /**
   * The loop as this slice found it: the result's counts and lists are what the slice added to it.
   * A loop the planning pipeline just handed over starts from its phases' agent runs (afterPlanning),
   * which the plan ran before this slice: they are counted with the run that starts the loop.
   */
  const found = model.loop;
  const start =
    !opened.resumed && opened.extra?.pipeline !== undefined
      ? { ...found, iteration: 0, failedIterations: 0, successfulIterations: 0 }
      : found;
  let diagnostic: string | null = null;
  /** The current cycle's baseline as last read or run in this slice. */
  let baselineSeen: { key: string; run?: SuiteRun } | undefined;
  /** Issues said to wait in an open pull request, once per slice. */
  const toldInReview = new Set<string>();
  /** Per issue, whether its work was finished on its own branch and waits there unmerged (--on-success branch), looked up once per slice. */
  const onBranch = new Map<string, string | undefined>();
  /** The current cycle's issues as the issues file held them when this slice entered the cycle (src/loop/ownIssues.ts). */
  let atCycleStart: ReadonlyMap<string, OpenRecord> | undefined;

  /** Performs one effect; what it asks of the world comes back as the next event. */
  const perform = async (effect: Effect): Promise<Event | RunResult | undefined> => {
    const now = () => clock.now().getTime();
    const loop = model.loop;
    switch (effect.kind) {
      case 'log':
        logger[effect.level](effect.event, effect.message, effect.data);
        return undefined;
      case 'save': {
        // A halt keeps the base branch's tip of its time: new commits there lift some halts.
        let saved = effect.loop;
        if (saved.halt && !saved.halt.baseTip && git && saved.baseBranch) {
          const baseTip = await git.tipOf(saved.baseBranch).catch(() => undefined);
          if (baseTip) saved = { ...saved, halt: { ...saved.halt, baseTip } };
        }
        // A halt that leaves a cycle's branch checked out keeps the issues as it leaves them (its
        // last save: after the escalation's label): what a person changes there is carried (parking.ts).
        const left = saved.halt && git && !deps.publisher ? branchLeft(saved) : undefined;
        if (left && source.openRecords && (await git?.currentRef().catch(() => undefined)) === left) {
          const records = await source.openRecords().catch(() => undefined);
          if (records) saved = { ...saved, halt: { ...saved.halt!, issues: issueDigests(records) } };
        }
        await save(effect.status, saved, effect.errors);
        return undefined;
      }
      case 'appendError':
        await appendError(deps, effect.entry);
        return undefined;
      case 'next':
        return { type: 'tick', now: now(), aborted: deps.signal?.aborted ?? false };
      case 'sleep':
        await clock.sleep(effect.ms, deps.signal);
        return { type: 'woke', now: now() };
      case 'readIssues': {
        let listed: Issue[];
        try {
          listed = await withoutOpenPullRequests(deps, await source.ready(), toldInReview);
        } catch (error) {
          // A listing GitHub did not answer: never taken for "no issues" (the run would end complete).
          if (!(error instanceof ListingError)) throw error;
          deferral = { what: error.what, status: error.status, message: redact(error.message) };
          return { type: 'issuesUnlisted', failed: deferral };
        }
        return {
          type: 'issuesRead',
          ready: (await withoutFinishedBranches(deps, loop, listed, onBranch)).map(toReadyIssue),
        };
      }
      case 'checkSource': {
        const unreadable = await unreadableSource();
        return { type: 'sourceChecked', ...(unreadable ? { unreadable } : {}) };
      }
      case 'openCycle': {
        const cycle = await openCycle(deps, effect.cycle, loop.baseBranch);
        // Its issues as the cycle finds them (on its branch): what an escalation puts back.
        atCycleStart = await ownRecords(deps, cycle.issueIds);
        return { type: 'cycleOpened', cycle };
      }
      case 'enterCycleBranch': {
        // A resumed cycle: make sure its branch is checked out (once per slice, not per iteration),
        // the one an earlier run pushed when this checkout does not have it.
        const branch = effect.branch;
        if (git && (await git.currentRef()) !== branch) {
          if (deps.publisher && !(await git.branchExists(branch)) && (await deps.publisher.fetchBranch(branch))) {
            logger.info('git.fetched', `Continuing on ${branch} as the previous slice pushed it.`);
          }
          await git.switchToBranch(branch, loop.baseBranch ?? 'HEAD');
        }
        // A cycle opened by an earlier slice: its issues as this slice finds them, before its agent runs.
        atCycleStart = await ownRecords(deps, loop.currentCycle?.issueIds ?? []);
        return undefined;
      }
      case 'leaveCycle': {
        // A job of a wave works in its own worktree, removed at the wave's end: nothing to switch back.
        const base = loop.baseBranch;
        if (!git || !base || deps.waveJob || (await git.currentRef()) !== effect.branch) return undefined;
        await git.checkout(base);
        const own = await git.subjectsSince(base, effect.branch);
        if (own.length === 0) await git.deleteBranch(effect.branch);
        logger.info(
          'git.left',
          `No agent worked on ${effect.branch}: back on ${base}, where the fix goes${own.length === 0 ? ` (${effect.branch} removed)` : ''}; the run that resumes opens the cycle again from ${base} as it is then.`,
        );
        return undefined;
      }
      case 'runBaseline': {
        // The suite on the cycle's starting tree (the base tip's, not an earlier cycle's work on the
        // branch), before its first agent run (kept: run once per tree; read from the state directory
        // once per slice).
        const key = loop.currentCycle?.baselineKey;
        if (key !== undefined && baselineSeen?.key === key)
          return { type: 'baselineRan', state: loop, ...(baselineSeen.run ? { run: baselineSeen.run } : {}) };
        const b = await cycleBaseline(deps, loop, checkpointId);
        const seenKey = b.state.currentCycle?.baselineKey;
        baselineSeen = !b.halt && !b.interrupted && seenKey !== undefined ? { key: seenKey, run: b.run } : undefined;
        return { type: 'baselineRan', ...b };
      }
      case 'iterate': {
        const outcome = await workflow.iterate(deps, loop, effect.baseline);
        // The reason may quote the agent's stderr; it goes into the issue's note and a commit message.
        const masked = outcome.escalate
          ? { ...outcome, escalate: { ...outcome.escalate, reason: redact(outcome.escalate.reason) } }
          : outcome;
        // Beads issues where work is published: a cycle that needed no change still closed its issue
        // in the repository's issues file, a change that lands like any other (not a branch dropped).
        const lands = deps.settings.closeOnBranch && masked.noChange ? { ...masked, noChange: false } : masked;
        return { type: 'iterated', outcome: lands, now: now() };
      }
      case 'updateIssues':
        for (const action of effect.actions) {
          if (action.kind === 'tick') await tick(action);
          else if (action.kind === 'markNoChange' && source.markNoChange)
            await source.markNoChange(action.id, action.note, action.close);
          else await source.close(action.id, action.note);
        }
        return undefined;
      case 'verifyLane':
        await guard?.verify(effect.what);
        return undefined;
      case 'commitCycle': {
        const { cycle } = effect;
        try {
          await performIssueActions(effect.issueActions);
        } catch (error) {
          if (error instanceof LandingError) return { type: 'cycleFinished', failed: error.failure };
          throw error;
        }
        if (!git || !cycle.branch) return { type: 'cycleCommitted', committed: false };
        const committed = await git.commitAll(cycleSubject(cycle), cycleCommit(loop));
        const tip = await git.tipOf(cycle.branch);
        // The work travels with the state before it leaves the machine: a runner killed while pushing loses nothing.
        if (loop.baseBranch) await deps.publisher?.stash?.(cycle.branch, loop.baseBranch);
        return { type: 'cycleCommitted', committed, ...(tip ? { tip } : {}) };
      }
      case 'finishCycle': {
        let where: Awaited<ReturnType<typeof enterLanding>> | undefined;
        if (effect.resumed && !effect.noChange) {
          where = await enterLanding(deps, loop, effect.cycle, effect.tip);
          if (where === 'lost' || where === 'older')
            return {
              type: 'cycleFinished',
              failed: {
                class: 'lost',
                message:
                  where === 'lost'
                    ? `its branch ${effect.cycle.branch} is in neither this checkout nor ${deps.publisher?.description ?? 'a remote'} (the run that did the work ended before pushing it)`
                    : effect.tip
                      ? `the branch ${effect.cycle.branch} fetched from ${deps.publisher?.description ?? 'the remote'} does not hold its commit ${effect.tip.slice(0, 12)}, only older work (the run that did it ended before pushing it)`
                      : `the run that did it ended before committing it, and only that checkout had it (${effect.cycle.branch} from ${deps.publisher?.description ?? 'the remote'} holds older work at most)`,
              },
            };
          if (typeof where === 'object')
            return { type: 'cycleFinished', failed: { ...where, message: redact(where.message) } };
        }
        try {
          await performIssueActions(effect.issueActions);
          if (where === 'landed') return { type: 'cycleFinished' };
          const published = effect.noChange
            ? await dropEmptyCycle(deps, loop, effect.cycle)
            : await finishCycleInGit(deps, loop, effect.cycle, effect.committed);
          return { type: 'cycleFinished', ...(published ? { published } : {}) };
        } catch (error) {
          // GitHub refused or failed a step: the core keeps the work in the outbox (a refusal halts).
          if (error instanceof LandingError) return { type: 'cycleFinished', failed: error.failure };
          throw error;
        }
      }
      case 'shelveCycle': {
        const { cycle, reason } = effect;
        // Rejected work closes nothing: the agent's closing of the cycle's own issues is not kept with it.
        await putBackOwnIssues(deps, atCycleStart, cycle.issueIds);
        if (git && cycle.branch && loop.baseBranch) {
          const committed = await git.commitAll(
            `wip: ${cycle.issueIds.join(' ')} escalated: ${reason}`.slice(0, 120),
            cycleCommit(loop),
          );
          // Where the work is published, the machine is thrown away: the wip: branch is pushed to stay.
          if (deps.publisher && (committed || (await git.branchExists(cycle.branch))))
            await keepBranch(deps, cycle.branch);
          await git.checkout(loop.baseBranch);
          logger.info(
            'git.wip',
            `${committed ? `Committed the cycle's work to ${cycle.branch} as wip:` : `${cycle.branch} had no changes`}; back on ${loop.baseBranch}${effect.halting ? '' : ' for the next cycle'}.`,
          );
        }
        return undefined;
      }
      case 'sendNotice': {
        const { notice } = effect;
        let failures: string[] = [];
        if (notice.what.kind === 'markEscalated') {
          // Also where the halt leaves the cycle's branch checked out (no shelveCycle): labelled, not closed.
          await putBackOwnIssues(deps, atCycleStart, notice.what.issueIds);
          failures = await labelEscalated(notice.what.issueIds, notice.what.note, loop.baseBranch);
          // The claims go once labelled (the label keeps runs off the issues): by checkpoint, so a later run releases an earlier one's.
          if (notice.what.releaseClaims && failures.length === 0 && source.releaseClaim)
            for (const id of notice.what.issueIds)
              // The claim comment's last word (issue 15): escalated, with the cycle's iterations and spend.
              await source
                .releaseClaim(id, me, notice.recordedAt, { state: 'escalated', ...notice.what.progress })
                .catch((e: unknown) => {
                  failures.push(`releasing the claim on ${id}: ${(e as Error).message}`);
                  claimWarning('release', id, e);
                });
        } else if (notice.what.kind === 'tick') failures = await tickNotice(notice.what);
        // A Discord post that failed after its retries is a warning (deps.notify), not tried again by later runs.
        else await deps.notify?.(notice.what.diagnostic as unknown as HaltDiagnostic);
        sent.push({
          id: notice.id,
          done: failures.length === 0,
          ...(failures.length ? { error: failures.join('; ') } : {}),
        });
        return undefined;
      }
      case 'recordHalt': {
        const { halt } = effect;
        diagnostic = redact(renderMarkdown(effect.diagnostic));
        await filesOf(deps).write(path.join(deps.stateDir, 'halt.md'), diagnostic);
        if (deps.waveJob && JOB_LOCAL_HALTS.has(halt.reason)) {
          // Not the run's halt: a warning, without the diagnostic (the run's own, if it halts, is the coordinator's).
          logger.warn(
            'run.halted',
            `Job ended (${halt.reason}): ${halt.message}. Its share or its issue ended here; the run goes on, and this worktree is removed at the wave's end (an escalated cycle's work stays on its wip: branch).`,
            { haltReason: halt.reason, jobLocal: true },
          );
          return undefined;
        }
        logger.error(
          'run.halted',
          deps.waveJob
            ? `HALT (${halt.reason}): ${halt.message}. Nothing was reset. This is a job of run --parallel: the run halts with it, and removes this worktree at the wave's end after keeping its work as a wip: commit on agent-loop-halted/<issue>-<wave> (unless its change holds a secret: then it is discarded) and this diagnostic as the run's halt.md (and in <state-dir>/parallel/halts/).`
            : `HALT (${halt.reason}): ${halt.message}. Nothing was reset: checkpoint ${checkpointId}, branch and working tree are left for inspection; the diagnostic is in ${path.join(deps.stateDir, 'halt.md')}.`,
          { haltReason: halt.reason, diagnostic },
        );
        logger.info('halt.diagnostic', diagnostic.trimEnd());
        return undefined;
      }
      case 'keepOpenCycle':
        if (deps.publisher && git && (await git.currentRef()) === effect.branch) {
          await git.commitAll(effect.message, cycleCommit(loop));
          await keepBranch(deps, effect.branch);
        }
        return undefined;
      case 'claimIssues': {
        const adopted: string[] = [];
        const won: string[] = [];
        for (const id of effect.issueIds) {
          const outcome = await source.claim!(id, me, effect.expires, effect.resuming, effect.progress);
          if (!outcome.won) {
            // Lost to an older live claim: the issues claimed so far for this cycle are let go.
            await letGo(won, effect.expires);
            return { type: 'claimed', lost: { id, run: outcome.holder.run, expires: outcome.holder.expires }, adopted };
          }
          won.push(id);
          adopted.push(...outcome.adopted.map((c) => c.run).filter((r) => !adopted.includes(r)));
        }
        return { type: 'claimed', adopted };
      }
      case 'holdClaim':
        for (const [i, id] of effect.issueIds.entries()) {
          const taken = await source.renewClaim?.(id, me, effect.expires, effect.progress).catch((e: unknown) => {
            claimWarning('renew', id, e);
            return undefined;
          });
          if (!taken) continue;
          // Taken over: the cycle's other claims go too (theirs to take).
          await letGo(
            effect.issueIds.filter((_, j) => j !== i),
            effect.expires,
          );
          return { type: 'claimed', lost: { id, run: taken.run, expires: taken.expires }, adopted: [] };
        }
        return { type: 'claimed', adopted: [] };
      case 'renewClaim':
        for (const id of effect.issueIds)
          await source.renewClaim?.(id, me, effect.expires, effect.progress).catch((e) => claimWarning('renew', id, e));
        return undefined;
      case 'releaseClaim':
        await letGo(effect.issueIds, effect.at, effect.progress);
        return undefined;
      case 'done':
        // Best effort: a state directory that cannot be written now must not lose the slice's result.
        await mendBaselines(
          deps,
          model.loop,
          baselineSeen?.run ? { key: baselineSeen.key, run: baselineSeen.run } : undefined,
        ).catch((error: unknown) =>
          logger.warn('tests.baseline', `Could not check the recorded baselines: ${(error as Error).message}.`),
        );
        // Not only before a commit: what an agent changed of what git stages (a filter, a remote
        // pointed elsewhere, an exclude, an index flag) must not outlive the slice in the person's
        // repository, nor be taken by the next run, which reads these settings as the person's.
        await git
          ?.putBackStaging()
          .catch((error: unknown) =>
            logger.warn(
              'git.staging_restored',
              `Could not put back what decides what git stages (.git/config, .git/info/attributes, .git/info/exclude, the index's flags): ${(error as Error).message}. Check them before the next run.`,
            ),
          );
        return buildResult({
          claimedElsewhere: model.claimedElsewhere ?? [],
          status: effect.status,
          state: model.loop,
          start,
          checkpointId,
          durationMs: clock.now().getTime() - startedAt,
          interrupted: effect.interrupted,
          diagnostic,
          ...(deferral ? { deferred: deferral } : {}),
          // Deferred before it did anything: the checkpoint's loop is the one this slice started from.
          unchanged: effect.status === 'deferred' && JSON.stringify(model.loop) === JSON.stringify(found),
        });
      case 'rethrow':
        throw crash;
    }
  };

  /** The notices sent in the current step: told to the core once its effects are done (noticesSent). */
  let sent: NoticeResult[] = [];
  const markSent = async () => {
    if (sent.length === 0) return;
    const results = sent;
    sent = [];
    const stepped = step(model, { type: 'noticesSent', results }, config);
    model = stepped.model;
    for (const effect of stepped.effects) await perform(effect);
  };
  let crash: unknown;
  let event: Event = { type: 'started', now: clock.now().getTime() };
  for (;;) {
    const stepped = step(model, event, config);
    model = stepped.model;
    let answer: Event | undefined;
    try {
      for (const effect of stepped.effects) {
        const r = await perform(effect);
        if (r && 'status' in r) {
          await markSent();
          return r;
        }
        if (r) answer = r;
      }
      await markSent();
    } catch (error) {
      // Caught once, as the slice always did: a second failure while halting propagates.
      if (crash !== undefined) throw error;
      crash = error;
      answer = await refusal(error, unreadableSource);
    }
    if (!answer)
      throw new Error(
        `agent-loop: the core's effects (${stepped.effects.map((e) => e.kind).join(', ')}) asked nothing`,
      );
    event = answer;
  }
}

/** What a thrown error means to the core: a refusal of git's, or a crash the source's health may explain. */
async function refusal(error: unknown, unreadableSource: () => Promise<Halt | undefined>): Promise<Event> {
  // The agent moved the repository, or its change holds a secret: halt, committing and merging nothing more.
  if (error instanceof RepositoryMovedError)
    return { type: 'refused', reason: 'repository_moved', message: error.message };
  if (error instanceof SecretInChangeError)
    return { type: 'refused', reason: 'secret_in_change', message: error.message };
  // The source failing because the agent garbled it is a halt with a diagnostic, not a crash.
  const unreadable = await unreadableSource().catch(() => undefined);
  return { type: 'crashed', ...(unreadable ? { unreadable } : {}) };
}

/** A new cycle's branch: fetched when an earlier run pushed it, brought up to date with the base, checked out. */
async function openCycle(deps: SliceDeps, cycle: CycleState, baseBranch: string | undefined): Promise<CycleState> {
  const { git, logger } = deps;
  if (!git || !cycle.branch || !baseBranch) return cycle;
  // The branch of an earlier cycle of these issues (escalated: its work kept as wip:; or its
  // pull request's, pushed by an earlier run) is brought up to date with the base first, so
  // that this cycle merges back cleanly. Its baseline is still the base tip's (src/loop/baseline.ts):
  // what the earlier work broke is this cycle's.
  if (deps.publisher && !(await git.branchExists(cycle.branch)) && (await deps.publisher.fetchBranch(cycle.branch))) {
    logger.info('git.fetched', `Continuing on ${cycle.branch} as an earlier run pushed it.`);
  }
  const earlier = await git.branchExists(cycle.branch);
  const baseTip = await git.tipOf(baseBranch);
  await git.switchToBranch(cycle.branch, baseBranch);
  if (earlier) {
    try {
      await git.merge(baseBranch, `Merge ${baseBranch} into ${cycle.branch}: a new cycle on an earlier cycle's branch`);
    } catch (error) {
      if (!(error instanceof MergeConflictError)) throw error;
      // The run stops on the base, where it started: left on the branch, the next run read the
      // issues from its tree (an issue closed there was taken for done).
      await git.checkout(baseBranch);
      throw new Error(
        `merging ${baseBranch} into ${cycle.branch} conflicts in ${error.conflicted.join(', ')}; the merge was undone (git merge --abort) and ${baseBranch} is checked out again, as the run found it. Merge ${baseBranch} into ${cycle.branch} by hand (git checkout ${cycle.branch}, git merge ${baseBranch}, commit), check ${baseBranch} out again, then run again`,
      );
    }
  }
  return { ...cycle, baseTip };
}

/**
 * A commit of a cycle's work, which is then merged or pushed with the branch: the commits the
 * agent made itself on it are scanned for secrets too (a token committed, then removed by a later
 * commit, is in the history that lands though in no diff of the tree).
 */
const cycleCommit = (state: LoopState) =>
  state.baseBranch !== undefined ? { scanCommitsSince: state.baseBranch } : {};

/** The commit message of a finished cycle's work. */
const cycleSubject = (cycle: CycleState) =>
  `agent-loop: ${cycle.issueIds.join(' ')} ${cycle.titles.join('; ')}`.slice(0, 120);

async function finishCycleInGit(
  deps: SliceDeps,
  state: LoopState,
  cycle: CycleState,
  committedBefore = false,
): Promise<LoopState['pullRequests'][number] | undefined> {
  const { git, settings, logger } = deps;
  if (!git || !cycle.branch || !state.baseBranch) return undefined;
  const subject = cycleSubject(cycle);
  // Committed already (the commit recorded before the push) unless this is the first look at it.
  const committed = (await git.commitAll(subject, cycleCommit(state))) || committedBefore;
  // The iteration that finished the cycle: its verdict, its targets and the agent's own summary (issue 15).
  const last = state.history.at(-1);
  const own = last && last.n >= cycle.startedAtIteration ? last : undefined;
  const verdict = own?.verdict?.summary;
  const spent = cycleProgress(state, cycle, state.iteration);
  const work = {
    issueIds: cycle.issueIds,
    titles: cycle.titles,
    branch: cycle.branch,
    base: state.baseBranch,
    iteration: state.iteration,
    ...(verdict ? { verdict } : {}),
    preexisting: state.preexistingFailures,
    ...(own?.verdict?.targets ? { targets: own.verdict.targets } : {}),
    ...(own?.summary ? { summary: own.summary } : {}),
    ...spent,
  };
  if (settings.onSuccess === 'merge' && deps.publisher?.pushToBase) {
    // The runner is thrown away: the base branch that matters is the remote's.
    await deps.publisher.pushToBase(work);
    await git.checkout(state.baseBranch);
    await git.merge(cycle.branch, subject, { fastForwardOnly: true });
    await git.deleteBranch(cycle.branch);
    logger.info(
      'git.pushed',
      `Pushed the work on ${cycle.issueIds.join(', ')} from ${cycle.branch} onto ${state.baseBranch} (${deps.publisher.description})${committed ? '' : ' (the agent changed no files in this cycle)'}.`,
      { branch: cycle.branch, base: state.baseBranch },
    );
    return undefined;
  }
  if (settings.onSuccess === 'pull-request' && deps.publisher) {
    const pr = await deps.publisher.publish(work);
    await git.checkout(state.baseBranch);
    logger.info(
      'git.pull_request',
      `${pr.reused ? 'Updated' : 'Opened'} pull request #${pr.number} (${pr.url}) from ${cycle.branch} for ${cycle.issueIds.join(', ')}${committed ? '' : ' (the agent changed no files in this cycle)'}.`,
      { number: pr.number, url: pr.url, reused: pr.reused, branch: cycle.branch },
    );
    return { issueIds: cycle.issueIds, number: pr.number, url: pr.url, reused: pr.reused, iteration: state.iteration };
  }
  await git.checkout(state.baseBranch);
  if (settings.onSuccess === 'merge') {
    if (committed || (await git.branchExists(cycle.branch))) {
      await git.merge(cycle.branch, `Merge ${cycle.branch}: ${subject}`);
      await git.deleteBranch(cycle.branch);
    }
    logger.info(
      'git.merged',
      `Merged ${cycle.branch} into ${state.baseBranch}${committed ? '' : ' (the agent changed no files)'}.`,
    );
  } else {
    logger.info('git.branch', `Left the work on branch ${cycle.branch}; ${state.baseBranch} is checked out again.`);
  }
  return undefined;
}

/**
 * An earlier run's finished cycle, landed now: its branch checked out, fetched first where work is
 * published. `landed` when it is gone from a checkout where nothing is published: agent-loop deletes
 * a cycle branch only once it is merged; `lost` when it is nowhere; `older` when the fetched branch
 * does not hold the work's recorded commit (or none was recorded: the work was never committed, and
 * only the dead run's checkout had it); a transient failure when the remote cannot be reached.
 */
async function enterLanding(
  deps: SliceDeps,
  state: LoopState,
  cycle: CycleState,
  tip: string | undefined,
): Promise<'entered' | 'landed' | 'lost' | 'older' | LandingFailure> {
  const { git, publisher } = deps;
  if (!git || !cycle.branch || !state.baseBranch || (await git.currentRef()) === cycle.branch) return 'entered';
  if (!(await git.branchExists(cycle.branch))) {
    if (!publisher) return 'landed';
    // Pushed onto the base by a run that died before it could say so (on-success merge), or its pull request merged.
    if (tip && (await git.holds(state.baseBranch, tip))) return 'landed';
    let fetched: boolean;
    try {
      fetched = await publisher.fetchBranch(cycle.branch);
    } catch (error) {
      // The remote cannot be reached: a later run tries again.
      return { class: 'transient', message: `could not fetch ${cycle.branch}: ${(error as Error).message}` };
    }
    if (!fetched) return 'lost';
    if (!tip || !(await git.holds(cycle.branch, tip))) return 'older';
  }
  await git.checkout(cycle.branch);
  return 'entered';
}

/**
 * The ready issues less those whose work waits in an open pull request of agent-loop's (beads issues
 * in the action: closed on the branch, still open on the base), each told once per slice. When the
 * pull requests cannot be listed, none is started (none may get a second pull request): a
 * ListingError, which defers the run; the next run looks again.
 */
async function withoutOpenPullRequests(deps: SliceDeps, ready: Issue[], told: Set<string>): Promise<Issue[]> {
  const publisher = deps.publisher;
  if (!publisher?.inReview || ready.length === 0) return ready;
  let open: Awaited<ReturnType<NonNullable<CyclePublisher['inReview']>>>;
  try {
    open = await publisher.inReview(ready.map((i) => i.id));
  } catch (error) {
    throw listingFailed(error, `listing the open pull requests (${publisher.description})`);
  }
  for (const [id, pr] of open) {
    if (told.has(id)) continue;
    told.add(id);
    deps.logger.info(
      'issue.in_review',
      `Skipping ${id}: its pull request #${pr.number} (${pr.url}) is open. Merge it (the issue is closed on its branch), or close it and delete its branch to have agent-loop work on the issue again.`,
      { issueId: id, number: pr.number, url: pr.url },
    );
  }
  return ready.filter((i) => !open.has(i.id));
}

/**
 * With --on-success branch (nothing published): the ready issues less those whose cycle finished on
 * their own branch, not merged into the base (src/loop/finishedBranches.ts). Each is told once per
 * slice; `seen` keeps what was looked up (the branch, or undefined).
 */
async function withoutFinishedBranches(
  deps: SliceDeps,
  loop: LoopState,
  ready: Issue[],
  seen: Map<string, string | undefined>,
): Promise<Issue[]> {
  const { git, settings, logger } = deps;
  const base = loop.baseBranch;
  if (!git || deps.publisher || settings.onSuccess !== 'branch' || !base || ready.length === 0) return ready;
  // The cycle in flight is the core's to resume, whatever its branch holds.
  const inFlight = new Set(loop.currentCycle?.issueIds ?? []);
  const unseen = ready.map((i) => i.id).filter((id) => !inFlight.has(id) && !seen.has(id));
  const found = await finishedBranches(git, base, unseen);
  for (const id of unseen) {
    const branch = found.get(id);
    seen.set(id, branch);
    if (branch) logger.info('issue.on_branch', finishedBranchMessage(id, branch, base), { issueId: id, branch });
  }
  return ready.filter((i) => inFlight.has(i.id) || seen.get(i.id) === undefined);
}

/** A cycle that needed no change: back to the base branch, and its branch deleted when it holds nothing. */
async function dropEmptyCycle(deps: SliceDeps, state: LoopState, cycle: CycleState): Promise<undefined> {
  const { git } = deps;
  if (!git || !cycle.branch || !state.baseBranch) return undefined;
  // The issue's close changed the repository's issues file: it lands like any cycle's work, never
  // carried onto the base uncommitted (the next run refused it as the user's change, and the next
  // cycle's commit took it along).
  if (!deps.publisher && (await git.currentRef()) === cycle.branch && (await git.hasWorkSince(await git.head()))) {
    await finishCycleInGit(deps, state, cycle); // no publisher: nothing published
    return undefined;
  }
  await git.checkout(state.baseBranch);
  if ((await git.branchExists(cycle.branch)) && (await git.tipOf(cycle.branch)) === (await git.tipOf(state.baseBranch)))
    await git.deleteBranch(cycle.branch);
  deps.logger.info(
    'git.no_change',
    `Nothing to merge for ${cycle.issueIds.join(', ')}: no change was needed; back on ${state.baseBranch}.`,
  );
  return undefined;
}

/** Pushes an escalated cycle's branch; a failure is a warning (the escalation itself stands). */
async function keepBranch(deps: SliceDeps, branch: string): Promise<void> {
  try {
    await deps.publisher?.keep(branch);
    deps.logger.info('git.kept', `Pushed ${branch} (its work as wip:) so that a later attempt continues from it.`);
  } catch (error) {
    deps.logger.warn(
      'git.keep_failed',
      `Could not push ${branch}: ${(error as Error).message}. Its work is only in this checkout.`,
    );
  }
}

export type Opened = {
  id: string;
  state: LoopState;
  resumed: boolean;
  sourceState?: unknown;
  extra?: Record<string, unknown>;
};

/**
 * The loop's counters after the planning pipeline's agent runs (`pipeline.iterations`, of which
 * `failedIterations` failed): its first iteration is the next number, so every agent run of a plan
 * has its own AGENT_LOOP_ITERATION and log, and all of them count toward --max-iterations.
 */
function afterPlanning(state: LoopState, pipeline: unknown): LoopState {
  const count = (key: string) => {
    const value = typeof pipeline === 'object' && pipeline !== null ? (pipeline as Record<string, unknown>)[key] : 0;
    return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
  };
  const iterations = count('iterations');
  const failed = Math.min(count('failedIterations'), iterations);
  return { ...state, iteration: iterations, failedIterations: failed, successfulIterations: iterations - failed };
}

/** The checkpoint's state besides the loop's and the source's (the planning pipeline's outputs). */
const extraOf = (state: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(state).filter(([k]) => k !== 'loop' && k !== 'source'));

/**
 * The checkpoint a run continues: --fresh a new one, --resume the one named, else the newest
 * runnable one (each unusable one skipped with a warning). Also read, without warnings, by the halt
 * check before a run starts (src/app/haltCheck.ts).
 */
export async function openCheckpoint(
  deps: {
    settings: Pick<SliceDeps['settings'], 'fresh' | 'resume' | 'maxIterations' | 'terms'>;
    store: SliceDeps['store'];
    clock: SliceDeps['clock'];
  },
  warn: (event: string, message: string, data?: Record<string, unknown>) => void,
): Promise<Opened> {
  const { settings, store } = deps;
  const say = surface(settings.terms);
  const fresh = () => ({ id: newCheckpointId(), state: initialLoopState(settings.maxIterations), resumed: false });
  if (settings.fresh) return fresh();
  if (settings.resume) {
    let cp;
    try {
      cp = await store.load(settings.resume);
    } catch (error) {
      throw new StartError(`${say.given('resume', settings.resume)}: ${(error as Error).message}`);
    }
    // The planning pipeline hands over its checkpoint after beads_integration: the loop starts in it,
    // counting on from the planning phases' agent runs.
    if (cp.state.loop === undefined && cp.phase === IN_PROGRESS)
      return {
        id: cp.id,
        state: afterPlanning(initialLoopState(settings.maxIterations), cp.state.pipeline),
        resumed: false,
        extra: extraOf(cp.state),
      };
    const loop = parseLoopState(cp.state);
    if (typeof loop === 'string')
      throw new StartError(`${say.given('resume', settings.resume)}: ${loop}. ${upperFirst(say.act('startFresh'))}.`);
    return { id: cp.id, state: loop, resumed: true, sourceState: cp.state.source, extra: extraOf(cp.state) };
  }
  const listing = await store.list();
  for (const bad of listing.invalid)
    warn('checkpoint.invalid', `Skipped checkpoint ${bad.path}: ${bad.reason}`, {
      path: bad.path,
      reason: bad.reason,
    });
  const candidates = [...listing.checkpoints];
  for (;;) {
    // The same choice `status` shows: newest resumable, understood, not dated in the future.
    const choice = pickRunnable(candidates, deps.clock.now(), settings.terms);
    for (const s of choice.skipped) {
      warn('checkpoint.invalid', `Skipped checkpoint ${path.join(store.dir, `${s.checkpoint.id}.json`)}: ${s.reason}`, {
        path: path.join(store.dir, `${s.checkpoint.id}.json`),
        reason: s.reason,
      });
      candidates.splice(candidates.indexOf(s.checkpoint), 1);
    }
    const cp = choice.checkpoint;
    if (!cp) return fresh();
    const loop = parseLoopState(cp.state);
    if (typeof loop !== 'string')
      return { id: cp.id, state: loop, resumed: true, sourceState: cp.state.source, extra: extraOf(cp.state) };
    warn('checkpoint.invalid', `Skipped checkpoint ${path.join(store.dir, `${cp.id}.json`)}: ${loop}`);
    candidates.splice(candidates.indexOf(cp), 1);
  }
}

async function appendError(deps: SliceDeps, entry: Record<string, unknown>): Promise<void> {
  await filesOf(deps).append(path.join(deps.stateDir, 'errors.jsonl'), `${JSON.stringify(entry)}\n`);
}
