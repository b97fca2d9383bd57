/** The atomic replace: old or new, never a mix, and which fsyncs each write pays. */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rewriteInPlace, writeFileAtomic } from '../../src/util/atomicWrite.js';

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

describe('rewriteInPlace (the prompt, rewritten before every agent run)', () => {
  it('rewrites the same file (same inode), longer then shorter, with no temporary file, no rename and no fsync', async () => {
    const seen = fsyncs();
    const rename = jest.spyOn(fs, 'renameSync');
    const file = path.join(dir, 'prompt.md');
    await rewriteInPlace(file, 'first prompt');
    const inode = fs.statSync(file).ino;
    await rewriteInPlace(file, 'a much longer second prompt');
    expect(fs.readFileSync(file, 'utf8')).toBe('a much longer second prompt');
    await rewriteInPlace(file, 'short');
    expect(fs.readFileSync(file, 'utf8')).toBe('short');
    expect(fs.statSync(file).ino).toBe(inode);
    expect(rename).not.toHaveBeenCalled();
    expect(seen).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['prompt.md']);
  });

  it('makes the directory when it is missing', async () => {
    const file = path.join(dir, 'state', 'prompt.md');
    await rewriteInPlace(file, 'p');
    expect(fs.readFileSync(file, 'utf8')).toBe('p');
  });

  it.each([
    ['a symlink', fs.symlinkSync],
    ['a hard link', fs.linkSync],
  ])(
    'never writes through %s to another file put in its place: the name is replaced, the other file untouched',
    async (_, link) => {
      const other = path.join(dir, 'bashrc');
      fs.writeFileSync(other, 'the user file');
      const file = path.join(dir, 'prompt.md');
      link(other, file);
      await rewriteInPlace(file, 'prompt');
      expect(fs.readFileSync(other, 'utf8')).toBe('the user file');
      expect(fs.lstatSync(file).isFile()).toBe(true);
      expect(fs.readFileSync(file, 'utf8')).toBe('prompt');
      expect(fs.statSync(file).ino).not.toBe(fs.statSync(other).ino);
    },
  );

  it('does not block on a FIFO put in its place (no reader): it is replaced by the file', async () => {
    const file = path.join(dir, 'prompt.md');
    const made = spawnSync('mkfifo', [file]);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
    await rewriteInPlace(file, 'prompt');
    expect(fs.statSync(file).isFile()).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('prompt');
  });
});
