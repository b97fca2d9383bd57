/**
 * The state store with the real @actions/cache and @actions/artifact clients against the local
 * emulator of the cache v2 / results / blob / REST services (e2e/support/actionsServices.ts).
 * Each "run" is one job: the emulator's environment for that run in process.env (restored after
 * each test), the state directory wiped between runs as on a fresh runner.
 *
 * @actions/github reads GITHUB_API_URL when it is first loaded (the artifact client's findBy
 * downloads go through it), so each test loads the store afresh after setting its emulator's env.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type * as ArtifactsModule from '../src/persist/actionsArtifacts.js';
import type * as CacheModule from '../src/persist/actionsCache.js';
import type * as NamesModule from '../src/persist/stateNames.js';
import type * as StoreModule from '../src/persist/stateStore.js';
import {
  startActionsServices,
  type ActionsServices,
  type ActionsServicesOptions,
  type RunRef,
} from './support/actionsServices.js';
import { cacheArchiveFiles } from './support/unpack.js';

type Store = typeof NamesModule & typeof StoreModule & typeof CacheModule & typeof ArtifactsModule;

const ID_A = '0b7d3d6e-3f1a-4c55-9d2e-1a2b3c4d5e6f';
const ID_B = '5f0e2a8c-9b14-4e7a-8c3d-6b5a4f3e2d1c';
const SCOPE_INPUT = { ref: 'refs/heads/main', label: 'agent-ready' };

let services: ActionsServices;
let store: Store;
const originalEnv = { ...process.env };

function useRun(run: RunRef): void {
  for (const key of Object.keys(process.env)) if (!(key in originalEnv)) delete process.env[key];
  Object.assign(process.env, originalEnv, services.env(run));
}

async function start(options: ActionsServicesOptions = {}): Promise<void> {
  services = await startActionsServices(options);
  useRun({ runId: 1, attempt: 1 });
  jest.resetModules();
  store = {
    ...(await import('../src/persist/stateNames.js')),
    ...(await import('../src/persist/stateStore.js')),
    ...(await import('../src/persist/actionsCache.js')),
    ...(await import('../src/persist/actionsArtifacts.js')),
  };
}

beforeEach(async () => {
  // The clients print workflow commands (::debug::, ::add-mask::) and progress to stdout; kept out
  // of the test output unless AGENT_LOOP_E2E_VERBOSE is set.
  if (!process.env.AGENT_LOOP_E2E_VERBOSE) jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  await start();
});

afterEach(async () => {
  jest.restoreAllMocks();
  for (const key of Object.keys(process.env)) if (!(key in originalEnv)) delete process.env[key];
  Object.assign(process.env, originalEnv);
  await services.close();
});

/** A recorded call, short: the Twirp method, the blob container and comp, or the REST resource. */
function step(c: { method: string; path: string; query: string; status: number }): string {
  const twirp = /^\/twirp\/github\.actions\.results\.api\.v1\.(\w+\/\w+)$/.exec(c.path);
  if (twirp) return `${twirp[1]} ${c.status}`;
  if (c.path.startsWith('/repos/')) {
    const resource = c.path.replace(/^\/repos\/[^/]+\/[^/]+\/actions\//, '');
    return `${c.method} ${resource}${c.query.includes('name=') ? '?name' : ''} ${c.status}`;
  }
  const comp = /comp=(\w+)/.exec(c.query)?.[0];
  return [c.method, c.path.split('/')[2], comp, c.status].filter(Boolean).join(' ');
}

interface Logged {
  info: string[];
  notice: string[];
  warning: string[];
}

/** One job of the workflow: a clean state directory, the run's env, the real clients. */
function job(runId: number, attempt = 1) {
  const log: Logged = { info: [], notice: [], warning: [] };
  const stateDir = path.join(services.workspace, '.agent-loop');
  const scope = store.stateScope(SCOPE_INPUT.ref, SCOPE_INPUT.label);
  const deps = () => {
    useRun({ runId, attempt });
    return {
      stateDir,
      scope,
      runId,
      attempt,
      cache: store.actionsCache(),
      artifacts: store.actionsArtifacts({ token: services.githubToken, repository: services.repository }),
      log: {
        info: (m: string) => log.info.push(m),
        notice: (m: string) => log.notice.push(m),
        warning: (m: string) => log.warning.push(m),
      },
    };
  };
  return {
    log,
    stateDir,
    scope,
    async newMachine() {
      await fs.rm(stateDir, { recursive: true, force: true });
    },
    restore: (extra: { fresh?: boolean; checkpointId?: string } = {}) => store.restoreState({ ...deps(), ...extra }),
    save: (restoredGeneration?: number) =>
      store.saveState({ ...deps(), ...(restoredGeneration === undefined ? {} : { restoredGeneration }) }),
    async writeCheckpoint(id: string, iteration: number) {
      await fs.mkdir(path.join(stateDir, 'checkpoints'), { recursive: true });
      await fs.writeFile(path.join(stateDir, 'checkpoints', `${id}.json`), JSON.stringify({ id, iteration }));
    },
    async readCheckpoint(id: string): Promise<{ id: string; iteration: number } | undefined> {
      try {
        return JSON.parse(await fs.readFile(path.join(stateDir, 'checkpoints', `${id}.json`), 'utf8')) as {
          id: string;
          iteration: number;
        };
      } catch {
        return undefined;
      }
    },
    async generation() {
      return JSON.parse(await fs.readFile(path.join(stateDir, 'generation.json'), 'utf8')) as unknown;
    },
  };
}

/** Run `runId`: restore, advance checkpoint A to `iteration`, save. */
async function slice(runId: number, iteration: number) {
  const j = job(runId);
  await j.newMachine();
  const restored = await j.restore();
  await j.writeCheckpoint(ID_A, iteration);
  const saved = await j.save(restored.generation);
  return { j, restored, saved };
}

describe('state store with the real clients against the emulated services', () => {
  it('saves in run 1 and restores in run 2 from the cache', async () => {
    const one = await slice(101, 1);
    expect(one.restored.source).toBe('none');
    expect(one.restored.message).toMatch(/starting fresh/);
    expect(one.saved).toMatchObject({ generation: 1, cacheKey: `agent-loop-${one.j.scope}-101-1` });
    expect(one.saved.artifactId).toEqual(expect.any(Number));
    // The first run's fresh start is a notice (nothing was ever saved), and nothing is said about saving.
    expect(one.j.log.notice).toEqual([one.restored.message]);
    expect(one.j.log.warning).toEqual([]);
    expect(services.caches().map((c) => c.key)).toEqual([`agent-loop-${one.j.scope}-101-1`]);
    expect(services.artifacts()).toEqual([
      expect.objectContaining({ name: `agent-loop-checkpoint-${one.j.scope}`, runId: 101, expired: false }),
    ]);
    const expiry = services.artifacts()[0]?.expiresAt?.getTime() ?? 0;
    expect(Math.round((expiry - Date.now()) / 86_400_000)).toBe(90);

    const two = job(202);
    await two.newMachine();
    const restored = await two.restore();
    expect(restored).toMatchObject({ source: 'cache', key: `agent-loop-${two.scope}-101-1`, generation: 1 });
    expect(await two.readCheckpoint(ID_A)).toEqual({ id: ID_A, iteration: 1 });
    expect(await two.generation()).toEqual({ generation: 1, runId: 101, attempt: 1 });
    expect(two.log.warning).toEqual([]);
    // The restore went through the v2 Twirp lookup and a signed blob GET; no artifact was touched.
    const paths = services.calls().map((c) => `${c.method} ${c.path}`);
    expect(paths).toContain('POST /twirp/github.actions.results.api.v1.CacheService/GetCacheEntryDownloadURL');
    // The protocol steps as the clients took them: a small cache archive is one Put Blob; the
    // artifact zip is staged as blocks and committed with a block list.
    const steps = services.calls().map(step);
    expect(steps.slice(0, 12)).toEqual([
      'CacheService/GetCacheEntryDownloadURL 200', // run 1's restore: a miss
      'GET artifacts?name 200', // none yet
      'CacheService/GetCacheEntryDownloadURL 200', // save's look at what is published
      'GET artifacts?name 200',
      'CacheService/CreateCacheEntry 200',
      'PUT actions-cache 201', // Put Blob, x-ms-blob-type: BlockBlob
      'CacheService/FinalizeCacheEntryUpload 200',
      'ArtifactService/CreateArtifact 200',
      'PUT actions-results comp=block 201',
      'PUT actions-results comp=blocklist 201',
      'ArtifactService/FinalizeArtifact 200',
      'CacheService/GetCacheEntryDownloadURL 200', // run 2: lookupOnly, then the restore
    ]);
    // Run 2's download of the archive: the Azure SDK's Get Blob Properties, then a ranged Get Blob.
    expect(steps.slice(11, 15)).toEqual([
      'CacheService/GetCacheEntryDownloadURL 200',
      'CacheService/GetCacheEntryDownloadURL 200',
      'HEAD actions-cache 200',
      'GET actions-cache 206',
    ]);

    await two.writeCheckpoint(ID_A, 2);
    const saved = await two.save(restored.generation);
    expect(saved).toMatchObject({ generation: 2, cacheKey: `agent-loop-${two.scope}-202-1` });
    expect(two.log.warning).toEqual([]);

    // Run 3 gets the newest of the two entries by the prefix.
    const three = job(303);
    await three.newMachine();
    expect(await three.restore()).toMatchObject({
      source: 'cache',
      key: `agent-loop-${three.scope}-202-1`,
      generation: 2,
    });
    expect(await three.readCheckpoint(ID_A)).toEqual({ id: ID_A, iteration: 2 });
  });

  it('one cache entry for every runner: saved from one RUNNER_TEMP, restored on a runner with another RUNNER_TEMP and workspace into another directory, archived as agent-loop-state/', async () => {
    const scope = store.stateScope(SCOPE_INPUT.ref, SCOPE_INPUT.label);
    const log = { info: () => {}, notice: () => {}, warning: (m: string) => warnings.push(m) };
    const warnings: string[] = [];
    /** A runner of its own: its workspace and RUNNER_TEMP (the paths of hosted Linux and macOS runners, under the emulator's root). */
    const onRunner = async (runId: number, root: string) => {
      useRun({ runId, attempt: 1 });
      const runner = {
        workspace: path.join(services.workspace, root, 'work', 'repo', 'repo'),
        temp: path.join(services.workspace, root, 'work', '_temp'),
      };
      await fs.mkdir(runner.workspace, { recursive: true });
      await fs.mkdir(runner.temp, { recursive: true });
      Object.assign(process.env, { GITHUB_WORKSPACE: runner.workspace, RUNNER_TEMP: runner.temp });
      const backends = {
        cache: store.actionsCache(),
        artifacts: store.actionsArtifacts({ token: services.githubToken, repository: services.repository }),
      };
      return { ...runner, deps: { scope, runId, attempt: 1, ...backends, log } };
    };
    const cwd = process.cwd();

    // Runner A (a Linux runner's layout) saves its state directory, $RUNNER_TEMP/agent-loop.
    const a = await onRunner(101, 'home/runner');
    const saved = path.join(a.temp, 'agent-loop');
    await fs.mkdir(path.join(saved, 'checkpoints'), { recursive: true });
    await fs.writeFile(path.join(saved, 'checkpoints', `${ID_A}.json`), JSON.stringify({ id: ID_A, iteration: 1 }));
    // The runtime records (the lock, the processes) are this machine's: never published, like the artifact.
    await fs.mkdir(path.join(saved, 'run'), { recursive: true });
    await fs.writeFile(path.join(saved, 'run', 'lock'), 'pid 1');
    expect(await store.saveState({ ...a.deps, stateDir: saved })).toMatchObject({ generation: 1 });
    // The process is as it was: the client ran from its staging directory only during its calls.
    expect([process.cwd(), process.env.GITHUB_WORKSPACE]).toEqual([cwd, a.workspace]);

    // The archive holds agent-loop-state/… only: no runner's path, nothing outside it.
    const [entry] = services.caches();
    const members = cacheArchiveFiles(services.cacheArchive(entry!.key))
      .map((f) => f.name)
      .filter((n) => !n.endsWith(' (header)'));
    expect(members.sort()).toEqual([
      'agent-loop-state/',
      'agent-loop-state/checkpoints/',
      `agent-loop-state/checkpoints/${ID_A}.json`,
      'agent-loop-state/generation.json',
    ]);

    // Runner B (a macOS runner's layout: another RUNNER_TEMP, another workspace) restores it into another directory.
    const b = await onRunner(202, 'Users/runner');
    const into = path.join(b.temp, 'agent-loop-partials', 'partial-1');
    const before = services.calls().length;
    const restored = await store.restoreState({ ...b.deps, stateDir: into });
    expect(restored).toMatchObject({ source: 'cache', key: entry!.key, generation: 1 });
    expect(JSON.parse(await fs.readFile(path.join(into, 'checkpoints', `${ID_A}.json`), 'utf8'))).toEqual({
      id: ID_A,
      iteration: 1,
    });
    // Nothing extracted anywhere else: not under B's workspace, nor beside the directory restored into.
    expect(await fs.readdir(b.workspace)).toEqual([]);
    expect(await fs.readdir(path.dirname(into))).toEqual(['partial-1']);
    // No artifact was listed or downloaded: the restore was the cache's alone.
    expect(
      services
        .calls()
        .slice(before)
        .filter((c) => c.path.startsWith('/repos/')),
    ).toEqual([]);
    expect([process.cwd(), process.env.GITHUB_WORKSPACE]).toEqual([cwd, b.workspace]);

    // B publishes over it: the second entry has the first one's version.
    expect(await store.saveState({ ...b.deps, stateDir: into, restoredGeneration: 1 })).toMatchObject({
      generation: 2,
    });
    expect(services.caches().map((c) => c.version)).toEqual([entry!.version, entry!.version]);
    expect(warnings).toEqual([]);
  });

  it('round-trips with Azurite-style blob URLs too (the cache client then downloads with one plain GET)', async () => {
    await services.close();
    await start({ blobEndpoint: 'ip' });
    await slice(101, 1);
    const two = job(202);
    await two.newMachine();
    expect(await two.restore()).toMatchObject({ source: 'cache', generation: 1 });
    expect(await two.readCheckpoint(ID_A)).toEqual({ id: ID_A, iteration: 1 });
    const steps = services.calls().map(step);
    expect(steps).toContain('GET actions-cache 200');
    expect(steps).not.toContain('HEAD actions-cache 200');
    services.evictCache();
    const three = job(303);
    await three.newMachine();
    expect(await three.restore()).toMatchObject({ source: 'artifact', generation: 1 });
  });

  it('restores from the newest artifact of an earlier run when the cache entries were evicted', async () => {
    await slice(101, 1);
    const second = await slice(202, 2);
    expect(second.saved.generation).toBe(2);
    expect(services.evictCache().length).toBe(2);

    const three = job(303);
    await three.newMachine();
    const restored = await three.restore();
    expect(restored).toMatchObject({ source: 'artifact', artifactId: second.saved.artifactId, generation: 2 });
    expect(restored.message).toMatch(/cache had no entry/);
    expect(await three.readCheckpoint(ID_A)).toEqual({ id: ID_A, iteration: 2 });
    expect(three.log.warning).toEqual([]);
    const calls = services.calls().map(step);
    expect(calls).toContain('GET artifacts?name 200');
    expect(calls).toContain(`GET artifacts/${second.saved.artifactId}/zip 302`);
    expect(calls).toContain('GET actions-results 200'); // the signed blob URL it redirected to

    // And the slice publishes over it: generation 3, in the cache again.
    await three.writeCheckpoint(ID_A, 3);
    expect(await three.save(restored.generation)).toMatchObject({
      generation: 3,
      cacheKey: `agent-loop-${three.scope}-303-1`,
    });
    expect(three.log.warning).toEqual([]);
  });

  it('starts fresh when the cache entries were evicted and the artifacts expired', async () => {
    const one = await slice(101, 1);
    services.evictCache();
    services.expireArtifact(one.saved.artifactId ?? 0);
    const j = job(202);
    await j.newMachine();
    expect(await j.restore()).toMatchObject({
      source: 'none',
      generation: 0,
      message: expect.stringMatching(/no cache entry .*; no artifact .*starting fresh/),
    });
  });

  it('starts fresh with a notice, not a warning, when there is neither a cache entry nor an artifact (a first run)', async () => {
    const j = job(101);
    await j.newMachine();
    const restored = await j.restore();
    expect(restored).toEqual({
      source: 'none',
      generation: 0,
      message: expect.stringMatching(
        /No saved state to restore \(no cache entry agent-loop-.*-\*; no artifact agent-loop-checkpoint-.*\); starting fresh/,
      ),
    });
    expect(j.log.notice).toEqual([restored.message]);
    expect(j.log.warning).toEqual([]);
    await expect(fs.readdir(j.stateDir)).rejects.toThrow();
  });

  it('restores nothing with fresh, and the fresh lineage then publishes over the old one', async () => {
    await slice(101, 7);
    const j = job(202);
    await j.newMachine();
    const restored = await j.restore({ fresh: true });
    expect(restored).toMatchObject({ source: 'none', generation: 1 });
    expect(restored.message).toMatch(/fresh: true.*superseding generation 1/);
    expect(await j.readCheckpoint(ID_A)).toBeUndefined();

    await j.writeCheckpoint(ID_B, 1);
    expect(await j.save(restored.generation)).toMatchObject({ generation: 2, cacheKey: `agent-loop-${j.scope}-202-1` });
    expect(j.log.warning).toEqual([]);
    const next = job(303);
    await next.newMachine();
    expect(await next.restore()).toMatchObject({ source: 'cache', generation: 2 });
    expect(await next.readCheckpoint(ID_B)).toEqual({ id: ID_B, iteration: 1 });
    expect(await next.readCheckpoint(ID_A)).toBeUndefined();
  });

  it.each([
    ['corrupt', (archive: Buffer) => Buffer.from(archive.map((b) => b ^ 0x5a))],
    ['truncated', (archive: Buffer) => archive.subarray(0, Math.floor(archive.length / 2))],
  ])('warns about a %s cached archive and falls back to the artifact', async (_kind, mutate) => {
    const one = await slice(101, 1);
    services.corruptCache(one.saved.cacheKey ?? '', mutate);

    const j = job(202);
    await j.newMachine();
    const restored = await j.restore();
    expect(restored).toMatchObject({ source: 'artifact', artifactId: one.saved.artifactId, generation: 1 });
    expect(j.log.warning).toEqual([
      expect.stringMatching(
        new RegExp(
          `Cache entry ${one.saved.cacheKey} is not usable: the archive could not be downloaded or extracted.*trying the artifact`,
        ),
      ),
    ]);
    expect(await j.readCheckpoint(ID_A)).toEqual({ id: ID_A, iteration: 1 });
    expect((await fs.readdir(path.dirname(j.stateDir))).filter((n) => n.includes('agent-loop-'))).toEqual([]);

    // Publishing works over the damaged entry.
    await j.writeCheckpoint(ID_A, 2);
    expect(await j.save(restored.generation)).toMatchObject({ generation: 2, cacheKey: `agent-loop-${j.scope}-202-1` });
    // The damaged entry is the publication this slice's state came from (generation.json names run
    // 101), so its generation is known without downloading it again: no second warning.
    expect(j.log.warning).toHaveLength(1);
    expect(
      services
        .caches()
        .map((c) => c.key)
        .at(-1),
    ).toBe(`agent-loop-${j.scope}-202-1`);
  });

  it('refuses to publish over a newer generation when two runs race, and warns', async () => {
    await slice(101, 1);
    const a = job(202);
    const b = job(203);
    await a.newMachine();
    const ra = await a.restore();
    // B's machine is another runner: its restore has its own directory.
    const bDir = b.stateDir;
    await fs.rename(a.stateDir, `${a.stateDir}.a`);
    const rb = await b.restore();
    expect([ra.generation, rb.generation]).toEqual([1, 1]);
    await b.writeCheckpoint(ID_A, 20);
    await fs.rename(bDir, `${bDir}.b`);
    await fs.rename(`${a.stateDir}.a`, a.stateDir);

    await a.writeCheckpoint(ID_A, 10);
    expect(await a.save(ra.generation)).toMatchObject({ generation: 2, cacheKey: `agent-loop-${a.scope}-202-1` });

    await fs.rm(a.stateDir, { recursive: true });
    await fs.rename(`${bDir}.b`, bDir);
    const before = { caches: services.caches().length, artifacts: services.artifacts().length };
    const saved = await b.save(rb.generation);
    expect(saved.skipped).toMatch(
      /holds generation 2 \(run 202, attempt 1\), newer than generation 1 .*two runs racing/,
    );
    expect(saved.cacheKey).toBeUndefined();
    expect(b.log.warning).toEqual([
      expect.stringMatching(/^Not publishing the state: .*two runs racing.*stays in .* only/),
    ]);
    expect({ caches: services.caches().length, artifacts: services.artifacts().length }).toEqual(before);
    // B's state is left as it was.
    expect(await b.readCheckpoint(ID_A)).toEqual({ id: ID_A, iteration: 20 });
    expect(await b.generation()).toEqual({ generation: 1, runId: 101, attempt: 1 });

    // The next run continues from A's generation.
    const next = job(304);
    await next.newMachine();
    expect(await next.restore()).toMatchObject({
      source: 'cache',
      key: `agent-loop-${next.scope}-202-1`,
      generation: 2,
    });
    expect(await next.readCheckpoint(ID_A)).toEqual({ id: ID_A, iteration: 10 });
  });

  it("refuses on the artifact's generation too when the racing run's cache entry is gone", async () => {
    await slice(101, 1);
    const a = job(202);
    const b = job(203);
    await b.newMachine();
    const rb = await b.restore();
    await fs.rename(b.stateDir, `${b.stateDir}.b`);
    await slice(202, 5); // A restores generation 1 and publishes 2 while B works
    services.evictCache(`agent-loop-${a.scope}-202-`);
    await fs.rm(a.stateDir, { recursive: true });
    await fs.rename(`${b.stateDir}.b`, b.stateDir);
    const saved = await b.save(rb.generation);
    expect(saved.skipped).toMatch(/^artifact agent-loop-checkpoint-.* \(id \d+, run 202\) holds generation 2/);
    expect(b.log.warning).toEqual([expect.stringMatching(/two runs racing/)]);
  });

  it("a re-run attempt restores its first attempt's state and replaces that attempt's artifact", async () => {
    const first = await slice(101, 1);
    const again = job(101, 2);
    await again.newMachine();
    const restored = await again.restore();
    expect(restored).toMatchObject({ source: 'cache', key: `agent-loop-${again.scope}-101-1`, generation: 1 });
    await again.writeCheckpoint(ID_A, 2);
    const saved = await again.save(restored.generation);
    expect(saved).toMatchObject({ generation: 2, cacheKey: `agent-loop-${again.scope}-101-2` });
    expect(saved.artifactId).not.toBe(first.saved.artifactId);
    expect(again.log.warning).toEqual([]);
    expect(services.artifacts()).toEqual([expect.objectContaining({ id: saved.artifactId, runId: 101, attempt: 2 })]);
    expect(services.calls().map(step)).toContain('ArtifactService/DeleteArtifact 200');
  });

  it('checkpoint-id restores a state holding that checkpoint, and says what was searched when none does', async () => {
    await slice(101, 1);
    const j = job(202);
    await j.newMachine();
    expect(await j.restore({ checkpointId: ID_A })).toMatchObject({ source: 'cache', generation: 1 });

    const k = job(203);
    await k.newMachine();
    const restored = await k.restore({ checkpointId: ID_B });
    expect(restored).toMatchObject({ source: 'none', notFound: true });
    expect(restored.message).toMatch(
      new RegExp(
        `checkpoint-id ${ID_B} is in no saved state \\(cache entry .* does not hold checkpoint ${ID_B}; artifact .* does not hold checkpoint ${ID_B}\\)`,
      ),
    );
    expect(k.log.warning).toEqual([]);
    await expect(fs.readdir(k.stateDir)).rejects.toThrow();
  });

  it('keeps scopes apart: label "bug" does not restore label "bug-fix"', async () => {
    const fix = store.stateScope('refs/heads/main', 'bug-fix');
    const bug = store.stateScope('refs/heads/main', 'bug');
    expect(`agent-loop-${fix}-1-1`.startsWith(store.cacheKeyPrefix(bug))).toBe(false);
    const log: Logged = { info: [], notice: [], warning: [] };
    const stateDir = path.join(services.workspace, '.agent-loop');
    const common = () => ({
      stateDir,
      runId: 1,
      attempt: 1,
      cache: store.actionsCache(),
      artifacts: store.actionsArtifacts({ token: services.githubToken, repository: services.repository }),
      log: {
        info: (m: string) => log.info.push(m),
        notice: (m: string) => log.notice.push(m),
        warning: (m: string) => log.warning.push(m),
      },
    });
    await fs.mkdir(path.join(stateDir, 'checkpoints'), { recursive: true });
    await fs.writeFile(path.join(stateDir, 'checkpoints', `${ID_A}.json`), '{}');
    expect((await store.saveState({ ...common(), scope: fix })).generation).toBe(1);
    useRun({ runId: 2, attempt: 1 });
    expect((await store.restoreState({ ...common(), runId: 2, scope: bug })).source).toBe('none');
  });
});

describe('the emulated services', () => {
  it('check the runtime token, the blob signature and the REST token', async () => {
    const twirp = (token: string) =>
      fetch(`${services.url}/twirp/github.actions.results.api.v1.CacheService/GetCacheEntryDownloadURL`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ key: 'k', version: 'v' }),
      });
    const good = services.env({ runId: 9, attempt: 1 }).ACTIONS_RUNTIME_TOKEN ?? '';
    expect(await (await twirp(good)).json()).toEqual({ ok: false, signed_download_url: '', matched_key: '' });
    const [head, body] = good.split('.');
    const claims = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as { scp: string; ac: string };
    expect(claims.scp).toMatch(
      /^Actions\.GenericRead:[0-9a-f-]{36} Actions\.UploadArtifacts:[0-9a-f-]{36}:[0-9a-f-]{36} Actions\.Results:[0-9a-f-]{36}:[0-9a-f-]{36}$/,
    );
    expect(JSON.parse(claims.ac)).toEqual([{ Scope: 'refs/heads/main', Permission: 3 }]);
    const forged = await twirp(`${head}.${body}.${Buffer.from('x').toString('base64url')}`);
    expect([forged.status, await forged.json()]).toEqual([
      401,
      { code: 'unauthenticated', msg: 'bad token signature' },
    ]);

    await slice(101, 1);
    const artifact = services.artifacts()[0];
    const redirect = await fetch(`${services.url}/repos/${services.repository}/actions/artifacts/${artifact?.id}/zip`, {
      headers: { Authorization: `token ${services.githubToken}` },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    // The signed URL names the Azure host; the same blob answers Azurite-style on 127.0.0.1.
    const location = new URL(redirect.headers.get('location') ?? '');
    expect(location.host).toBe('devstoreaccount1.blob.core.windows.net');
    const signed = new URL(`${services.url}/devstoreaccount1${location.pathname}${location.search}`);
    expect((await fetch(signed, { headers: { Range: 'bytes=0-1' } })).status).toBe(206);
    signed.searchParams.set('sp', 'rw');
    expect((await fetch(signed)).status).toBe(403);
    expect(
      (
        await fetch(`${services.url}/repos/${services.repository}/actions/artifacts`, {
          headers: { Authorization: 'token nope' },
        })
      ).status,
    ).toBe(401);
  });
});
