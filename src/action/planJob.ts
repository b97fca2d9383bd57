/**
 * Fan-out (issue 16), the plan job (`fan-out: plan`): the loop's checkpoint restored (read only),
 * the ready issues read once, up to `parallel` of them picked (src/core/wavePlan.ts: not escalated,
 * not claimed by a live lease, never two that depend on each other, each with its share of the
 * iterations and spend left) and claimed on GitHub before the matrix is output: a work job runs only
 * on an issue this run holds. The claims are race-safe (claimComments.ts): a second run planning at
 * the same moment, or while this wave is in flight, sees the leases and takes other issues or none.
 * The plan publishes nothing: the wave travels to the work and reduce jobs as its outputs, and the
 * claims on GitHub are what other runs see.
 */
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import type { Options } from '../config/options.js';
import { haltGate } from '../core/haltGate.js';
import { describeResume, resumeWays } from '../core/resumeWays.js';
import { unlabelledEscalations } from '../core/slice.js';
import { type WavePlan, planWave } from '../core/wavePlan.js';
import { LANDING_JOB, NOTICE_LANDINGS, awaitingLanding, landingDue, noticesOwed } from '../core/waveOutbox.js';
import { leaseMinutes } from '../issues/claims.js';
import type { GitHubIssueSource } from '../issues/github/issueSource.js';
import { openCheckpoint } from '../loop/slice.js';
import type { Clock } from '../util/clock.js';
import type { ActionCore } from './actionCore.js';
import { type WaveHandoff, matrixJobs, waveMatrix } from './waveHandoff.js';
import { issueLink, loopOutputs, type SummaryContext } from './summary.js';
import { loopTotals } from '../core/result.js';
import { ListingError } from '../issues/listing.js';

export interface FanOutJob {
  core: ActionCore;
  options: Options;
  stateDir: string;
  clock: Clock;
  redact: (text: string) => string;
  /** This workflow run, as its claims name it (`github-<run id>-<attempt>`): the wave's id too. */
  runId: string;
  issueLinks?: SummaryContext['issueLinks'];
}

/** What the plan asks of the GitHub issues: the ready ones, and claims on them. */
export type WaveSource = Pick<GitHubIssueSource, 'ready' | 'claim' | 'releaseClaim' | 'importState'>;

/** What every output of the plan needs: where it goes, the checkpoint it names and this run's counts. */
interface PlanOutputs {
  core: ActionCore;
  redact: (text: string) => string;
  opened: { id: string; resumed: boolean };
  counts: Record<string, string>;
}

