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
  const counts = { iterations: '0', 'cost-usd': (0).toFixed(4), ...loopOutputs(loopTotals(loop)) };
  const none = (status: string, why: string, haltReason = '', wave = '') => {
    for (const [name, value] of Object.entries({
      matrix: waveMatrix({ jobs: [] }),
      wave,
      jobs: '0',
      status,
      'halt-reason': haltReason,
      'checkpoint-id': opened.resumed ? opened.id : '',
      ...counts,
    }))
      core.setOutput(name, redact(value));
    core.info(redact(`agent-loop plan: no wave: ${why}`));
  };
  let ready: Awaited<ReturnType<WaveSource['ready']>> | undefined;
  let unlisted: ListingError | undefined;
  try {
    ready = await source.ready();
  } catch (error) {
    if (!(error instanceof ListingError)) throw error;
    unlisted = error;
  }
  // A halt that stands holds the wave back as it holds a slice (the reduce records a new one); unread
  // issues change nothing (a halt lifted by the issues is lifted by a run that reads them).
  if (loop.halt && !options.resumeHalted) {
    const gate = haltGate(loop, {
      ...(ready ? { ready } : {}),
      maxIterations: options.maxIterations,
      maxCostUsd: options.maxCostUsd,
    });
    if (gate.stands) {
      core.warning(
        redact(
          `agent-loop is still halted (${loop.halt.reason}) since ${loop.halt.at ?? 'an earlier run'}: ${loop.halt.message}` +
            `. No wave was planned. ${describeResume(resumeWays(loop.halt), 'action', loop.baseBranch)}`,
        ),
      );
      return none('halted', `the halt stands (${loop.halt.reason})`, loop.halt.reason);
    }
    core.info(redact(`agent-loop plan: the halt (${loop.halt.reason}) is lifted: ${gate.because}.`));
  }
  if (!ready) {
    // Never "no issues": which are workable is unknown, so no wave goes out (status deferred, green).
    core.warning(
      redact(
        `agent-loop deferred: ${unlisted?.message.replace(/\.$/, '') ?? 'the issues could not be listed'}` +
          `. No wave was planned and nothing was started or lost; the next run lists the issues again.`,
      ),
    );
    return none('deferred', `${unlisted?.what ?? 'listing the issues'} failed`);
  }
  // Finished work earlier waves could not land: the wave's landing job lands it (no agent runs).
  const now = clock.now().getTime();
  const landing = landingDue(loop, now);
  if (loop.outbox.length > 0)
    core.info(
      redact(
        landing.length > 0
          ? `agent-loop plan: ${loop.outbox.length} finished cycle(s) of earlier waves still to land (` +
              [...awaitingLanding(loop)].map((id) => issueLink(id, undefined)).join(', ') +
              `): this wave's landing job (matrix entry ${LANDING_JOB}) lands them.`
          : `agent-loop plan: ${loop.outbox.length} finished cycle(s) of earlier waves wait to land; the next ` +
              `attempt is due at ${loop.outbox[0]?.notBefore} (last failure: ${loop.outbox[0]?.lastError ?? 'unknown'}).`,
      ),
    );
  // Claims of other runs hold their issues, whatever checkpoint they name: a wave in flight is another run's.
  const base = { ...loop, halt: undefined };
  const settings = {
    parallel: options.parallel,
    maxIterations: options.maxIterations,
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
  };
  let plan = planWave(ready, base, settings);
  // Notices the work jobs could not send (an escalated issue's label and note): the landing job sends
  // them, with a wave that goes out anyway, or alone while they have failed only a few times.
  const owed = noticesOwed(loop);
  const alone = loop.notices.some((n) => owed.includes(n.id) && n.attempts < NOTICE_LANDINGS);
  if (owed.length > 0) {
    core.info(
      redact(
        `agent-loop plan: ${owed.length} notice(s) of earlier waves still to send (an escalated issue's label and note: ${
          unlabelledEscalations(loop)
            .map((id) => issueLink(id, undefined))
            .join(', ') || 'none'
        }; last failure: ${loop.notices.find((n) => n.lastError)?.lastError ?? 'none'}).`,
      ),
    );
  }
  const withNotices = (keys: readonly string[], jobs: number) =>
    owed.length > 0 && (jobs > 0 || keys.length > 0 || alone) ? [...keys, ...owed] : [...keys];
  for (const id of plan.claimedElsewhere)
    core.info(`agent-loop plan: ${issueLink(id, undefined)} is left to the run whose live lease holds it.`);
  if (plan.jobs.length === 0 && withNotices(landing, 0).length > 0) {
    // Only earlier work to land: a wave of the landing job alone (a halt found now is found again after it).
    if (plan.stop?.kind === 'halted')
      core.info(redact(`agent-loop plan: ${plan.stop.message}; the earlier work is landed first.`));
    return emit({ jobs: [], landing: withNotices(landing, 0) }, plan.deferred);
  }
  if (plan.jobs.length === 0) {
    const stop = plan.stop;
    if (stop?.kind === 'halted') {
      // A new halt: handed to the reduce as a wave with no job, which records it in the checkpoint,
      // posts it once and publishes it, so that later runs see it stand (as a slice's halt).
      core.warning(redact(`agent-loop plan: ${stop.message}`));
      const wave: WaveHandoff = {
        id: job.runId,
        startedAt: clock.now().toISOString(),
        checkpoint: opened.id,
        resumed: opened.resumed,
        ...(options.fresh ? { fresh: true } : {}),
        jobs: [],
        halt: { reason: stop.reason, message: stop.message },
      };
      return none('halted', stop.message, stop.reason, JSON.stringify(wave));
    }
    // Work waiting to land is not the end (as a slice that waits out the landing's backoff: continuing).
    return none(loop.outbox.length > 0 ? 'continuing' : 'complete', stop?.message ?? 'no issue to work');
  }

  // Claimed before the matrix goes out: the work jobs (this run) take the claims on as their own.
  const me = { run: job.runId, checkpoint: opened.id };
  const expires = new Date(now + leaseMinutes(options.agentTimeoutMinutes) * 60_000).toISOString();
  const won = new Set<string>();
  const lost = new Set<string>();
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
        core.info(
          redact(
            `agent-loop plan: ${issueLink(each.issueId, undefined)} was claimed by run ${outcome.holder.run} meanwhile; left to it.`,
          ),
        );
      }
    }
    if (plan.jobs.every((j) => won.has(j.issueId)) || round > options.parallel) break;
    // Another run planning at the same moment took some: plan again without them, others in their place.
    plan = planWave(
      ready.filter((i) => !lost.has(i.id)),
      base,
      settings,
    );
  }
  const claimed: WaveHandoff['jobs'] = plan.jobs.filter((j) => won.has(j.issueId));
  // Claimed in an earlier round and not in the wave planned last (rare): let go, the comment deleted.
  for (const id of won)
    if (!claimed.some((j) => j.issueId === id)) await source.releaseClaim(id, me, clock.now().toISOString());
  const lands = withNotices(landing, claimed.length);
  return emit({ jobs: claimed, ...(lands.length > 0 ? { landing: lands } : {}) }, plan.deferred);

  /** The wave's outputs (`jobs` counts the matrix's entries: the landing job's too). */
  function emit(planned: Pick<WaveHandoff, 'jobs' | 'landing'>, deferred: WavePlan['deferred']): void {
    const wave: WaveHandoff = {
      id: job.runId,
      startedAt: new Date(now).toISOString(),
      checkpoint: opened.id,
      resumed: opened.resumed,
      ...(options.fresh ? { fresh: true } : {}),
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
      ...counts,
    }))
      core.setOutput(name, redact(value));
    const notices = (wave.landing ?? []).filter((k) => owed.includes(k)).length;
    const cycles = (wave.landing?.length ?? 0) - notices;
    const lands = wave.landing?.length
      ? `the landing of ${[cycles ? `${cycles} earlier cycle(s)` : '', notices ? `${notices} notice(s)` : ''].filter(Boolean).join(' and ')}`
      : '';
    const issues = wave.jobs.map(
      (j) =>
        `${issueLink(j.issueId, undefined)} (${j.maxIterations} iteration(s)${j.maxCostUsd !== undefined ? `, $${j.maxCostUsd.toFixed(2)}` : ''})`,
    );
    core.info(
      redact(
        `agent-loop plan: wave ${wave.id}: ${[lands, ...issues].filter((x) => x).join(', ') || 'no issue'}` +
          `${deferred.length > 0 ? `; left for a later wave: ${deferred.map((d) => `${issueLink(d.issueId, undefined)} (${d.why})`).join(', ')}` : ''}.`,
      ),
    );
  }
}
