import { randomUUID } from 'node:crypto';
import { MiB, readInput } from '../util/readInput.js';

/** A checkpoint is a few hundred kB (history compacted beyond 500 iterations); far more is no checkpoint. */
const CHECKPOINT_MAX_BYTES = 64 * MiB;
import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import { stateFiles } from '../persist/stateFiles.js';
import { tempFileOwner } from '../util/atomicWrite.js';
import { fileStamp } from '../util/fileStamp.js';
import { rfc3339, systemClock, type Clock } from '../util/clock.js';
import { newestFirst } from './resume.js';
import { type Surface, type Terms, surface } from '../config/surface.js';
import { checkpointWarnings, SEED_PHASES, isUuidV4, parseCheckpoint, serializeCheckpoint } from './schema.js';
import { STAGE_KEY, isRunStage, isSeedPhase } from './phase.js';
import {
  CheckpointError,
  type Checkpoint,
  type CheckpointInput,
  type CheckpointListing,
  type CheckpointStore,
  type InvalidCheckpoint,
} from './types.js';

/** A new checkpoint id: a random UUID v4 (REQ_018.1.2–.3). */
export function newCheckpointId(): string {
  return randomUUID();
}

/** `<stateDir>/checkpoints` */
export function checkpointsDir(stateDir: string): string {
  return path.join(stateDir, 'checkpoints');
}

export interface FileCheckpointStoreOptions {
  /** Source of the timestamps written; systemClock by default. */
  clock?: Clock;
  /** Told about checkpoints that are usable but suspicious (an empty state, REQ_018.4.8). */
  onWarning?: (message: string) => void;
  /** Masks secrets in the serialised checkpoint (it holds agent output, test output, error messages). */
  redact?: (text: string) => string;
  /** Whose words its messages use to say where the checkpoints are listed (default: the CLI's). */
  terms?: Terms;
}

/**
 * Checkpoints as `<stateDir>/checkpoints/<id>.json`, one file per id, written atomically.
 * An id reaches the filesystem only after it has been checked to be a UUID v4.
 */
export class FileCheckpointStore implements CheckpointStore {
  readonly dir: string;
  private readonly clock: Clock;
  private readonly warn: (message: string) => void;
  private readonly redact: (text: string) => string;
  private readonly say: Surface;
  /** Highest sequence seen in this store; read from the directory on the first write. */
  private highestSequence: number | undefined;
  /** What this store last wrote to each file, and the file's stamp just after. */
  private readonly written = new Map<string, { sequence: number; stamp: string | undefined }>();
  /** Writes run one at a time so each gets its own sequence number. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    readonly stateDir: string,
    options: FileCheckpointStoreOptions = {},
  ) {
    this.dir = checkpointsDir(stateDir);
    this.clock = options.clock ?? systemClock;
    this.warn = options.onWarning ?? (() => {});
    this.redact = options.redact ?? ((text) => text);
    this.say = surface(options.terms);
  }

  async list(): Promise<CheckpointListing> {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(this.dir, { withFileTypes: true });
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { checkpoints: [], invalid: [] };
      throw new CheckpointError(
        this.dir,
        `cannot read the checkpoints directory (${errorMessage(error)}); check that it is a readable directory`,
      );
    }
    const checkpoints: Checkpoint[] = [];
    const invalid: InvalidCheckpoint[] = [];
    const names = entries
      .filter((entry) => !entry.name.startsWith('.') && entry.name.endsWith('.json'))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of names) {
      const file = path.join(this.dir, entry.name);
      const id = entry.name.slice(0, -'.json'.length);
      if (!isUuidV4(id)) {
        invalid.push({
          path: file,
          reason: `the file name is not <uuid-v4>.json, so it is not a checkpoint this tool wrote; move it out of ${this.dir}`,
        });
        continue;
      }
      if (entry.isDirectory()) {
        invalid.push({ path: file, reason: 'is a directory, not a checkpoint file' });
        continue;
      }
      try {
        checkpoints.push(await this.readFile(file));
      } catch (error) {
        invalid.push({ path: file, reason: error instanceof CheckpointError ? error.reason : errorMessage(error) });
      }
    }
    return { checkpoints: newestFirst(checkpoints), invalid };
  }

  async load(id: string): Promise<Checkpoint> {
    const file = this.pathFor(id);
    try {
      const checkpoint = await this.readFile(file);
      checkpointWarnings(checkpoint).forEach(this.warn);
      return checkpoint;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') {
        throw new CheckpointError(
          file,
          `no checkpoint with id ${id} exists in ${this.dir}; ${this.say.act('listCheckpoints', this.stateDir)}`,
        );
      }
      throw error;
    }
  }

  write(checkpoint: CheckpointInput, options?: { readBack?: boolean }): Promise<Checkpoint> {
    const run = this.writes.then(() => this.writeNow(checkpoint, options?.readBack ?? true));
    this.writes = run.catch(() => {});
    return run;
  }

  async delete(id: string): Promise<void> {
    const file = this.pathFor(id);
    try {
      await fs.unlink(file);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return;
      throw new CheckpointError(file, `cannot delete (${errorMessage(error)}); check the permissions of ${this.dir}`);
    }
  }

  /**
   * Temporary files left by writes that a crash cut short (their writer is no longer running):
   * removed unless `dryRun`. They are never read as checkpoints either way. Returns their paths.
   */
  async removeStaleTempFiles(dryRun: boolean, isAlive: (pid: number) => boolean = pidIsAlive): Promise<string[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const stale = names.filter((name) => {
      const owner = tempFileOwner(name);
      return owner !== undefined && !isAlive(owner);
    });
    const paths = stale.map((name) => path.join(this.dir, name));
    if (!dryRun) await Promise.all(paths.map((p) => fs.rm(p, { force: true })));
    return paths;
  }

