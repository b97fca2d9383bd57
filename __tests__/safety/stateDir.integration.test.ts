import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { workTreePath } from '../../src/git/repoPaths.js';
import { resolveStateDir, stateDirProblem } from '../../src/safety/stateDir.js';

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
    expect((await resolveStateDir(undefined, path.join(dir, 'sub'), process.env)).dir).toBe(
      path.join(dir, '.git', 'agent-loop'),
    );
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
    expect(first.notes).toEqual([
      expect.stringMatching(/^Moved the state directory .*\.agent-loop .* to .*\.git\/agent-loop/),
    ]);
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

describe('workTreePath: a directory git could stage', () => {
  it('is the relative path inside the work tree, and undefined for the top itself, the git directory and outside', () => {
    expect(workTreePath('/r', '/r/.agent-loop')).toBe('.agent-loop');
    expect(workTreePath('/r', '/r/sub/state')).toBe(path.join('sub', 'state'));
    expect(workTreePath('/r', '/r/..state')).toBe('..state'); // a name that starts with two dots is inside
    expect(workTreePath('/r', '/r/.gitstate')).toBe('.gitstate');
    expect(workTreePath('/r', '/r')).toBeUndefined();
    expect(workTreePath('/r', '/r/.git')).toBeUndefined();
    expect(workTreePath('/r', '/r/.git/agent-loop')).toBeUndefined();
    expect(workTreePath('/r', '/elsewhere/state')).toBeUndefined();
    expect(workTreePath('/r', '/tmp/agent-loop')).toBeUndefined();
  });
});

describe('stateDirProblem: a --state-dir that cannot serve is refused naming the option (issue 11, input fuzzing)', () => {
  it('refuses a file, a device, a path through a file and a name too long; accepts and creates a new directory', async () => {
    const dir = await repo();
    await fs.writeFile(path.join(dir, 'a-file'), 'x');
    expect(await stateDirProblem(path.join(dir, 'a-file'), { create: true })).toMatch(
      /^--state-dir: '.*a-file' is a file, not a directory\. Give --state-dir \(AGENT_LOOP_STATE_DIR\)/,
    );
    // In the action's words (issue 40): its input, and none of the CLI's.
    expect(await stateDirProblem(path.join(dir, 'a-file'), { create: true, terms: 'action' })).toMatch(
      /^the input state-dir: '.*a-file' is a file, not a directory\. Give the input state-dir a directory agent-loop may create/,
    );
    expect(await stateDirProblem('/dev/zero', { create: false })).toMatch(/'\/dev\/zero' is a character device/);
    expect(await stateDirProblem(path.join(dir, 'a-file', 'sub'), { create: true })).toMatch(
      /a-file' is a file, not a directory \(on the way to/,
    );
    expect(await stateDirProblem(path.join(dir, 'x'.repeat(300)), { create: true })).toMatch(/ENAMETOOLONG/);
    expect(await stateDirProblem(path.join(dir, 'new', 'state'), { create: false })).toBeUndefined();
    expect(existsSync(path.join(dir, 'new'))).toBe(false); // status creates nothing
    expect(await stateDirProblem(path.join(dir, 'new', 'state'), { create: true })).toBeUndefined();
    expect(existsSync(path.join(dir, 'new', 'state'))).toBe(true);
  });
});
