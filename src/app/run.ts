/**
 * A run, as the application starts it for the CLI's `agent-loop run` and the action alike: an
 * earlier halt that stands, or nothing to do, ends it at once (earlyEnds.ts); otherwise the engine's
 * dependencies are built from the options (prepareRun.ts), then one slice runs. Why it cannot start
 * is handed to the caller as typed problems (problems.ts), rendered by each entrypoint its own way.
 */
import type { Options } from '../config/options.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { parseLoopState } from '../core/state.js';
import { leavesBranch } from '../core/landing.js';
import { exitCodeFor, summaryLine } from '../core/result.js';
import { openGit } from '../git/git.js';
import { ISSUE_SOURCES } from '../issues/catalog.js';
import { withFirstReady } from '../issues/guard.js';
import type { Issue } from '../issues/types.js';
import { finishedBranchMessage, finishedBranches } from '../loop/finishedBranches.js';
import { recordedTips } from '../loop/recordedTips.js';
import { StartError, openCheckpoint, runSlice } from '../loop/slice.js';
import { createRedactor } from '../secrets/redact.js';
import { checkStateDirOwner } from '../safety/stateDirOwner.js';
import { surface } from '../config/surface.js';
import { deferredRun, idleRun, standingHalt } from './earlyEnds.js';
import { checkHalt } from './haltCheck.js';
import { checkIdle } from './idleCheck.js';
import { type PreparedRun, prepareRun } from './prepareRun.js';
import { cannotStart, problem } from './problems.js';
import { type LandingSoFar, type RunIO, runLogger, sourceOf } from './runPorts.js';

export type { LandingSoFar, RunIO } from './runPorts.js';
export { runLogger, sourceOf } from './runPorts.js';
export { type Prepared, type PreparedRun, prepareRun, stagingRestored } from './prepareRun.js';
export { standingHalt } from './earlyEnds.js';

/** Runs one slice of a prepared run and says how it ended, as an exit code. */
export async function runPrepared(run: PreparedRun, io: RunIO): Promise<number> {
  const { deps, logger, session, redact } = run;
  try {
    if (io.haltLifted)
      logger.info('run.halt_lifted', `Resuming the halted run: ${io.haltLifted}.`, { because: io.haltLifted });
    const result = await runSlice(deps);
    logger.result(result, summaryLine(result));
    await io.onResult?.(result);
    return exitCodeFor(result);
  } catch (error) {
    if (error instanceof StartError) return cannotStart(io, 'run', [problem('invalid_input')(error.message)], redact);
    // Anything else (git refused a checkout, the issue file vanished, the disk is full): stop with
    // the reason. Every recorded iteration is in the checkpoint, so the next run resumes.
    const message = error instanceof Error ? error.message : String(error);
    const said = `The run stopped: ${message.replace(/\.+$/, '')}. Recorded iterations are kept in ${io.stateDir}; fix the cause and run again to resume.`;
    logger.error('run.error', said, { error: message });
    await io.onStopped?.({ message: redact(said), unchanged: false });
    return 1;
  } finally {
    if (!io.session) session.release();
  }
}

/**
 * `agent-loop run` (and the action's run step): an earlier halt that stands ends it at once;
 * otherwise prepare, then run one slice; 2 when it cannot start.
 */
