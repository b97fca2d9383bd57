/**
 * Generations: `<state-dir>/generation.json` is `{generation, runId, attempt}`, the number of
 * publications of this lineage and the run that published it. `saveState` publishes generation
 * g+1 over the g it restored, and refuses (with a warning) when the newest cache entry or artifact
 * already holds a generation above g: another run published meanwhile (two runs racing). The check
 * and the publication are not atomic (neither service offers compare-and-swap): two posts within
 * the same second can still both publish; the next slice then restores the newer one.
 *
 * Here: the record read and written, and the generations the newest cache entry and the newest
 * artifact hold (`published`), from which restore and save choose; whether a restored directory is
 * whole (`problemWith`).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type PublishedArtifact, type StoreContext, errorText } from './stateBackends.js';
import { scratch } from './stateDirectory.js';
import { artifactName, cacheKey, cacheKeyPrefix, keyIdentity } from './stateNames.js';
import { writeFileAtomic } from '../util/atomicWrite.js';

// ---- generation.json -----------------------------------------------------------------------------

export const GENERATION_FILE = 'generation.json';

export interface GenerationRecord {
  generation: number;
  runId: number;
  attempt: number;
}

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

export async function writeGeneration(dir: string, record: GenerationRecord): Promise<void> {
  await writeFileAtomic(path.join(dir, GENERATION_FILE), `${JSON.stringify(record)}\n`);
}

// ---- what is published ---------------------------------------------------------------------------

export interface Published {
  where: string;
  record: GenerationRecord;
}

/** The generation of one cache entry: restored into a scratch directory beside the state directory. */
async function peekCache(ctx: StoreContext, key: string): Promise<GenerationRecord | undefined> {
  const tmp = scratch(ctx.dir, 'peek');
  try {
    const got = await ctx.cache.restore(tmp, key, []);
    if (got !== key) return undefined;
    return await readGeneration(tmp);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

async function peekArtifact(ctx: StoreContext, artifact: PublishedArtifact): Promise<GenerationRecord | undefined> {
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
export async function published(ctx: StoreContext, basis: GenerationRecord | undefined): Promise<Published[]> {
  const out: Published[] = [];
  const isBasis = (runId: number, attempt?: number) =>
    basis !== undefined && basis.runId === runId && (attempt === undefined || basis.attempt === attempt);
  const isOurs = (runId: number, attempt: number) => runId === ctx.runId && attempt === ctx.attempt;

  let key: string | undefined;
  try {
    key = await ctx.cache.lookup(cacheKey(ctx.scope, ctx.runId, ctx.attempt), [cacheKeyPrefix(ctx.scope)]);
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
    latest = (await ctx.artifacts.list(name))[0];
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

// ---- restored directories ------------------------------------------------------------------------

/** Why a restored directory is not usable, or undefined when it is. */
export async function problemWith(dir: string, checkpointId: string | undefined): Promise<string | undefined> {
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

/** The newest published generation when it is above `record`'s (or any, without one). */
export async function newestPublishedAbove(ctx: StoreContext, record: GenerationRecord | undefined) {
  const newest = (await published(ctx, record)).sort((a, b) => b.record.generation - a.record.generation)[0];
  return newest && newest.record.generation > (record?.generation ?? 0) ? newest : undefined;
}

// ---- save ----------------------------------------------------------------------------------------
