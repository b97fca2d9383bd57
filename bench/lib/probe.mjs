// Preloaded into the CLI's node process with `node --import <this file>` by the benchmarks.
// When AGENT_LOOP_BENCH_PROBE names a file, it records, with sub-millisecond timestamps, when each
// child process was spawned and when it closed, and at exit writes those spans together with the
// process's own peak RSS (process.resourceUsage().maxRSS: this process only, not its children).
// It also times every fsync, made through a FileHandle or fs.fsyncSync (the checkpoint's atomic write
// makes two), and
// samples process.memoryUsage() every 50 ms to tell the V8 heap from Buffer (external) memory.
// It does not change what the CLI does: it wraps ChildProcess.prototype.spawn (listening for 'close')
// FileHandle.prototype.sync and fs.fsyncSync.
// With AGENT_LOOP_BENCH_FORK_COST=1 it also times spawning `true` (spawnSync, 30 times) in this very
// process twice: as it starts, before the CLI is loaded, and at exit, after the run: what a spawn
// costs in a process of the engine's size against a bare node's (fork copies, and exec tears down,
// the page tables of every resident page).
import { ChildProcess, spawnSync } from 'node:child_process';
import nodeFs, { promises as fs, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';

const out = process.env.AGENT_LOOP_BENCH_PROBE;
/** Median ms of spawning `true` and waiting for it, `n` times. */
function spawnCost(n = 30) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    spawnSync('true', [], { stdio: 'ignore' });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[n >> 1];
}

if (out) {
  // The agent and test commands must not inherit it.
  delete process.env.AGENT_LOOP_BENCH_PROBE;
  const forkCost = process.env.AGENT_LOOP_BENCH_FORK_COST === '1' ? { bareMs: spawnCost() } : undefined;
  delete process.env.AGENT_LOOP_BENCH_FORK_COST;
  const spans = [];
  const spawn = ChildProcess.prototype.spawn;
  ChildProcess.prototype.spawn = function probedSpawn(options) {
    // The agent is the child whose environment carries AGENT_LOOP_ITERATION (see src/agents/command.ts).
    const agent = (options.envPairs ?? []).some((kv) => kv.startsWith('AGENT_LOOP_ITERATION='));
    const span = {
      kind: agent ? 'agent' : String(options.file),
      args: (options.args ?? []).slice(1, 3),
      start: performance.now(),
      end: null,
    };
    spans.push(span);
    this.once('close', () => {
      span.end = performance.now();
    });
    return spawn.call(this, options);
  };
  const handle = await fs.open(process.execPath, 'r');
  const FileHandle = handle.constructor;
  await handle.close();
  const sync = FileHandle.prototype.sync;
  FileHandle.prototype.sync = async function probedSync(...args) {
    const span = { kind: 'fsync', args: [], start: performance.now(), end: null };
    spans.push(span);
    try {
      return await sync.apply(this, args);
    } finally {
      span.end = performance.now();
    }
  };
  const fsyncSync = nodeFs.fsyncSync;
  nodeFs.fsyncSync = function probedFsyncSync(...args) {
    const span = { kind: 'fsync', args: [], start: performance.now(), end: null };
    spans.push(span);
    try {
      return fsyncSync.apply(this, args);
    } finally {
      span.end = performance.now();
    }
  };
  const memory = { heapTotalMax: 0, heapUsedMax: 0, externalMax: 0, arrayBuffersMax: 0, samples: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    memory.heapTotalMax = Math.max(memory.heapTotalMax, m.heapTotal);
    memory.heapUsedMax = Math.max(memory.heapUsedMax, m.heapUsed);
    memory.externalMax = Math.max(memory.externalMax, m.external);
    memory.arrayBuffersMax = Math.max(memory.arrayBuffersMax, m.arrayBuffers);
    memory.samples++;
  };
  setInterval(sample, 50).unref();
  process.on('exit', () => {
    sample();
    if (forkCost) {
      forkCost.afterRunMs = spawnCost();
      forkCost.rssKiB = Math.round(process.memoryUsage().rss / 1024);
    }
    writeFileSync(
      out,
      JSON.stringify({
        maxRssKiB: process.resourceUsage().maxRSS,
        memory,
        uptimeMs: performance.now(),
        forkCost,
        spans,
      }),
    );
  });
}
