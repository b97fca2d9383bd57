/**
 * One slice (seed 001 REQ_019, seed 000 REQ_021, seed 002): opens the checkpoint and prepares the
 * repository, then hands the pure core (src/core/slice.ts) to the interpreter (src/loop/interpreter.ts),
 * which performs each effect it asks for through its handler (src/loop/effects/: the issue source,
 * the workflow's iteration, git, the checkpoint store, the clock) until the core says done.
 */
import path from 'node:path';
import { surface, upperFirst } from '../config/surface.js';
import { newCheckpointId } from '../checkpoint/fileStore.js';
import type { SeedPhase } from '../checkpoint/types.js';
import { runCheckpointPhase } from '../checkpoint/phase.js';
import { recordedTips } from './recordedTips.js';
import { landingMode } from '../core/landing.js';
import { pickRunnable } from '../core/resumable.js';
import type { RunResult } from '../core/result.js';
import { type CoreConfig, initialModel } from '../core/slice.js';
import { type LoopState, initialLoopState, parseLoopState } from '../core/state.js';
import { guardLane } from '../git/lane.js';
import { leaseMinutes } from '../issues/claims.js';
import { forgetBaselines } from './baseline.js';
import { sourceWatch } from './effects/issues.js';
import { interpretSlice } from './interpreter.js';
import { prepareRepository } from './prepare.js';
import { checkpointSaver } from './saveCheckpoint.js';
import { StartError } from './startError.js';

export type { SliceDeps, SliceSettings, TestOutcome, TestPurpose } from './deps.js';
export { filesOf } from './deps.js';
export { StartError } from './startError.js';
import type { SliceDeps } from './deps.js';

/** The phase of the planning pipeline's checkpoint when it hands over to the loop (its issues exist, seed 001). */
const IN_PROGRESS: SeedPhase = 'beads_integration-complete';

export async function runSlice(unguarded: SliceDeps): Promise<RunResult> {
  // Every commit, merge and reset (here and in the iterations) first checks the agent moved nothing.
  const guard = unguarded.git ? guardLane(unguarded.git) : undefined;
  const deps: SliceDeps = guard ? { ...unguarded, git: guard.git, laneMoved: (what) => guard.moved(what) } : unguarded;
  const { settings, logger, clock, source, workflow } = deps;
  const ports = { deps, redact: deps.redact ?? ((t: string) => t) };
  const startedAt = clock.now().getTime();
  const opened = await openCheckpoint(deps, (event, message, data) => logger.warn(event, message, data));
  const checkpointId = opened.id;
  if (opened.sourceState !== undefined) source.importState?.(opened.sourceState);
  const given = {
    ...opened.state,
    slices: opened.state.slices + 1,
    maxIterations: settings.maxIterations,
    halt: undefined,
  };
  const inPlan = opened.extra?.pipeline !== undefined;
  // Seed 001's phase; where the run stands within it (tdd: its step) is the state's stage.
  const save = checkpointSaver(deps, checkpointId, opened.extra, (status, loop) =>
    runCheckpointPhase(status, workflow.stage?.(loop)),
  );
  const state = await prepareRepository(ports, opened.state, given, guard);
  const unreadableSource = await sourceWatch(source);
  // Starting over forgets the suites' recorded baselines too (src/loop/baseline.ts); once the run
  // is sure to start: a refused one changes nothing.
  if (settings.fresh) await forgetBaselines(deps);
  await save('continuing', state, []);
  logger.info(
    'run.start',
    `${opened.resumed ? `Resuming checkpoint ${checkpointId} at iteration ${state.iteration + 1}` : `Starting run ${checkpointId}`}` +
      ` (max ${settings.maxIterations} iterations, agent ${deps.agent.displayName}, tests: ${settings.testCommand})`,
    { checkpointId, resumed: opened.resumed, iteration: state.iteration, maxIterations: settings.maxIterations },
  );
  // From here the core decides (src/core/slice.ts) and the interpreter performs its effects.
  const config: CoreConfig = {
    settings: { ...settings, batch: settings.batch && workflow.batches },
    checkpointId,
    ...(settings.sliceMinutes !== undefined ? { deadline: startedAt + settings.sliceMinutes * 60_000 } : {}),
    publishes: deps.publisher !== undefined,
    branches: deps.git !== undefined && state.baseBranch !== undefined,
    // Claims and leases where the source has them (GitHub): a lease outlives one iteration.
    ...(source.claim ? { leaseMs: leaseMinutes(settings.agentTimeoutMinutes) * 60_000 } : {}),
    ...(deps.waveJob ? { waveJob: true } : {}),
    machine: workflow.machine(deps),
    landing: landingMode(settings.onSuccess, deps.publisher && { pushesToBase: !!deps.publisher.pushToBase }),
  };
  const model = initialModel(state, clock.now().getTime());
  const found = model.loop;
  return interpretSlice({
    ...ports,
    config,
    checkpointId,
    me: { run: deps.runId ?? `local-${checkpointId}`, checkpoint: checkpointId },
    ...(guard ? { guard } : {}),
    startedAt,
    found,
    // A loop the planning pipeline just handed over starts from its phases' agent runs (afterPlanning),
    // which the plan ran before this slice: they are counted with the run that starts the loop.
    start: !opened.resumed && inPlan ? { ...found, iteration: 0, failedIterations: 0, successfulIterations: 0 } : found,
    save,
    unreadableSource,
    run: { model, diagnostic: null, toldInReview: new Set(), onBranch: new Map(), sent: [], tipsLeft: new Map() },
  });
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
  // A new checkpoint keeps the branch tips agent-loop recorded in the others (src/core/cycleTips.ts).
  const fresh = async () => {
    const tips = await recordedTips(store);
    const state = initialLoopState(settings.maxIterations);
    return {
      id: newCheckpointId(),
      state: Object.keys(tips).length > 0 ? { ...state, cycleTips: tips } : state,
      resumed: false,
    };
  };
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
    // A checkpoint with no loop state (seed 001's `"state": {}`), not the planning pipeline's: resumed
    // as status says it would be, its progress starting over (checkpointWarnings says so). Issue 43.
    if (cp.state.loop === undefined && cp.state.pipeline === undefined)
      return { id: cp.id, state: initialLoopState(settings.maxIterations), resumed: true, extra: extraOf(cp.state) };
    const loop = parseLoopState(cp.state);
    if (typeof loop !== 'string')
      return { id: cp.id, state: loop, resumed: true, sourceState: cp.state.source, extra: extraOf(cp.state) };
    warn('checkpoint.invalid', `Skipped checkpoint ${path.join(store.dir, `${cp.id}.json`)}: ${loop}`);
    candidates.splice(candidates.indexOf(cp), 1);
  }
}
