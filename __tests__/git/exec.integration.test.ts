/**
 * The one git runner (src/git/exec.ts, issue 41): git with its hardening, through @actions/exec.
 * Real git; a `git` first on PATH that records how it was started, then runs the real one.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execGit } from '../../src/git/exec.js';
import { GIT_ENV } from './repo.js';

let dir: string;
let shimDir: string;
let record: string;
beforeAll(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-exec-')));
  shimDir = path.join(dir, 'bin');
  record = path.join(dir, 'calls');
  await fs.mkdir(shimDir);
  const real = (await execGit(dir, GIT_ENV, ['--exec-path'])).stdout.trim();
  // The shim logs its arguments and two variables, then is the real git.
  await fs.writeFile(
    path.join(shimDir, 'git'),
    `#!/bin/sh\nprintf '%s|%s|%s\\n' "$*" "$GIT_TERMINAL_PROMPT" "$GIT_OPTIONAL_LOCKS" >> '${record}'\nexec '${real}/git' "$@"\n`,
    { mode: 0o755 },
  );
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const shimEnv = () => ({ ...GIT_ENV, PATH: `${shimDir}${path.delimiter}${GIT_ENV.PATH}` });

describe('execGit', () => {
  it('starts git from the given PATH with no hooks, no fsmonitor and no prompt; returns its code and output', async () => {
    await fs.rm(record, { force: true });
    const r = await execGit(dir, shimEnv(), ['rev-parse', '--is-inside-work-tree']);
    expect(r).toEqual({ code: 128, stdout: '', stderr: expect.stringContaining('not a git repository') });
    const calls = (await fs.readFile(record, 'utf8')).trim().split('\n');
    expect(calls).toEqual(['-c core.hooksPath=/dev/null -c core.fsmonitor=false rev-parse --is-inside-work-tree|0|']);
  });

  it('readOnly: the look takes no optional lock (GIT_OPTIONAL_LOCKS=0)', async () => {
    await fs.rm(record, { force: true });
    expect((await execGit(dir, shimEnv(), ['--version'], { readOnly: true })).code).toBe(0);
    expect(await fs.readFile(record, 'utf8')).toMatch(/\|0\|0\n$/);
  });

  it('output over the bound is never read in part: code 1, nothing read, the reason in stderr', async () => {
    const r = await execGit(dir, GIT_ENV, ['--version'], { maxOutput: 4 });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining("read none of git's output: it ran over"),
    });
    expect((await execGit(dir, GIT_ENV, ['--version'])).stdout).toMatch(/^git version /);
  });

  it('no git on PATH: code -1 and ENOENT, never a rejection', async () => {
    const r = await execGit(dir, { ...GIT_ENV, PATH: path.join(dir, 'nowhere') }, ['status']);
    expect(r).toEqual({ code: -1, stdout: '', stderr: 'agent-loop could not start git: ENOENT', startError: 'ENOENT' });
  });

  it('a working directory that is not there: code -1, never a rejection', async () => {
    const r = await execGit(path.join(dir, 'gone'), GIT_ENV, ['status']);
    expect(r.code).toBe(-1);
    expect(r.startError).toContain('does not exist');
  });

  it('output without a newline comes whole, multi-byte characters split across chunks included (the toolkit splits lines; we read first)', async () => {
    const fake = path.join(dir, 'fake');
    await fs.mkdir(fake, { recursive: true });
    await fs.writeFile(path.join(fake, 'git'), '#!/bin/sh\ncat "$FAKE_OUT"\n', { mode: 0o755 });
    const text = 'é€😀a\0'.repeat(200_000); // 3.2 MB on one line, NUL-separated like `-z` output
    await fs.writeFile(path.join(dir, 'out'), text);
    const env = { ...GIT_ENV, PATH: `${fake}${path.delimiter}${GIT_ENV.PATH}`, FAKE_OUT: path.join(dir, 'out') };
    const r = await execGit(dir, env, []);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(text.length);
    expect(r.stdout === text).toBe(true);
  });

  it('an argument holding a NUL byte starts nothing and settles (the toolkit would never settle)', async () => {
    const r = await execGit(dir, GIT_ENV, ['rev-parse', 'a\0b']);
    expect(r).toMatchObject({ code: -1, startError: 'ERR_INVALID_ARG_VALUE' });
  });
});
