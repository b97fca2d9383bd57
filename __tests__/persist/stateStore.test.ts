/**
 * The state store's decisions with in-memory fakes of the cache and the artifact service (the real
 * clients against emulated services are in e2e/persist.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { restoreState, saveState } from '../../src/persist/stateStore.js';
import { artifactName, cacheKey, cacheKeyPrefix, stateScope } from '../../src/persist/stateNames.js';
import type { ArtifactBackend, CacheBackend, PublishedArtifact } from '../../src/persist/stateBackends.js';

const ID_A = '0b7d3d6e-3f1a-4c55-9d2e-1a2b3c4d5e6f';
const ID_B = '5f0e2a8c-9b14-4e7a-8c3d-6b5a4f3e2d1c';
const SCOPE = stateScope('refs/heads/main', 'agent-ready');

type Files = Map<string, string>;

async function snapshot(dir: string): Promise<Files> {
  const out: Files = new Map();
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.set(path.relative(dir, p), await fs.readFile(p, 'utf8'));
    }
  };
  await walk(dir);
  return out;
}

async function writeFiles(dir: string, files: Files): Promise<void> {
  for (const [rel, text] of files) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
}

const state = (
  generation: number,
  runId: number,
  checkpoints: Record<string, unknown> = { [ID_A]: { iteration: generation } },
): Files =>
  new Map<string, string>([
    ['generation.json', JSON.stringify({ generation, runId, attempt: 1 })],
    ...Object.entries(checkpoints).map(([id, c]): [string, string] => [`checkpoints/${id}.json`, JSON.stringify(c)]),
  ]);

/** The cache: entries by key, newest last; a `broken` entry fails like a corrupt archive (its partial extraction stays in the client's staging, not in `dir`). */
class FakeCache implements CacheBackend {
  entries: Array<{ key: string; files: Files; broken?: boolean }> = [];
  calls: string[] = [];
  saveResult: number | Error = 1;

  private match(primaryKey: string, restoreKeys: string[]) {
    const newest = (f: (k: string) => boolean) => [...this.entries].reverse().find((e) => f(e.key));
    for (const k of [primaryKey, ...restoreKeys]) {
      const hit = newest((key) => key === k) ?? newest((key) => key.startsWith(k));
      if (hit) return hit;
    }
    return undefined;
  }
  async lookup(primaryKey: string, restoreKeys: string[]) {
    this.calls.push(`lookup ${primaryKey}`);
    return this.match(primaryKey, restoreKeys)?.key;
  }
  async restore(dir: string, primaryKey: string, restoreKeys: string[]) {
    this.calls.push(`restore ${primaryKey}`);
    const hit = this.match(primaryKey, restoreKeys);
    if (!hit || hit.broken) return undefined;
    await fs.rm(dir, { recursive: true, force: true });
    await writeFiles(dir, hit.files);
    return hit.key;
  }
  async save(dir: string, key: string) {
    this.calls.push(`save ${key}`);
    if (this.saveResult instanceof Error) throw this.saveResult;
    if (this.saveResult !== -1) this.entries.push({ key, files: await snapshot(dir) });
    return this.saveResult;
  }
}

class FakeArtifacts implements ArtifactBackend {
  stored: Array<PublishedArtifact & { files: Files; broken?: boolean }> = [];
  calls: string[] = [];
  uploads: Array<{ name: string; files: string[]; rootDir: string; retentionDays: number }> = [];
  uploadError: Error | undefined;
  listError: Error | undefined;
  nextId = 500;
  runId = 0;

