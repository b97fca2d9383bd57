/**
 * A cycle's baseline: the suite run on the tree the cycle starts from, before its first agent run
 * (src/verdict/baseline.ts keeps it, keyed by that commit and the command). Every verdict in the
 * cycle compares the agent's work with it.
 */
import path from 'node:path';
import { BASELINES_DIR, baselineKey, baselineProblem, baselineStore, describeBaseline } from '../verdict/baseline.js';
import { type SuiteRun, emptyRun } from '../verdict/results.js';
import { type SliceDeps, filesOf } from './deps.js';
import type { Halt } from '../core/events.js';
import type { CycleState, LoopState } from '../core/state.js';

export interface CycleBaseline {
  state: LoopState;
  /** The run; undefined when it could not be had (then only the exit code of the work's run counts). */
  run?: SuiteRun;
  halt?: Halt;
  interrupted?: boolean;
}

/**
 * The current cycle's baseline: read from the state directory when this tree's was kept, else run
 * now (only while the cycle has not changed the tree: a resumed cycle whose baseline is gone is
 * judged by the exit code alone, and says so). A red baseline that cannot be read per test, or a
 * suite that cannot run at all, halts, and is not kept.
 */
export async function cycleBaseline(deps: SliceDeps, state: LoopState, checkpointId: string): Promise<CycleBaseline> {
  const { settings, logger, git } = deps;
  const cycle = state.currentCycle as CycleState;
  const store = baselineStore(filesOf(deps));
  const junit = settings.junitFile;
  const key =
    cycle.baselineKey ??
    baselineKey(git ? await git.head() : `${checkpointId}:${cycle.startedAtIteration}`, settings.testCommand, junit);
  const withKey = (s: LoopState): LoopState => ({
    ...s,
    currentCycle: { ...(s.currentCycle as CycleState), baselineKey: key },
  });
  const check = (run: SuiteRun, s: LoopState): CycleBaseline => {
    const problem = baselineProblem(run, settings.testCommand);
    if (problem)
      return {
        state: s,
        run,
        halt: {
          reason: 'baseline_unreadable',
          message: `NO VERDICT POSSIBLE: ${problem.message}`,
          advice: problem.advice,
        },
      };
    return { state: s, run };
  };

  const kept = await store.load(key);
  if (kept) {
    if (!cycle.baselineKey)
      logger.info(
        'tests.baseline',
        `Baseline for this tree already known (${path.join(deps.stateDir, BASELINES_DIR)}): ${describeBaseline(kept)}.`,
        { key },
      );
    return check(kept, withKey(state));
  }
  if (cycle.iterations > 0) {
    logger.warn(
      'tests.baseline',
      `The baseline of this cycle (${key}) is no longer in ${path.join(deps.stateDir, BASELINES_DIR)} and the tree has moved on: the agent's work is judged by the test command's exit code alone.`,
      { key },
    );
    return { state: withKey(state), run: undefined };
  }
  logger.info(
    'tests.baseline',
    `Running the tests on the cycle's starting tree first (the baseline every verdict compares with): ${settings.testCommand}`,
    { command: settings.testCommand },
  );
  const outcome = await deps.runTests(settings.testCommand, deps.signal, 'baseline');
  if (deps.signal?.aborted) return { state, interrupted: true };
  const run = outcome.run ?? emptyRun(outcome.exitCode);
  logger.info('tests.baseline', `Baseline: ${describeBaseline(run)} (${(outcome.durationMs / 1000).toFixed(1)}s).`, {
    key,
    exitCode: outcome.exitCode,
    reader: run.reader ?? null,
  });
  const checked = check(run, state);
  // One that gives no verdict is not kept: the next run, once the suite is fixed or installed, runs it again.
  if (checked.halt) return checked;
  await store.save(key, run);
  return { ...checked, state: withKey(state) };
}
