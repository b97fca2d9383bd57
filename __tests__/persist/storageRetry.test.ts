/**
 * The Actions cache and artifact backends under the actions_storage row: a transient failure of a
 * call is retried, a refusal is not; the errors are shaped as the real clients throw them.
 */
import { describe, expect, it } from '@jest/globals';
import type { ArtifactBackend, CacheBackend, PublishedArtifact } from '../../src/persist/stateBackends.js';
import { classifyStorageFailure, retryingArtifacts, retryingCache } from '../../src/persist/storageRetry.js';

/** Errors as @actions/artifact's Twirp client, Octokit, @actions/http-client and @actions/cache throw them. */
const twirp = (status: number, text: string, retryable = true) =>
  new Error(
    `Failed to CreateArtifact: ${retryable ? '' : 'Received non-retryable error: '}Failed request: (${status}) ${text}`,
  );
const named = (name: string, message: string) => Object.assign(new Error(message), { name });
const octokit = (status: number, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`HTTP ${status}`), { name: 'HttpError', status, response: { headers } });
const connectionReset = () =>
  Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
  });

/** Backends whose calls fail with the scripted errors first, then succeed; and a sleep that records. */
function fakes(failures: unknown[]) {
  const calls: string[] = [];
  const waits: number[] = [];
  const logged: string[] = [];
  const next = (call: string) => {
    calls.push(call);
    const failure = failures.shift();
    if (failure !== undefined) throw failure;
  };
  const cache: CacheBackend = {
    lookup: async (key) => (next('lookup'), key),
    restore: async (_dir, key) => (next('restore'), key),
    save: async () => (next('save'), 7),
  };
  const artifact: PublishedArtifact = { id: 9, name: 'state', runId: 1 };
  const artifacts: ArtifactBackend = {
    upload: async () => (next('upload'), { id: 9 }),
    list: async () => (next('list'), [artifact]),
    download: async () => next('download'),
  };
  const deps = {
    sleep: async (ms: number) => {
      waits.push(ms);
    },
    log: (m: string) => logged.push(m),
  };
  return { cache: retryingCache(cache, deps), artifacts: retryingArtifacts(artifacts, deps), calls, waits, logged };
}

describe('the Actions storage backends under the actions_storage row', () => {
  it('retry a transient failure of the first call and then succeed', async () => {
    const f = fakes([connectionReset(), twirp(503, 'Service Unavailable')]);
    expect(await f.artifacts.upload('state', [], '/tmp', 1)).toEqual({ id: 9 });
    expect(f.calls).toEqual(['upload', 'upload', 'upload']);
    expect(f.waits).toEqual([1000, 2000]);
    expect(f.logged[0]).toMatch(
      /^Uploading the artifact failed \(fetch failed\); trying again in 1 s \(attempt 2\)\.$/,
    );
  });

  it('retry the cache and the listing too, and give up after 3 attempts with the last failure', async () => {
    const f = fakes([octokit(502), octokit(500)]);
    expect(await f.artifacts.list('state')).toMatchObject([{ id: 9 }]);
    expect(await f.cache.restore('/s', 'key', [])).toBe('key');
    const g = fakes([octokit(500), octokit(500), octokit(503), 'unused']);
    await expect(g.cache.save('/s', 'key')).rejects.toMatchObject({ status: 503 });
    expect(g.calls).toEqual(['save', 'save', 'save']);
    expect(g.waits).toEqual([1000, 2000]);
  });

  it('do not retry a 4xx, a refusal of the client, or what the client already retried', async () => {
    for (const refusal of [
      octokit(403),
      octokit(404),
      twirp(409, 'Conflict', false),
      named('ReserveCacheError', 'Unable to reserve cache with key k, another job may be creating this cache.'),
      named('ValidationError', 'Key Validation Error: k cannot contain commas.'),
      named('ArtifactNotFoundError', 'No artifacts found for ID: 9'),
      new Error('Failed to CreateArtifact: Failed to make request after 5 attempts: Failed request: (503) Unavailable'),
      new Error('the Actions cache service is not available here'),
    ]) {
      const f = fakes([refusal]);
      await expect(f.artifacts.download({ id: 9, name: 'state', runId: 1 }, '/tmp')).rejects.toBe(refusal);
      expect(f.calls).toEqual(['download']);
      expect(f.waits).toEqual([]);
    }
  });

  it('honour a 429 retry-after within the budget', () => {
    expect(classifyStorageFailure({ ok: false, error: octokit(429, { 'retry-after': '3' }) })).toEqual({
      retry: true,
      retryAfterMs: 3000,
    });
    expect(classifyStorageFailure({ ok: false, error: twirp(429, 'Too Many Requests') })).toEqual({ retry: true });
    expect(classifyStorageFailure({ ok: true, value: undefined })).toEqual({ retry: false });
  });
});
