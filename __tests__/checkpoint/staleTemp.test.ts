import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileCheckpointStore, newCheckpointId } from '../../src/checkpoint/fileStore.js';
import { cleanupCommand } from '../../src/cli/cleanup.js';
import { TEMP_FILE_PATTERN, tempFileOwner, writeFileAtomic } from '../../src/util/atomicWrite.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stale-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('temporary files of interrupted writes', () => {
  it('are named so that git can exclude them and their writer is known', async () => {
    expect(tempFileOwner('.issues.jsonl.agent-loop-4242-0a1b2c3d.tmp')).toBe(4242);
    expect(tempFileOwner('notes.tmp')).toBeUndefined();
    expect(TEMP_FILE_PATTERN).toBe('*.agent-loop-*.tmp');
    // A completed write leaves none behind.
    await writeFileAtomic(path.join(dir, 'x.json'), '{}');
    expect(await fs.readdir(dir)).toEqual(['x.json']);
  });

  it('cleanup removes those whose writer is gone, keeps those of a live writer, and never counts them as checkpoints', async () => {
    const store = new FileCheckpointStore(dir);
    await store.write({ id: newCheckpointId(), phase: 'beads_integration-complete', state: {} });
    const checkpoints = path.join(dir, 'checkpoints');
    const dead = path.join(checkpoints, '.x.json.agent-loop-999999999-deadbeef.tmp');
    const live = path.join(checkpoints, `.y.json.agent-loop-${process.pid}-cafebabe.tmp`);
    await fs.writeFile(dead, '{"half');
    await fs.writeFile(live, '{"half');
    expect((await store.list()).invalid).toEqual([]);

    const lines: string[] = [];
    const dry = await cleanupCommand(
      { stateDir: dir, olderThanDays: 30, all: false, dryRun: true },
      { store, now: new Date(), out: (l) => lines.push(l) },
    );
    expect(dry).toBe(0);
    expect(lines).toContain(`would remove ${dead} (left by a write that a crash cut short)`);
    expect((await fs.readdir(checkpoints)).length).toBe(3);

    await cleanupCommand(
      { stateDir: dir, olderThanDays: 30, all: false, dryRun: false },
      { store, now: new Date(), out: (l) => lines.push(l) },
    );
    const left = await fs.readdir(checkpoints);
    expect(left).not.toContain(path.basename(dead));
    expect(left).toContain(path.basename(live));
  });
});

describe('a write that fails', () => {
  it('removes its temporary file (a full disk must not fill further) and leaves the old file whole', async () => {
    const file = path.join(dir, 'x.json');
    await writeFileAtomic(file, '{"old":true}');
    // A value writeFileSync refuses, as a failed write of the content would.
    await expect(writeFileAtomic(file, 42 as unknown as string)).rejects.toThrow();
    expect(await fs.readdir(dir)).toEqual(['x.json']);
    expect(await fs.readFile(file, 'utf8')).toBe('{"old":true}');
  });

  it('a checkpoint forged with a sequence that cannot grow does not stop the run writing its own', async () => {
    const store = new FileCheckpointStore(dir);
    const id = newCheckpointId();
    await store.write({ id, phase: 'beads_integration-complete', state: { n: 1 } });
    const file = path.join(dir, 'checkpoints', `${id}.json`);
    await fs.writeFile(file, JSON.stringify({ sequence: Number.MAX_SAFE_INTEGER }));
    const next = await store.write({ id, phase: 'beads_integration-complete', state: { n: 2 } });
    expect(next.sequence).toBe(2);
    expect((await store.write({ id, phase: 'beads_integration-complete', state: { n: 3 } })).sequence).toBe(3);
  });
});
