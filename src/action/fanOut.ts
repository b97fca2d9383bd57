/**
 * The job's part in a fan-out (issue 16), decided from its inputs alone: no role (one slice), the plan,
 * a work job on its matrix issue (or the wave's landing job), or the reduce. Pure.
 */
import type { Options } from '../config/options.js';
import { surface } from '../config/surface.js';
import { LANDING_JOB } from '../core/waveOutbox.js';
import { type WaveHandoff, parseWave } from './waveHandoff.js';
import { fanOutNeedsGitHub, notInWave } from './messages.js';
import { ISSUE_SOURCES } from '../issues/catalog.js';

/** The action's words (src/config/surface.ts). */
const say = surface('action');

/** A work or reduce job of a wave: its wave, its issue (a work job's), the landing job's keys. */
export interface WaveRole {
  role: 'work' | 'reduce';
  options: Options;
  wave: WaveHandoff;
  issue: string;
  landing?: readonly string[];
}

export type FanOut =
  { role: undefined; options: Options } | { role: 'plan'; options: Options } | WaveRole | { problem: string };

/** A fan-out role the inputs allow. */
export type FanOutRole = Exclude<FanOut, { problem: string }>;

/**
 * The checkpoint the state restored must hold: checkpoint-id for a slice or a plan; for the reduce,
 * its wave's when the plan resumed one (its counts must be the base, newest or not); none otherwise.
 */
export function restoreCheckpoint(fanOut: FanOutRole, options: Options): string | undefined {
  if (fanOut.role === undefined || fanOut.role === 'plan') return options.resume;
  return fanOut.role === 'reduce' && fanOut.wave.resumed ? fanOut.wave.checkpoint : undefined;
}

/**
 * The job's part in a fan-out (issue 16), from its inputs: a work job's options are its share (its
 * max-iterations and max-cost-usd, a fresh slice on its issue, no Discord post: the reduce posts once).
 */
export function fanOutRole(options: Options): FanOut {
  const role = options.fanOut;
  const fansOut = ISSUE_SOURCES[options.source].fansOut;
  if (role !== undefined && (!fansOut || options.workflow === 'pipeline'))
    return {
      problem: fanOutNeedsGitHub(role, {
        github: say.given('source', 'github'),
        run: !fansOut ? say.given('source', options.source) : say.given('workflow', 'pipeline'),
        parallel: say.given('parallel', '1'),
      }),
    };
  if (role === undefined || role === 'plan') return { role, options };
  const wave = parseWave(options.wave);
  if (typeof wave === 'string') return { problem: `fan-out: ${role}: ${wave}.` };
  if (role === 'reduce') return { role, options, wave, issue: '' };
  if ((options.issue?.length ?? 0) > 1)
    return {
      problem: `fan-out: work: ${say.option('issue')} names ${options.issue?.length} issues; a work job works one (matrix.issue).`,
    };
  const issue = options.issue?.[0];
  // The wave's landing job (waveOutbox.ts): the loop's unlanded work, no agent run, no issue worked.
  if (issue === LANDING_JOB && wave.landing) {
    const landing = {
      ...options,
      fresh: false,
      resume: wave.checkpoint,
      resumeHalted: false,
      maxIterations: 1,
      maxCostUsd: undefined,
      discordWebhook: undefined,
    };
    return { role, options: landing, wave, issue, landing: wave.landing };
  }
  const job = wave.jobs.find((j) => j.issueId === issue);
  if (!issue || !job)
    return {
      problem: notInWave(issue ? `issue ${issue} is not in wave ${wave.id}` : `${say.option('issue')} is empty`),
    };
  const share = {
    ...options,
    fresh: false,
    resume: wave.checkpoint,
    resumeHalted: false,
    maxIterations: job.maxIterations,
    discordWebhook: undefined,
  };
  if (job.maxCostUsd !== undefined) share.maxCostUsd = job.maxCostUsd;
  return { role, options: share, wave, issue };
}
