/**
 * Carries the state directory (checkpoints under `<state-dir>/checkpoints/<uuid>.json`) from one
 * run of the GitHub Action to the next: through the Actions cache (fast; evicted after 7 days
 * unused) and an artifact (durable; 90 days).
 *
 * Start (`restoreState`): the newest cache entry whose key starts with `agent-loop-<scope>-`; if
 * there is none (or it cannot be restored), the newest `agent-loop-checkpoint-<scope>` artifact of
 * the repository's runs; otherwise a fresh start: a notice when nothing was found (a first run), a
 * warning when a state was there and could not be used. A checkpoint-id is looked for in
 * the newest cache entry, then in each artifact, newest first; found nowhere, it is an error. A corrupt or partial archive or a failed
 * download is a warning and the next source is tried, never an error.
 *
 * End (`saveState`, from the post step so cancelled and failed runs save too): the cache under
 * `agent-loop-<scope>-<runId>-<attempt>` and the artifact, retention 90 days, as the next
 * generation, unless another run published a newer one meanwhile (stateGenerations.ts).
 *
 * The names are stateNames.ts; the I/O is behind the interfaces of stateBackends.ts, whose real
 * clients are actionsCache.ts and actionsArtifacts.ts.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isUuidV4 } from '../util/uuid.js';
import {
  type ArtifactBackend,
  type CacheBackend,
  type PublishedArtifact,
  type StateLog,
  type StoreContext,
  errorText,
  storeContext,
} from './stateBackends.js';
import { filesUnder, scratch } from './stateDirectory.js';
import { type LeftOut, type PublishScan, type PublishableCopy, publishableCopy, reportCopy } from './publishable.js';
import {
  type GenerationRecord,
  newestPublishedAbove,
  problemWith,
  published,
  readGeneration,
  writeGeneration,
} from './stateGenerations.js';
import { artifactName, cacheKey, cacheKeyPrefix } from './stateNames.js';

export const ARTIFACT_RETENTION_DAYS = 90;

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
  /**
   * The checkpoint-id asked for is in no saved state (nor a checkpoint id): nothing is restored and
   * nothing logged; `message` says what was searched, for the caller to fail with.
   */
  notFound?: true;
}

/**
 * Fills `stateDir` (whatever it held is replaced) from the newest cache entry, else the newest
 * artifact, else leaves it empty: a fresh start. Never throws for a missing, corrupt or
 * undownloadable state; each is a warning and the next source is tried.
 */
export async function restoreState(options: RestoreOptions): Promise<RestoreResult> {
  const ctx = storeContext(options);
  const { dir, log } = ctx;
  const wanted = options.checkpointId;

  if ((await filesUnder(dir)).length > 0)
    log.info(`The state directory ${dir} already has content; it is replaced by what is restored.`);
  await fs.rm(dir, { recursive: true, force: true });

  if (options.fresh) return startFresh(ctx);
  if (wanted !== undefined && !isUuidV4(wanted)) {
    const message =
      `checkpoint-id ${JSON.stringify(wanted)} is not a checkpoint id (a UUID v4, as each run's job summary ` +
      `and checkpoint-id output show it); nothing was searched.`;
    return { source: 'none', generation: 0, notFound: true, message };
  }

  const search: Search = { wanted, tried: [], failed: false };
  const fromCache = await restoreFromCache(ctx, search);
  if ('source' in fromCache) return fromCache;
  const fromArtifact = await restoreFromArtifacts(ctx, search, fromCache.matched);
  if (fromArtifact) return fromArtifact;
  return nothingRestored(ctx, search);
}

/** How a restore's search went so far: what was tried (said in the final message) and whether a source failed. */
interface Search {
  wanted: string | undefined;
  tried: string[];
  /** A source that was there and failed (a lookup, a download, an archive): the state should have been there. */
  failed: boolean;
}

