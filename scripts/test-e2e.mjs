// `npm run test:e2e`: installs the pinned Claude Code and Codex CLIs into .cache/agent-clis (on
// demand, see scripts/install-agent-clis.mjs), bundles, then runs e2e/agents with the CLIs first on
// PATH, and prints one closing line "e2e: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const run = (cmd, args, env = process.env) => spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;

if (run(process.execPath, ['scripts/install-agent-clis.mjs']) !== 0) process.exit(1);
if (run(process.execPath, ['scripts/bundle.mjs']) !== 0) process.exit(1);
mkdirSync('build', { recursive: true });
const results = 'build/jest-e2e-results.json';
const bin = path.resolve('.cache', 'agent-clis', 'node_modules', '.bin');
const code = run(process.execPath, ['node_modules/jest/bin/jest.js', '--config', 'jest.e2e.config.js', '--json', `--outputFile=${results}`, ...process.argv.slice(2)], {
  ...process.env,
  PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
  AGENT_LOOP_E2E_BIN: bin,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
});
try {
  const r = JSON.parse(readFileSync(results, 'utf8'));
  console.log(`e2e: ${r.numPassedTests} passed, ${r.numFailedTests + r.numRuntimeErrorTestSuites} failed`);
} catch {
  console.log('e2e: 0 passed, 1 failed');
}
process.exit(code);
