/**
 * The real `CacheBackend`: the Actions cache through @actions/cache, its reading side (lookup,
 * restore) and its writing side (save).
 */
import * as actionsCacheLib from '@actions/cache';
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
      lookup: async (paths, primaryKey, restoreKeys) => {
        available();
        return actionsCacheLib.restoreCache(paths, primaryKey, restoreKeys, { lookupOnly: true });
      },
      restore: async (paths, primaryKey, restoreKeys) => {
        available();
        return actionsCacheLib.restoreCache(paths, primaryKey, restoreKeys);
      },
      save: async (paths, key) => {
        available();
        return actionsCacheLib.saveCache(paths, key);
      },
    },
    retry,
  );
}
