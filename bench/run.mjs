#!/usr/bin/env node
// `npm run bench`: the engine's performance targets, measured on the built CLI and the compiled
// engine modules. Prints the machine and a Markdown table (✓ target met, ✗ missed, – information)
// and writes bench/results.json. Exits 0 whether or not the targets are met; 1 when a benchmark
// could not run at all.
//
//   node bench/run.mjs [--only overhead,ratio,rss,checkpoint,claude,action-start,github-calls,idle,invocations,refusals,parallel,matrix] [--profile]
//
// --profile: also CPU-profile the overhead runs (done anyway when an overhead target is missed).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchActionStart } from './actionStart.mjs';
import { benchCheckpoint } from './checkpoint.mjs';
import { benchClaude } from './claude.mjs';
import { benchGitHubCalls } from './githubCalls.mjs';
import { benchIdle } from './idle.mjs';
import { benchInvocations } from './invocations.mjs';
import { benchMatrix } from './matrix.mjs';
import { benchParallel } from './parallel.mjs';
import { benchRefusals } from './refusals.mjs';
import { benchDir, cleanup, machine, round, snapshotCli, table } from './lib/common.mjs';
import { benchOverhead, benchRatio } from './overhead.mjs';
import { benchRss } from './rss.mjs';

const argv = process.argv.slice(2);
const onlyArg = argv.includes('--only') ? (argv[argv.indexOf('--only') + 1] ?? '') : '';
const only = onlyArg ? new Set(onlyArg.split(',')) : undefined;
const profile = argv.includes('--profile');
const wanted = (name) => !only || only.has(name);

const started = performance.now();
const env = machine();
console.log('# agent-loop benchmarks\n');
console.log(
  `Machine: Node ${env.node} (V8 ${env.v8}), ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB RAM, ${env.os}; temp dir ${env.tmpdir}; load average at start ${env.loadavg.join(' / ')}; code ${env.commit}.\n`,
);

const results = {
  machine: env,
  startedAt: new Date().toISOString(),
  benchmarks: {},
  rows: [],
  tables: [],
  notes: [],
  failures: [],
};
const rows = [];
const notes = [];
/** Further tables a benchmark prints after the main one: { title, headers, rows }. */
const tables = [];
let snapshot;

async function step(name, fn) {
  if (!wanted(name)) return;
  const t0 = performance.now();
  process.stderr.write(`bench: ${name} …\n`);
  try {
    const out = await fn();
    rows.push(...out.rows);
    notes.push(...out.notes);
    tables.push(...(out.tables ?? []));
    results.benchmarks[name] = { ...out.data, seconds: round((performance.now() - t0) / 1000, 1) };
  } catch (error) {
    results.failures.push({ benchmark: name, error: String(error?.stack ?? error) });
    rows.push([name, 'could not run', String(error?.message ?? error).split('\n')[0], 'n/a', '', '✗']);
  }
  process.stderr.write(`bench: ${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

const cli = () => (snapshot ??= snapshotCli()).cli;
await step('overhead', () => benchOverhead({ cli: cli(), profile }));
await step('ratio', () => benchRatio({ cli: cli() }));
await step('rss', () => benchRss({ cli: cli() }));
await step('checkpoint', () => benchCheckpoint());
await step('claude', () => benchClaude());
await step('action-start', () => benchActionStart());
await step('github-calls', () => benchGitHubCalls());
await step('idle', () => benchIdle());
await step('invocations', () => benchInvocations());
await step('refusals', () => benchRefusals());
await step('parallel', () => benchParallel({ cli: cli() }));
await step('matrix', () => benchMatrix());
if (snapshot) results.cli = snapshot.origin;

const seconds = (performance.now() - started) / 1000;
console.log(table(['Benchmark', 'Case', 'Measure', 'Result', 'Target', 'Met'], rows));
console.log('');
for (const t of tables) console.log(`${t.title}\n\n${table(t.headers, t.rows)}\n`);
for (const note of notes) console.log(`- ${note}`);
for (const f of results.failures) console.log(`- ${f.benchmark} FAILED: ${f.error}`);
const loadEnd = os.loadavg().map((x) => round(x, 2));
console.log(
  `\nCLI measured: ${results.cli ?? 'n/a'}. Total ${seconds.toFixed(1)} s; load average at end ${loadEnd.join(' / ')} (other work on the machine shows up as noise, mostly in the p95 figures).`,
);

Object.assign(results, { rows, tables, notes, seconds: round(seconds, 1), loadavgAtEnd: loadEnd });
const out = path.join(benchDir, 'results.json');
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`Results written to ${path.relative(process.cwd(), out) || out}.`);
cleanup();
process.exitCode = results.failures.length ? 1 : 0;