export async function planJob(job: FanOutJob & { source: WaveSource }): Promise<void> {
  const { core, options, clock, redact, source } = job;
  const store = new FileCheckpointStore(job.stateDir, { clock, redact, terms: 'action' });
  const opened = await openCheckpoint(
    {
      settings: { fresh: options.fresh, resume: options.resume, maxIterations: options.maxIterations, terms: 'action' },
      store,
      clock,
    },
    (_event, message) => core.warning(redact(message)),
  );
  if (opened.sourceState !== undefined) source.importState?.(opened.sourceState);
  const loop = opened.state;
  // The plan runs no agent: this run's counts are 0 until the reduce adds the wave's; the loop's are its totals.
  const out: PlanOutputs = {
    core,
    redact,
    opened,
    counts: { iterations: '0', 'cost-usd': (0).toFixed(4), ...loopOutputs(loopTotals(loop)) },
  };
  const { ready, unlisted } = await readReady(source);
  // A halt that stands holds the wave back as it holds a slice (the reduce records a new one); unread
  // issues change nothing (a halt lifted by the issues is lifted by a run that reads them).
  if (loop.halt && !options.resumeHalted && haltStands(out, loop, loop.halt, ready, options))
    return noWave(out, 'halted', `the halt stands (${loop.halt.reason})`, loop.halt.reason);
  // Never "no issues": which are workable is unknown, so no wave goes out (status deferred, green).
  if (!ready) return deferWave(out, unlisted);
  // Finished work earlier waves could not land: the wave's landing job lands it (no agent runs).
  const now = clock.now().getTime();
  const landing = landingDue(loop, now);
  reportOutbox(out, loop, landing);
  // Claims of other runs hold their issues, whatever checkpoint they name: a wave in flight is another run's.
  const base = { ...loop, halt: undefined };
  const settings = {
    parallel: options.parallel,
    maxIterations: options.maxIterations,
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
  };
  const first = planWave(ready, base, settings);
  // Notices the work jobs could not send (an escalated issue's label and note): the landing job sends
  // them, with a wave that goes out anyway, or alone while they have failed only a few times.
  const owed = noticesOwed(loop);
  const alone = loop.notices.some((n) => owed.includes(n.id) && n.attempts < NOTICE_LANDINGS);
  reportNotices(out, loop, owed);
  const withNotices = (keys: readonly string[], jobs: number) =>
    owed.length > 0 && (jobs > 0 || keys.length > 0 || alone) ? [...keys, ...owed] : [...keys];
  const wave = { runId: job.runId, now, fresh: options.fresh, owed };
  for (const id of first.claimedElsewhere)
    core.info(`agent-loop plan: ${issueLink(id, undefined)} is left to the run whose live lease holds it.`);
  if (first.jobs.length === 0 && withNotices(landing, 0).length > 0) {
    // Only earlier work to land: a wave of the landing job alone (a halt found now is found again after it).
    if (first.stop?.kind === 'halted')
      core.info(redact(`agent-loop plan: ${first.stop.message}; the earlier work is landed first.`));
    return emitWave(out, wave, { jobs: [], landing: withNotices(landing, 0) }, first.deferred);
  }
  if (first.jobs.length === 0) return noWaveToWork(out, first.stop, wave, loop.outbox.length > 0, clock);

  // Claimed before the matrix goes out: the work jobs (this run) take the claims on as their own.
  const me = { run: job.runId, checkpoint: opened.id };
  const expires = new Date(now + leaseMinutes(options.agentTimeoutMinutes) * 60_000).toISOString();
  const replan = (lost: ReadonlySet<string>) =>
    planWave(
      ready.filter((i) => !lost.has(i.id)),
      base,
      settings,
    );
  const { plan, won } = await claimWave(out, { source, clock, me, expires, rounds: options.parallel }, first, replan);
  const claimed: WaveHandoff['jobs'] = plan.jobs.filter((j) => won.has(j.issueId));
  // Claimed in an earlier round and not in the wave planned last (rare): let go, the comment deleted.
  for (const id of won)
    if (!claimed.some((j) => j.issueId === id)) await source.releaseClaim(id, me, clock.now().toISOString());
  const lands = withNotices(landing, claimed.length);
  return emitWave(out, wave, { jobs: claimed, ...(lands.length > 0 ? { landing: lands } : {}) }, plan.deferred);
}

/** The ready issues, or the listing error that left them unknown (any other error is thrown). */
async function readReady(
  source: WaveSource,
): Promise<{ ready?: Awaited<ReturnType<WaveSource['ready']>>; unlisted?: ListingError }> {
  try {
    return { ready: await source.ready() };
  } catch (error) {
    if (!(error instanceof ListingError)) throw error;
    return { unlisted: error };
  }
}

/** Whether the loop's halt still holds the wave back (said as a warning), or is lifted (said as info). */
function haltStands(
  out: PlanOutputs,
  loop: Parameters<typeof haltGate>[0],
  halt: NonNullable<Parameters<typeof haltGate>[0]['halt']>,
  ready: Awaited<ReturnType<WaveSource['ready']>> | undefined,
  options: Options,
): boolean {
  const { core, redact } = out;
  const gate = haltGate(loop, {
    ...(ready ? { ready } : {}),
    maxIterations: options.maxIterations,
    maxCostUsd: options.maxCostUsd,
  });
  if (gate.stands) {
    core.warning(
      redact(
        `agent-loop is still halted (${halt.reason}) since ${halt.at ?? 'an earlier run'}: ${halt.message}` +
          `. No wave was planned. ${describeResume(resumeWays(halt), 'action', loop.baseBranch)}`,
      ),
    );
    return true;
  }
  core.info(redact(`agent-loop plan: the halt (${halt.reason}) is lifted: ${gate.because}.`));
  return false;
}

