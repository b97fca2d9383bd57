// (c) Checkpoint write time and size after 10,000 iterations: a LoopState built through appendHistory
// (counters exact, only HISTORY_KEPT records kept), written with FileCheckpointStore.write.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { kb, ms, repoRoot, round, stats, tempDir, verdict } from './lib/common.mjs';

export const WRITE_TARGET_MS = 20;
export const SIZE_TARGET_BYTES = 1e6;
const OUT = path.join('build', 'bench-checkpoint');

/** Compiles bench/checkpoint-entry.ts (the engine's checkpoint and state modules) with ncc into build/. */
export async function loadEngine() {
  const r = spawnSync(
    process.execPath,
    [
      'node_modules/@vercel/ncc/dist/ncc/cli.js',
      'build',
      'bench/checkpoint-entry.ts',
      '-o',
      OUT,
      '--target',
      'es2022',
      '-q',
    ],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error('ncc could not build bench/checkpoint-entry.ts');
  return import(pathToFileURL(path.join(repoRoot, OUT, 'index.js')).href);
}

/** A deterministic pseudo-random sequence in [0, 1). */
function lcg(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * What an agent leaves as the last failure's tail: log lines with ANSI colours and quotes (both are
 * escaped in JSON, so they make the file bigger than the tail), up to the 64 KiB tail the engine keeps.
 */
function outputTail(bytes) {
  const line = (i) =>
    `\u001b[31mFAIL\u001b[0m src/module${i % 37}.test.ts › "handles case ${i}": expected 42, received ${i}\n`;
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += line(i);
  return out.slice(out.length - bytes);
}

/**
 * The loop state after `total` iterations, built the way runSlice builds it: counters updated per
 * iteration, each record appended with appendHistory. Cycles of 2–9 iterations; ~10% of the agent
 * runs fail (a 200-character failure message), ~25% of test runs fail; every record carries a
 * work_remaining summary and a cost. The current cycle holds a 64 KiB failure tail (the worst case).
 */
export function buildState(engine, total) {
  const rnd = lcg(20261121);
  let state = engine.initialLoopState(total);
  let cycleNo = 0;
  let cycle;
  const newCycle = (startedAtIteration) => {
    cycleNo++;
    const id = `bd-${cycleNo.toString(36).padStart(4, '0')}`;
    return {
      issueIds: [id],
      titles: [`Implement feature ${cycleNo}: validate the input of the ${id} command and report every bad option`],
      startedAtIteration,
      iterations: 0,
      sameWorkRemainingCount: 0,
      length: 2 + Math.floor(rnd() * 8),
    };
  };
  const start = Date.parse('2026-11-01T00:00:00Z');
  for (let n = 1; n <= total; n++) {
    cycle ??= newCycle(n);
    cycle.iterations++;
    const agentMs = 30_000 + Math.floor(rnd() * 600_000);
    const record = {
      n,
      issueIds: cycle.issueIds,
      startedAt: new Date(start + n * 400_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      durationMs: agentMs + 20,
      outcome: 'continuing',
      agent: { ok: true, exitCode: 0, signal: null, durationMs: agentMs, costUsd: round(rnd() * 0.8, 4) },
    };
    state = { ...state, iteration: n, costUsd: state.costUsd + record.agent.costUsd };
    if (rnd() < 0.1) {
      record.outcome = 'agent_failed';
      record.agent = {
        ...record.agent,
        ok: false,
        exitCode: 1,
        failure: {
          class: 'transient',
          reason: 'rate_limit',
          message: `API error 429: rate limited (request ${n}); retry after 30 s. ${'x'.repeat(120)}`.slice(0, 200),
        },
      };
      state = { ...state, failedIterations: state.failedIterations + 1 };
    } else {
      state = { ...state, successfulIterations: state.successfulIterations + 1 };
      record.workRemaining = `Finish ${cycle.issueIds[0]}: the validation of --max-iterations and --slice-minutes, then the tests for both (step ${cycle.iterations})`;
      if (cycle.iterations >= cycle.length) {
        const passed = rnd() < 0.75;
        record.tests = { passed, exitCode: passed ? 0 : 1, durationMs: 5_000 + Math.floor(rnd() * 60_000) };
        state = { ...state, testsPassed: passed };
        if (passed) {
          record.outcome = 'complete';
          delete record.workRemaining;
          state = {
            ...state,
            issuesClosed: [...state.issuesClosed, ...cycle.issueIds],
            completedIterations: [...state.completedIterations, n],
            consecutiveEscalations: 0,
          };
        } else {
          record.outcome = 'tests_failed';
          state = { ...state, testFailures: state.testFailures + 1 };
          cycle.length++;
        }
      }
    }
    state = engine.appendHistory(state, record);
    if (record.outcome === 'complete') cycle = undefined;
  }
  cycle ??= newCycle(total);
  const { length: _length, ...current } = cycle;
  state = {
    ...state,
    slices: Math.ceil(total / 50),
    baseBranch: 'main',
    currentCycle: {
      ...current,
      branch: `agent-loop/${current.issueIds[0]}`,
      lastWorkRemaining: 'Finish the validation',
      lastFailure: { kind: 'agent', message: 'API error 529: overloaded', tail: outputTail(64 * 1024) },
    },
  };
  return state;
}

async function timeIt(count, fn) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return stats(times);
}

export async function benchCheckpoint({ iterations = 10_000, writes = 50 } = {}) {
  const engine = await loadEngine();
  const tBuild = performance.now();
  const state = buildState(engine, iterations);
  const buildMs = performance.now() - tBuild;

  const parsed = engine.parseLoopState({ loop: state });
  if (typeof parsed === 'string') throw new Error(`the generated state is not a valid loop state: ${parsed}`);
  if (
    state.iteration !== iterations ||
    state.history.length !== engine.HISTORY_KEPT ||
    state.compactedIterations !== iterations - engine.HISTORY_KEPT
  ) {
    throw new Error(
      `unexpected state: iteration ${state.iteration}, ${state.history.length} records kept, ${state.compactedIterations} compacted`,
    );
  }

  const dir = tempDir('checkpoint');
  const store = new engine.FileCheckpointStore(dir);
  const id = engine.newCheckpointId();
  const input = { id, phase: 'beads_integration-complete', state: { loop: state } };
  const t0 = performance.now();
  await store.write(input); // the store's first write also lists the directory for the sequence number
  const firstMs = performance.now() - t0;
  for (let i = 0; i < 5; i++) await store.write(input); // warm-up
  const write = await timeIt(writes, () => store.write(input));
  const file = path.join(store.dir, `${id}.json`);
  const size = statSync(file).size;
  const loaded = engine.parseLoopState((await store.load(id)).state);
  if (typeof loaded === 'string' || loaded.iteration !== iterations)
    throw new Error(`the checkpoint written does not read back: ${loaded}`);

  // Where a write's time goes: the parts FileCheckpointStore.write does, one by one.
  const cp = await store.load(id);
  let text = '';
  const serialize = await timeIt(writes, () => {
    text = engine.serializeCheckpoint(cp);
  });
  const parse = await timeIt(writes, () => engine.parseCheckpoint(text, file));
  const atomic = await timeIt(writes, () => engine.writeFileAtomic(path.join(dir, 'atomic-only.json'), text));

  const counts = {
    iteration: state.iteration,
    historyKept: state.history.length,
    compactedIterations: state.compactedIterations,
    issuesClosed: state.issuesClosed.length,
    completedIterations: state.completedIterations.length,
    failedIterations: state.failedIterations,
    testFailures: state.testFailures,
  };
  const tailBytes = Buffer.byteLength(JSON.stringify(state.currentCycle.lastFailure.tail));
  const rows = [
    [
      '(c) checkpoint',
      `${iterations.toLocaleString('en')} iterations, ${state.history.length} records kept`,
      `\`FileCheckpointStore.write\` wall time, median of ${writes} writes after 5 warm-up writes (same id: each write also reads the previous file for its sequence number)`,
      ms(write.median),
      `≤ ${WRITE_TARGET_MS} ms`,
      verdict(write.median <= WRITE_TARGET_MS),
    ],
    [
      '(c) checkpoint',
      'same',
      `the same ${writes} writes, p95 (max ${ms(write.max)})`,
      ms(write.p95),
      `≤ ${WRITE_TARGET_MS} ms`,
      verdict(write.p95 <= WRITE_TARGET_MS),
    ],
    [
      '(c) checkpoint',
      'same',
      'file size on disk',
      kb(size),
      `≤ ${SIZE_TARGET_BYTES / 1e6} MB`,
      verdict(size <= SIZE_TARGET_BYTES),
    ],
    [
      '(c) checkpoint',
      'same',
      'breakdown: serializeCheckpoint / parseCheckpoint (done twice per write) / writeFileAtomic (write, fsync, rename, fsync dir)',
      `median ${ms(serialize.median)} / ${ms(parse.median)} / ${ms(atomic.median)}; p95 ${ms(serialize.p95)} / ${ms(parse.p95)} / ${ms(atomic.p95)}`,
      'info',
      verdict(undefined),
    ],
    [
      '(c) checkpoint',
      'same',
      'first write of a store (also lists the checkpoints directory)',
      ms(firstMs),
      'info',
      verdict(undefined),
    ],
  ];
  const notes = [
    `(c) state: ${JSON.stringify(counts)}; built in ${ms(buildMs)}; the current cycle's 64 KiB failure tail takes ${kb(tailBytes)} of the file (with ANSI escapes JSON-encoded), the ${state.history.length} history records about ${kb(Buffer.byteLength(JSON.stringify(state.history, null, 2)))} pretty-printed.`,
  ];
  return {
    rows,
    notes,
    data: {
      iterations,
      writes,
      writeMs: write,
      firstWriteMs: round(firstMs),
      sizeBytes: size,
      serializeMs: serialize,
      parseMs: parse,
      writeFileAtomicMs: atomic,
      counts,
      tailJsonBytes: tailBytes,
      buildStateMs: round(buildMs),
    },
  };
}
