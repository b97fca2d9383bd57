/** status over checkpoints it cannot list: exit 2 naming the problem, as its help says (review). */
import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.js';

describe('agent-loop status and cleanup', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('exits 2 naming the problem when the checkpoints directory is a file (it was an unexpected error, exit 1)', async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'status-'));
    await fs.writeFile(path.join(dir, 'checkpoints'), 'x');
    const out: string[] = [];
    const code = await main(['status', '--state-dir', dir], {
      cwd: dir,
      env: {},
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
    });
    expect(code).toBe(2);
    expect(out.join('')).toMatch(/cannot read the checkpoints directory/);
    out.length = 0;
    const io = { cwd: dir, env: {}, stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t) };
    expect(await main(['cleanup', '--all', '--state-dir', dir], io)).toBe(2);
    expect(out.join('')).toMatch(/cannot read the checkpoints directory/);
    expect(out.join('')).not.toMatch(/unexpected error/);
  });
});
