/**
 * Fan-out (issue 16): what the plan job hands to the work and reduce jobs through its outputs. The
 * wave (its id, start, the loop's checkpoint and each job's issue and share) travels as the `wave`
 * output; the `matrix` output is what `strategy.matrix` takes, one entry per job's issue. Each work
 * job finds its share by its issue; the reduce knows which partial states to look for.
 */
import { z } from 'zod';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { type CarriedCounts, HaltReasons, type LoopState, WaveSchema, parseLoopState } from '../core/state.js';
import { partialScope } from '../persist/stateNames.js';
import { LANDING_JOB } from '../core/waveOutbox.js';

export const WaveHandoffSchema = WaveSchema.extend({
  /** The loop's checkpoint the wave is reduced into (a new one when the loop had none). */
  checkpoint: z.string().min(1),
  /**
   * The checkpoint was saved before the plan (it resumed it): the reduce restores the state that
   * holds it, even when it is not the newest (a plan given checkpoint-id). False: new with this wave.
   */
  resumed: z.boolean().default(true),
  /** The plan was told fresh: its new checkpoint starts over, even beside another run's (the reduce adopts none). */
  fresh: z.boolean().optional(),
  /**
   * A halt the plan found before any job (no iteration or spend left, only escalated issues), for
   * the reduce to record, post once and publish, as a slice records its halt (a wave with no job).
   */
  halt: z.object({ reason: z.enum(HaltReasons), message: z.string() }).optional(),
  /**
   * The loop's unlanded work (its outbox entries' keys, src/core/waveOutbox.ts) the wave's landing
   * job takes: one more matrix entry, `outbox`, which runs no agent.
   */
  landing: z.array(z.string()).optional(),
});
export type WaveHandoff = z.infer<typeof WaveHandoffSchema>;

/**
 * What a work job's issue brought from its earlier jobs (its entry's counts), for its cycle to
 * start from: the stuck checks count every wave's runs. Pure.
 */
export function carriedOf(wave: Pick<WaveHandoff, 'jobs'>, issueId: string): { carried?: CarriedCounts } {
  const counts = wave.jobs.find((j) => j.issueId === issueId)?.counts;
  return counts ? { carried: { ...counts, issueId } } : {};
}

/** The `wave` input, or why it is not one. */
export function parseWave(text: string | undefined): WaveHandoff | string {
  if (!text) return "the input wave is empty: pass the plan job's wave output (needs.plan.outputs.wave)";
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "the input wave is not JSON: pass the plan job's wave output (needs.plan.outputs.wave)";
  }
  const parsed = WaveHandoffSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  return `the input wave is not a wave (${first ? `${first.path.join('.') || 'wave'}: ${first.message}` : 'unknown'}): pass the plan job's wave output`;
}

/**
 * `strategy.matrix` for the wave: `{"include":[{"issue":"12"},…]}`, and `{"issue":"outbox"}` when it
 * lands earlier work (an empty include runs no job).
 */
export function waveMatrix(wave: Pick<WaveHandoff, 'jobs' | 'landing'>): string {
  const landing = wave.landing?.length ? [{ issue: LANDING_JOB }] : [];
  return JSON.stringify({ include: [...landing, ...wave.jobs.map((j) => ({ issue: j.issueId }))] });
}

/** The wave's matrix jobs: its issues', and the landing job's. */
export const matrixJobs = (wave: Pick<WaveHandoff, 'jobs' | 'landing'>) =>
  wave.jobs.length + (wave.landing?.length ? 1 : 0);

/**
 * The loop state saved under `checkpointId` in the state directory `dir` (a job's partial state, or
 * the loop's restored beside the job's), with the checkpoint's whole state; or why there is none.
 */
export async function savedLoop(
  dir: string,
  checkpointId: string,
): Promise<{ loop: LoopState; state: Record<string, unknown> } | { problem: string }> {
  const cp = await new FileCheckpointStore(dir, { terms: 'action' })
    .load(checkpointId)
    .catch((error: unknown) => (error as Error).message);
  if (typeof cp === 'string') return { problem: cp };
  const loop = parseLoopState(cp.state);
  return typeof loop === 'string' ? { problem: loop } : { loop, state: cp.state };
}

/** Where a work job's partial state is published: its own lineage, apart from the loop's. */
export const partialOf = (scope: string, wave: Pick<WaveHandoff, 'id'>, issueId: string) =>
  partialScope(scope, wave.id, issueId);
