// What `npm test` and `npm run test:e2e` share: bundle (the tests run the built CLI), run jest in
// ESM mode, and end with one closing line "<label>: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

export const run = (cmd, args, env = process.env) => spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;

export function bundleAndTest({ label, jestArgs = [], env = {} }) {
  if (run(process.execPath, ['scripts/bundle.mjs']) !== 0) process.exit(1);
  mkdirSync('build', { recursive: true });
  const results = `build/jest-${label}-results.json`;
  const code = run(
    process.execPath,
    ['node_modules/jest/bin/jest.js', ...jestArgs, '--json', `--outputFile=${results}`, ...process.argv.slice(2)],
    {
      ...process.env,
      ...env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
    },
  );
  try {
    const r = JSON.parse(readFileSync(results, 'utf8'));
    console.log(`${label}: ${r.numPassedTests} passed, ${r.numFailedTests + r.numRuntimeErrorTestSuites} failed`);
  } catch {
    console.log(`${label}: 0 passed, 1 failed`);
  }
  process.exit(code);
}
