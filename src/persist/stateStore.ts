/**
 * Carries the state directory (checkpoints under `<state-dir>/checkpoints/<uuid>.json`) from one
 * run of the GitHub Action to the next: through the Actions cache (fast; evicted after 7 days
 * unused) and an artifact (durable; 90 days).
 *
 * Start (`restoreState`): the newest cache entry whose key starts with `agent-loop-<scope>-`; if
 * there is none (or it cannot be restored), the newest `agent-loop-checkpoint-<scope>` artifact of
 * the repository's runs; otherwise a fresh start, with a warning. A corrupt or partial archive or a failed
 * download is a warning and the next source is tried, never an error.
 *
 * End (`saveState`, from the post step so cancelled and failed runs save too): the cache under
 * `agent-loop-<scope>-<runId>-<attempt>` and the artifact, retention 90 days.
 *
 * Generations: `<state-dir>/generation.json` is `{generation, runId, attempt}`, the number of
 * publications of this lineage and the run that published it. `saveState` publishes generation
 * g+1 over the g it restored, and refuses (with a warning) when the newest cache entry or artifact
 * already holds a generation above g: another run published meanwhile (two runs racing). The check
 * and the publication are not atomic (neither service offers compare-and-swap): two posts within
 * the same second can still both publish; the next slice then restores the newer one.
 *
 * The I/O is behind two small interfaces (`CacheBackend`, `ArtifactBackend`); `actionsCache()` and
 * `actionsArtifacts()` are the real @actions/cache and @actions/artifact clients.
 */
import { RUNTIME_DIR } from '../safety/processes.js';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as actionsCacheLib from '@actions/cache';
import { DefaultArtifactClient } from '@actions/artifact';
import { getOctokit } from '@actions/github';
import { isUuidV4 } from '../util/uuid.js';
import { tempFileOwner, writeFileAtomic } from '../util/atomicWrite.js';

export const GENERATION_FILE = 'generation.json';
export const ARTIFACT_RETENTION_DAYS = 90;

export interface StateLog {
  info(message: string): void;
  warning(message: string): void;
}

/** The Actions cache, as @actions/cache offers it (paths are the version: the same list on save and restore). */
export interface CacheBackend {
  /** The key the restore would use (exact key, then prefixes, newest first), downloading nothing; undefined on a miss. */
  lookup(paths: string[], primaryKey: string, restoreKeys: string[]): Promise<string | undefined>;
  /** Downloads and extracts onto `paths`; the key restored, or undefined on a miss *or* a failed download/extract. */
  restore(paths: string[], primaryKey: string, restoreKeys: string[]): Promise<string | undefined>;
  /** The cache id; -1 when the entry was not saved (the client has said why). */
  save(paths: string[], key: string): Promise<number>;
}

export interface PublishedArtifact {
  id: number;
  name: string;
  /** The workflow run that uploaded it. */
  runId: number;
  createdAt?: Date;
  /** `sha256:<hex>` when the service reports one; the download is checked against it. */
  digest?: string;
}

/** Workflow artifacts: this run's uploads and the artifacts of earlier runs. */
export interface ArtifactBackend {
  upload(name: string, files: string[], rootDir: string, retentionDays: number): Promise<{ id?: number }>;
  /** The newest unexpired artifact called `name` uploaded by any run of the repository. */
  findLatest(name: string): Promise<PublishedArtifact | undefined>;
  /** Extracts the artifact's files into `dir`; throws when it cannot. */
  download(artifact: PublishedArtifact, dir: string): Promise<void>;
}

export interface GenerationRecord {
  generation: number;
  runId: number;
  attempt: number;
}

interface Context {
  dir: string;
  paths: string[];
  scope: string;
  runId: number;
  attempt: number;
  cache: CacheBackend;
  artifacts: ArtifactBackend;
  log: StateLog;
}

// ---- names ---------------------------------------------------------------------------------------

/**
 * The scope of a lineage: `<ref>-<label>` sanitised to `[A-Za-z0-9._-]` (cache keys may not hold
 * commas, artifact names not `/ \ : " < > | * ?`), then a short hash of the raw pair. The hash keeps
 * the prefix `agent-loop-<scope>-` of one label from matching another's keys (label `bug` would
 * otherwise restore label `bug-fix`'s state) and tells apart pairs that sanitise alike.
 */
