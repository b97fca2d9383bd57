/**
 * Carrying the state directory between runs in the action: restore in main, publish in post.
 * Only on a runner (ACTIONS_RUNTIME_TOKEN present); elsewhere the state stays in the workspace.
 */
import { type RestoreResult, restoreState, saveState } from '../persist/stateStore.js';
import { stateScope } from '../persist/stateNames.js';
import type { PublishScan } from '../persist/publishable.js';
import { actionsCache } from '../persist/actionsCache.js';
import { actionsArtifacts } from '../persist/actionsArtifacts.js';
import type { StorageRetryDeps } from '../persist/storageRetry.js';
import { systemClock } from '../util/clock.js';
import { pruneCheckpoints, pruneLogs } from './prune.js';

export interface RunRefs {
  scope: string;
  runId: number;
  attempt: number;
  repository: string;
}

/** The run's identity from the runner's environment, or undefined outside GitHub Actions. */
export function runRefs(env: NodeJS.ProcessEnv, label: string): RunRefs | undefined {
  if (!env.ACTIONS_RUNTIME_TOKEN || !env.GITHUB_RUN_ID || !env.GITHUB_REPOSITORY) return undefined;
  return {
    scope: stateScope(env.GITHUB_REF ?? 'ref', label),
    runId: Number(env.GITHUB_RUN_ID),
    attempt: Number(env.GITHUB_RUN_ATTEMPT ?? '1'),
    repository: env.GITHUB_REPOSITORY,
  };
}

export interface PersistLog {
  info(message: string): void;
  notice(message: string): void;
  warning(message: string): void;
}

/** The real cache and artifact backends of a run; their retries are told to the log. */
function backends(input: { refs: RunRefs; token: string; log: PersistLog }) {
  const retry: StorageRetryDeps = { sleep: (ms) => systemClock.sleep(ms), log: (m) => input.log.info(m) };
  return {
    cache: actionsCache(retry),
    artifacts: actionsArtifacts({ token: input.token, repository: input.refs.repository, retry }),
  };
}

export async function restore(input: {
  refs: RunRefs;
  stateDir: string;
  token: string;
  fresh: boolean;
  checkpointId?: string;
  log: PersistLog;
}): Promise<RestoreResult> {
  const { refs } = input;
  return restoreState({
    stateDir: input.stateDir,
    scope: refs.scope,
    runId: refs.runId,
    attempt: refs.attempt,
    fresh: input.fresh,
    checkpointId: input.checkpointId,
    ...backends(input),
    log: input.log,
  });
}

/** Publishes the state directory, its checkpoints pruned first (prune.ts). */
export async function publish(input: {
  refs: RunRefs;
  stateDir: string;
  token: string;
  restoredGeneration?: number;
  /** The checkpoint the run used (main's checkpoint-id): never pruned. */
  inUse?: string;
  log: PersistLog;
  /** The secret scan what is published passes first (src/persist/publishable.ts). */
  scan: PublishScan;
}) {
  const { refs } = input;
  try {
    await pruneCheckpoints(input.stateDir, { ...(input.inUse ? { inUse: input.inUse } : {}), log: input.log });
  } catch (error) {
    input.log.warning(`Could not prune the checkpoints before publishing: ${(error as Error).message}.`);
  }
  await pruneLogs(input.stateDir, { log: input.log });
  return saveState({
    stateDir: input.stateDir,
    scope: refs.scope,
    runId: refs.runId,
    attempt: refs.attempt,
    restoredGeneration: input.restoredGeneration,
    ...backends(input),
    log: input.log,
    scan: input.scan,
  });
}
