// The README's test command: bundle first (integration tests run the built CLI), then jest in ESM
// mode, then one closing line "tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

const run = (cmd, args, env = process.env) => spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;

if (run(process.execPath, ['scripts/bundle.mjs']) !== 0) process.exit(1);
mkdirSync('build', { recursive: true });
const results = 'build/jest-results.json';
const code = run(process.execPath, ['node_modules/jest/bin/jest.js', '--json', `--outputFile=${results}`, ...process.argv.slice(2)], {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
});
try {
  const r = JSON.parse(readFileSync(results, 'utf8'));
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests + r.numRuntimeErrorTestSuites} failed`);
} catch {
  console.log('tests: 0 passed, 1 failed');
}
process.exit(code);
