/**
 * The action's plan job as a driver of the wave machine (src/core/wave.ts, planning: see
 * src/core/wavePlanJob.ts): its handlers, one per effect the machine asks of it. They read the
 * ready issues, claim the planned ones on GitHub (race-safe: claimComments.ts), let go of those no
 * longer planned, and write the job's outputs: the wave handed on, or no wave. The outputs written
 * end the job.
 */
import { leaseMinutes } from '../issues/claims.js';
import { ListingError } from '../issues/listing.js';
import { type WaveHandlersOf, coordinatorOnly, notAsked } from '../app/effects/waveContext.js';
import type { ActionCore } from './actionCore.js';
import type { FanOutJob, WaveSource } from './fanOutJob.js';
import { PLAN_SAID, describeWave, sayNote } from './planSaid.js';
import { type WaveHandoff, matrixJobs, waveMatrix } from './waveHandoff.js';

/** What the plan's handlers work with: the job, its source, the checkpoint it names and this run's counts. */
export interface PlanContext {
  job: FanOutJob & { source: WaveSource };
  opened: { id: string; resumed: boolean };
  counts: Record<string, string>;
  done?: true;
}

const say = (c: PlanContext, text: string, warn = false) =>
  warn ? c.job.core.warning(c.job.redact(text)) : c.job.core.info(c.job.redact(text));

function setOutputs(core: ActionCore, redact: (t: string) => string, outputs: Record<string, string>): void {
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, redact(value));
}

export const planHandlers: WaveHandlersOf<PlanContext> = {
  /** The ready issues, or the listing error that left them unknown (any other error is thrown). */
  readReady: async (_effect, { job }) => {
    // Read once the issues are: the wave starts, and its claims' leases run, from then.
    const now = () => job.clock.now().toISOString();
    try {
      const ready = await job.source.ready();
      return { type: 'readyRead', ready, now: now() };
    } catch (error) {
      if (!(error instanceof ListingError)) throw error;
      return { type: 'readyRead', ready: [], now: now(), unlisted: { message: error.message, what: error.what } };
    }
  },
  note: async ({ note }, c) => {
    const { warn, text } = sayNote(note);
    say(c, text, warn);
    return undefined;
  },
  /**
   * Claims the issues, one at a time; one lost to another run planning at the same moment is said
   * and told to the machine. On a GitHub failure the claims this plan holds are let go (best
   * effort) and the error thrown: no wave goes out, so no reduce would release them. The one half
   * made is left to its lease: releasing a claim this process did not post deletes every unreleased
   * claim of the loop's checkpoint on the issue, another run's live one included.
   */
  claimJobs: async ({ issueIds, held, since }, c) => {
    const { source, clock, options } = c.job;
    const me = { run: c.job.runId, checkpoint: c.opened.id };
    const expires = new Date(Date.parse(since) + leaseMinutes(options.agentTimeoutMinutes) * 60_000).toISOString();
    const won: string[] = [];
    const lost: string[] = [];
    for (const id of issueIds) {
      const outcome = await source
        .claim(id, me, expires, false, { state: 'working', iterations: 0 })
        .catch(async (error: unknown) => {
          for (const mine of [...held, ...won])
            await source.releaseClaim(mine, me, clock.now().toISOString()).catch(() => undefined);
          throw error;
        });
      if (outcome.won) won.push(id);
      else {
        lost.push(id);
        say(c, PLAN_SAID.lost(id, outcome.holder.run));
      }
    }
    return { type: 'claimed', won, lost };
  },
  releaseClaims: async ({ issueIds }, c) => {
    const me = { run: c.job.runId, checkpoint: c.opened.id };
    for (const id of issueIds) await c.job.source.releaseClaim(id, me, c.job.clock.now().toISOString());
    return { type: 'claimsReleased' };
  },
  /** The wave's outputs (`jobs` counts the matrix's entries: the landing job's too). */
  handWave: async (effect, c) => {
    const { job, opened } = c;
    const wave: WaveHandoff = {
      id: job.runId,
      startedAt: effect.startedAt,
      checkpoint: opened.id,
      resumed: opened.resumed,
      ...(job.options.fresh ? { fresh: true } : {}),
      jobs: effect.jobs,
      ...(effect.landing ? { landing: effect.landing } : {}),
    };
    const jobs = matrixJobs(wave);
    setOutputs(job.core, job.redact, {
      matrix: waveMatrix(wave),
      wave: jobs > 0 ? JSON.stringify(wave) : '',
      jobs: String(jobs),
      status: 'continuing',
      'halt-reason': '',
      'checkpoint-id': opened.id,
      ...c.counts,
    });
    say(c, describeWave({ ...effect, id: wave.id, landing: wave.landing }));
    c.done = true;
    return undefined;
  },
  /** No wave: a new halt handed to the reduce as a wave with no job (it records it in the checkpoint, posts it once and publishes it). */
  noWave: async (effect, c) => {
    const { job, opened } = c;
    const handed: WaveHandoff | undefined = effect.handOn && {
      id: job.runId,
      startedAt: job.clock.now().toISOString(),
      checkpoint: opened.id,
      resumed: opened.resumed,
      ...(job.options.fresh ? { fresh: true } : {}),
      jobs: [],
      halt: { reason: effect.haltReason!, message: effect.why },
    };
    setOutputs(job.core, job.redact, {
      matrix: waveMatrix({ jobs: [] }),
      wave: handed ? JSON.stringify(handed) : '',
      jobs: '0',
      status: effect.status,
      'halt-reason': effect.haltReason ?? '',
      'checkpoint-id': opened.resumed ? opened.id : '',
      ...c.counts,
    });
    say(c, PLAN_SAID.noWave(effect.why));
    c.done = true;
    return undefined;
  },
  log: notAsked,
  sendLeftPosts: notAsked,
  save: notAsked,
  recordHalt: notAsked,
  handOver: notAsked,
  finish: notAsked,
  ...coordinatorOnly,
};
