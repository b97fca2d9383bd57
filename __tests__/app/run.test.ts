/**
 * The application layer (src/app/run.ts): prepareRun turns options and ports into a run, or into
 * every reason it cannot start, before anything runs; runPrepared runs one slice of it.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareRun, runPrepared, type RunIO } from '../../src/app/run.js';
import { loadConfig } from '../../src/config/load.js';
import type { Options } from '../../src/config/options.js';
import { LOCK_FILE } from '../../src/safety/lock.js';
import { RUNTIME_DIR } from '../../src/safety/processes.js';
import { ManualClock } from '../loop/fakes.js';

const lockFile = () => path.join(dir, '.state', RUNTIME_DIR, LOCK_FILE);

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-app-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function options(flags: Record<string, string | true>): Options {
  return loadConfig({ command: 'run', flags: new Map(Object.entries(flags)), env: {} }).options;
}

function io(over: Partial<RunIO> = {}): RunIO & { out: string[] } {
  const out: string[] = [];
  return {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' },
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
    clock: new ManualClock(),
    secrets: [],
    stateDir: path.join(dir, '.state'),
    out,
    ...over,
  };
}

describe('prepareRun', () => {
  it('hands back every reason the run cannot start, typed, and holds no lock', async () => {
    const r = await prepareRun(options({ agent: 'claude', json: true }), io({ env: { PATH: dir, HOME: dir } }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.code).sort()).toEqual(['agent_not_on_path', 'invalid_input', 'invalid_input']);
    expect(r.problems.map((p) => p.message).join('\n')).toMatch(/--test-command: none given and none detected/);
    expect(existsSync(lockFile())).toBe(false);
  });

  it('a prepared run holds its session until runPrepared has run it; nothing ran before', async () => {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    await fs.mkdir(path.join(dir, '.beads'));
    await fs.writeFile(path.join(dir, '.beads', 'issues.jsonl'), '');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir });
    git('add', '-A');
    git('commit', '-q', '-m', 'init', '--allow-empty');
    const ports = io();
    const r = await prepareRun(
      options({
        agent: 'command',
        'agent-command': 'false',
        'test-command': 'true',
        'issues-file': '.beads/issues.jsonl',
      }),
      ports,
    );
    if (!r.ok) throw new Error(r.problems.map((p) => p.message).join('\n'));
    expect(r.run.deps.settings.testCommand).toBe('true');
    expect(ports.out).toEqual([]);
    expect(existsSync(lockFile())).toBe(true);
    expect(await runPrepared(r.run, ports)).toBe(0);
    expect(existsSync(lockFile())).toBe(false);
    expect(ports.out.join('')).toContain('No ready issues left');
  });
});
