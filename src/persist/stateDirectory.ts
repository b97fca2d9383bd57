/**
 * The state directory on disk as the state store handles it: the files it publishes (the temporary
 * files of interrupted atomic writes and the run's runtime files left out) and the scratch
 * directories beside it that restores and peeks extract into.
 */
import { RUNTIME_DIR } from '../safety/processes.js';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { tempFileOwner } from '../util/atomicWrite.js';

export async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

/** A scratch directory beside `dir` (same filesystem, so a rename swaps it in). */
export function scratch(dir: string, what: string): string {
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
export async function filesUnder(dir: string): Promise<string[]> {
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
