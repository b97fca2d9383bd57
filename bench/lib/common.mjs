// Shared helpers for the benchmarks: statistics, formatting, temporary directories, the CLI snapshot.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const repoRoot = path.dirname(benchDir);
export const probeUrl = pathToFileURL(path.join(benchDir, 'lib', 'probe.mjs')).href;

/** Median, nearest-rank p95, mean, min, max of a list of numbers. */
export function stats(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const n = v.length;
  if (n === 0) return { n: 0, median: NaN, p95: NaN, mean: NaN, min: NaN, max: NaN };
  const median = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  const p95 = v[Math.max(0, Math.ceil(0.95 * n) - 1)];
  const mean = v.reduce((a, b) => a + b, 0) / n;
  return { n, median, p95, mean, min: v[0], max: v[n - 1] };
}

export const round = (x, digits = 2) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);
export const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 2 : 1)} ms` : 'n/a');
export const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB (${(bytes / 1048576).toFixed(1)} MiB)`;
export const kb = (bytes) => `${(bytes / 1e3).toFixed(1)} kB (${bytes} B)`;

/** Temporary directories, all removed by cleanup() (also on an unexpected exit). */
const temps = [];
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `agent-loop-bench-${prefix}-`));
  temps.push(dir);
  return dir;
}
export function cleanup() {
  while (temps.length) rmSync(temps.pop(), { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    cleanup();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  });
}

/** An issue that never closes: the agent never closes it and never reports done, so every run ends at max_iterations. */
export function writeIssues(dir) {
  mkdirSync(path.join(dir, '.beads'), { recursive: true });
  const issue = {
    id: 'bench-1',
    title: 'An issue that never closes',
    description: 'The benchmark agent changes nothing.',
    status: 'open',
    priority: 0,
    issue_type: 'task',
    created_at: '2026-11-01T09:00:00Z',
    updated_at: '2026-11-01T09:00:00Z',
  };
  writeFileSync(path.join(dir, '.beads', 'issues.jsonl'), `${JSON.stringify(issue)}\n`);
  return '.beads/issues.jsonl';
}

/** The environment for the CLI: no system git config; outside git, git must not find a repository above `dir`. */
export function cliEnv(dir, { git }) {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  for (const k of Object.keys(env))
    if (k.startsWith('GIT_') && !['GIT_CONFIG_NOSYSTEM', 'GIT_TERMINAL_PROMPT'].includes(k)) delete env[k];
  if (!git) env.GIT_CEILING_DIRECTORIES = path.dirname(dir);
  return env;
}

export function gitInit(dir) {
  const git = (...args) => {
    const r = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: cliEnv(dir, { git: true }),
    });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr || r.error}`);
    return r.stdout.trim();
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'bench');
  git('config', 'user.email', 'bench@example.invalid');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench: one issue that never closes');
}

export function isGitWorkTree(dir, env) {
  return (
    spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: dir, env, encoding: 'utf8' }).stdout?.trim() ===
    'true'
  );
}

/**
 * A private copy of the built CLI (dist/cli/ is an ncc bundle: one file and its package.json), so that a rebuild of
 * dist/ while the benchmark runs cannot change or remove what is measured. When dist/cli/index.js
 * is missing, the same bundle is built into the copy's directory (dist/ itself is left alone).
 */
export function snapshotCli() {
  const dist = path.join(repoRoot, 'dist', 'cli');
  const dir = tempDir('cli');
  const copy = () => {
    try {
      for (const f of ['index.js', 'package.json']) copyFileSync(path.join(dist, f), path.join(dir, f));
      return true;
    } catch {
      return false;
    }
  };
  if (copy()) return { cli: path.join(dir, 'index.js'), origin: 'dist/cli/index.js (copied)' };
  console.error('dist/cli/index.js is missing: bundling src/cli.ts with ncc into a temporary directory …');
  const r = spawnSync(
    process.execPath,
    ['node_modules/@vercel/ncc/dist/ncc/cli.js', 'build', 'src/cli.ts', '-o', dir, '--target', 'es2022', '-q'],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (r.status !== 0)
    throw new Error('bundling src/cli.ts failed; run `node scripts/bundle.mjs` and look at its errors');
  return {
    cli: path.join(dir, 'index.js'),
    origin: 'src/cli.ts bundled by the benchmark (dist/cli/index.js was missing)',
  };
}

/** Node version, CPU, cores, memory, load, OS, and the commit of the code measured. */
export function machine() {
  const cpus = os.cpus();
  const head =
    spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout?.trim() || 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src', 'scripts'], {
    cwd: repoRoot,
    encoding: 'utf8',
  }).stdout?.trim();
  const fs = spawnSync('df', ['-T', os.tmpdir()], { encoding: 'utf8' }).stdout?.trim().split('\n')[1]?.split(/\s+/)[1];
  return {
    node: process.version,
    v8: process.versions.v8,
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    tmpdir: `${os.tmpdir()}${fs ? ` (${fs})` : ''}`,
    loadavg: os.loadavg().map((x) => round(x, 2)),
    commit: `${head}${dirty ? ' + uncommitted changes in src/ or scripts/' : ''}`,
  };
}

/** A Markdown table. */
export function table(headers, rows) {
  const esc = (s) => String(s).replace(/\|/g, '\\|');
  return [
    `| ${headers.map(esc).join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

/** ✓ / ✗ for a target; – for a row that is information only. */
export const verdict = (met) => (met === undefined ? '–' : met ? '✓' : '✗');

/** A TypeScript entry (the e2e stand-ins) bundled by ncc into `out` under the repository, then imported. */
export async function loadBundled(entry, out) {
  const r = spawnSync(
    process.execPath,
    ['node_modules/@vercel/ncc/dist/ncc/cli.js', 'build', entry, '-o', out, '--target', 'es2022', '-q'],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`ncc could not build ${entry}`);
  return import(pathToFileURL(path.join(repoRoot, out, 'index.js')).href);
}

/** One step of the bundled action (dist/<script>/index.js: main or post) as the runner runs it: its exit code and log. */
export function actionStep(script, env, cwd) {
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist', script, 'index.js')], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (c) => (log += c));
  child.stderr.on('data', (c) => (log += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, log })));
}

/** name<<DELIMITER \n value \n DELIMITER, as @actions/core writes GITHUB_OUTPUT and GITHUB_STATE, read from `file`. */
export const fileCommands = (file) =>
  Object.fromEntries(
    [...readFileSync(file, 'utf8').matchAll(/^([^\n<]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)].map((m) => [m[1], m[3]]),
  );
