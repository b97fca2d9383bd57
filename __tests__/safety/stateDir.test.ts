import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveStateDir } from '../../src/safety/stateDir.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function repo(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'state-dir-')));
  dirs.push(dir);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  return dir;
}

describe('the state directory (issue 11)', () => {
  it('defaults to <git dir>/agent-loop in a repository, also from a subdirectory', async () => {
    const dir = await repo();
    await fs.mkdir(path.join(dir, 'sub'));
    expect((await resolveStateDir(undefined, path.join(dir, 'sub'), process.env)).dir).toBe(path.join(dir, '.git', 'agent-loop'));
  });

  it('is .agent-loop in the working directory outside git, and --state-dir wins everywhere', async () => {
    const plain = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'state-dir-plain-')));
    dirs.push(plain);
    expect((await resolveStateDir(undefined, plain, process.env)).dir).toBe(path.join(plain, '.agent-loop'));
    expect((await resolveStateDir('my-state', plain, process.env)).dir).toBe(path.join(plain, 'my-state'));
  });

  it('moves an old in-tree .agent-loop/ once, saying so; a second resolution moves nothing', async () => {
    const dir = await repo();
    await fs.mkdir(path.join(dir, '.agent-loop', 'checkpoints'), { recursive: true });
    await fs.writeFile(path.join(dir, '.agent-loop', 'checkpoints', 'x.json'), '{}');
    const first = await resolveStateDir(undefined, dir, process.env);
    expect(first.notes).toEqual([expect.stringMatching(/^Moved the state directory .*\.agent-loop .* to .*\.git\/agent-loop/)]);
    expect(existsSync(path.join(dir, '.git', 'agent-loop', 'checkpoints', 'x.json'))).toBe(true);
    expect(existsSync(path.join(dir, '.agent-loop'))).toBe(false);
    expect((await resolveStateDir(undefined, dir, process.env)).notes).toEqual([]);
  });

  it('when both exist, warns and uses the new one', async () => {
    const dir = await repo();
    await fs.mkdir(path.join(dir, '.agent-loop', 'checkpoints'), { recursive: true });
    await fs.mkdir(path.join(dir, '.git', 'agent-loop'), { recursive: true });
    const r = await resolveStateDir(undefined, dir, process.env);
    expect(r.dir).toBe(path.join(dir, '.git', 'agent-loop'));
    expect(r.notes).toEqual([expect.stringMatching(/is still in the working tree.*ignores the old one/)]);
  });
});
