import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FINE_SETTLED_MS, fileStamp } from '../../src/util/fileStamp.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'file-stamp-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('fileStamp', () => {
  it('changes when the file is rewritten in place with another size, or replaced by a rename', async () => {
    const file = path.join(dir, 'issues.jsonl');
    await fs.writeFile(file, 'one\n');
    const first = fileStamp(file);
    expect(first).toBeDefined();
    expect(fileStamp(file)).toBe(first);
    await fs.writeFile(file, 'two lines\n');
    const second = fileStamp(file);
    expect(second).not.toBe(first);
    await fs.writeFile(path.join(dir, 'next'), 'two lines\n');
    await fs.rename(path.join(dir, 'next'), file);
    expect(fileStamp(file)).not.toBe(second);
  });

  it('gives none for a missing file, a directory, or a file changed less than settledMs ago', async () => {
    const file = path.join(dir, 'f');
    expect(fileStamp(file)).toBeUndefined();
    expect(fileStamp(dir)).toBeUndefined();
    await fs.writeFile(file, 'x');
    expect(fileStamp(file, { settledMs: 2000 })).toBeUndefined();
    expect(fileStamp(file, { settledMs: 2000, now: Date.now() + 5000 })).toBe(fileStamp(file));
  });

  it('settles a file with sub-second times after FINE_SETTLED_MS, one with whole-second times only after settledMs', async () => {
    const file = path.join(dir, 'issues.jsonl');
    await fs.writeFile(file, 'x');
    const fine = new Date('2026-11-27T10:00:00.250Z');
    await fs.utimes(file, fine, fine);
    const at = (ms: number) => fileStamp(file, { settledMs: 2000, now: fine.getTime() + ms });
    expect(at(FINE_SETTLED_MS - 1)).toBeUndefined();
    expect(at(FINE_SETTLED_MS)).toBe(fileStamp(file));
    const whole = new Date('2026-11-27T10:00:00.000Z');
    await fs.utimes(file, whole, whole);
    const atWhole = (ms: number) => fileStamp(file, { settledMs: 2000, now: whole.getTime() + ms });
    expect(atWhole(1999)).toBeUndefined();
    expect(atWhole(2000)).toBe(fileStamp(file));
  });
});
