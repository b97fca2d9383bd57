/**
 * Fan-out (issue 16), the reduce job (`fan-out: reduce`, `if: always()`): the loop's newest state
 * restored (main.ts), each work job's partial state downloaded (its own cache entry, else its
 * artifact; none: the job died before it saved, its row `lost`, its lease left to expire), merged
 * into the loop's checkpoint by src/core/waveReduce.ts (counts and spend summed exactly, the failure
 * rules applied to the wave), then one halt handled as a slice handles it (halt.md, the error
 * annotation, one Discord post), one job summary for the wave and the outputs; post publishes the
 * checkpoint. The reusable workflow serialises reduces (a concurrency group), so each adds its
 * wave to the newest published state.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { writeRunCheckpoint } from '../checkpoint/runCheckpoint.js';
import { openCheckpoint } from '../loop/slice.js';
import { type LoopState, initialLoopState } from '../core/state.js';
import type { PartialState, WaveReduction, WaveRow } from '../core/waveReduce.js';
import type { Notify } from '../loop/effects/notices.js';
import { initialWaveModel } from '../core/wave.js';
import { driveWave, waveMachineSettings } from '../app/effects/waveContext.js';
import { type ReduceContext, reduceHandlers } from './reduceEffects.js';
import { discordNotifier } from '../app/discordNotify.js';
import type { RunRefs } from './persistence.js';
import type { FanOutJob, WaveSource } from './planJob.js';
import type { GitHubIssueSource } from '../issues/github/issueSource.js';
import { type WaveHandoff, partialOf, savedLoop } from './waveHandoff.js';
import { LANDING_JOB, type LandingPartial, type LandingReduction } from '../core/waveOutbox.js';
import { gatherBundles, tookFrom } from './outboxHandover.js';
import { unchangedWaveOutputs, waveOutputs, waveSummary } from './waveSummary.js';
import { haltFailure } from './summary.js';
import { resumeWays } from '../core/resumeWays.js';

export interface ReduceJob extends FanOutJob {
  wave: WaveHandoff;
  /** The claims of the wave's unfinished issues, released for the next wave (the jobs have ended). */
  source?: Pick<WaveSource, 'releaseClaim'> & Partial<Pick<GitHubIssueSource, 'claimProgress'>>;
  /** Downloads one job's partial state into `dir`: whether there was one. */
  fetchPartial: (scope: string, dir: string) => Promise<boolean>;
  refs: RunRefs;
  scratch: string;
}

/** What the reduce says (each message its own line of the job's log or an annotation). */
const SAID = {
  reducedBefore: (wave: string, into: string) =>
    `agent-loop reduce: wave ${wave} is in checkpoint ${into} already (its reduce ran before): nothing is added twice, nothing published.`,
  lost: (issue: string, claimed: PartialState['claimed']) => {
    const cost = claimed?.costUsd !== undefined ? ` ($${claimed.costUsd.toFixed(4)})` : '';
    const counted = claimed ? `its claim comment says it ran ${claimed.iterations} iteration(s)${cost}, counted; ` : '';
    return (
      `agent-loop reduce: no partial state from the job on issue ${issue}: it died before it saved; ${counted}` +
      'its claim expires and a later wave works the issue again.'
    );
  },
  adopted: (id: string, wave: string) =>
    `agent-loop reduce: another run's first wave started the loop's checkpoint ${id} while this one ran ` +
    `(its plan found none): wave ${wave} is added to it.`,
  notReleased: (issue: string, why: string) =>
    `agent-loop reduce: could not release the claim on issue ${issue} (${why}): a later wave takes it up once its lease expires.`,
};

