/**
 * `agent-loop run --parallel N` (issue 16, the local half): the loop in waves. Each wave, the pure
 * planner (src/core/wavePlan.ts) picks up to N ready issues; the wave is recorded in the checkpoint
 * before any job starts; each job is `agent-loop run` for one issue in its own git worktree, cut
 * from the base branch (src/app/parallelJob.ts); the finished jobs' branches are merged into the
 * base branch in the main checkout one at a time (src/git/worktree.ts), a conflict re-queueing the
 * issue with the conflicting files as context; then the pure reduce (src/core/waveReduce.ts) sums
 * the jobs into the loop, the worktrees go, and the next wave starts, until no work is left or the
 * loop halts. A coordinator killed mid-wave finds the wave in its checkpoint: each job resumes its
 * own checkpoint in its worktree, or, finished, is read as it is.
 */
import type { Options } from '../config/options.js';
import { createRedactor } from '../secrets/redact.js';
import { openAgentSession } from '../safety/session.js';
import { gitTopLevel } from '../git/repoPaths.js';
import type { RunJobDeps } from './parallelJob.js';
import { cannotStart, problem } from './problems.js';
import { runLogger, sourceOf, standingHalt } from './run.js';
import { checkHalt } from './haltCheck.js';
import { type ParallelIO, openCoordinator } from './coordinator.js';
import { parallelProblems } from './parallelOptions.js';
import { initialWaveModel } from '../core/wave.js';
import { waveMachineSettings } from './effects/waveContext.js';
import { driveWaves } from './effects/waveHandlers.js';

export type { ParallelIO } from './coordinator.js';
export { MAX_LOCAL_PARALLEL, parallelProblems } from './parallelOptions.js';

export async function parallelCommand(options: Options, io: ParallelIO): Promise<number> {
  const redact = createRedactor(io.secrets);
  const refuse = (messages: string[]) => cannotStart(io, 'run', messages.map(problem('invalid_input')), redact);
  const problems = parallelProblems(options);
  const top = await gitTopLevel(io.cwd, io.env);
  if (!top)
    problems.push(
      `--parallel: ${io.cwd} is not a git work tree; each job needs its own worktree. Run in a git repository, or use --parallel 1.`,
    );
  if (problems.length > 0) return refuse(problems);
  // A halt stands as in the serial loop: nothing runs until it is resumed or its cause is gone.
  const startedAt = io.clock.now().getTime();
  // The jobs' escalations are labelled on the base branch (labelEscalations): the label decides, as in the serial loop.
  const halt = await checkHalt(options, {
    ...io,
    source: () => sourceOf(options, io, () => {}),
  });
  if (halt.kind === 'stands') return standingHalt(options, io, halt, startedAt);
  const opened = await openAgentSession('run', io);
  if (!opened.ok) return cannotStart(io, 'run', opened.problems.map(problem('repository')), redact);
  const session = opened.session;
  const logger = runLogger(options, io, redact);
  for (const note of session.notes) logger.warn('run.recovered', note);
  if (halt.kind === 'lifted')
    logger.info('run.halt_lifted', `Resuming the halted run: ${halt.because}.`, { because: halt.because });
  try {
    return await coordinate(options, io, top as string, session.registry, logger);
  } catch (error) {
    // git refused a worktree or a merge, the disk is full: stop with the reason. The wave in flight
    // is in the checkpoint, so the next run resumes it.
    const message = error instanceof Error ? error.message : String(error);
    logger.error(
      'run.error',
      `The run stopped: ${message}. Its state is kept in ${io.stateDir}; fix the cause and run again to resume.`,
      { error: message },
    );
    return 1;
  } finally {
    session.release();
  }
}

/** The coordinator opened, then the wave machine (src/core/wave.ts) driven until the run ends: its exit code. */
async function coordinate(
  options: Options,
  io: ParallelIO,
  top: string,
  registry: RunJobDeps['registry'],
  logger: ReturnType<typeof runLogger>,
): Promise<number> {
  const c = await openCoordinator(options, io, top, registry, logger);
  const settings = {
    ...waveMachineSettings(options, c.checkpointId, c.base),
    ...(options.issue ? { issues: options.issue } : {}),
  };
  return driveWaves(c, initialWaveModel(c.start, settings));
}
