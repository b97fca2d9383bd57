/**
 * One slice of the implementation loop (seed 001 REQ_019, seed 000 REQ_021, seed 002): resume the
 * newest checkpoint, work cycles (iteration.ts) until the work is done, the run must halt, or the
 * slice's bounds are reached; escalate cycles that cannot go on and detect failure loops with
 * counters kept in the checkpoint; write the checkpoint after every iteration.
 */
import path from 'node:path';
import { type DirSnapshot, foreignChanges, quarantine, snapshotCheckpoints } from '../checkpoint/foreign.js';
import { pickRunnable } from './resumable.js';
import { newCheckpointId } from '../checkpoint/fileStore.js';
import type { CheckpointPhase } from '../checkpoint/types.js';
import { SecretInChangeError, cycleBranch } from '../git/git.js';
import { RepositoryMovedError, guardLane } from '../git/lane.js';
import { ESCALATED_LABEL, type Issue, type IssueSource } from '../issues/types.js';
import { OUTPUT_CHARS, issueRef, renderMarkdown } from '../report/diagnostic.js';
import { buildDiagnostic } from './diagnostic.js';
import { workTreePath } from '../safety/stateDir.js';
import { TEMP_FILE_PATTERN } from '../util/atomicWrite.js';
import { rfc3339 } from '../util/clock.js';
import { initialProgress } from './cycle.js';
import { cycleBaseline } from './baseline.js';
import { implementWorkflow } from './iteration.js';
import { describeTargets, seconds } from './turn.js';
import { type RunResult, buildResult } from './result.js';
import { type CycleState, type HaltReason, type LoopState, initialLoopState, parseLoopState } from './state.js';

export type { SliceDeps, SliceSettings, TestOutcome, TestPurpose } from './deps.js';
export { filesOf } from './deps.js';
import { type SliceDeps, filesOf } from './deps.js';

/** The run cannot start as asked (a --resume id that cannot be used, a cycle branch as base): exit 2. */
export class StartError extends Error {}

type Halt = { reason: HaltReason; message: string; advice?: string };

const IN_PROGRESS: CheckpointPhase = 'beads_integration-complete';
const PHASE_FOR: Record<RunResult['status'], CheckpointPhase> = {
  continuing: IN_PROGRESS,
  complete: 'implementation-complete',
  halted: 'implementation-failed',
};