export async function reduceJob(job: ReduceJob): Promise<void> {
  const { core, redact, wave } = job;
  const store = new FileCheckpointStore(job.stateDir, { clock: job.clock, redact, terms: 'action' });
  const into = await loopCheckpoint(job, store);
  const { main, state: kept } = await openInto(job, store, into);
  // A reduce run again (GitHub's "Re-run failed jobs") finds its wave in the checkpoint: nothing is added twice.
  const reduced = reducedWaves(kept);
  if (reduced.includes(wave.id)) {
    core.saveState('unchanged', 'reduced');
    core.warning(SAID.reducedBefore(wave.id, into));
    for (const [name, value] of Object.entries(unchangedWaveOutputs(main, into))) core.setOutput(name, redact(value));
    return;
  }
  const partials = await gatherPartials(job);
  const landing = wave.landing?.length ? await landingPartial(job) : undefined;
  // The wave machine (src/core/wave.ts), started from what the jobs left: the same machine as run --parallel's coordinator.
  const c: ReduceContext = {
    job,
    into,
    ...withNotify(job),
    // The whole checkpoint as the reduce writes it: the slices' `loop`, and the waves reduced into it.
    save: async (as: LoopState) => {
      await writeRunCheckpoint(store, {
        id: into,
        end: { status: as.halt ? 'halted' : 'continuing' },
        loop: as,
        extra: { ...kept, [REDUCED_KEY]: { reduced: [...reduced, wave.id].slice(-WAVES_KEPT) } },
      });
    },
    handOver: (rows) => handOver(job, rows),
    report: (end) => report(job, { ...end.reduced!, loop: end.loop, into }),
  };
  const settings = waveMachineSettings(job.options, into);
  const reported = { type: 'jobsReported', wave, partials, ...(landing ? { landing } : {}) } as const;
  await driveWave(
    reduceHandlers,
    c,
    initialWaveModel(main, settings),
    { ...reported, now: job.clock.now().toISOString() },
    () => c.done,
  );
}

function withNotify(job: ReduceJob): { notify?: Notify } {
  const { core, redact, clock, options } = job;
  const notify = discordNotifier(options.discordWebhook, {
    redact,
    clock,
    warn: (message) => core.warning(redact(message)),
    info: (message) => core.info(`agent-loop reduce: ${message}`),
  });
  return notify ? { notify } : {};
}

/** Each work job's partial state (its own cache entry, else its artifact; none: the job died before it saved). */
async function gatherPartials(job: ReduceJob): Promise<PartialState[]> {
  const { wave } = job;
  const partials: PartialState[] = [];
  for (const each of wave.jobs) {
    const dir = path.join(job.scratch, `partial-${each.issueId}`);
    const saved = (await job.fetchPartial(partialOf(job.refs.scope, wave, each.issueId), dir))
      ? await savedLoop(dir, wave.checkpoint)
      : undefined;
    const loop = saved && 'loop' in saved ? saved.loop : undefined;
    // A job that died before it saved: what its claim comment last recorded it ran is counted.
    const claimed = loop ? undefined : await claimedProgress(job, each.issueId);
    if (!loop) job.core.warning(SAID.lost(each.issueId, claimed));
    partials.push({ issueId: each.issueId, ...(loop ? { loop } : {}), ...(claimed ? { claimed } : {}) });
    // A push or pull request that failed kept its branch as a bundle: it travels with the loop's state.
    if (loop?.outbox.length) await gatherBundles(dir, job.stateDir);
    await fs.rm(dir, { recursive: true, force: true });
  }
  return partials;
}

/** This run's outputs (what the wave and its landing job added to the loop as restored), its summary, and a halt's one error annotation. */
async function report(
  job: ReduceJob,
  end: {
    main: LoopState;
    loop: LoopState;
    reduction: WaveReduction;
    into: string;
    landing?: LandingReduction;
  },
): Promise<void> {
  const { core, redact } = job;
  const { reduction, into, landing } = end;
  for (const [name, value] of Object.entries(waveOutputs(end.main, end.loop, reduction, into)))
    core.setOutput(name, redact(value));
  const context = {
    checkpointId: into,
    ...(job.issueLinks ? { issueLinks: job.issueLinks } : {}),
    ...(landing ? { landing } : {}),
  };
  await core.writeSummary(redact(waveSummary(job.wave, end.loop, reduction, context)));
  // One error annotation: the halt's reason, message and how to resume (issue 40).
  if (reduction.halt) {
    const { reason, message } = reduction.halt;
    core.setFailed(redact(haltFailure({ haltReason: reason, error: message, resume: resumeWays(reduction.halt) })));
  }
}

/**
 * The loop the wave is reduced into, opened as every run opens its checkpoint (openCheckpoint, by
 * id), with the checkpoint's other keys; a new loop when there is none yet (a first wave's) or it
 * cannot be read (said).
 */
