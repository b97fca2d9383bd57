// What `npm test`, `npm run test:integration` and `npm run test:e2e` share: bundle when asked (the
// integration and e2e tests run the built CLI and action; the unit tests do not), run jest in ESM
// mode once per configuration given, and end with one closing line "<label>: N passed, N failed"
// summed over them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

export const run = (cmd, args, env = process.env) => spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;

/**
 * `runs`: one jest invocation per entry, each with its own arguments (e.g. `--config`) and
 * environment (added to `env`, which every run gets). `bundle`: build dist/ first if it is stale.
 */
export function bundleAndTest({ label, runs = [{ name: label, jestArgs: [] }], env = {}, bundle = true }) {
  if (bundle && run(process.execPath, ['scripts/bundle.mjs', '--if-stale']) !== 0) process.exit(1);
  mkdirSync('build', { recursive: true });
  let passed = 0;
  let failed = 0;
  let code = 0;
  for (const { name, jestArgs, env: runEnv = {} } of runs) {
    const results = `build/jest-${name}-results.json`;
    const status = run(
      process.execPath,
      ['node_modules/jest/bin/jest.js', ...jestArgs, '--json', `--outputFile=${results}`, ...process.argv.slice(2)],
      {
        ...process.env,
        ...env,
        ...runEnv,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
      },
    );
    if (status !== 0) code = status;
    try {
      const r = JSON.parse(readFileSync(results, 'utf8'));
      passed += r.numPassedTests;
      failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
    } catch {
      failed += 1;
    }
  }
  console.log(`${label}: ${passed} passed, ${failed} failed`);
  process.exit(code);
}
