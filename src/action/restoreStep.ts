/**
 * The loop's state from earlier runs, for this job: the cache, else the newest artifact, else a fresh
 * start (a work job's partial state is its own lineage, started fresh; the reduce adds to the newest).
 */
import type { Options } from '../config/options.js';
import type { ActionCore } from './actionCore.js';
import { type FanOutRole, restoreCheckpoint } from './fanOut.js';
import { type PersistLog, type RunRefs, restore } from './persistence.js';
import { partialOf } from './waveHandoff.js';

/** Restores the state into `stateDir` and hands post what it needs; false when the step failed. */
export async function restoreForJob(input: {
  core: ActionCore;
  refs: RunRefs;
  fanOut: FanOutRole;
  options: Options;
  stateDir: string;
  log: PersistLog;
  redact: (text: string) => string;
}): Promise<boolean> {
  const { core, refs, fanOut, options, redact } = input;
  // A work job's partial state is its own lineage, started fresh; the reduce adds to the newest state.
  const lineage = fanOut.role === 'work' ? { ...refs, scope: partialOf(refs.scope, fanOut.wave, fanOut.issue) } : refs;
  const restored = await restore({
    refs: lineage,
    stateDir: input.stateDir,
    token: options.githubToken ?? '',
    fresh: fanOut.role === 'work' ? true : fanOut.role === 'reduce' ? false : options.fresh,
    checkpointId: restoreCheckpoint(fanOut, options),
    log: input.log,
  });
  // A checkpoint-id found in no saved state: the step fails, nothing run, nothing published.
  if (restored.notFound) {
    core.setFailed(redact(`agent-loop: ${restored.message}`));
    return false;
  }
  core.info(redact(`agent-loop: ${restored.message}`));
  core.saveState('state-dir', input.stateDir);
  core.saveState('generation', String(restored.generation ?? 0));
  if (lineage !== refs) core.saveState('scope', lineage.scope);
  return true;
}
