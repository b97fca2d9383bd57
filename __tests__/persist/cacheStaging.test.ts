/**
 * The staging the cache client runs in (src/persist/cacheStaging.ts): the state directory copied
 * under the one fixed name, what a restore extracted moved into place, and the process's working
 * directory and GITHUB_WORKSPACE set for one client call at a time and restored after it.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CACHE_ENTRY_PATH, inStaging, stageCopy, stagingBeside, unstage } from '../../src/persist/cacheStaging.js';

let root: string;
const before = { cwd: process.cwd(), workspace: process.env.GITHUB_WORKSPACE };

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-staging-')));
});
afterEach(async () => {
  process.chdir(before.cwd);
  if (before.workspace === undefined) delete process.env.GITHUB_WORKSPACE;
  else process.env.GITHUB_WORKSPACE = before.workspace;
  await fs.rm(root, { recursive: true, force: true });
});

async function write(dir: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), text);
  }
}

async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) out.push(path.relative(dir, path.join(entry.parentPath, entry.name)));
  return out.sort();
}

describe('the cache staging', () => {
  it('stages the files an artifact holds under agent-loop-state, beside the state directory, leaving the directory as it was', async () => {
    const dir = path.join(root, 'temp', 'agent-loop');
    await write(dir, {
      'generation.json': '{}',
      'checkpoints/a.json': '{"iteration":1}',
      'run/lock': 'pid 1', // this machine's runtime records: never published
    });
    const base = await stagingBeside(dir);
    expect(path.dirname(base)).toBe(path.dirname(dir));
    await stageCopy(dir, base);
    expect(await fs.readdir(base)).toEqual([CACHE_ENTRY_PATH]);
    expect(await tree(path.join(base, CACHE_ENTRY_PATH))).toEqual(['checkpoints/a.json', 'generation.json']);
    expect(await tree(dir)).toEqual(['checkpoints/a.json', 'generation.json', 'run/lock']);
  });

  it('moves what a restore extracted into the directory wanted, replacing it; an archive without agent-loop-state changes nothing', async () => {
    const into = path.join(root, 'partials', 'partial-1');
    await write(into, { 'old.json': 'stale' });
    const base = await stagingBeside(into);
    await write(path.join(base, CACHE_ENTRY_PATH), { 'generation.json': '{"generation":1}' });
    expect(await unstage(base, into)).toBe(true);
    expect(await tree(into)).toEqual(['generation.json']);

    const foreign = await stagingBeside(into);
    await write(path.join(foreign, 'elsewhere'), { 'x.json': '{}' });
    expect(await unstage(foreign, into)).toBe(false);
    expect(await tree(into)).toEqual(['generation.json']);
  });

  it('runs each client call from its staging directory, one at a time, and restores the working directory and GITHUB_WORKSPACE even when the call fails', async () => {
    process.env.GITHUB_WORKSPACE = '/home/runner/work/repo/repo';
    const [a, b] = [path.join(root, 'a'), path.join(root, 'b')];
    await fs.mkdir(a);
    await fs.mkdir(b);
    const seen: string[] = [];
    let release: () => void = () => {};
    const first = inStaging(a, async () => {
      seen.push(`a starts in ${process.cwd()} with ${process.env.GITHUB_WORKSPACE}`);
      await new Promise<void>((resolve) => (release = resolve));
      seen.push(`a ends in ${process.cwd()}`);
      throw new Error('the client failed');
    });
    const second = inStaging(b, async () => {
      seen.push(`b starts in ${process.cwd()} with ${process.env.GITHUB_WORKSPACE}`);
      return 7;
    });
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await expect(first).rejects.toThrow('the client failed');
    expect(await second).toBe(7);
    expect(seen).toEqual([`a starts in ${a} with ${a}`, `a ends in ${a}`, `b starts in ${b} with ${b}`]);
    expect([process.cwd(), process.env.GITHUB_WORKSPACE]).toEqual([before.cwd, '/home/runner/work/repo/repo']);
  });
});