export async function runCommand(options: Options, given: RunIO): Promise<number> {
  // --issue: work only these (a job of --parallel is one).
  let io = options.issue && !given.onlyIssues ? { ...given, onlyIssues: options.issue } : given;
  const startedAt = io.clock.now().getTime();
  // Another repository's state directory: refused before its halt or its idleness is told as this one's (issue 43).
  const foreign = await checkStateDirOwner(io.stateDir, io.cwd, io.env, surface(io.terms).option('stateDir'), {
    record: false,
  });
  if (foreign) return cannotStart(io, 'run', [problem('repository')(foreign)], createRedactor(io.secrets));
  const halt = await checkHalt(options, {
    ...io,
    source: () => sourceOf(options, io, () => {}),
    // Beads issues published from a thrown-away runner: as prepareRun's closeOnBranch.
    labelsDoNotLast: io.publisher !== undefined && ISSUE_SOURCES[options.source].inRepository,
  });
  if (halt.kind === 'stands') return standingHalt(options, io, halt, startedAt);
  if (halt.kind === 'lifted') io = { ...io, haltLifted: halt.because, ...(halt.byHand ? { resumedByHand: true } : {}) };
  else if (!io.onlyIssues) {
    // Nothing to do: nothing written, no agent installed or prepared (issue 14). The issues read to
    // decide are the run's first read otherwise, and its warnings go to the run's log either way.
    // (The planning pipeline's loop, on the issues it just created, always has work.)
    const redact = createRedactor(io.secrets);
    const logger = runLogger(options, io, redact, false);
    let warn = (message: string) => logger.warn('source.warning', message);
    const source = await sourceOf(options, io, (message) => warn(message)).catch(() => undefined);
    // --on-success branch: issues finished on their own unmerged branch are no work (said when idle;
    // otherwise the slice says it).
    const onBranch = new Map<string, { branch: string; base: string }>();
    const idle = source
      ? await checkIdle(options, {
          ...io,
          source,
          ...(leavesBranch(options.onSuccess, io.publisher !== undefined)
            ? { startable: notFinishedOnBranch(io, onBranch) }
            : {}),
        })
      : undefined;
    if (idle?.kind === 'idle') {
      for (const [id, { branch, base }] of onBranch)
        logger.info('issue.on_branch', finishedBranchMessage(id, branch, base), { issueId: id, branch });
      return idleRun(io, logger, idle, source!.description, startedAt);
    }
    if (idle?.kind === 'deferred') return deferredRun(io, logger, idle, startedAt);
    if (idle?.kind === 'refused') {
      const message =
        `The run stopped before it started: ${idle.message.replace(/\.+$/, '')}. ` +
        'Nothing was started or written; the next run starts once the token is fixed.';
      logger.error('run.refused', message);
      await io.onStopped?.({ message: redact(message), unchanged: true });
      return 1;
    }
    const first = idle?.kind === 'work' ? idle.ready : undefined;
    if (source && first)
      io = {
        ...io,
        source: (onWarning) => {
          warn = onWarning;
          return withFirstReady(source, first);
        },
      };
  }
  // The action's preflight: now that the run has work, and before anything is installed or paid for.
  if (io.preflight) {
    const refused = await io.preflight(await landingSoFar(options, io));
    if (refused) io = { ...io, refusedBeforehand: refused };
  }
  // install-agent: only now that the run has work, and an agent will run.
  if (io.installAgent && !io.refusedBeforehand) {
    const installed = await io.installAgent();
    if ('problem' in installed)
      return cannotStart(io, 'run', [problem('agent_not_on_path')(installed.problem)], createRedactor(io.secrets));
    io = { ...io, env: installed.env };
  }
  const prepared = await prepareRun(options, io);
  if (!prepared.ok) return cannotStart(io, 'run', prepared.problems, prepared.redact);
  return runPrepared(prepared.run, io);
}

/**
 * The base branch of the checkpoint the run continues (none: the branch checked out), and what the
 * loop has landed so far: in any of the checkpoints in the state directory (a finished checkpoint
 * is not continued, a new one starts, yet its landings were this loop's).
 */
async function landingSoFar(options: Options, io: RunIO): Promise<LandingSoFar> {
  const store = new FileCheckpointStore(io.stateDir, { clock: io.clock });
  let base: string | undefined;
  const landed = { pullRequests: 0, issuesClosed: 0 };
  try {
    base = (await openCheckpoint({ settings: options, store, clock: io.clock }, () => {})).state.baseBranch;
    for (const checkpoint of (await store.list()).checkpoints) {
      const loop = parseLoopState(checkpoint.state);
      if (typeof loop !== 'object') continue;
      landed.pullRequests += loop.pullRequests.length;
      landed.issuesClosed += loop.issuesClosed.length;
    }
  } catch {
    // The run opens the checkpoint again and says what is wrong with it.
  }
  const checkedOut = base ? undefined : await (await openGit(io.cwd, io.env))?.currentRef().catch(() => undefined);
  base ??= checkedOut && checkedOut !== 'HEAD' ? checkedOut : undefined;
  return { ...(base ? { base } : {}), landed };
}

/** --on-success branch: the ready issues less those finished on their own unmerged branch (src/loop/finishedBranches.ts), kept in `found`. */
function notFinishedOnBranch(
  io: RunIO,
  found: Map<string, { branch: string; base: string }>,
): (ready: Issue[]) => Promise<Issue[]> {
  return async (ready) => {
    const git = await openGit(io.cwd, io.env);
    const base = await git?.currentRef();
    if (!git || !base || base === 'HEAD' || base.startsWith('agent-loop/')) return ready;
    const finished = await finishedBranches(
      git,
      base,
      ready.map((i) => i.id),
      await recordedTips(new FileCheckpointStore(io.stateDir, { clock: io.clock })),
    );
    for (const [id, branch] of finished) found.set(id, { branch, base });
    return ready.filter((i) => !finished.has(i.id));
  };
}