/** The issues could not be listed: no wave, nothing started or lost. */
function deferWave(out: PlanOutputs, unlisted: ListingError | undefined): void {
  out.core.warning(
    out.redact(
      `agent-loop deferred: ${unlisted?.message.replace(/\.$/, '') ?? 'the issues could not be listed'}` +
        `. No wave was planned and nothing was started or lost; the next run lists the issues again.`,
    ),
  );
  return noWave(out, 'deferred', `${unlisted?.what ?? 'listing the issues'} failed`);
}

/** Says what of earlier waves is still to land, and whether this wave's landing job lands it. */
function reportOutbox(out: PlanOutputs, loop: Parameters<typeof landingDue>[0], landing: readonly string[]): void {
  if (loop.outbox.length === 0) return;
  out.core.info(
    out.redact(
      landing.length > 0
        ? `agent-loop plan: ${loop.outbox.length} finished cycle(s) of earlier waves still to land (` +
            [...awaitingLanding(loop)].map((id) => issueLink(id, undefined)).join(', ') +
            `): this wave's landing job (matrix entry ${LANDING_JOB}) lands them.`
        : `agent-loop plan: ${loop.outbox.length} finished cycle(s) of earlier waves wait to land; the next ` +
            `attempt is due at ${loop.outbox[0]?.notBefore} (last failure: ${loop.outbox[0]?.lastError ?? 'unknown'}).`,
    ),
  );
}

/** Says which notices of earlier waves are still to send. */
function reportNotices(out: PlanOutputs, loop: Parameters<typeof noticesOwed>[0], owed: readonly string[]): void {
  if (owed.length === 0) return;
  out.core.info(
    out.redact(
      `agent-loop plan: ${owed.length} notice(s) of earlier waves still to send (an escalated issue's label and note: ${
        unlabelledEscalations(loop)
          .map((id) => issueLink(id, undefined))
          .join(', ') || 'none'
      }; last failure: ${loop.notices.find((n) => n.lastError)?.lastError ?? 'none'}).`,
    ),
  );
}

/** What a wave handed on is built from, besides its jobs. */
interface WaveBasis {
  runId: string;
  now: number;
  fresh: boolean;
  owed: readonly string[];
}

/** No issue to work: a new halt handed to the reduce as a wave with no job, or the end (or a wait to land). */
function noWaveToWork(out: PlanOutputs, stop: WavePlan['stop'], basis: WaveBasis, toLand: boolean, clock: Clock): void {
  if (stop?.kind === 'halted') {
    // A new halt: handed to the reduce as a wave with no job, which records it in the checkpoint,
    // posts it once and publishes it, so that later runs see it stand (as a slice's halt).
    out.core.warning(out.redact(`agent-loop plan: ${stop.message}`));
    const wave: WaveHandoff = {
      id: basis.runId,
      startedAt: clock.now().toISOString(),
      checkpoint: out.opened.id,
      resumed: out.opened.resumed,
      ...(basis.fresh ? { fresh: true } : {}),
      jobs: [],
      halt: { reason: stop.reason, message: stop.message },
    };
    return noWave(out, 'halted', stop.message, stop.reason, JSON.stringify(wave));
  }
  // Work waiting to land is not the end (as a slice that waits out the landing's backoff: continuing).
  return noWave(out, toLand ? 'continuing' : 'complete', stop?.message ?? 'no issue to work');
}

/** Outputs of a plan that sends no wave out. */
function noWave(out: PlanOutputs, status: string, why: string, haltReason = '', wave = ''): void {
  for (const [name, value] of Object.entries({
    matrix: waveMatrix({ jobs: [] }),
    wave,
    jobs: '0',
    status,
    'halt-reason': haltReason,
    'checkpoint-id': out.opened.resumed ? out.opened.id : '',
    ...out.counts,
  }))
    out.core.setOutput(name, out.redact(value));
  out.core.info(out.redact(`agent-loop plan: no wave: ${why}`));
}

interface Claiming {
  source: WaveSource;
  clock: Clock;
  me: { run: string; checkpoint: string };
  expires: string;
  /** Rounds of planning again after claims lost to another run (the wave's width). */
  rounds: number;
}