  async upload(name: string, files: string[], rootDir: string, retentionDays: number) {
    if (this.uploadError) throw this.uploadError;
    this.uploads.push({ name, files, rootDir, retentionDays });
    const id = this.nextId++;
    this.stored.push({ id, name, runId: this.runId, files: await snapshot(rootDir) });
    return { id };
  }
  async list(name: string) {
    this.calls.push(`list ${name}`);
    if (this.listError) throw this.listError;
    return [...this.stored]
      .reverse()
      .filter((x) => x.name === name)
      .map((a) => ({ id: a.id, name: a.name, runId: a.runId }));
  }
  async download(artifact: PublishedArtifact, dir: string) {
    this.calls.push(`download ${artifact.id}`);
    const a = this.stored.find((x) => x.id === artifact.id);
    if (!a) throw new Error('gone');
    await fs.mkdir(dir, { recursive: true });
    if (a.broken) throw new Error('Unable to download and extract artifact: invalid zip');
    await writeFiles(dir, a.files);
  }
}

let root: string;
let stateDir: string;
let cache: FakeCache;
let artifacts: FakeArtifacts;
let log: { info: string[]; notice: string[]; warning: string[] };

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'state-store-'));
  stateDir = path.join(root, 'ws', '.agent-loop');
  cache = new FakeCache();
  artifacts = new FakeArtifacts();
  log = { info: [], notice: [], warning: [] };
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const deps = (runId: number, attempt = 1) => ({
  stateDir,
  scope: SCOPE,
  runId,
  attempt,
  cache,
  artifacts,
  log: {
    info: (m: string) => log.info.push(m),
    notice: (m: string) => log.notice.push(m),
    warning: (m: string) => log.warning.push(m),
  },
});

/** Files in the workspace beside the state directory (scratch directories must not be left there). */
const leftovers = async () =>
  (await fs.readdir(path.dirname(stateDir)).catch(() => [] as string[])).filter((n) => n !== '.agent-loop');

function publish(
  runId: number,
  generation: number,
  where: { cache?: boolean | 'broken'; artifact?: boolean | 'broken' } = { cache: true, artifact: true },
  checkpoints?: Record<string, unknown>,
) {
  const files = state(generation, runId, checkpoints);
  if (where.cache) cache.entries.push({ key: cacheKey(SCOPE, runId, 1), files, broken: where.cache === 'broken' });
  if (where.artifact)
    artifacts.stored.push({
      id: artifacts.nextId++,
      name: artifactName(SCOPE),
      runId,
      files,
      broken: where.artifact === 'broken',
    });
}