/** fresh: restore nothing, but record the newest published generation as the basis to publish over. */
async function startFresh(ctx: StoreContext): Promise<RestoreResult> {
  const { dir, log } = ctx;
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

/** 1. The cache: newest entry of the scope. Restored, or the entry matched (if any) for the artifact's message. */
async function restoreFromCache(ctx: StoreContext, search: Search): Promise<RestoreResult | { matched?: string }> {
  const { dir, log } = ctx;
  const { wanted, tried } = search;
  const prefix = cacheKeyPrefix(ctx.scope);
  let matched: string | undefined;
  try {
    matched = await ctx.cache.lookup(cacheKey(ctx.scope, ctx.runId, ctx.attempt), [prefix]);
  } catch (error) {
    search.failed = true;
    log.warning(`Could not look up the cache (${prefix}*): ${errorText(error)}; trying the artifact.`);
  }
  if (matched === undefined) {
    tried.push(`no cache entry ${prefix}*`);
    return {};
  }
  let restored: string | undefined;
  try {
    restored = await ctx.cache.restore(dir, cacheKey(ctx.scope, ctx.runId, ctx.attempt), [prefix]);
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
    search.failed = true;
    tried.push(`cache entry ${entry} was unusable`);
    log.warning(`Cache entry ${entry} is not usable: ${problem ?? 'unknown'}; trying the artifact.`);
  }
  return { matched };
}

/**
 * 2. The artifacts of the repository's runs: the newest; for a checkpoint-id, each in turn (newest
 * first) until one holds it. The cache cannot be listed (a prefix restores only its newest entry),
 * and every publishing run uploads an artifact, kept 90 days against the cache's 7.
 */
async function restoreFromArtifacts(
  ctx: StoreContext,
  search: Search,
  matched: string | undefined,
): Promise<RestoreResult | undefined> {
  const { dir, log } = ctx;
  const { wanted, tried } = search;
  const name = artifactName(ctx.scope);
  let listed: PublishedArtifact[] = [];
  try {
    listed = await ctx.artifacts.list(name);
  } catch (error) {
    search.failed = true;
    log.warning(`Could not list the artifacts ${name}: ${errorText(error)}`);
  }
  if (listed.length === 0) tried.push(`no artifact ${name}`);
  const without: PublishedArtifact[] = [];
  for (const artifact of wanted === undefined ? listed.slice(0, 1) : listed) {
    const where = `artifact ${name} (id ${artifact.id}, run ${artifact.runId})`;
    const tmp = scratch(dir, 'restore');
    try {
      let problem: string | undefined;
      try {
        await ctx.artifacts.download(artifact, tmp);
        problem = await problemWith(tmp, wanted);
      } catch (error) {
        problem = `the download failed: ${errorText(error)}`;
      }
      if (problem === undefined) return await adoptArtifact(ctx, { tmp, where, artifact, wanted, without, matched });
      if (wanted !== undefined && problem.startsWith('it does not hold checkpoint')) without.push(artifact);
      else {
        search.failed = true;
        tried.push(`${where} was unusable`);
        log.warning(`${where[0]?.toUpperCase()}${where.slice(1)} is not usable: ${problem}.`);
      }
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  }
  if (without.length > 0)
    tried.push(
      without.length === 1
        ? `artifact ${name} (id ${without[0]?.id}, run ${without[0]?.runId}) does not hold checkpoint ${wanted}`
        : `none of the ${without.length} artifacts ${name} (runs ${without.at(-1)?.runId} to ${without[0]?.runId}) holds checkpoint ${wanted}`,
    );
  return undefined;
}

/** A downloaded artifact that holds what is wanted becomes the state directory. */
async function adoptArtifact(
  ctx: StoreContext,
  found: {
    tmp: string;
    where: string;
    artifact: PublishedArtifact;
    wanted: string | undefined;
    without: PublishedArtifact[];
    matched: string | undefined;
  },
): Promise<RestoreResult> {
  const { dir, log } = ctx;
  const { tmp, where, artifact, wanted, without, matched } = found;
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(path.dirname(dir), { recursive: true });
  await fs.rename(tmp, dir);
  let record = await readGeneration(dir);
  const passed = without.length > 0 ? `, after ${without.length} newer artifact(s) without checkpoint ${wanted}` : '';
  let message =
    `Restored the state from ${where} (generation ${record?.generation ?? 0}${passed}); the cache had ` +
    `${matched === undefined ? 'no entry' : 'no usable entry'}`;
  // An older state asked for by its checkpoint: this run's lineage supersedes what is published
  // (as fresh does), so that post publishes it rather than refusing it as a race.
  const newer = wanted === undefined ? undefined : await newestPublishedAbove(ctx, record);
  if (newer) {
    await writeGeneration(dir, newer.record);
    message += `; it supersedes generation ${newer.record.generation} (${newer.where}), the newest published`;
    record = newer.record;
  }
  log.info(`${message}.`);
  const generation = record?.generation ?? 0;
  return {
    source: 'artifact',
    key: artifactName(ctx.scope),
    artifactId: artifact.id,
    generation,
    message: `${message}.`,
  };
}

/** 3. Nothing: a checkpoint-id found nowhere is the caller's error; otherwise a fresh start. */
function nothingRestored(ctx: StoreContext, search: Search): RestoreResult {
  const { wanted, tried } = search;
  if (wanted !== undefined)
    return {
      source: 'none',
      generation: 0,
      notFound: true,
      message:
        `checkpoint-id ${wanted} is in no saved state (${tried.join('; ')}). Check the id (each run's job ` +
        `summary and checkpoint-id output name its checkpoint; artifacts are kept ${ARTIFACT_RETENTION_DAYS}` +
        ` days), or run without checkpoint-id to continue the newest checkpoint.`,
    };
  const message = `No saved state to restore (${tried.join('; ')}); starting fresh.`;
  // Nothing was ever saved (a first run, or a state older than the artifacts' retention): a notice.
  // A state that was there and could not be read is a loop that forgot its progress: a warning.
  if (search.failed) ctx.log.warning(message);
  else ctx.log.notice(message);
  return { source: 'none', generation: 0, message };
}

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
  /** The secret scan what is published passes first (publishable.ts); without it, unscanned. */
  scan?: PublishScan;
}

export interface SaveResult {
  /** The generation published. */
  generation?: number;
  cacheKey?: string;
  artifactId?: number;
  /** Why nothing was published. */
  skipped?: string;
  /** Files of the state directory (relative) published masked, and those left out with why (publishable.ts). */
  masked?: string[];
  leftOut?: LeftOut[];
}

/**
 * Publishes `stateDir` as generation restored+1 to the cache and as an artifact, unless what is
 * published already holds a newer generation (two runs racing: a warning, nothing published).
 * Never throws for a service failure: a part that fails is a warning and is absent from the result.
 */
export async function saveState(options: SaveOptions): Promise<SaveResult> {
  const ctx = storeContext(options);
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
    const skipped =
      `${newer.where} holds generation ${newer.record.generation} (run ${newer.record.runId}, attempt ${newer.record.attempt}` +
      `), newer than generation ${restored} this slice started from: another run published meanwhile (two runs racing)`;
    log.warning(
      `Not publishing the state: ${skipped}. This slice's state stays in ${dir} only; the next run continues from generation ${newer.record.generation}.`,
    );
    return { skipped };
  }

  const generation = restored + 1;
  await writeGeneration(dir, { generation, runId: ctx.runId, attempt: ctx.attempt });
  const result: SaveResult = { generation };

  const copy = await publishableCopy(dir, scratch(dir, 'publish'), options.scan);
  try {
    return await publishCopy(ctx, copy, result);
  } finally {
    await fs.rm(copy.dir, { recursive: true, force: true });
  }
}

/** Publishes the scanned copy of the state directory (publishable.ts), having said what of it was masked or left out. */
async function publishCopy(ctx: StoreContext, copy: PublishableCopy, result: SaveResult): Promise<SaveResult> {
  const { dir, log } = ctx;
  const generation = result.generation ?? 0;
  Object.assign(result, reportCopy(copy, dir, log));
  const key = cacheKey(ctx.scope, ctx.runId, ctx.attempt);
  try {
    const id = await ctx.cache.save(copy.dir, key);
    if (id === -1) log.warning(`The cache entry ${key} was not saved (the cache client said why above).`);
    else result.cacheKey = key;
  } catch (error) {
    log.warning(`Saving the cache entry ${key} failed: ${errorText(error)}`);
  }

  const name = artifactName(ctx.scope);
  try {
    const uploaded = await ctx.artifacts.upload(name, await filesUnder(copy.dir), copy.dir, ARTIFACT_RETENTION_DAYS);
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
