/** The atomic replace: old or new, never a mix, and which fsyncs each write pays. */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../../src/util/atomicWrite.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atomic-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What each fsync was given: the file's temporary copy or a directory. */
function fsyncs(): string[] {
  const seen: string[] = [];
  const real = fs.fsyncSync;
  jest.spyOn(fs, 'fsyncSync').mockImplementation((fd: number) => {
    seen.push(fs.fstatSync(fd).isDirectory() ? 'dir' : 'file');
    real(fd);
  });
  return seen;
}

describe('writeFileAtomic', () => {
  it('fsyncs the file, and its directory the first time this process writes it (the new name made durable)', async () => {
    const seen = fsyncs();
    const file = path.join(dir, 'sub', 'checkpoint.json');
    await writeFileAtomic(file, 'one');
    expect(seen).toEqual(['file', 'dir']);
    await writeFileAtomic(file, 'two');
    await writeFileAtomic(file, 'three');
    // A replace of a name already durable: the file's own fsync before the rename, no second fsync.
    expect(seen).toEqual(['file', 'dir', 'file', 'file']);
    expect(fs.readFileSync(file, 'utf8')).toBe('three');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['checkpoint.json']);
  });

  it('fsyncs the directory again when it was removed and made again (a new directory)', async () => {
    const seen = fsyncs();
    const file = path.join(dir, 'again', 'checkpoint.json');
    await writeFileAtomic(file, 'one');
    fs.rmSync(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, 'two');
    expect(seen).toEqual(['file', 'dir', 'file', 'dir']);
  });

  it('fsyncs nothing for a scratch copy (fsync: false), and still replaces it atomically', async () => {
    const seen = fsyncs();
    const file = path.join(dir, 'prompt.md');
    await writeFileAtomic(file, 'a', { fsync: false });
    await writeFileAtomic(file, 'b', { fsync: false });
    expect(seen).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe('b');
  });

  it('a failed write leaves the old file whole and no temporary file', async () => {
    const file = path.join(dir, 'state.json');
    await writeFileAtomic(file, 'old');
    jest.spyOn(fs, 'writeFileSync').mockImplementation(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    });
    await expect(writeFileAtomic(file, 'new')).rejects.toThrow('ENOSPC');
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });
});
