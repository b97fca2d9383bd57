// The irreducible work of an iteration, as a baseline for agent-loop's own (bench/ratio.mjs): spawn
// the agent (`true`) in its own process group with its output piped, wait for it to close, then
// write the checkpoint (JSON to a temporary file, fsync, rename). Run as its own node process:
//   node bench/lib/minimal-loop.mjs <dir> <iterations>
// prints {"ms": <from the first spawn to the last checkpoint written>}.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const [dir, n] = process.argv.slice(2);
const iterations = Number(n);
const file = path.join(dir, 'checkpoint.json');
const state = { iteration: 0, history: [] };

function agent() {
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', () => {});
    child.stderr.on('data', () => {});
    child.on('error', reject);
    child.on('close', resolve);
  });
}

const t0 = performance.now();
for (let i = 1; i <= iterations; i++) {
  await agent();
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
