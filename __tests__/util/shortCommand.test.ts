import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runShort } from '../../src/util/shortCommand.js';

describe('runShort (short commands through @actions/exec)', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'short-command-'));
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const tool = async (relative: string, script: string) => {
    const file = path.join(dir, relative);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return file;
  };

  it('resolves with the exit code and both streams, whatever the code, and prints nothing itself', async () => {
    const stdout = jest.spyOn(process.stdout, 'write');
    const stderr = jest.spyOn(process.stderr, 'write');
    const r = await runShort('/bin/sh', ['-c', 'printf "h\\303\\251 out\\n"; echo err >&2; exit 3'], { cwd: dir });
    expect(r).toEqual({ code: 3, stdout: 'hé out\n', stderr: 'err\n' });
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
  });

  it('says a signal ended the command with a null code', async () => {
    expect((await runShort('/bin/sh', ['-c', 'kill -KILL $$'], { cwd: dir })).code).toBeNull();
  });

  it('rejects with ENOENT when the command is not found, or the working directory is missing', async () => {
    await expect(runShort('no-such-command-here', [], { cwd: dir })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(runShort(path.join(dir, 'nope'), [], { cwd: dir })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(runShort('/bin/sh', ['-c', 'true'], { cwd: path.join(dir, 'gone') })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('looks the command up on the PATH of the environment it runs with (relative entries from cwd)', async () => {
    await tool('bin/tool', 'echo "tool $FOO"');
    const env = { PATH: path.join(dir, 'bin'), FOO: 'bar', UNSET: undefined };
    expect((await runShort('tool', [], { cwd: dir, env })).stdout).toBe('tool bar\n');
    expect((await runShort('tool', [], { cwd: dir, env: { PATH: 'bin' } })).stdout).toBe('tool \n');
    expect((await runShort('bin/tool', [], { cwd: dir })).stdout).toBe('tool \n');
    await expect(runShort('tool', [], { cwd: dir, env: { PATH: '/nonexistent' } })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('looks again when the file found before is gone', async () => {
    const env = { PATH: [path.join(dir, 'a'), path.join(dir, 'b')].join(path.delimiter) };
    const first = await tool('a/tool', 'echo a');
    expect((await runShort('tool', [], { cwd: dir, env })).stdout).toBe('a\n');
    await fs.rm(first);
    await tool('b/tool', 'echo b');
    expect((await runShort('tool', [], { cwd: dir, env })).stdout).toBe('b\n');
  });

  it('keeps each stream up to the bound and rejects with what it kept, like execFile maxBuffer', async () => {
    const run = runShort('/bin/sh', ['-c', 'head -c 300000 /dev/zero | tr "\\0" a'], {
      cwd: dir,
      maxOutputBytes: 100_000,
    });
    await expect(run).rejects.toMatchObject({ code: 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER', stdout: 'a'.repeat(100_000) });
  });

  it('refuses an argument holding a NUL byte instead of hanging', async () => {
    await expect(runShort('/bin/sh', ['-c', 'true', 'a\0b'], { cwd: dir })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_VALUE',
    });
  });
});
