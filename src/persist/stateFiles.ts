/**
 * The one writer of agent-loop's own files under the state directory (checkpoints, halt.md,
 * errors.jsonl, prompts): every text is masked here, whatever its caller
 * already did, so a new file cannot forget; whole files are replaced atomically; a path outside the
 * state directory is refused (a bug, never a user's file). The state directory is what the action
 * uploads as an artifact and a cache entry. (The agents' output logs, logs/iteration-N.ndjson or .log, are
 * written line by line as the output arrives, from lines the output masker already masked where
 * they entered the engine: src/secrets/outputMasker.ts.)
 */
import { lstatSync, promises as fs, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { rewriteInPlace, writeFileAtomic } from '../util/atomicWrite.js';

export interface StateFiles {
  readonly dir: string;
  /** Masks. */
  readonly mask: (text: string) => string;
  /** Replaces `file` (absolute, under the state directory) with `text`, masked, atomically and durably. */
  write(file: string, text: string): Promise<void>;
  /**
   * Writes a scratch copy (the prompt, rewritten before every agent run), masked, in place and
   * without fsync (src/util/atomicWrite.ts rewriteInPlace): a crash or a power cut may leave it cut
   * short or mixed, and the next run rewrites it before anything reads it. Never for state that is
   * read back.
   */
  writeScratch(file: string, text: string): Promise<void>;
  /** Appends `text`, masked, to `file` (absolute, under the state directory). */
  append(file: string, text: string): Promise<void>;
  /** The text of `file` (absolute, under the state directory); undefined when it cannot be read. */
  read(file: string): Promise<string | undefined>;
  /**
   * The entries of `dir` with a stamp that changes when one is rewritten (size, mtime, kind); [] when
   * there is no such directory. `names: true`: the names only (stamp ''), no stat per entry.
   */
  list(dir: string, options?: { names?: boolean }): Promise<Array<{ name: string; stamp: string }>>;
  /** Removes `file`; nothing when it is not there. */
  remove(file: string): Promise<void>;
}

export function stateFiles(dir: string, mask: (text: string) => string = (t) => t): StateFiles {
  const root = path.resolve(dir);
  const inside = (file: string) => {
    const abs = path.resolve(file);
    const rel = path.relative(root, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
      throw new Error(`agent-loop writes only under its state directory ${root}, not ${abs}`);
    return abs;
  };
  return {
    dir: root,
    mask,
    async write(file, text) {
      await writeFileAtomic(inside(file), mask(text));
    },
    async writeScratch(file, text) {
      await rewriteInPlace(inside(file), mask(text));
    },
    async append(file, text) {
      const abs = inside(file);
      await fs.mkdir(path.dirname(abs), { recursive: true });
      await fs.appendFile(abs, mask(text));
    },
    async read(file) {
      return fs.readFile(inside(file), 'utf8').catch(() => undefined);
    },
    async list(dir, options) {
      // Synchronous like the writes (src/util/atomicWrite.ts): read after every checkpoint write.
      // A missing directory (no iteration logs yet) is the common case: no exception built for it.
      if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return [];
      }
      if (options?.names) return names.map((name) => ({ name, stamp: '' }));
      const out: Array<{ name: string; stamp: string }> = [];
      for (const name of names) {
        let stat;
        try {
          stat = lstatSync(path.join(dir, name));
        } catch {
          continue;
        }
        out.push({ name, stamp: `${stat.size}:${stat.mtimeMs}:${stat.isSymbolicLink() ? 'link' : 'file'}` });
      }
      return out;
    },
    async remove(file) {
      // Synchronous like the writes: an old iteration log is removed after every agent run. A file
      // that is not there (the common case) is looked up without building an exception.
      const abs = inside(file);
      if (lstatSync(abs, { throwIfNoEntry: false }) === undefined) return;
      rmSync(abs, { force: true });
    },
  };
}