export function stateScope(ref: string, label: string): string {
  const readable = sanitise(`${ref.replace(/^refs\/heads\//, '')}-${label}`).slice(0, 80);
  const hash = createHash('sha256').update(`${ref}\n${label}`).digest('hex').slice(0, 8);
  return `${readable}-${hash}`;
}

function sanitise(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'default';
}

export const cacheKeyPrefix = (scope: string) => `agent-loop-${sanitise(scope)}-`;
export const cacheKey = (scope: string, runId: number, attempt: number) =>
  `${cacheKeyPrefix(scope)}${runId}-${attempt}`;
export const artifactName = (scope: string) => `agent-loop-checkpoint-${sanitise(scope)}`;

/** The run and attempt a cache key of this scope was saved by. */
function keyIdentity(key: string, scope: string): { runId: number; attempt: number } | undefined {
  const m = /^(\d+)-(\d+)$/.exec(key.slice(cacheKeyPrefix(scope).length));
  return m ? { runId: Number(m[1]), attempt: Number(m[2]) } : undefined;
}

// ---- generation.json -----------------------------------------------------------------------------

class BadState extends Error {}

/** The generation record of a state directory; undefined without one; BadState when it is not valid. */
export async function readGeneration(dir: string): Promise<GenerationRecord | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, GENERATION_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new BadState(`${GENERATION_FILE} cannot be read (${(error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadState(`${GENERATION_FILE} is not JSON`);
  }
  const r = value as Partial<GenerationRecord> | null;
  const whole = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (!r || !whole(r.generation) || !whole(r.runId) || !whole(r.attempt)) {
    throw new BadState(`${GENERATION_FILE} is not {generation, runId, attempt} of whole numbers`);
  }
  return { generation: r.generation, runId: r.runId, attempt: r.attempt };
}

async function writeGeneration(dir: string, record: GenerationRecord): Promise<void> {
  await writeFileAtomic(path.join(dir, GENERATION_FILE), `${JSON.stringify(record)}\n`);
}

/** Why a restored directory is not usable, or undefined when it is. */
async function problemWith(dir: string, checkpointId: string | undefined): Promise<string | undefined> {
  let record: GenerationRecord | undefined;
  try {
    record = await readGeneration(dir);
  } catch (error) {
    return (error as Error).message;
  }
  if (!record) return `it has no ${GENERATION_FILE}, so agent-loop did not publish it whole`;
  let names: string[] = [];
  try {
    names = (await fs.readdir(path.join(dir, 'checkpoints'))).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      return `its checkpoints directory cannot be read (${(error as Error).message})`;
  }
  // Checkpoints are written atomically, so one that does not parse was damaged on the way.
  for (const name of names) {
    try {
      JSON.parse(await fs.readFile(path.join(dir, 'checkpoints', name), 'utf8'));
    } catch {
      return `checkpoints/${name} is damaged (not JSON)`;
    }
  }
  if (checkpointId !== undefined && !names.includes(`${checkpointId}.json`))
    return `it does not hold checkpoint ${checkpointId}`;
  return undefined;
}

// ---- filesystem helpers --------------------------------------------------------------------------

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

/** A scratch directory beside `dir` (same filesystem, so a rename swaps it in). */
function scratch(dir: string, what: string): string {
  const base = path.basename(dir);
  return path.join(
    path.dirname(dir),
    `${base.startsWith('.') ? '' : '.'}${base}.agent-loop-${what}-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
}

/**
 * Every regular file under `dir`, absolute, skipping the temporary files of interrupted atomic
 * writes and the run's runtime files (its lock and process records belong to this machine only).
 */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const entry of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory() && d === dir && entry.name === RUNTIME_DIR) continue;
      if (entry.isDirectory()) await walk(p);
      else if (entry.isFile() && tempFileOwner(entry.name) === undefined) out.push(p);
    }
  };
  if (await exists(dir)) await walk(dir);
  return out.sort();
}

function context(o: {
  stateDir: string;
  scope: string;
  runId: number;
  attempt: number;
  cache: CacheBackend;
  artifacts: ArtifactBackend;
  log: StateLog;
}): Context {
  const dir = path.resolve(o.stateDir);
  return {
    dir,
    paths: [dir],
    scope: o.scope,
    runId: o.runId,
    attempt: o.attempt,
    cache: o.cache,
    artifacts: o.artifacts,
    log: o.log,
  };
}

