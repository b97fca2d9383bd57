// Installs the agent CLIs the end-to-end tests drive, at pinned versions, into .cache/agent-clis/:
//   node scripts/install-agent-clis.mjs
// They are NOT devDependencies on purpose: both ship their native binary in per-platform optional
// packages, and the npm registry mirror reachable here has no darwin/win32 platform packages, so
// listing them in package.json puts entries into package-lock.json that `npm ci` cannot fetch,
// which breaks installing the project itself. Installing them on demand, outside the lock file,
// keeps `npm ci` working everywhere. When they cannot be installed, npm run test:e2e fails saying so.
// Idempotent: when both binaries already print the pinned versions, it does nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PINNED = [
  { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' },
  { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prefix = path.join(root, '.cache', 'agent-clis');
const binDir = path.join(prefix, 'node_modules', '.bin');
const rel = (p) => path.relative(root, p) || '.';

/** The version the installed binary reports, or null when it is missing or does not run. */
function installedVersion(bin) {
  const file = path.join(binDir, bin);
  if (!existsSync(file)) return null;
  const r = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) return null;
  // claude prints "2.1.197 (Claude Code)", codex prints "codex-cli 0.169.0".
  return /\d+\.\d+\.\d+(?:-[\w.]+)?/.exec(r.stdout)?.[0] ?? null;
}

function check() {
  return PINNED.map((p) => ({ ...p, found: installedVersion(p.bin) }));
}

const before = check();
const missing = before.filter((p) => p.found !== p.version);
for (const p of before) {
  const state = p.found === p.version ? 'ok' : p.found ? `found ${p.found}, want ${p.version}` : 'not installed';
  console.log(`agent CLI ${p.bin} (${p.pkg}@${p.version}): ${state}`);
}
if (missing.length === 0) {
  console.log(`agent CLIs already installed in ${rel(binDir)}`);
  process.exit(0);
}

mkdirSync(prefix, { recursive: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const args = [
  'install',
  '--prefix',
  prefix,
  '--no-save',
  '--no-package-lock',
  '--no-audit',
  '--no-fund',
  ...missing.map((p) => `${p.pkg}@${p.version}`),
];
console.log(`running: npm ${args.map((a) => (a === prefix ? rel(prefix) : a)).join(' ')}`);
const r = spawnSync(npm, args, { stdio: 'inherit', cwd: root, timeout: 15 * 60_000 });
if (r.error || r.status !== 0) {
  const why = r.error ? r.error.message : `exit code ${r.status ?? `signal ${r.signal}`}`;
  console.error(`install-agent-clis: npm install of ${missing.map((p) => p.pkg).join(', ')} failed (${why}).`);
  console.error(
    'install-agent-clis: check that the npm registry is reachable and carries the pinned versions for this platform.',
  );
  process.exit(1);
}

const after = check();
const bad = after.filter((p) => p.found !== p.version);
if (bad.length > 0) {
  for (const p of bad) {
    console.error(
      `install-agent-clis: ${rel(path.join(binDir, p.bin))} reports ${p.found ?? 'nothing (missing or does not run)'}, expected ${p.version}.`,
    );
  }
  console.error(
    'install-agent-clis: the install finished but the binaries are not usable (is the native platform package missing?).',
  );
  process.exit(1);
}
for (const p of after) console.log(`installed ${p.bin} ${p.found} -> ${rel(path.join(binDir, p.bin))}`);