async function openInto(
  job: ReduceJob,
  store: FileCheckpointStore,
  into: string,
): Promise<{ main: LoopState; state: Record<string, unknown> }> {
  const settings = { fresh: false, resume: into, maxIterations: job.options.maxIterations, terms: 'action' as const };
  try {
    const opened = await openCheckpoint({ settings, store, clock: job.clock }, () => {});
    const source = opened.sourceState !== undefined ? { source: opened.sourceState } : {};
    return { main: opened.state, state: { ...opened.extra, ...source } };
  } catch (error) {
    if (existsSync(path.join(store.dir, `${into}.json`)))
      job.core.warning(job.redact(`agent-loop reduce: ${(error as Error).message}; the wave is counted from zero.`));
    return { main: initialLoopState(job.options.maxIterations), state: {} };
  }
}

/**
 * The loop's checkpoint the wave is reduced into: the plan's. A first wave's plan names a new one;
 * when another run's first wave was reduced meanwhile (two runs started on no state, overlapping),
 * its checkpoint is the loop's now, and this wave adds to it rather than starting a second loop
 * beside it (whose newer state would hide the first's counts). Not when the plan was told fresh.
 */
async function loopCheckpoint(job: ReduceJob, store: FileCheckpointStore): Promise<string> {
  const { wave } = job;
  if (wave.resumed || wave.fresh) return wave.checkpoint;
  if (
    await store.load(wave.checkpoint).then(
      () => true,
      () => false,
    )
  )
    return wave.checkpoint;
  const opened = await openCheckpoint(
    {
      settings: { fresh: false, resume: undefined, maxIterations: job.options.maxIterations, terms: 'action' },
      store,
      clock: job.clock,
    },
    () => {},
  );
  if (!opened.resumed) return wave.checkpoint;
  job.core.info(job.redact(SAID.adopted(opened.id, wave.id)));
  return opened.id;
}

/** The checkpoint's record of the waves reduced into it (beside `loop`, which the slices keep as it is). */
const REDUCED_KEY = 'fanOut';
const WAVES_KEPT = 100;

function reducedWaves(state: Record<string, unknown> | undefined): string[] {
  const record = state?.[REDUCED_KEY] as { reduced?: unknown } | undefined;
  return Array.isArray(record?.reduced) ? record.reduced.filter((id): id is string => typeof id === 'string') : [];
}

/** What the job's claim comment on `issueId` last said it had run; undefined when unknown (best effort). */
async function claimedProgress(job: ReduceJob, issueId: string): Promise<PartialState['claimed']> {
  try {
    return await job.source?.claimProgress?.(issueId, { run: job.runId, checkpoint: job.wave.checkpoint });
  } catch (error) {
    job.core.warning(
      job.redact(
        `agent-loop reduce: could not read the claim on issue ${issueId} (${(error as Error).message}): the lost job's iterations are not counted.`,
      ),
    );
    return undefined;
  }
}

/**
 * The wave's jobs have all ended (the reduce runs after them): an issue a job left unfinished (its
 * share ran out; its work pushed as wip:) is released now, its claim comment saying so, so that the
 * next wave takes it up at once instead of waiting out the lease. A lost job's claim is left to
 * expire: nothing says its runner is gone. Best effort: a release that fails leaves the lease.
 */
async function handOver(job: ReduceJob, rows: readonly WaveRow[]): Promise<void> {
  if (!job.source) return;
  const me = { run: job.runId, checkpoint: job.wave.checkpoint };
  for (const row of rows.filter((r) => r.outcome === 'unfinished')) {
    try {
      await job.source.releaseClaim(row.issueId, me, job.clock.now().toISOString(), {
        state: 'unfinished',
        iterations: row.iterations,
        ...(row.costUsd > 0 ? { costUsd: row.costUsd } : {}),
      });
      job.core.info(`agent-loop reduce: issue ${row.issueId} is unfinished: released for the next wave.`);
    } catch (error) {
      job.core.warning(job.redact(SAID.notReleased(row.issueId, (error as Error).message)));
    }
  }
}

/** What the wave's landing job left: the entries it took and its final state (undefined: it saved none). */
async function landingPartial(job: ReduceJob): Promise<LandingPartial | undefined> {
  const dir = path.join(job.scratch, `partial-${LANDING_JOB}`);
  try {
    if (!(await job.fetchPartial(partialOf(job.refs.scope, job.wave, LANDING_JOB), dir))) return undefined;
    const saved = await savedLoop(dir, job.wave.checkpoint);
    return 'loop' in saved ? { took: tookFrom(saved.state), loop: saved.loop } : undefined;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
