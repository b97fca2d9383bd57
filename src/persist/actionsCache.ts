/**
 * The real `CacheBackend`: the Actions cache through @actions/cache, its reading side (lookup,
 * restore) and its writing side (save).
 */
import * as actionsCacheLib from '@actions/cache';
import type { CacheBackend } from './stateBackends.js';

/** @actions/cache (service v2 when ACTIONS_CACHE_SERVICE_V2 is set, as on github.com). It reports failures as its own warnings. */
export function actionsCache(): CacheBackend {
  const available = () => {
    if (!actionsCacheLib.isFeatureAvailable())
      throw new Error(
        'the Actions cache service is not available here (ACTIONS_RESULTS_URL / ACTIONS_CACHE_URL are not set)',
      );
  };
  return {
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
  };
}
