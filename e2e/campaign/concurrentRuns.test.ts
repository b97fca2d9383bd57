/**
 * Campaign, concurrent runs (issue 11): two or three `agent-loop run`s started at seeded offsets on
 * one repository, with the same or different state directories. A case holds when agents never
 * ran at the same time, every agent invocation is recorded in a checkpoint (no --max-iterations
 * bypass), every refused run exited 2, and the repository is left clean on main.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type Sandbox, CLI, DONE_REPORT, createSandbox, git, issue, runArgs, writeAgent } from '../helpers.js';
import { mulberry32, pause, randInt } from '../crashHelpers.js';
import { campaign } from './tally.js';

const tally = campaign('concurrent-runs');
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.cleanup()));
});

/** mkdir is atomic: a second agent running at the same time finds the directory and says so. */
const AGENT = `if ! mkdir "$NOTES/busy" 2>/dev/null; then touch "$NOTES/overlap"; fi
echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/invocations"
echo good > value.txt
echo "$AGENT_LOOP_ISSUE_IDS" >> work.txt
rmdir "$NOTES/busy" 2>/dev/null
${DONE_REPORT}`;

function start(sandbox: Sandbox, args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: sandbox.repo, env: sandbox.env, stdio: 'ignore' });
    child.on('close', (code) => resolve(code));
  });
}

function recordedIterations(dirs: string[]): number {
  let total = 0;
  for (const dir of dirs) {
    const cps = path.join(dir, 'checkpoints');
    if (!existsSync(cps)) continue;
    for (const name of readdirSync(cps).filter((n) => n.endsWith('.json'))) {
      const cp = JSON.parse(readFileSync(path.join(cps, name), 'utf8')) as { state: { loop?: { iteration: number } } };
      total += cp.state.loop?.iteration ?? 0;
    }
  }
  return total;
}

const rand = mulberry32(11);
const CASES = Array.from({ length: 6 }, (_, i) => ({
  name: `case ${i + 1}`,
  runs: 2 + (i % 2),
  offsets: Array.from({ length: 2 + (i % 2) }, () => randInt(rand, 0, 40)),
  separateStateDirs: i >= 3,
}));

describe('campaign: concurrent runs', () => {
  it.each(CASES)(
    '$name: $runs runs at offsets $offsets ms (separate state dirs: $separateStateDirs)',
    async ({ name, runs, offsets, separateStateDirs }) => {
      const sandbox = await createSandbox([issue('bd-1', 'First'), issue('bd-2', 'Second'), issue('bd-3', 'Third')]);
      sandboxes.push(sandbox);
      const agent = await writeAgent(sandbox, 'agent', AGENT);
      const stateDirs = Array.from({ length: runs }, (_, i) =>
        separateStateDirs ? path.join(sandbox.root, `state-${i}`) : path.join(sandbox.repo, '.git', 'agent-loop-state'),
      );
      const codes = await Promise.all(
        offsets.map(async (offset, i) => {
          await pause(offset);
          return start(sandbox, runArgs(agent, '--state-dir', stateDirs[i] as string));
        }),
      );
      const invocations = existsSync(path.join(sandbox.root, 'invocations'))
        ? readFileSync(path.join(sandbox.root, 'invocations'), 'utf8').trim().split('\n').length
        : 0;
      const held =
        !existsSync(path.join(sandbox.root, 'overlap')) &&
        codes.every((c) => c === 0 || c === 2) &&
        codes.some((c) => c === 0) &&
        invocations === recordedIterations([...new Set(stateDirs)]) &&
        git(sandbox, 'status', '--porcelain') === '' &&
        git(sandbox, 'symbolic-ref', '--short', 'HEAD') === 'main';
      expect(tally.record(name, held)).toBe(true);
    },
  );
});
