import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PINNED_AGENT_CLIS, type RunCommand, ensureAgent } from '../../src/action/installAgent.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'install-agent-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const executable = async (file: string) => {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, '#!/bin/sh\n', { mode: 0o755 });
};

describe('install-agent', () => {
  it('does nothing for the command agent, nor when the CLI is already on PATH', async () => {
    const run: RunCommand = async () => {
      throw new Error('must not run npm');
    };
    expect(await ensureAgent({ agent: 'command', env: { PATH: '' }, prefix: dir, log: () => undefined, run })).toEqual({
      kind: 'not-needed',
    });
    await executable(path.join(dir, 'bin', 'codex'));
    expect(
      await ensureAgent({
        agent: 'codex',
        env: { PATH: path.join(dir, 'bin') },
        prefix: dir,
        log: () => undefined,
        run,
      }),
    ).toEqual({ kind: 'present' });
  });

  it('installs the pinned package with npm into the prefix and puts its bin first on PATH', async () => {
    const calls: string[][] = [];
    const prefix = path.join(dir, 'clis');
    const run: RunCommand = async (command, args, options) => {
      calls.push([command, ...args]);
      options.onLine('added 3 packages');
      await executable(path.join(prefix, 'node_modules', '.bin', 'claude'));
      return { code: 0, output: 'added 3 packages\n' };
    };
    const logs: string[] = [];
    const r = await ensureAgent({
      agent: 'claude',
      env: { PATH: '/usr/bin', KEEP: 'x' },
      prefix,
      log: (m) => logs.push(m),
      run,
    });
    expect(calls).toEqual([
      [
        'npm',
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--loglevel',
        'error',
        '@anthropic-ai/claude-code@2.1.197',
      ],
    ]);
    expect(r).toMatchObject({
      kind: 'installed',
      version: '2.1.197',
      env: { PATH: `${path.join(prefix, 'node_modules', '.bin')}${path.delimiter}/usr/bin`, KEEP: 'x' },
    });
    expect(logs).toEqual([
      `claude is not on PATH: installing @anthropic-ai/claude-code@2.1.197 into ${prefix} (install-agent).`,
      'npm: added 3 packages',
    ]);
  });

  it('a failed install stops with what npm said and what to do', async () => {
    const run: RunCommand = async () => ({
      code: 1,
      output: 'npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/@openai%2fcodex\n',
    });
    const r = await ensureAgent({ agent: 'codex', env: { PATH: '' }, prefix: dir, log: () => undefined, run });
    expect(r.kind).toBe('failed');
    expect(r.kind === 'failed' && r.message).toMatch(
      /^install-agent: `npm install .*@openai\/codex@0\.169\.0` exited with code 1: npm error code E404 \/ npm error 404 Not Found/,
    );
    expect(r.kind === 'failed' && r.message).toMatch(/install the CLI in an earlier step and set install-agent: false/);
  });

  it('pins the same versions as the end-to-end tests (scripts/install-agent-clis.mjs)', () => {
    const script = readFileSync(new URL('../../scripts/install-agent-clis.mjs', import.meta.url), 'utf8');
    for (const pin of Object.values(PINNED_AGENT_CLIS))
      expect(script).toContain(`{ pkg: '${pin.pkg}', version: '${pin.version}', bin: '${pin.bin}' }`);
  });
});
