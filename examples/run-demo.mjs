#!/usr/bin/env node
// `npm run demo`: copies examples/demo/ to a temporary git repository and runs agent-loop on it
// with the scripted agent, in two slices (the second resumes the first's checkpoint), then shows
// `agent-loop status`. Everything it writes stays in the temporary directory.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'cli', 'index.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-loop-demo-'));
cpSync(path.join(here, 'demo'), dir, { recursive: true });

const sh = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  return r.status ?? 1;
};
const git = (...args) => spawnSync('git', ['-c', 'user.name=demo', '-c', 'user.email=demo@example.invalid', ...args], { cwd: dir, stdio: 'ignore' });
git('init', '-q', '-b', 'main');
git('add', '-A');
git('commit', '-q', '-m', 'demo: a calculator with a bug and two missing features');

const run = ['run', '--agent', 'command', '--agent-command', `node ${JSON.stringify(path.join(here, 'demo-agent.mjs'))}`, '--iteration-delay', '0', '--test-command', 'npm test --silent'];
const banner = (s) => console.log(`\n\x1b[1m== ${s}\x1b[0m`);

console.log(`agent-loop demo in ${dir}`);
banner('agent-loop run --slice-iterations 2   (first slice: stops after 2 iterations, exit 0 "continuing")');
const first = sh(process.execPath, [cli, ...run, '--slice-iterations', '2']);
banner('agent-loop status');
sh(process.execPath, [cli, 'status']);
banner('agent-loop run   (second slice: resumes the checkpoint and finishes)');
const second = sh(process.execPath, [cli, ...run]);
banner('agent-loop status');
sh(process.execPath, [cli, 'status']);
banner('git log --oneline --graph');
sh('git', ['log', '--oneline', '--graph']);
console.log(`\nExit codes: first slice ${first}, second slice ${second}. The demo repository stays in ${dir}.`);
process.exit(first === 0 && second === 0 ? 0 : 1);