// ---- what is published ---------------------------------------------------------------------------

interface Published {
  where: string;
  record: GenerationRecord;
}

/** The generation of one cache entry: restored into the state directory's place, with the directory set aside meanwhile. */
async function peekCache(ctx: Context, key: string): Promise<GenerationRecord | undefined> {
  const aside = scratch(ctx.dir, 'aside');
  const had = await exists(ctx.dir);
  if (had) await fs.rename(ctx.dir, aside);
  try {
    const got = await ctx.cache.restore(ctx.paths, key, []);
    if (got !== key) return undefined;
    return await readGeneration(ctx.dir);
  } finally {
    await fs.rm(ctx.dir, { recursive: true, force: true });
    if (had) await fs.rename(aside, ctx.dir);
  }
}

async function peekArtifact(ctx: Context, artifact: PublishedArtifact): Promise<GenerationRecord | undefined> {
  const tmp = scratch(ctx.dir, 'peek');
  try {
    await ctx.artifacts.download(artifact, tmp);
    return await readGeneration(tmp);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The generations the newest cache entry and the newest artifact hold. The one the slice restored
 * (`basis`: same publishing run) is not downloaded again, nor is what this very attempt published.
 * An entry whose generation cannot be read is skipped with a warning.
 */
async function published(ctx: Context, basis: GenerationRecord | undefined): Promise<Published[]> {
  const out: Published[] = [];
  const isBasis = (runId: number, attempt?: number) =>
    basis !== undefined && basis.runId === runId && (attempt === undefined || basis.attempt === attempt);
  const isOurs = (runId: number, attempt: number) => runId === ctx.runId && attempt === ctx.attempt;

  let key: string | undefined;
  try {
    key = await ctx.cache.lookup(ctx.paths, cacheKey(ctx.scope, ctx.runId, ctx.attempt), [cacheKeyPrefix(ctx.scope)]);
  } catch (error) {
    ctx.log.warning(`Could not look up the cache entries ${cacheKeyPrefix(ctx.scope)}*: ${errorText(error)}`);
  }
  if (key !== undefined) {
    const who = keyIdentity(key, ctx.scope);
    if (who && isBasis(who.runId, who.attempt) && basis) out.push({ where: `cache entry ${key}`, record: basis });
    else if (!(who && isOurs(who.runId, who.attempt))) {
      try {
        const record = await peekCache(ctx, key);
        if (record) out.push({ where: `cache entry ${key}`, record });
        else
          ctx.log.warning(
            `Could not read the generation of cache entry ${key} (not restorable, or no ${GENERATION_FILE}); it is not counted.`,
          );
      } catch (error) {
        ctx.log.warning(`Could not read the generation of cache entry ${key}: ${errorText(error)}; it is not counted.`);
      }
    }
  }

  const name = artifactName(ctx.scope);
  let latest: PublishedArtifact | undefined;
  try {
    latest = await ctx.artifacts.findLatest(name);
  } catch (error) {
    ctx.log.warning(`Could not list the artifacts ${name}: ${errorText(error)}`);
  }
  if (latest) {
    const where = `artifact ${name} (id ${latest.id}, run ${latest.runId})`;
    // One artifact of a name per run, so the run tells the one restored from. An earlier attempt
    // of this run is not "ours": its generation is read like any other.
    if (isBasis(latest.runId) && basis) out.push({ where, record: basis });
    else {
      try {
        const record = await peekArtifact(ctx, latest);
        if (record && isOurs(record.runId, record.attempt)) {
          // published by this very attempt (a second save): not a race
        } else if (record) out.push({ where, record });
        else ctx.log.warning(`${where} has no ${GENERATION_FILE}; it is not counted.`);
      } catch (error) {
        ctx.log.warning(`Could not read the generation of ${where}: ${errorText(error)}; it is not counted.`);
      }
    }
  }
  return out;
}

// ---- restore -------------------------------------------------------------------------------------

export interface RestoreOptions {
  stateDir: string;
  scope: string;
  runId: number;
  attempt: number;
  /** Ignore every saved state (the new lineage still supersedes the newest published generation). */
  fresh?: boolean;
  /** Only a state that holds this checkpoint will do. */
  checkpointId?: string;
  cache: CacheBackend;
  artifacts: ArtifactBackend;
  log: StateLog;
}

export interface RestoreResult {
  source: 'cache' | 'artifact' | 'none';
  /** The cache key restored, or the artifact's name. */
  key?: string;
  artifactId?: number;
  /**
   * The generation the slice starts from (pass it to saveState): the restored one; for a fresh
   * start, the newest published one it supersedes (0 when there is none).
   */
  generation?: number;
  /** What happened, as said to the log. */
  message: string;
}

/**
 * Fills `stateDir` (whatever it held is replaced) from the newest cache entry, else the newest
 * artifact, else leaves it empty: a fresh start. Never throws for a missing, corrupt or
 * undownloadable state; each is a warning and the next source is tried.
 */
export async function restoreState(options: RestoreOptions): Promise<RestoreResult> {
  const ctx = context(options);
  const { dir, log } = ctx;
  const prefix = cacheKeyPrefix(ctx.scope);
  const name = artifactName(ctx.scope);
  const wanted = options.checkpointId;

  if ((await filesUnder(dir)).length > 0)
    log.info(`The state directory ${dir} already has content; it is replaced by what is restored.`);
  await fs.rm(dir, { recursive: true, force: true });

  if (options.fresh) {
    const newest = (await published(ctx, undefined)).sort((a, b) => b.record.generation - a.record.generation)[0];
    await fs.rm(dir, { recursive: true, force: true });
    let message = 'fresh: true, so no saved state is restored (neither the cache nor the artifact); starting fresh';
    if (newest) {
      // Recorded as the basis so that saveState publishes over it rather than refusing.
      await writeGeneration(dir, newest.record);
      message += `, superseding generation ${newest.record.generation} (${newest.where}).`;
    } else message += '.';
    log.info(message);
    return { source: 'none', generation: newest?.record.generation ?? 0, message };
  }
  if (wanted !== undefined && !isUuidV4(wanted)) {
    const message = `checkpoint-id ${JSON.stringify(wanted)} is not a checkpoint id (a UUID v4); nothing is restored, starting fresh.`;
    log.warning(message);
    return { source: 'none', generation: 0, message };
  }

  const tried: string[] = [];

  // 1. The cache: newest entry of the scope.
  let matched: string | undefined;
  try {
    matched = await ctx.cache.lookup(ctx.paths, cacheKey(ctx.scope, ctx.runId, ctx.attempt), [prefix]);
  } catch (error) {
    log.warning(`Could not look up the cache (${prefix}*): ${errorText(error)}; trying the artifact.`);
  }
  if (matched === undefined) tried.push(`no cache entry ${prefix}*`);
  else {
    let restored: string | undefined;
    try {
      restored = await ctx.cache.restore(ctx.paths, cacheKey(ctx.scope, ctx.runId, ctx.attempt), [prefix]);
    } catch (error) {
      log.warning(`Restoring cache entry ${matched} failed: ${errorText(error)}`);
    }
    const problem =
      restored === undefined
        ? 'the archive could not be downloaded or extracted (corrupt or partial)'
        : await problemWith(dir, wanted);
    if (restored !== undefined && problem === undefined) {
      const record = await readGeneration(dir);
      const message = `Restored the state from cache entry ${restored} (generation ${record?.generation ?? 0}).`;
      log.info(message);
      return { source: 'cache', key: restored, generation: record?.generation ?? 0, message };
    }
    await fs.rm(dir, { recursive: true, force: true });
    const entry = restored ?? matched;
    if (wanted !== undefined && problem?.startsWith('it does not hold checkpoint')) {
      tried.push(`cache entry ${entry} does not hold checkpoint ${wanted}`);
      log.info(`Cache entry ${entry} does not hold checkpoint ${wanted}; trying the artifact.`);
    } else {
      tried.push(`cache entry ${entry} was unusable`);
      log.warning(`Cache entry ${entry} is not usable: ${problem ?? 'unknown'}; trying the artifact.`);
    }
  }

  // 2. The artifact: newest of the repository's runs.
  let latest: PublishedArtifact | undefined;
  try {
    latest = await ctx.artifacts.findLatest(name);
  } catch (error) {
    log.warning(`Could not list the artifacts ${name}: ${errorText(error)}`);
  }
  if (latest === undefined) tried.push(`no artifact ${name}`);
  else {
    const where = `artifact ${name} (id ${latest.id}, run ${latest.runId})`;
    const tmp = scratch(dir, 'restore');
    try {
      let problem: string | undefined;
      try {
        await ctx.artifacts.download(latest, tmp);
        problem = await problemWith(tmp, wanted);
      } catch (error) {
        problem = `the download failed: ${errorText(error)}`;
      }
      if (problem === undefined) {
        await fs.rm(dir, { recursive: true, force: true });
        await fs.mkdir(path.dirname(dir), { recursive: true });
        await fs.rename(tmp, dir);
        const record = await readGeneration(dir);
        const message = `Restored the state from ${where} (generation ${record?.generation ?? 0}); the cache had ${matched === undefined ? 'no entry' : 'no usable entry'}.`;
        log.info(message);
        return { source: 'artifact', key: name, artifactId: latest.id, generation: record?.generation ?? 0, message };
      }
      if (wanted !== undefined && problem.startsWith('it does not hold checkpoint'))
        tried.push(`${where} does not hold checkpoint ${wanted}`);
      else {
        tried.push(`${where} was unusable`);
        log.warning(`${where[0]?.toUpperCase()}${where.slice(1)} is not usable: ${problem}.`);
      }
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  }

  // 3. Nothing.
  const message =
    wanted !== undefined
      ? `Checkpoint ${wanted} was not found (${tried.join('; ')}); nothing is restored, starting fresh.`
      : `No saved state to restore (${tried.join('; ')}); starting fresh.`;
  // A warning even on a first run: a scheduled loop that forgot its progress must be visible.
  log.warning(message);
  return { source: 'none', generation: 0, message };
}

// ---- save ----------------------------------------------------------------------------------------

export interface SaveOptions {
  stateDir: string;
  scope: string;
  runId: number;
  attempt: number;
  /** RestoreResult.generation; read from the state directory's generation.json when not given. */
  restoredGeneration?: number;
  cache: CacheBackend;
  artifacts: ArtifactBackend;
  log: StateLog;
}

export interface SaveResult {
  /** The generation published. */
  generation?: number;
  cacheKey?: string;
  artifactId?: number;
  /** Why nothing was published. */
  skipped?: string;
}

/**
 * Publishes `stateDir` as generation restored+1 to the cache and as an artifact, unless what is
 * published already holds a newer generation (two runs racing: a warning, nothing published).
 * Never throws for a service failure: a part that fails is a warning and is absent from the result.
 */
export async function saveState(options: SaveOptions): Promise<SaveResult> {
  const ctx = context(options);
  const { dir, log } = ctx;
  if ((await filesUnder(dir)).length === 0) {
    const skipped = `the state directory ${dir} is empty or missing; nothing to publish`;
    log.info(`Not publishing: ${skipped}.`);
    return { skipped };
  }
  let basis: GenerationRecord | undefined;
  try {
    basis = await readGeneration(dir);
  } catch (error) {
    log.warning(
      `The state directory's ${errorText(error)}; treating it as generation ${options.restoredGeneration ?? 0}.`,
    );
  }
  const restored = options.restoredGeneration ?? basis?.generation ?? 0;

  const newer = (await published(ctx, basis))
    .filter((p) => p.record.generation > restored)
    .sort((a, b) => b.record.generation - a.record.generation)[0];
  if (newer) {
    const skipped = `${newer.where} holds generation ${newer.record.generation} (run ${newer.record.runId}, attempt ${newer.record.attempt}), newer than generation ${restored} this slice started from: another run published meanwhile (two runs racing)`;
    log.warning(
      `Not publishing the state: ${skipped}. This slice's state stays in ${dir} only; the next run continues from generation ${newer.record.generation}.`,
    );
    return { skipped };
  }

  const generation = restored + 1;
  await writeGeneration(dir, { generation, runId: ctx.runId, attempt: ctx.attempt });
  const result: SaveResult = { generation };

  const key = cacheKey(ctx.scope, ctx.runId, ctx.attempt);
  try {
    const id = await ctx.cache.save(ctx.paths, key);
    if (id === -1) log.warning(`The cache entry ${key} was not saved (the cache client said why above).`);
    else result.cacheKey = key;
  } catch (error) {
    log.warning(`Saving the cache entry ${key} failed: ${errorText(error)}`);
  }

  const name = artifactName(ctx.scope);
  try {
    const uploaded = await ctx.artifacts.upload(name, await filesUnder(dir), dir, ARTIFACT_RETENTION_DAYS);
    result.artifactId = uploaded.id;
  } catch (error) {
    log.warning(`Uploading the artifact ${name} failed: ${errorText(error)}`);
  }

  const parts = [
    result.cacheKey && `cache entry ${result.cacheKey}`,
    result.artifactId !== undefined && `artifact ${name} (id ${result.artifactId}, ${ARTIFACT_RETENTION_DAYS} days)`,
  ].filter(Boolean);
  if (parts.length > 0) log.info(`Published generation ${generation} of the state: ${parts.join(' and ')}.`);
  else
    log.warning(
      `Generation ${generation} of the state was not published anywhere (see the warnings above); it stays in ${dir} only.`,
    );
  return result;
}

// ---- the real clients ----------------------------------------------------------------------------

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

export interface ActionsArtifactsOptions {
  /** A token with actions:read on the repository (the workflow's GITHUB_TOKEN). */
  token: string;
  /** owner/name (GITHUB_REPOSITORY). */
  repository: string;
  /** The REST API root; GITHUB_API_URL when not given. */
  apiUrl?: string;
}

/**
 * @actions/artifact: uploads through the results service of this run (replacing the artifact an
 * earlier attempt of the run uploaded under the same name); the newest artifact of a
 * name through `GET /repos/{owner}/{repo}/actions/artifacts?name=` (newest first, every run of the
 * repository); its download through the client's `findBy` (REST `…/artifacts/{id}/zip`).
 * Note: the client's `findBy` calls use @actions/github's API root as it was when that module was
 * first loaded (GITHUB_API_URL at process start, which is how the runner sets it).
 */
export function actionsArtifacts(options: ActionsArtifactsOptions): ArtifactBackend {
  const client = new DefaultArtifactClient();
  const [owner = '', repo = ''] = options.repository.split('/');
  return {
    async upload(name, files, rootDir, retentionDays) {
      try {
        return { id: (await client.uploadArtifact(name, files, rootDir, { retentionDays })).id };
      } catch (error) {
        // A re-run attempt finds the earlier attempt's artifact of the same name on the run (409):
        // replace it (upload-artifact's `overwrite`), once. The race check has already read it.
        if (!/\(409\)/.test(errorText(error))) throw error;
        await client.deleteArtifact(name);
        return { id: (await client.uploadArtifact(name, files, rootDir, { retentionDays })).id };
      }
    },
    async findLatest(name) {
      const octokit = getOctokit(options.token, {
        baseUrl: options.apiUrl ?? process.env.GITHUB_API_URL ?? 'https://api.github.com',
      });
      const { data } = await octokit.rest.actions.listArtifactsForRepo({ owner, repo, name, per_page: 100 });
      const candidates = data.artifacts
        .filter((a) => a.name === name && !a.expired && a.workflow_run?.id !== undefined)
        .sort((a, b) => Date.parse(b.created_at ?? '') - Date.parse(a.created_at ?? '') || b.id - a.id);
      const a = candidates[0];
      if (!a) return undefined;
      return {
        id: a.id,
        name: a.name,
        runId: a.workflow_run?.id ?? 0,
        ...(a.created_at ? { createdAt: new Date(a.created_at) } : {}),
        ...(a.digest ? { digest: a.digest } : {}),
      };
    },
    async download(artifact, dir) {
      const r = await client.downloadArtifact(artifact.id, {
        path: dir,
        ...(artifact.digest ? { expectedHash: artifact.digest } : {}),
        findBy: { token: options.token, workflowRunId: artifact.runId, repositoryOwner: owner, repositoryName: repo },
      });
      if (r.digestMismatch)
        throw new Error(`the download does not match the artifact's digest ${artifact.digest ?? ''}`);
    },
  };
}
