/**
 * The real `CacheBackend`: the Actions cache through @actions/cache, its reading side (lookup,
 * restore) and its writing side (save), each entry archived as `agent-loop-state` from a staging
 * directory (cacheStaging.ts), so that any runner restores it into any directory.
 */
import * as actionsCacheLib from '@actions/cache';
import { promises as fs } from 'node:fs';
import { CACHE_ENTRY_PATH, inStaging, stageCopy, stagingBeside, unstage } from './cacheStaging.js';
import { systemClock } from '../util/clock.js';
import type { CacheBackend } from './stateBackends.js';
import { type StorageRetryDeps, retryingCache } from './storageRetry.js';

/**
 * @actions/cache (service v2 when ACTIONS_CACHE_SERVICE_V2 is set, as on github.com). It reports
 * most failures as its own warnings (a failed restore is a miss, a failed save -1) after retrying
 * its requests itself; what it throws is retried under the actions_storage row (storageRetry.ts).
 */
export function actionsCache(retry: StorageRetryDeps = { sleep: systemClock.sleep }): CacheBackend {
  const available = () => {
    // @github/local-action's stand-in for @actions/cache (files under LOCAL_ACTION_CACHE_PATH) has
    // restoreCache and saveCache only: without isFeatureAvailable, the cache is the stand-in's.
    const isFeatureAvailable = actionsCacheLib.isFeatureAvailable as (() => boolean) | undefined;
    if (isFeatureAvailable !== undefined && !isFeatureAvailable())
      throw new Error(
        'the Actions cache service is not available here (ACTIONS_RESULTS_URL / ACTIONS_CACHE_URL are not set)',
      );
  };
  return retryingCache(
    {
      lookup: async (primaryKey, restoreKeys) => {
        available();
        return actionsCacheLib.restoreCache([CACHE_ENTRY_PATH], primaryKey, restoreKeys, { lookupOnly: true });
      },
      restore: async (dir, primaryKey, restoreKeys) => {
        available();
        const base = await stagingBeside(dir);
        try {
          const key = await inStaging(base, () =>
            actionsCacheLib.restoreCache([CACHE_ENTRY_PATH], primaryKey, restoreKeys),
          );
          return key !== undefined && (await unstage(base, dir)) ? key : undefined;
        } finally {
          await fs.rm(base, { recursive: true, force: true });
        }
      },
      save: async (dir, key) => {
        available();
        const base = await stagingBeside(dir);
        try {
          await stageCopy(dir, base);
          return await inStaging(base, () => actionsCacheLib.saveCache([CACHE_ENTRY_PATH], key));
        } finally {
          await fs.rm(base, { recursive: true, force: true });
        }
      },
    },
    retry,
  );
}
