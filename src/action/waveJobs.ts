/**
 * The jobs of a fan-out wave (issue 16) beside the work itself: the plan and the reduce, run here whole;
 * and the checkpoint a work job's slice starts from (the landing job's: the loop's unlanded work).
 */
import path from 'node:path';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { writeRunCheckpoint } from '../checkpoint/runCheckpoint.js';
import { initialLoopState } from '../core/state.js';
import { outboxKey } from '../core/waveOutbox.js';
import type { GitHubIssueSource } from '../issues/github/issueSource.js';
import type { WaveRole } from './fanOut.js';
import { LANDING_KEY, takeOutbox } from './outboxHandover.js';
import { type PersistLog, type RunRefs, restore } from './persistence.js';
import { type FanOutJob, planJob } from './planJob.js';
import { reduceJob } from './reduceJob.js';
import { landingEarlierWaves } from './messages.js';

export interface WaveJobInput extends FanOutJob {
  /** The GitHub issue source (source github), built. */
  github?: GitHubIssueSource;
  refs: RunRefs;
  /** The runner's temporary directory. */
  temp: string;
  log: PersistLog;
}

/** The plan or the reduce job, whole. */
export async function runWaveJob(fanOut: { role: 'plan' } | WaveRole, input: WaveJobInput) {
  const { core, options, stateDir, clock, redact, runId, issueLinks, github, refs } = input;
  const job = { core, options, stateDir, clock, redact, runId, ...(issueLinks ? { issueLinks } : {}) };
  if (fanOut.role === 'plan') {
    // The plan publishes nothing: the wave goes to the other jobs as its outputs.
    core.saveState('unchanged', 'plan');
    await planJob({ ...job, source: github! });
    return;
  }
  const { log } = input;
  await reduceJob({
    ...job,
    wave: fanOut.wave,
    ...(github ? { source: github } : {}),
    refs,
    scratch: path.join(input.temp, 'agent-loop-partials'),
    fetchPartial: async (scope, dir) =>
      (
        await restore({
          refs: { ...refs, scope },
          stateDir: dir,
          token: options.githubToken ?? '',
          fresh: false,
          log: { info: log.info, notice: log.info, warning: log.info },
        })
      ).source !== 'none',
  });
}

/**
 * The work job's slice starts from zero in the loop's checkpoint id (its claim is the loop's):
 * its final state is exactly what it did, which the reduce adds to the loop. The landing job's
 * holds the loop's unlanded work (and its bundles), which its slice lands before anything else.
 */
export async function seedWorkCheckpoint(
  fanOut: WaveRole,
  input: Omit<WaveJobInput, 'refs' | 'core' | 'runId' | 'issueLinks' | 'github'> & { refs: RunRefs | undefined },
): Promise<void> {
  const { options, stateDir, log } = input;
  const took = fanOut.landing
    ? await takeOutbox({
        keys: fanOut.landing,
        checkpoint: fanOut.wave.checkpoint,
        stateDir,
        scratch: path.join(input.temp, 'agent-loop-landing'),
        fetchLoop: async (dir) =>
          (
            await restore({
              refs: input.refs!,
              stateDir: dir,
              token: options.githubToken ?? '',
              fresh: false,
              checkpointId: fanOut.wave.checkpoint,
              log,
            })
          ).source !== 'none',
        warn: log.warning,
      })
    : undefined;
  const store = new FileCheckpointStore(stateDir, { clock: input.clock, redact: input.redact, terms: 'action' });
  await writeRunCheckpoint(store, {
    id: fanOut.wave.checkpoint,
    end: { status: 'continuing' },
    loop: { ...initialLoopState(options.maxIterations), outbox: took?.entries ?? [], notices: took?.notices ?? [] },
    ...(took
      ? { extra: { [LANDING_KEY]: { took: [...took.entries.map(outboxKey), ...took.notices.map((n) => n.id)] } } }
      : {}),
  });
  if (took) log.info(landingEarlierWaves(took.entries.length, took.notices.length, took.what));
}