export async function runSlice(unguarded: SliceDeps): Promise<RunResult> {
  // Every commit, merge and reset below (and in the iterations) first checks the agent moved nothing.
  const guard = unguarded.git ? guardLane(unguarded.git) : undefined;
  const deps: SliceDeps = guard ? { ...unguarded, git: guard.git, laneMoved: (what) => guard.moved(what) } : unguarded;
  const workflow = deps.workflow ?? implementWorkflow;
  const { settings, logger, clock, store, source, git } = deps;
  const startedAt = clock.now().getTime();
  const deadline = settings.sliceMinutes !== undefined ? startedAt + settings.sliceMinutes * 60_000 : undefined;
  const opened = await openCheckpoint(deps);
  const checkpointId = opened.id;
  if (opened.sourceState !== undefined) source.importState?.(opened.sourceState);
  let state: LoopState = {
    ...opened.state,
    slices: opened.state.slices + 1,
    maxIterations: settings.maxIterations,
    halt: undefined,
  };
  const sliceStartIteration = state.iteration;
  const errors: string[] = [];

  // Checkpoint files as they were before any agent ran: one that appears or changes later, other
  // than this run's own, was forged (the agent has a shell) and is quarantined, never resumed.
  let known: DirSnapshot | undefined;
  const save = async (status: RunResult['status']) => {
    const sourceState = source.exportState?.();
    // Other keys of the checkpoint (the planning pipeline's outputs) are kept as they were.
    await store.write({
      id: checkpointId,
      phase: PHASE_FOR[status],
      state: { ...opened.extra, loop: state, ...(sourceState !== undefined ? { source: sourceState } : {}) },
      ...(errors.length ? { errors } : {}),
    });
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

  /** Labels and notes the issues in the source; on a git base branch, commits that bookkeeping. */
  const labelEscalated = async (ids: string[], note: string) => {
    for (const id of ids) {
      try {
        await source.markEscalated(id, note);
      } catch (error) {
        logger.warn(
          'source.warning',
          `Could not label ${id} as escalated in ${source.description}: ${(error as Error).message}`,
        );
      }
    }
    if (git && (await git.currentRef()) === state.baseBranch)
      await git.commitAll(`agent-loop: ${ids.join(' ')} escalated`);
  };

  if (git) {
    // An in-tree --state-dir is excluded (and never staged: see openGit's protect).
    const inTree = workTreePath(git.topLevel, deps.stateDir);
    if (inTree) await git.exclude(inTree);
    await git.exclude(TEMP_FILE_PATTERN);
    if (!state.baseBranch) {
      const current = await git.currentRef();
      if (current.startsWith('agent-loop/')) {
        throw new StartError(
          `the checked-out branch ${current} is a cycle branch of an earlier run, not a base branch. Check out the branch the work should land on (e.g. git checkout main), or resume that run instead of --fresh.`,
        );
      }
      state.baseBranch = current;
    }
    // A halt left an escalated cycle's branch checked out for inspection: park its work now, and
    // record the escalation on the base branch, where later runs read the issues.
    if (state.parkedBranch && state.baseBranch) {
      if ((await git.currentRef()) === state.parkedBranch) {
        await git.commitAll(`wip: ${state.parkedBranch} (escalated; parked by the next run)`);
        await git.checkout(state.baseBranch);
        const last = state.escalations.at(-1);
        if (last) await labelEscalated(last.issueIds, last.note);
        logger.info(
          'git.parked',
          `Committed the work left on ${state.parkedBranch} as wip: and returned to ${state.baseBranch}.`,
        );
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
  await save('continuing');
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

  const finish = async (status: RunResult['status'], halt?: Halt, interrupted = false) => {
    let diagnostic: string | null = null;
    if (halt) {
      state = { ...state, halt: { reason: halt.reason, message: halt.message } };
      errors.push(halt.message);
      const d = buildDiagnostic({
        reason: halt.reason,
        message: halt.message,
        state,
        checkpointId,
        maxConsecutiveEscalations: settings.maxConsecutiveEscalations,
        advice: halt.advice,
      });
      diagnostic = (deps.redact ?? ((t: string) => t))(renderMarkdown(d));
      await filesOf(deps).write(path.join(deps.stateDir, 'halt.md'), diagnostic);
      logger.error(
        'run.halted',
        `HALT (${halt.reason}): ${halt.message}. Nothing was reset: checkpoint ${checkpointId}, branch and working tree are left for inspection; the diagnostic is in ${path.join(deps.stateDir, 'halt.md')}.`,
        { haltReason: halt.reason, diagnostic },
      );
      logger.info('halt.diagnostic', diagnostic.trimEnd());
      await deps.notify?.(d);
    }
    await save(status);
    // A cycle still in flight at the slice's end: on a runner that is thrown away its branch is
    // pushed (work as wip:), and the next slice fetches it.
    const open = state.currentCycle?.branch;
    if (deps.publisher && git && open && status === 'continuing' && (await git.currentRef()) === open) {
      await git.commitAll(
        `wip: ${state.currentCycle?.issueIds.join(' ')} (slice ended at iteration ${state.iteration})`.slice(0, 120),
      );
      await keepBranch(deps, open);
    }
    return buildResult({
      status,
      state,
      checkpointId,
      sliceStartIteration,
      durationMs: clock.now().getTime() - startedAt,
      interrupted,
      diagnostic,
    });
  };

  /** Records an escalated cycle in the checkpoint and the source; a failure loop halts. */
  const escalate = async (unmasked: string, bounceLoop: boolean): Promise<Halt | undefined> => {
    // The reason may quote the agent's stderr; it goes into the issue's note and a commit message.
    const reason = (deps.redact ?? ((t: string) => t))(unmasked);
    const cycle = state.currentCycle as CycleState;
    const at = rfc3339(clock.now());
    const note = `agent-loop escalated this issue at iteration ${state.iteration} (${at}): ${reason}. Remove the ${ESCALATED_LABEL} label to let agent-loop try it again.`;
    const record = {
      issueIds: cycle.issueIds,
      titles: cycle.titles,
      iteration: state.iteration,
      steps: [...new Set(cycle.progress.trail)],
      reason,
      at,
      note,
      ...(cycle.lastFailure
        ? { lastFailure: { ...cycle.lastFailure, tail: cycle.lastFailure.tail.slice(-OUTPUT_CHARS) } }
        : {}),
    };
    state = {
      ...state,
      issuesEscalated: [
        ...state.issuesEscalated,
        ...cycle.issueIds.filter((id) => !state.issuesEscalated.includes(id)),
      ],
      consecutiveEscalations: state.consecutiveEscalations + 1,
      totalEscalations: state.totalEscalations + 1,
      escalations: [...state.escalations, record].slice(-100),
    };
    logger.error(
      'cycle.escalated',
      `Escalated ${describeTargets(cycle)}: ${reason} (${state.consecutiveEscalations} escalation(s) in a row, limit ${settings.maxConsecutiveEscalations}).`,
      {
        issueIds: cycle.issueIds,
        reason,
        steps: record.steps,
        consecutiveEscalations: state.consecutiveEscalations,
        bounceLoop,
      },
    );
    const refs = (ids: string[]) => ids.map(issueRef).join(', ');
    let halt: Halt | undefined;
    if (bounceLoop) {
      halt = {
        reason: 'bounce_loop',
        message: `BOUNCE LOOP DETECTED: ${cycle.progress.bounces} step-back transitions in cycle for issue ${refs(cycle.issueIds)} (${cycle.progress.trail.join(', ')})`,
      };
    } else if (state.consecutiveEscalations >= settings.maxConsecutiveEscalations) {
      const recent = state.escalations.slice(-state.consecutiveEscalations).flatMap((e) => e.issueIds);
      halt = {
        reason: 'failure_loop',
        message: `FAILURE LOOP DETECTED: ${state.consecutiveEscalations} consecutive escalations (issues ${refs(recent)}); last: ${reason}`,
      };
    }
    if (halt && !deps.publisher) {
      // Nothing moves on a halt: the label goes into the working tree as it is, and the cycle's
      // branch and edits stay for inspection (the next run parks them).
      await labelEscalated(cycle.issueIds, note);
      state = { ...state, currentCycle: undefined, parkedBranch: cycle.branch };
      return halt;
    }
    if (git && cycle.branch && state.baseBranch) {
      const committed = await git.commitAll(`wip: ${cycle.issueIds.join(' ')} escalated: ${reason}`.slice(0, 120));
      // Where the work is published, the machine is thrown away: the wip: branch is pushed to stay.
      if (deps.publisher && (committed || (await git.branchExists(cycle.branch)))) await keepBranch(deps, cycle.branch);
      await git.checkout(state.baseBranch);
      logger.info(
        'git.wip',
        `${committed ? `Committed the cycle's work to ${cycle.branch} as wip:` : `${cycle.branch} had no changes`}; back on ${state.baseBranch}${halt ? '' : ' for the next cycle'}.`,
      );
    }
    await labelEscalated(cycle.issueIds, note);
    state = { ...state, currentCycle: undefined };
    return halt;
  };

  // A rate-limit window carried over from the previous slice.
  if (state.rateLimitedUntil) {
    const wait = Date.parse(state.rateLimitedUntil) - clock.now().getTime();
    if (wait > 0 && deadline !== undefined && clock.now().getTime() + wait > deadline) {
      logger.info(
        'rate.limited',
        `Rate limited until ${state.rateLimitedUntil}: nothing to do in this slice; the next run continues.`,
        { rateLimitedUntil: state.rateLimitedUntil },
      );
      return finish('continuing');
    }
    if (wait > 0) {
      logger.info('rate.limited', `Rate limited until ${state.rateLimitedUntil}: waiting ${seconds(wait)}.`, {
        rateLimitedUntil: state.rateLimitedUntil,
      });
      await clock.sleep(wait, deps.signal);
    }
    state = { ...state, rateLimitedUntil: undefined };
  }

  const work = async (): Promise<RunResult> => {
    let onCycleBranch = false;
    for (;;) {
      if (deps.signal?.aborted) return finish('continuing', undefined, true);

      // 1. What to work on: the current cycle, or the next ready issues (escalated ones skipped).
      let next: Issue[] | undefined;
      if (!state.currentCycle) {
        // A red/green/refactor cycle works one issue's test list.
        const selection = await selectTargets(
          source,
          state,
          settings.batch && workflow.batches,
          sliceStartIteration,
          settings.onlyIssues,
        );
        next = selection.targets;
        if (next.length === 0) {
          if (selection.escalated.length > 0) {
            return finish('halted', {
              reason: 'all_escalated',
              message: `ALL ISSUES ESCALATED: only escalated issues remain (${selection.escalated.map(issueRef).join(', ')})`,
            });
          }
          const unreadable = await unreadableSource();
          if (unreadable) return finish('halted', unreadable);
          logger.info(
            'run.complete',
            `No ready issues left: the work is done (${state.issuesClosed.length} closed in this run).`,
          );
          return finish('complete');
        }
      }

      // 2. Bounds: the run's, then the slice's.
      if (state.iteration >= settings.maxIterations) {
        return finish('halted', {
          reason: 'max_iterations',
          message: `Max iterations (${settings.maxIterations}) reached`,
        });
      }
      if (settings.maxCostUsd !== undefined && state.costUsd >= settings.maxCostUsd) {
        return finish('halted', {
          reason: 'budget',
          message: `Budget reached: $${state.costUsd.toFixed(4)} spent of the $${settings.maxCostUsd} cap (--max-cost-usd)`,
        });
      }
      const sliceDone = state.iteration - sliceStartIteration;
      if (settings.sliceIterations !== undefined && sliceDone >= settings.sliceIterations) {
        logger.info(
          'slice.end',
          `Slice bound reached (${sliceDone} iterations): checkpoint ${checkpointId} continues next run.`,
        );
        return finish('continuing');
      }
      if (deadline !== undefined && clock.now().getTime() >= deadline) {
        logger.info(
          'slice.end',
          `Slice time bound reached (${settings.sliceMinutes} min): checkpoint ${checkpointId} continues next run.`,
        );
        return finish('continuing');
      }

      // 3. Start a cycle when none is in flight.
      if (!state.currentCycle && next) {
        const cycle: CycleState = {
          issueIds: next.map((i) => i.id),
          titles: next.map((i) => i.title),
          startedAtIteration: state.iteration + 1,
          iterations: 0,
          sameWorkRemainingCount: 0,
          progress: initialProgress(),
          timeoutRetries: 0,
          rateLimitAttempts: 0,
        };
        if (git && state.baseBranch) {
          cycle.branch = cycleBranch(cycle.issueIds);
          // The branch of an earlier cycle of these issues (escalated: its work kept as wip:; or its
          // pull request's, pushed by an earlier run) is brought up to date with the base first, so
          // that this cycle merges back cleanly.
          if (
            deps.publisher &&
            !(await git.branchExists(cycle.branch)) &&
            (await deps.publisher.fetchBranch(cycle.branch))
          ) {
            logger.info('git.fetched', `Continuing on ${cycle.branch} as an earlier run pushed it.`);
          }
          const earlier = await git.branchExists(cycle.branch);
          cycle.baseTip = await git.tipOf(state.baseBranch);
          await git.switchToBranch(cycle.branch, state.baseBranch);
          if (earlier)
            await git.merge(
              state.baseBranch,
              `Merge ${state.baseBranch} into ${cycle.branch}: a new cycle on an earlier cycle's branch`,
            );
        }
        state = { ...state, currentCycle: cycle };
        // Record before act: the cycle (its issues, branch and base tip) is in the checkpoint before
        // its first agent run, so a run killed during that run resumes this cycle instead of skipping it.
        await save('continuing');
        logger.info(
          'cycle.start',
          `Cycle for ${describeTargets(cycle)}${cycle.branch ? ` on branch ${cycle.branch}` : ''}`,
          { issueIds: cycle.issueIds, branch: cycle.branch },
        );
      } else if (git && state.currentCycle?.branch && !onCycleBranch) {
        // A resumed cycle: make sure its branch is checked out (once per slice, not per iteration),
        // the one an earlier run pushed when this checkout does not have it.
        const branch = state.currentCycle.branch;
        if ((await git.currentRef()) !== branch) {
          if (deps.publisher && !(await git.branchExists(branch)) && (await deps.publisher.fetchBranch(branch))) {
            logger.info('git.fetched', `Continuing on ${branch} as the previous slice pushed it.`);
          }
          await git.switchToBranch(branch, state.baseBranch ?? 'HEAD');
        }
      }
      onCycleBranch = true;

      // 4. One iteration, then what it means for the cycle and the run.
      // The suite on the cycle's starting tree, before its first agent run (kept: run once per tree).
      const hadKey = state.currentCycle?.baselineKey !== undefined;
      const b = await cycleBaseline(deps, state, checkpointId);
      if (b.interrupted) return finish('continuing', undefined, true);
      state = b.state;
      if (b.halt) return finish('halted', b.halt);
      if (!hadKey) await save('continuing');
      const cycle = state.currentCycle as CycleState;
      const outcome = await workflow.iterate(deps, state, b.run);
      if (outcome.interrupted) return finish('continuing', undefined, true);
      state = outcome.state;
      if (outcome.violation) await appendError(deps, outcome.violation);
      if (outcome.halt) return finish('halted', outcome.halt);
      // The agent stays in its lane: the iteration checked right after the agent ran; this covers what followed.
      await guard?.verify('go on after iteration ' + state.iteration);
      if (outcome.cycleDone) {
        // A "finished" cycle that left the issues unreadable is not merged.
        const unreadable = await unreadableSource();
        if (unreadable) return finish('halted', unreadable);
        const published = outcome.noChange
          ? await dropEmptyCycle(deps, state, cycle)
          : await finishCycleInGit(deps, state, cycle);
        state = {
          ...state,
          currentCycle: undefined,
          ...(published ? { pullRequests: [...state.pullRequests, published].slice(-100) } : {}),
        };
      }
      if (outcome.escalate) {
        const halt = await escalate(outcome.escalate.reason, outcome.escalate.bounceLoop);
        if (halt) return finish('halted', halt);
      }
      if (outcome.waitMs !== undefined) {
        const until = clock.now().getTime() + outcome.waitMs;
        if (deadline !== undefined && until > deadline) {
          // Whole seconds, rounded up: the next run must not start inside the window.
          state = { ...state, rateLimitedUntil: rfc3339(new Date(Math.ceil(until / 1000) * 1000)) };
          logger.info(
            'rate.limited',
            `Rate limited until ${state.rateLimitedUntil}, past this slice's end: the next run waits or resumes then.`,
            { rateLimitedUntil: state.rateLimitedUntil },
          );
          return finish('continuing');
        }
        logger.info('rate.limited', `Rate limited: waiting ${seconds(outcome.waitMs)} before the next attempt.`, {
          waitMs: outcome.waitMs,
        });
        await save('continuing');
        await clock.sleep(outcome.waitMs, deps.signal);
      }
      await save('continuing');
    }
  };

  try {
    return await work();
  } catch (error) {
    // The agent moved the repository, or its change holds a secret: halt, committing and merging nothing more.
    if (error instanceof RepositoryMovedError)
      return finish('halted', { reason: 'repository_moved', message: `REPOSITORY MOVED: ${error.message}` });
    if (error instanceof SecretInChangeError)
      return finish('halted', {
        reason: 'secret_in_change',
        message: `SECRET IN CHANGE: ${error.message}; nothing was committed`,
      });
    // The source failing because the agent garbled it is a halt with a diagnostic, not a crash.
    const unreadable = await unreadableSource().catch(() => undefined);
    if (unreadable) return finish('halted', unreadable);
    throw error;
  }
}

async function finishCycleInGit(
  deps: SliceDeps,
  state: LoopState,
  cycle: CycleState,
): Promise<LoopState['pullRequests'][number] | undefined> {
  const { git, settings, logger } = deps;
  if (!git || !cycle.branch || !state.baseBranch) return undefined;
  const subject = `agent-loop: ${cycle.issueIds.join(' ')} ${cycle.titles.join('; ')}`.slice(0, 120);
  const committed = await git.commitAll(subject);
  if (settings.onSuccess === 'pull-request' && deps.publisher) {
    const verdict = state.history.at(-1)?.verdict?.summary;
    const work = {
      issueIds: cycle.issueIds,
      titles: cycle.titles,
      branch: cycle.branch,
      base: state.baseBranch,
      iteration: state.iteration,
      ...(verdict ? { verdict } : {}),
      preexisting: state.preexistingFailures,
    };
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

/** A cycle that needed no change: back to the base branch, and its branch deleted when it holds nothing. */
async function dropEmptyCycle(deps: SliceDeps, state: LoopState, cycle: CycleState): Promise<undefined> {
  const { git } = deps;
  if (!git || !cycle.branch || !state.baseBranch) return undefined;
  await git.checkout(state.baseBranch);
  if ((await git.tipOf(cycle.branch)) === (await git.tipOf(state.baseBranch))) await git.deleteBranch(cycle.branch);
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

/** The next targets, and the ready issues skipped because they were escalated (here or in an earlier run). */
async function selectTargets(
  source: IssueSource,
  state: LoopState,
  batch: boolean,
  sliceStartIteration: number,
  only?: readonly string[],
): Promise<{ targets: Issue[]; escalated: string[] }> {
  // Issues closed in this run stay done even when the base branch's issue file still lists them
  // open (--on-success branch leaves the closing commit on the cycle's branch).
  const ready = (await source.ready()).filter(
    (i) => !state.issuesClosed.includes(i.id) && !state.issuesNoChange.includes(i.id) && (!only || only.includes(i.id)),
  );
  // Across slices the label decides (removing it makes the issue eligible again); within this
  // slice the escalations themselves, in case a label could not be written.
  const inThisSlice = new Set(
    state.escalations.filter((e) => e.iteration > sliceStartIteration).flatMap((e) => e.issueIds),
  );
  const isEscalated = (i: Issue) => inThisSlice.has(i.id) || i.labels.includes(ESCALATED_LABEL);
  const eligible = ready.filter((i) => !isEscalated(i));
  return { targets: batch ? eligible : eligible.slice(0, 1), escalated: ready.filter(isEscalated).map((i) => i.id) };
}

type Opened = {
  id: string;
  state: LoopState;
  resumed: boolean;
  sourceState?: unknown;
  extra?: Record<string, unknown>;
};

/** The checkpoint's state besides the loop's and the source's (the planning pipeline's outputs). */
const extraOf = (state: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(state).filter(([k]) => k !== 'loop' && k !== 'source'));

async function openCheckpoint(deps: SliceDeps): Promise<Opened> {
  const { settings, store, logger } = deps;
  const fresh = () => ({ id: newCheckpointId(), state: initialLoopState(settings.maxIterations), resumed: false });
  if (settings.fresh) return fresh();
  if (settings.resume) {
    let cp;
    try {
      cp = await store.load(settings.resume);
    } catch (error) {
      throw new StartError(`--resume ${settings.resume}: ${(error as Error).message}`);
    }
    // The planning pipeline hands over its checkpoint after beads_integration: the loop starts in it.
    if (cp.state.loop === undefined && cp.phase === IN_PROGRESS)
      return { id: cp.id, state: initialLoopState(settings.maxIterations), resumed: false, extra: extraOf(cp.state) };
    const loop = parseLoopState(cp.state);
    if (typeof loop === 'string')
      throw new StartError(`--resume ${settings.resume}: ${loop}. Start over with --fresh.`);
    return { id: cp.id, state: loop, resumed: true, sourceState: cp.state.source, extra: extraOf(cp.state) };
  }
  const listing = await store.list();
  for (const bad of listing.invalid)
    logger.warn('checkpoint.invalid', `Skipped checkpoint ${bad.path}: ${bad.reason}`, {
      path: bad.path,
      reason: bad.reason,
    });
  const candidates = [...listing.checkpoints];
  for (;;) {
    // The same choice `status` shows: newest resumable, understood, not dated in the future.
    const choice = pickRunnable(candidates, deps.clock.now());
    for (const s of choice.skipped) {
      logger.warn(
        'checkpoint.invalid',
        `Skipped checkpoint ${path.join(store.dir, `${s.checkpoint.id}.json`)}: ${s.reason}`,
        { path: path.join(store.dir, `${s.checkpoint.id}.json`), reason: s.reason },
      );
      candidates.splice(candidates.indexOf(s.checkpoint), 1);
    }
    const cp = choice.checkpoint;
    if (!cp) return fresh();
    const loop = parseLoopState(cp.state);
    if (typeof loop !== 'string')
      return { id: cp.id, state: loop, resumed: true, sourceState: cp.state.source, extra: extraOf(cp.state) };
    logger.warn('checkpoint.invalid', `Skipped checkpoint ${path.join(store.dir, `${cp.id}.json`)}: ${loop}`);
    candidates.splice(candidates.indexOf(cp), 1);
  }
}

async function appendError(deps: SliceDeps, entry: Record<string, unknown>): Promise<void> {
  await filesOf(deps).append(path.join(deps.stateDir, 'errors.jsonl'), `${JSON.stringify(entry)}\n`);
}