  /** The file of a checkpoint id; throws unless the id is a UUID v4, so nothing else becomes a path. */
  private pathFor(id: string): string {
    if (!isUuidV4(id)) {
      throw new CheckpointError(
        String(id),
        `${JSON.stringify(id)} is not a checkpoint id (a UUID v4 such as 3b241101-e2bb-4255-8caf-4136c566a962); ` +
          `${this.say.act('listCheckpoints', this.stateDir)}`,
      );
    }
    return path.join(this.dir, `${id}.json`);
  }

  private async readFile(file: string): Promise<Checkpoint> {
    let text: string;
    try {
      // A FIFO or a device named like a checkpoint is refused, never read (a FIFO blocks forever).
      text = readInput(file, CHECKPOINT_MAX_BYTES);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw error;
      throw new CheckpointError(file, `cannot read (${errorMessage(error)})`);
    }
    return parseCheckpoint(text, file);
  }

  private async writeNow(input: CheckpointInput, readBack: boolean): Promise<Checkpoint> {
    const { id, state, errors } = input;
    // Typed as a phase, but callers (and JavaScript) can still pass any string: check at run time.
    const phase: string = input.phase;
    if (typeof id !== 'string' || id === '') {
      throw new CheckpointError(this.dir, 'cannot write a checkpoint without an id; create one with newCheckpointId()');
    }
    const file = this.pathFor(id);
    if (typeof phase !== 'string' || phase === '') {
      throw new CheckpointError(
        file,
        `cannot write a checkpoint without a phase; use one of ${SEED_PHASES.join(', ')}`,
      );
    }
    if (!isSeedPhase(phase)) {
      throw new CheckpointError(
        file,
        `phase ${JSON.stringify(phase)} is not <pipeline phase>-complete|failed (seed 001's format)` +
          (isRunStage(phase)
            ? ` (a run's stage, written as the phase by older versions: keep it in the state's ${STAGE_KEY})`
            : '') +
          `; use one of ${SEED_PHASES.join(', ')}`,
      );
    }
    if (typeof state !== 'object' || state === null || Array.isArray(state)) {
      throw new CheckpointError(file, 'state must be an object (use {} for no state)');
    }
    if (errors !== undefined && !(Array.isArray(errors) && errors.every((e) => typeof e === 'string'))) {
      throw new CheckpointError(file, 'errors must be a list of strings (complete, human-readable messages)');
    }

    const sequence = Math.max(await this.highestSequenceSoFar(), await this.sequenceOf(file)) + 1;
    const checkpoint: Checkpoint = { id, phase, timestamp: rfc3339(this.clock.now()), sequence, state };
    if (errors && errors.length > 0) checkpoint.errors = [...errors];
    const laidOut = serializeCheckpoint(checkpoint);
    const text = this.redact(laidOut);
    checkpointWarnings(checkpoint).forEach(this.warn);
    await stateFiles(this.stateDir, this.redact).write(file, text);
    this.highestSequence = sequence;
    this.written.set(file, { sequence, stamp: fileStamp(file) });
    // The text as laid out is JSON by construction: only one the masking changed is parsed to be sure.
    if (!readBack && text === laidOut) return checkpoint;
    // What was written, as a reader will see it (JSON drops undefined, turns Dates into strings). The
    // text is this store's own, valid by construction: parsed, not validated again (the schema is
    // for files read back); parseCheckpoint says what is wrong if masking a secret broke it.
    try {
      return JSON.parse(text) as Checkpoint;
    } catch {
      return parseCheckpoint(text, file);
    }
  }

  private async highestSequenceSoFar(): Promise<number> {
    if (this.highestSequence === undefined) {
      const { checkpoints } = await this.list();
      this.highestSequence = Math.max(0, ...checkpoints.map((cp) => cp.sequence));
    }
    return this.highestSequence;
  }

  /** The sequence of the checkpoint about to be overwritten (another process may have written it since); 0 if none. */
  private async sequenceOf(file: string): Promise<number> {
    // Unchanged since this store wrote it (same inode, size and times): no need to read it. (A foreign
    // write of the same size in the same clock tick as ours would go unseen: the file is replaced now
    // anyway, and forged files are caught by the run's snapshot of the directory.)
    const written = this.written.get(file);
    if (written && written.stamp !== undefined && written.stamp === fileStamp(file)) return written.sequence;
    // Only its sequence is wanted: the file is read, not validated (a bad one counts as 0 and is overwritten).
    try {
      const sequence: unknown = (JSON.parse(readInput(file, CHECKPOINT_MAX_BYTES)) as { sequence?: unknown })?.sequence;
      // One forged line must not break every later write: a sequence that cannot grow is no sequence.
      return Number.isSafeInteger(sequence) && (sequence as number) < 2 ** 40 ? (sequence as number) : 0;
    } catch {
      return 0;
    }
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}