describe('restoreState', () => {
  it('restores the newest cache entry by the prefix', async () => {
    publish(10, 1);
    publish(11, 2);
    const r = await restoreState(deps(12));
    expect(r).toEqual({
      source: 'cache',
      key: cacheKey(SCOPE, 11, 1),
      generation: 2,
      message: `Restored the state from cache entry ${cacheKey(SCOPE, 11, 1)} (generation 2).`,
    });
    expect(await snapshot(stateDir)).toEqual(state(2, 11));
    expect(cache.calls).toEqual([`lookup ${cacheKey(SCOPE, 12, 1)}`, `restore ${cacheKey(SCOPE, 12, 1)}`]);
    expect(artifacts.calls).toEqual([]);
    expect(log.warning).toEqual([]);
  });

  it('falls back to the newest artifact when the cache has no entry, and swaps it in whole', async () => {
    publish(10, 1, { artifact: true });
    publish(11, 2, { artifact: true });
    const r = await restoreState(deps(12));
    expect(r).toMatchObject({ source: 'artifact', key: artifactName(SCOPE), artifactId: 501, generation: 2 });
    expect(r.message).toMatch(/the cache had no entry/);
    expect(await snapshot(stateDir)).toEqual(state(2, 11));
    expect(await leftovers()).toEqual([]);
    expect(log.warning).toEqual([]);
  });

  it('replaces what the state directory held', async () => {
    await writeFiles(stateDir, new Map([['stale.txt', 'x']]));
    publish(10, 1);
    await restoreState(deps(12));
    expect(await snapshot(stateDir)).toEqual(state(1, 10));
    expect(log.info[0]).toMatch(/already has content; it is replaced/);
  });

  it('starts fresh with a notice, not a warning, when there is neither (a first run)', async () => {
    const r = await restoreState(deps(1));
    expect(r).toEqual({
      source: 'none',
      generation: 0,
      message: `No saved state to restore (no cache entry ${cacheKeyPrefix(SCOPE)}*; no artifact ${artifactName(SCOPE)}); starting fresh.`,
    });
    expect(log.notice).toEqual([r.message]);
    expect(log.warning).toEqual([]);
  });

  it('warns about a corrupt cached archive, wipes what it extracted, and uses the artifact', async () => {
    publish(10, 3, { cache: 'broken', artifact: true });
    const r = await restoreState(deps(12));
    expect(r).toMatchObject({ source: 'artifact', generation: 3 });
    expect(log.warning).toEqual([
      expect.stringMatching(
        /^Cache entry .*-10-1 is not usable: the archive could not be downloaded or extracted \(corrupt or partial\); trying the artifact\.$/,
      ),
    ]);
    expect(await snapshot(stateDir)).toEqual(state(3, 10));
  });

  it.each([
    ['no generation.json', new Map([[`checkpoints/${ID_A}.json`, '{}']]), /has no generation\.json/],
    [
      'a bad generation.json',
      new Map([['generation.json', '{"generation":-1,"runId":1,"attempt":1}']]),
      /generation\.json is not \{generation, runId, attempt\}/,
    ],
    [
      'a damaged checkpoint',
      new Map([
        ['generation.json', '{"generation":1,"runId":1,"attempt":1}'],
        [`checkpoints/${ID_A}.json`, '{"a":'],
      ]),
      /checkpoints\/.*\.json is damaged/,
    ],
  ])('rejects a cached state with %s', async (_what, files, reason) => {
    cache.entries.push({ key: cacheKey(SCOPE, 10, 1), files: files as Files });
    const r = await restoreState(deps(12));
    expect(r.source).toBe('none');
    expect(log.warning[0]).toMatch(reason);
    expect(log.warning[1]).toMatch(
      /^No saved state to restore \(cache entry .*-10-1 was unusable; no artifact .*\); starting fresh\.$/,
    );
    // A state that was there and could not be used is no first run: a warning, no notice.
    expect(log.notice).toEqual([]);
    await expect(fs.access(stateDir)).rejects.toThrow();
  });

  it('warns and starts fresh when the artifact cannot be downloaded, leaving nothing behind', async () => {
    publish(10, 1, { artifact: 'broken' });
    const r = await restoreState(deps(12));
    expect(r).toMatchObject({ source: 'none', generation: 0 });
    expect(log.warning).toEqual([
      expect.stringMatching(
        /^Artifact agent-loop-checkpoint-.* \(id 500, run 10\) is not usable: the download failed: Unable to download and extract artifact: invalid zip\.$/,
      ),
      expect.stringMatching(
        /^No saved state to restore \(no cache entry .*; artifact .* was unusable\); starting fresh\.$/,
      ),
    ]);
    expect(log.notice).toEqual([]);
    expect(await leftovers()).toEqual([]);
  });

  it('warns when the artifacts cannot be listed', async () => {
    artifacts.listError = new Error('HttpError: Resource not accessible by integration');
    const r = await restoreState(deps(12));
    expect(r.source).toBe('none');
    expect(log.warning[0]).toBe(
      `Could not list the artifacts ${artifactName(SCOPE)}: HttpError: Resource not accessible by integration`,
    );
    // The artifacts could not be listed: the state may well be there, so its absence is a warning.
    expect(log.warning[1]).toMatch(/^No saved state to restore \(.*\); starting fresh\.$/);
    expect(log.notice).toEqual([]);
  });

  it('fresh restores nothing and reports the newest published generation as the one it supersedes', async () => {
    publish(10, 4);
    publish(11, 6, { artifact: true });
    await writeFiles(stateDir, new Map([['old.txt', 'x']]));
    const r = await restoreState({ ...deps(12), fresh: true });
    expect(r).toEqual({
      source: 'none',
      generation: 6,
      message: expect.stringMatching(
        /^fresh: true, so no saved state is restored .*superseding generation 6 \(artifact .*\(id 501, run 11\)\)\.$/,
      ),
    });
    // Only the basis record is left, so that saveState publishes over generation 6.
    expect(await snapshot(stateDir)).toEqual(
      new Map([['generation.json', `${JSON.stringify({ generation: 6, runId: 11, attempt: 1 })}\n`]]),
    );
    expect(await leftovers()).toEqual([]);
    expect(log.warning).toEqual([]);
  });

  it('fresh with nothing published starts at generation 0', async () => {
    const r = await restoreState({ ...deps(1), fresh: true });
    expect(r).toMatchObject({ source: 'none', generation: 0, message: expect.stringMatching(/starting fresh\.$/) });
    await expect(fs.access(stateDir)).rejects.toThrow();
  });

  it('checkpoint-id: passes over a state without the checkpoint to one with it', async () => {
    publish(10, 1, { artifact: true }, { [ID_B]: {} });
    publish(11, 2, { cache: true }, { [ID_A]: {} });
    const r = await restoreState({ ...deps(12), checkpointId: ID_B });
    // Generation 1 restored; the newer published one (2) is superseded, so that post publishes 3.
    expect(r).toMatchObject({ source: 'artifact', generation: 2 });
    expect(log.info[0]).toMatch(new RegExp(`does not hold checkpoint ${ID_B}; trying the artifact`));
    expect(log.warning).toEqual([]);
  });

  it('checkpoint-id (issue 14): looks in every artifact, newest first, not only the newest, and stops at the one holding it', async () => {
    publish(10, 1, { cache: true, artifact: true }, { [ID_B]: {} });
    publish(11, 2, { cache: true, artifact: true }, { [ID_A]: {} });
    publish(12, 3, { cache: true, artifact: true }, { [ID_A]: {} });
    const r = await restoreState({ ...deps(13), checkpointId: ID_B });
    // Restored from generation 1; this lineage supersedes the newest published (3), so post publishes 4.
    expect(r).toMatchObject({ source: 'artifact', generation: 3, artifactId: 500 });
    expect(r.message).toContain(`(generation 1, after 2 newer artifact(s) without checkpoint ${ID_B})`);
    expect(r.message).toMatch(/it supersedes generation 3 \(cache entry .*-12-1\), the newest published\.$/);
    expect(artifacts.calls.slice(0, 4)).toEqual([
      `list ${artifactName(SCOPE)}`,
      'download 502',
      'download 501',
      'download 500',
    ]);
    expect((await snapshot(stateDir)).has(`checkpoints/${ID_B}.json`)).toBe(true);
    // Without a checkpoint-id only the newest is read, as before.
    artifacts.calls = [];
    cache.entries = [];
    expect(await restoreState(deps(14))).toMatchObject({ source: 'artifact', artifactId: 502 });
    expect(artifacts.calls).toEqual([`list ${artifactName(SCOPE)}`, 'download 502']);
  });

  it('checkpoint-id found nowhere, or not an id: nothing restored, notFound with what was searched, for the caller to fail with', async () => {
    publish(10, 1);
    publish(11, 2);
    const r = await restoreState({ ...deps(12), checkpointId: ID_B });
    expect(r).toMatchObject({ source: 'none', notFound: true });
    expect(r.message).toMatch(
      new RegExp(
        `^checkpoint-id ${ID_B} is in no saved state \\(cache entry .*-11-1 does not hold checkpoint ${ID_B}; none of the 2 artifacts agent-loop-checkpoint-.* \\(runs 10 to 11\\) holds checkpoint ${ID_B}\\)\\. Check the id .*, or run without checkpoint-id to continue the newest checkpoint\\.$`,
      ),
    );
    await expect(fs.access(stateDir)).rejects.toThrow();
    const bad = await restoreState({ ...deps(12), checkpointId: '../../etc' });
    expect(bad).toMatchObject({
      source: 'none',
      notFound: true,
      message: expect.stringMatching(/is not a checkpoint id/),
    });
    expect(log.warning).toEqual([]);
  });
});

