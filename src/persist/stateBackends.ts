/**
 * The ports the state store runs on: the Actions cache and workflow artifacts as two small
 * interfaces (`CacheBackend`, `ArtifactBackend`; the real clients are actionsCache.ts and
 * actionsArtifacts.ts, the tests use in-memory fakes), the log it reports to, and one run's context
 * over them.
 */
import path from 'node:path';

export interface StateLog {
  info(message: string): void;
  /** What a person may like to know, and nothing to fix (a first run's missing state). */
  notice(message: string): void;
  warning(message: string): void;
}

/**
 * The Actions cache as the store uses it: an entry holds one state directory, saved from any path
 * and restored into any path (actionsCache.ts archives it under one fixed name, so an entry's
 * version is the same whichever directory, runner or RUNNER_TEMP saved it).
 */
export interface CacheBackend {
  /** The key the restore would use (exact key, then prefixes, newest first), downloading nothing; undefined on a miss. */
  lookup(primaryKey: string, restoreKeys: string[]): Promise<string | undefined>;
  /**
   * Downloads the entry and puts its state directory at `dir` (replacing what was there); the key
   * restored, or undefined on a miss *or* a failed download/extract (then `dir` is left as it was).
   */
  restore(dir: string, primaryKey: string, restoreKeys: string[]): Promise<string | undefined>;
  /** Saves the files of `dir` (those an artifact holds: filesUnder) under `key`; the cache id, -1 when not saved (the client has said why). */
  save(dir: string, key: string): Promise<number>;
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
  /** The unexpired artifacts called `name` uploaded by the repository's runs, newest first (at most 100). */
  list(name: string): Promise<PublishedArtifact[]>;
  /** Extracts the artifact's files into `dir`; throws when it cannot. */
  download(artifact: PublishedArtifact, dir: string): Promise<void>;
}

/** One run of the store: the state directory, the lineage and run it acts for, the backends and the log. */
export interface StoreContext {
  dir: string;
  scope: string;
  runId: number;
  attempt: number;
  cache: CacheBackend;
  artifacts: ArtifactBackend;
  log: StateLog;
}

export function storeContext(o: {
  stateDir: string;
  scope: string;
  runId: number;
  attempt: number;
  cache: CacheBackend;
  artifacts: ArtifactBackend;
  log: StateLog;
}): StoreContext {
  return {
    dir: path.resolve(o.stateDir),
    scope: o.scope,
    runId: o.runId,
    attempt: o.attempt,
    cache: o.cache,
    artifacts: o.artifacts,
    log: o.log,
  };
}

/** A failure (a backend's, usually) as text for the log. */
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
