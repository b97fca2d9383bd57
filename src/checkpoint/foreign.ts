/**
 * Checkpoints the run did not write. The agent has a shell, so it can write into the state
 * directory wherever it is; a checkpoint it forges (iteration 0, a newer timestamp or sequence)
 * would be resumed by the next run and reset --max-iterations. The slice notes every checkpoint
 * file as it was before any agent ran; a file that appears or changes afterwards, other than the
 * run's own, was written by something else: it is moved to `<state-dir>/quarantine/` and reported,
 * and never resumed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { StateFiles } from '../persist/stateFiles.js';

export type DirSnapshot = Map<string, string>;

/** Each `*.json` in `dir` with its size and modification time. */
export async function snapshotCheckpoints(files: Pick<StateFiles, 'list'>, dir: string): Promise<DirSnapshot> {
  const out: DirSnapshot = new Map();
  for (const { name, stamp } of await files.list(dir)) if (name.endsWith('.json')) out.set(name, stamp);
  return out;
}

/** Names that are new or changed since `before`, the run's own file aside. Pure. */
export function foreignChanges(before: DirSnapshot, now: DirSnapshot, own: string): string[] {
  return [...now].filter(([name, stamp]) => name !== own && before.get(name) !== stamp).map(([name]) => name);
}

/** Moves the named files into `<stateDir>/quarantine/`; returns where each went. */
export async function quarantine(
  checkpointsDir: string,
  stateDir: string,
  names: readonly string[],
): Promise<string[]> {
  const target = path.join(stateDir, 'quarantine');
  await fs.mkdir(target, { recursive: true });
  const moved: string[] = [];
  for (const name of names) {
    const to = path.join(target, `${Date.now()}-${name}`);
    try {
      await fs.rename(path.join(checkpointsDir, name), to);
      moved.push(to);
    } catch {
      // gone meanwhile
    }
  }
  return moved;
}
