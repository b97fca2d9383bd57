// The irreducible work of an iteration, as a baseline for agent-loop's own (bench/ratio.mjs): spawn
// the agent (the command line agent-loop is given, through /bin/sh as agent-loop runs it, with
// AGENT_LOOP_ITERATION set) in its own process group with its output piped, wait for it to close,
// then write the checkpoint (JSON to a temporary file, fsync, rename). Run as its own node process:
//   node bench/lib/minimal-loop.mjs <dir> <iterations> [<agent command>]
// prints {"ms": <from the first spawn to the last checkpoint written>}.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const [dir, n, command = 'true'] = process.argv.slice(2);
const iterations = Number(n);
const file = path.join(dir, 'checkpoint.json');
const state = { iteration: 0, history: [] };

function agent(iteration) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [], {
      shell: true,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, AGENT_LOOP_ITERATION: String(iteration) },
    });
    child.stdout.on('data', () => {});
    child.stderr.on('data', () => {});
    child.on('error', reject);
    child.on('close', resolve);
  });
}

const t0 = performance.now();
for (let i = 1; i <= iterations; i++) {
  await agent(i);
  state.iteration = i;
  state.history.push({ n: i, outcome: 'continuing' });
  const tmp = `${file}.${i}.tmp`;
  const handle = await fs.open(tmp, 'w');
  await handle.writeFile(JSON.stringify(state));
  await handle.sync();
  await handle.close();
  await fs.rename(tmp, file);
}
console.log(JSON.stringify({ ms: performance.now() - t0 }));