/**
 * Claims the planned issues; a claim lost to another run planning at the same moment plans again
 * without it. On a GitHub failure the claims won are let go (best effort) and the error thrown.
 */
async function claimWave(
  out: PlanOutputs,
  claiming: Claiming,
  first: WavePlan,
  replan: (lost: ReadonlySet<string>) => WavePlan,
): Promise<{ plan: WavePlan; won: Set<string> }> {
  const { source, clock, me, expires } = claiming;
  const won = new Set<string>();
  const lost = new Set<string>();
  let plan = first;
  for (let round = 1; ; round++) {
    for (const each of plan.jobs.filter((j) => !won.has(j.issueId))) {
      const outcome = await source
        .claim(each.issueId, me, expires, false, { state: 'working', iterations: 0 })
        .catch(async (error: unknown) => {
          // GitHub failing after its retries: no wave goes out, so no reduce would release what this
          // plan holds; let go of the claims won (best effort), then fail. The one half made is left
          // to its lease: releasing a claim this process did not post deletes every unreleased claim
          // of the loop's checkpoint on the issue, another run's live one included.
          for (const id of won) await source.releaseClaim(id, me, clock.now().toISOString()).catch(() => undefined);
          throw error;
        });
      if (outcome.won) won.add(each.issueId);
      else {
        lost.add(each.issueId);
        out.core.info(
          out.redact(
            `agent-loop plan: ${issueLink(each.issueId, undefined)} was claimed by run ${outcome.holder.run} meanwhile; left to it.`,
          ),
        );
      }
    }
    if (plan.jobs.every((j) => won.has(j.issueId)) || round > claiming.rounds) break;
    // Another run planning at the same moment took some: plan again without them, others in their place.
    plan = replan(lost);
  }
  return { plan, won };
}

/** The wave's outputs (`jobs` counts the matrix's entries: the landing job's too). */
function emitWave(
  out: PlanOutputs,
  basis: WaveBasis,
  planned: Pick<WaveHandoff, 'jobs' | 'landing'>,
  deferred: WavePlan['deferred'],
): void {
  const { core, redact, opened } = out;
  const wave: WaveHandoff = {
    id: basis.runId,
    startedAt: new Date(basis.now).toISOString(),
    checkpoint: opened.id,
    resumed: opened.resumed,
    ...(basis.fresh ? { fresh: true } : {}),
    ...planned,
  };
  const jobs = matrixJobs(wave);
  for (const [name, value] of Object.entries({
    matrix: waveMatrix(wave),
    wave: jobs > 0 ? JSON.stringify(wave) : '',
    jobs: String(jobs),
    status: 'continuing',
    'halt-reason': '',
    'checkpoint-id': opened.id,
    ...out.counts,
  }))
    core.setOutput(name, redact(value));
  core.info(redact(describeWave(wave, basis.owed, deferred)));
}

/** The line that names the wave: its landing, its issues with their shares, and what is left for later. */
function describeWave(wave: WaveHandoff, owed: readonly string[], deferred: WavePlan['deferred']): string {
  const notices = (wave.landing ?? []).filter((k) => owed.includes(k)).length;
  const cycles = (wave.landing?.length ?? 0) - notices;
  const lands = wave.landing?.length
    ? `the landing of ${[cycles ? `${cycles} earlier cycle(s)` : '', notices ? `${notices} notice(s)` : ''].filter(Boolean).join(' and ')}`
    : '';
  const issues = wave.jobs.map(
    (j) =>
      `${issueLink(j.issueId, undefined)} (${j.maxIterations} iteration(s)${j.maxCostUsd !== undefined ? `, $${j.maxCostUsd.toFixed(2)}` : ''})`,
  );
  return (
    `agent-loop plan: wave ${wave.id}: ${[lands, ...issues].filter((x) => x).join(', ') || 'no issue'}` +
    `${deferred.length > 0 ? `; left for a later wave: ${deferred.map((d) => `${issueLink(d.issueId, undefined)} (${d.why})`).join(', ')}` : ''}.`
  );
}
