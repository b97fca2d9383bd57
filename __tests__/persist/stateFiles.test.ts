import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stateFiles } from '../../src/persist/stateFiles.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
});
async function tmp(): Promise<string> {
  const d = await fs.mkdtemp(path.join(os.tmpdir(), 'state-files-'));
  dirs.push(d);
  return d;
}
const mask = (t: string) => t.replaceAll('s3cr3t-value', '***');

describe('stateFiles: the one writer under the state directory', () => {
  it('masks what it writes and appends, creating directories', async () => {
    const dir = await tmp();
    const files = stateFiles(dir, mask);
    await files.write(path.join(dir, 'sub', 'halt.md'), 'key s3cr3t-value\n');
    await files.append(path.join(dir, 'errors.jsonl'), '{"e":"s3cr3t-value"}\n');
    await files.append(path.join(dir, 'errors.jsonl'), '{"e":2}\n');
    expect(await fs.readFile(path.join(dir, 'sub', 'halt.md'), 'utf8')).toBe('key ***\n');
    expect(await fs.readFile(path.join(dir, 'errors.jsonl'), 'utf8')).toBe('{"e":"***"}\n{"e":2}\n');
  });

  it('refuses a path outside the state directory, writing nothing', async () => {
    const dir = await tmp();
    const outside = path.join(path.dirname(dir), `${path.basename(dir)}-other.txt`);
    const files = stateFiles(dir, mask);
    await expect(files.write(outside, 'x')).rejects.toThrow(/only under its state directory/);
    await expect(files.append(path.join(dir, '..', 'x.txt'), 'x')).rejects.toThrow(/only under its state directory/);
    await expect(files.write(dir, 'x')).rejects.toThrow(/only under its state directory/);
    await expect(fs.access(outside)).rejects.toThrow();
  });

  it('lists a directory with stamps that change on a rewrite, or by name only (no stat per entry)', async () => {
    const dir = await tmp();
    const files = stateFiles(dir);
    expect(await files.list(path.join(dir, 'missing'))).toEqual([]);
    await files.write(path.join(dir, 'a.json'), 'one');
    const before = await files.list(dir);
    await files.write(path.join(dir, 'a.json'), 'three');
    const after = await files.list(dir);
    expect(before[0]?.name).toBe('a.json');
    expect(after[0]?.stamp).not.toBe(before[0]?.stamp);
    expect(await files.list(dir, { names: true })).toEqual([{ name: 'a.json', stamp: '' }]);
  });
});
