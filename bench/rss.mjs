// (b) Peak RSS of the CLI's own node process while the agent prints 1 GiB, the CLI's stdout
// (NDJSON, one event per agent line) going to /dev/null, --max-iterations 1.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cliEnv, mb, ms, probeUrl, round, tempDir, verdict, writeIssues } from './lib/common.mjs';

export const RSS_TARGET_BYTES = 100e6;
const GIB = 1073741824;

const CASES = [
  { name: 'baseline: agent `true`', command: 'true', bytes: 0, target: false },
  // `yes` repeats a 100-byte line (99 × "a" + "\n"); head cuts the stream at exactly 1 GiB: 10,737,419 lines.
  { name: '1 GiB in 100-byte lines', command: `yes ${'a'.repeat(99)} | head -c ${GIB}`, bytes: GIB, target: true },
  // One 1 GiB line: the line splitter hands it on in 64 KiB pieces.
  { name: '1 GiB without a newline', command: `head -c ${GIB} /dev/zero | tr '\\0' a`, bytes: GIB, target: true },
];

/** GNU time, when installed: its %M is the peak RSS of the largest of the CLI and its descendants. */
function gnuTime() {
  const bin = '/usr/bin/time';
  if (!existsSync(bin)) return undefined;
  const r = spawnSync(bin, ['-f', '%M', 'true'], { encoding: 'utf8' });
  return r.status === 0 && /^\d+\s*$/.test(r.stderr.trim().split('\n').pop() ?? '') ? bin : undefined;
}

/** Runs the CLI once on `c` with stdout to /dev/null; peak RSS from the probe (and GNU time when there). */
function runCase(c, { cli, time, scratch, nodeFlags = [] }) {
  const dir = tempDir('rss');
  const issuesFile = writeIssues(dir);
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const probeFile = path.join(scratch, `${tag}.json`);
  const timeFile = path.join(scratch, `${tag}.time`);
  const cliArgs = [
    ...nodeFlags,
    '--import',
    probeUrl,
    cli,
    'run',
    '--agent',
    'command',
    '--agent-command',
    c.command,
    '--test-command',
    'true',
    '--iteration-delay',
    '0',
    '--max-iterations',
    '1',
    '--issues-file',
    issuesFile,
    '--fresh',
    '--json',
  ];
  const [file, args] = time
    ? [time, ['-f', '%M', '-o', timeFile, process.execPath, ...cliArgs]]
    : [process.execPath, cliArgs];
  const devNull = openSync('/dev/null', 'w');
  const t0 = performance.now();
  let r;
  try {
    r = spawnSync(file, args, {
      cwd: dir,
      env: { ...cliEnv(dir, { git: false }), AGENT_LOOP_BENCH_PROBE: probeFile },
      stdio: ['ignore', devNull, 'pipe'],
      encoding: 'utf8',
    });
  } finally {
    closeSync(devNull);
  }
  const wallMs = performance.now() - t0;
  if (r.status !== 1)
    throw new Error(
      `${c.name}: expected exit code 1 (halted at max_iterations), got ${r.status}: ${r.stderr || r.error}`,
    );
  const probe = JSON.parse(readFileSync(probeFile, 'utf8'));
  const timeKiB = time ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) : undefined;
  // What the engine recorded about the agent run, from the checkpoint it wrote.
  const cpDir = path.join(dir, '.agent-loop', 'checkpoints');
  const cp = JSON.parse(
    readFileSync(
      path.join(
        cpDir,
        readdirSync(cpDir).find((f) => f.endsWith('.json')),
      ),
      'utf8',
    ),
  );
  const agent = cp.state.loop.history[0]?.agent;
  if (!agent?.ok) throw new Error(`${c.name}: the agent run failed: ${JSON.stringify(agent)}`);
  return { peak: probe.maxRssKiB * 1024, memory: probe.memory, timeKiB, agentMs: agent.durationMs, wallMs };
}

const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;

export function benchRss({ cli }) {
  const time = gnuTime();
  const scratch = tempDir('rss-probe');
  const rows = [];
  const notes = [];
  const data = {};
  const missed = [];
  for (const c of CASES) {
    const m = runCase(c, { cli, time, scratch });
    rows.push([
      '(b) peak RSS',
      c.name,
      'CLI node process only: `process.resourceUsage().maxRSS` at exit (preloaded probe)',
      mb(m.peak),
      c.target ? `< ${RSS_TARGET_BYTES / 1e6} MB` : 'info',
      verdict(c.target ? m.peak < RSS_TARGET_BYTES : undefined),
    ]);
    if (m.timeKiB !== undefined) {
      rows.push([
        '(b) peak RSS',
        c.name,
        'cross-check: GNU `/usr/bin/time -f %M` (largest of the CLI and its descendants)',
        mb(m.timeKiB * 1024),
        'info',
        verdict(undefined),
      ]);
    }
    if (c.target && m.peak >= RSS_TARGET_BYTES) missed.push(c);
    data[c.name] = {
      agentCommand: c.command.length > 80 ? `${c.command.slice(0, 40)}…${c.command.slice(-30)}` : c.command,
      bytes: c.bytes,
      cliMaxRssKiB: m.peak / 1024,
      gnuTimeMaxRssKiB: m.timeKiB ?? null,
      memory: m.memory,
      agentMs: m.agentMs,
      processWallMs: round(m.wallMs),
    };
    notes.push(
      `(b) ${c.name}: ${c.bytes ? `the agent ran ${ms(m.agentMs)} (${(c.bytes / 1048576 / (m.agentMs / 1000)).toFixed(0)} MiB/s through the CLI), the whole process ${ms(m.wallMs)}; ` : ''}` +
        `largest samples (every 50 ms): V8 heap total ${mib(m.memory.heapTotalMax)} (used ${mib(m.memory.heapUsedMax)}), external ${mib(m.memory.externalMax)} (Buffers ${mib(m.memory.arrayBuffersMax)}).`,
    );
  }
  // When the target is missed: the same run with V8's young generation capped, to show how much of
  // the peak is the semi-spaces grown by the allocation rate (information, not the product as shipped).
  for (const c of missed) {
    const flag = '--max-semi-space-size=4';
    const m = runCase(c, { cli, time: undefined, scratch, nodeFlags: [flag] });
    rows.push([
      '(b) peak RSS',
      c.name,
      `what-if, not as shipped: \`node ${flag}\` (V8 young generation capped at 4 MiB semi-spaces)`,
      mb(m.peak),
      'info',
      verdict(undefined),
    ]);
    data[c.name].whatIf = { nodeFlags: [flag], cliMaxRssKiB: m.peak / 1024, memory: m.memory, agentMs: m.agentMs };
  }
  return { rows, notes, data };
}