describe('saveState', () => {
  it('publishes generation g+1 to the cache and as a 90-day artifact, leaving temporary files out', async () => {
    publish(10, 4);
    const r = await restoreState(deps(12));
    await writeFiles(
      stateDir,
      new Map([
        [`checkpoints/${ID_B}.json`, '{}'],
        [`checkpoints/.x.json.agent-loop-123-abcd.tmp`, 'partial'],
      ]),
    );
    artifacts.runId = 12;
    const saved = await saveState({ ...deps(12), restoredGeneration: r.generation ?? 0 });
    expect(saved).toEqual({ generation: 5, cacheKey: cacheKey(SCOPE, 12, 1), artifactId: 501 });
    expect(JSON.parse(await fs.readFile(path.join(stateDir, 'generation.json'), 'utf8'))).toEqual({
      generation: 5,
      runId: 12,
      attempt: 1,
    });
    // Uploaded from the scanned copy (publishable.ts), removed once published.
    expect(artifacts.uploads.map((u) => ({ ...u, files: u.files.map((f) => path.relative(u.rootDir, f)) }))).toEqual([
      {
        name: artifactName(SCOPE),
        rootDir: expect.not.stringMatching(`^${stateDir}$`),
        retentionDays: 90,
        files: [`checkpoints/${ID_A}.json`, `checkpoints/${ID_B}.json`, 'generation.json'].map((f) =>
          path.join(...f.split('/')),
        ),
      },
    ]);
    expect(await leftovers()).toEqual([]);
    // What it restored from is recognised by the run in generation.json: nothing downloaded again.
    expect(cache.calls.filter((c) => c.startsWith('restore'))).toHaveLength(1);
    expect(artifacts.calls.filter((c) => c.startsWith('download'))).toHaveLength(0);
    expect(log.info.at(-1)).toBe(
      `Published generation 5 of the state: cache entry ${cacheKey(SCOPE, 12, 1)} and artifact ${artifactName(SCOPE)} (id 501, 90 days).`,
    );
    expect(log.warning).toEqual([]);
  });

  it('reads the restored generation from generation.json when it is not given', async () => {
    publish(10, 4);
    await restoreState(deps(12));
    expect((await saveState(deps(12))).generation).toBe(5);
  });

  it('refuses to publish over a newer cache entry (two runs racing), keeping its own state as it was', async () => {
    publish(10, 4);
    await restoreState(deps(12));
    await writeFiles(stateDir, new Map([[`checkpoints/${ID_A}.json`, '{"mine":true}']]));
    const mine = await snapshot(stateDir);
    publish(11, 5, { cache: true }); // the other run, meanwhile
    const saved = await saveState({ ...deps(12), restoredGeneration: 4 });
    expect(saved.skipped).toBe(
      `cache entry ${cacheKey(SCOPE, 11, 1)} holds generation 5 (run 11, attempt 1), newer than generation 4 this slice started from: another run published meanwhile (two runs racing)`,
    );
    expect(log.warning).toEqual([
      `Not publishing the state: ${saved.skipped}. This slice's state stays in ${stateDir} only; the next run continues from generation 5.`,
    ]);
    expect(cache.calls.filter((c) => c.startsWith('save'))).toEqual([]);
    expect(artifacts.uploads).toEqual([]);
    expect(await snapshot(stateDir)).toEqual(mine);
    expect(await leftovers()).toEqual([]);
  });

  it('refuses on a newer artifact too', async () => {
    publish(10, 4);
    await restoreState(deps(12));
    publish(11, 5, { artifact: true });
    const saved = await saveState(deps(12));
    expect(saved.skipped).toMatch(/^artifact .* \(id 501, run 11\) holds generation 5/);
  });

  it('counts the artifact of an earlier attempt of the same run like any other', async () => {
    publish(10, 4, { cache: true });
    await restoreState(deps(12, 2));
    artifacts.stored.push({ id: 900, name: artifactName(SCOPE), runId: 12, files: new Map([...state(5, 12)]) });
    const saved = await saveState(deps(12, 2));
    expect(saved.skipped).toMatch(/^artifact .* \(id 900, run 12\) holds generation 5 \(run 12, attempt 1\)/);
  });

  it('publishes when the newer entry is not newer in generation (an older lineage saved late)', async () => {
    publish(10, 4);
    await restoreState(deps(12));
    publish(11, 3, { cache: true, artifact: true });
    expect((await saveState(deps(12))).generation).toBe(5);
    expect(log.warning).toEqual([]);
  });

  it('does not count an entry whose generation cannot be read, with a warning', async () => {
    publish(10, 4);
    await restoreState(deps(12));
    publish(11, 9, { cache: 'broken' });
    const saved = await saveState(deps(12));
    expect(saved.generation).toBe(5);
    expect(log.warning).toEqual([
      `Could not read the generation of cache entry ${cacheKey(SCOPE, 11, 1)} (not restorable, or no generation.json); it is not counted.`,
    ]);
    expect(await snapshot(stateDir)).toEqual(
      new Map(
        [...state(4, 10)].map(([k, v]) => [
          k,
          k === 'generation.json' ? `${JSON.stringify({ generation: 5, runId: 12, attempt: 1 })}\n` : v,
        ]),
      ),
    );
  });

  it('after a fresh start publishes over the superseded generation', async () => {
    publish(10, 4);
    const r = await restoreState({ ...deps(12), fresh: true });
    await writeFiles(stateDir, new Map([[`checkpoints/${ID_B}.json`, '{}']]));
    expect(await saveState({ ...deps(12), restoredGeneration: r.generation ?? 0 })).toMatchObject({
      generation: 5,
      cacheKey: cacheKey(SCOPE, 12, 1),
    });
    expect(log.warning).toEqual([]);
  });

  it('a failing part is a warning; the other part is still published', async () => {
    await writeFiles(stateDir, state(0, 1));
    cache.saveResult = -1;
    artifacts.runId = 2;
    const one = await saveState(deps(2));
    expect(one).toEqual({ generation: 1, artifactId: 500 });
    expect(log.warning).toEqual([
      `The cache entry ${cacheKey(SCOPE, 2, 1)} was not saved (the cache client said why above).`,
    ]);

    log.warning = [];
    cache.saveResult = 7;
    artifacts.uploadError = new Error('Failed to CreateArtifact: (409) Conflict');
    const two = await saveState(deps(2, 2));
    expect(two).toEqual({ generation: 2, cacheKey: cacheKey(SCOPE, 2, 2) });
    expect(log.warning).toEqual([
      `Uploading the artifact ${artifactName(SCOPE)} failed: Failed to CreateArtifact: (409) Conflict`,
    ]);

    log.warning = [];
    cache.saveResult = new Error('boom');
    const three = await saveState(deps(3));
    expect(three).toEqual({ generation: 3 });
    expect(log.warning).toEqual([
      `Saving the cache entry ${cacheKey(SCOPE, 3, 1)} failed: boom`,
      `Uploading the artifact ${artifactName(SCOPE)} failed: Failed to CreateArtifact: (409) Conflict`,
      `Generation 3 of the state was not published anywhere (see the warnings above); it stays in ${stateDir} only.`,
    ]);
  });

  it('skips an empty or missing state directory', async () => {
    expect(await saveState(deps(1))).toEqual({
      skipped: `the state directory ${stateDir} is empty or missing; nothing to publish`,
    });
    expect(cache.calls).toEqual([]);
  });
});
