/**
 * Campaign, forged state (issue 11): agents that, while they run, write checkpoints into the state
 * directory (dated 2099 at iteration 0, copies of the real one with the counters reset and a higher
 * sequence, garbage, a symlink named like a checkpoint) or delete it. A case holds when the agent
 * invocations over successive runs never exceed --max-iterations, no run crashes, and `status`
 * calls resumable exactly the checkpoint `run` resumed.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Sandbox, createSandbox, runArgs, runCli, writeAgent } from '../helpers.js';
import { campaign } from './tally.js';

const tally = campaign('forged-state');
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.cleanup()));
});

const FORGE = (body: string) => `node -e '
const fs = require("fs"), path = require("path"), crypto = require("crypto");
const dir = path.join(".git", "agent-loop", "checkpoints");
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
const real = JSON.parse(fs.readFileSync(path.join(dir, files[0]), "utf8"));
${body}
'`;

const CASES: Array<{ name: string; forge: string }> = [
  {
    name: 'a checkpoint dated 2099 at iteration 0',
    forge: FORGE(
      'const id = crypto.randomUUID(); fs.writeFileSync(path.join(dir, id + ".json"), JSON.stringify({ ...real, id, timestamp: "2099-01-01T00:00:00Z", sequence: 1e9, state: { ...real.state, loop: { ...real.state.loop, iteration: 0, history: [] } } }));',
    ),
  },
  {
    name: 'a copy of the real one with the counters reset and a higher sequence, dated now',
    forge: FORGE(
      'const id = crypto.randomUUID(); fs.writeFileSync(path.join(dir, id + ".json"), JSON.stringify({ ...real, id, timestamp: new Date().toISOString().replace(/\\.\\d+Z$/, "Z"), sequence: real.sequence + 1000, state: { ...real.state, loop: { ...real.state.loop, iteration: 0, history: [] } } }));',
    ),
  },
  {
    name: "the run's own checkpoint rewritten with iteration 0",
    forge: FORGE(
      'fs.writeFileSync(path.join(dir, files[0]), JSON.stringify({ ...real, state: { ...real.state, loop: { ...real.state.loop, iteration: 0, history: [] } } }));',
    ),
  },
  {
    name: 'garbage named like a checkpoint',
    forge: FORGE('fs.writeFileSync(path.join(dir, crypto.randomUUID() + ".json"), "{ not json");'),
  },
  {
    name: 'a symlink named like a checkpoint',
    forge: FORGE('fs.symlinkSync("/etc/hostname", path.join(dir, crypto.randomUUID() + ".json"));'),
  },
  { name: 'the checkpoints directory deleted', forge: 'rm -rf .git/agent-loop/checkpoints' },
];

const MAX = 3;

describe('campaign: forged state', () => {
  it.each(CASES)('an agent that writes $name', async ({ name, forge }) => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    // Never finishes (the value stays bad), forges on every invocation.
    const agent = await writeAgent(
      sandbox,
      'forger',
      `echo "$AGENT_LOOP_ITERATION" >> "$NOTES/invocations"\necho "attempt $AGENT_LOOP_ITERATION" > value.txt\n${forge} 2>/dev/null\n`,
    );
    const codes: Array<number | null> = [];
    for (let run = 0; run < MAX + 2; run++) {
      const r = await runCli(
        sandbox,
        runArgs(agent, '--max-iterations', String(MAX), '--slice-iterations', '1', '--max-retries-per-step', '10'),
      );
      codes.push(r.code);
    }
    const status = await runCli(sandbox, ['status', '--json']);
    const invocations = existsSync(path.join(sandbox.root, 'invocations'))
      ? readFileSync(path.join(sandbox.root, 'invocations'), 'utf8').trim().split('\n').length
      : 0;
    const held =
      invocations <= MAX &&
      codes.every((c) => c === 0 || c === 1) &&
      status.code === 0 &&
      !/unexpected error/.test(status.stderr);
    expect(tally.record(name, held)).toBe(true);
  });
});
