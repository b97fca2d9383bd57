// Claude adapter parsing a 1 GiB synthetic stream-json: throughput and peak RSS of the process
// running the adapter (the stream comes from bench/lib/fake-claude.mjs through a real pipe).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { benchDir, mb, repoRoot, round, tempDir, verdict } from './lib/common.mjs';

export const THROUGHPUT_TARGET_MBS = 150;
export const RSS_TARGET_BYTES = 120e6;
const OUT = path.join('build', 'bench-claude');
const BYTES = 1024 ** 3;

export async function benchClaude() {
  const built = spawnSync(
    process.execPath,
    [
      'node_modules/@vercel/ncc/dist/ncc/cli.js',
      'build',
      'bench/claude-entry.ts',
      '-o',
      OUT,
      '--target',
      'es2022',
      '-q',
    ],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (built.status !== 0) throw new Error('ncc could not build bench/claude-entry.ts');
  const dir = tempDir('agent-loop-bench-claude-');
  const run = spawnSync(
    process.execPath,
    [
      path.join(benchDir, 'lib', 'claude-run.mjs'),
      path.join(repoRoot, OUT, 'index.js'),
      dir,
      path.join(dir, 'iteration-1.ndjson'),
    ],
    {
      env: { ...process.env, FAKE_CLAUDE_BYTES: String(BYTES) },
      encoding: 'utf8',
      maxBuffer: 1024 * 1024,
    },
  );
  if (run.status !== 0) throw new Error(`the adapter run failed: ${run.stderr}`);
  const r = JSON.parse(run.stdout.trim().split('\n').pop());
  if (!r.ok || !r.report) throw new Error(`the adapter did not read the stream to its result: ${run.stdout}`);
  const mbs = BYTES / 1e6 / (r.durationMs / 1000);
  return {
    rows: [
      [
        'claude adapter',
        '1 GiB stream-json',
        'throughput: bytes / time from spawn to exit, parse and display included',
        `${mbs.toFixed(0)} MB/s`,
        `≥ ${THROUGHPUT_TARGET_MBS} MB/s`,
        verdict(mbs >= THROUGHPUT_TARGET_MBS),
      ],
      [
        'claude adapter',
        '1 GiB stream-json',
        'peak RSS of the process running the adapter',
        mb(r.maxRssBytes),
        '< 120 MB',
        verdict(r.maxRssBytes < RSS_TARGET_BYTES),
      ],
    ],
    notes: [
      `claude adapter: ${r.shown} display lines (tool calls and messages), result read, report block parsed, cost ${r.costUsd} USD; the stream log stopped at its 32 MiB cap.`,
    ],
    data: { throughputMBs: round(mbs, 1), maxRssBytes: r.maxRssBytes, durationMs: round(r.durationMs, 1) },
  };
}
