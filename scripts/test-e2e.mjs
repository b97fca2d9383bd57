// `npm run test:e2e`: installs the pinned Claude Code and Codex CLIs into .cache/agent-clis (on
// demand, see scripts/install-agent-clis.mjs), bundles, then runs the end-to-end suite in three
// jest runs: the built CLI and the bundled action on temporary repositories (jest.e2e.config.js,
// two workers), then the real agent CLIs and the input fuzzing (jest.agents.config.js, one worker,
// the CLIs first on PATH), then the model-based simulation with 10,000 runs (npm test runs 2,000).
// It prints one closing line "e2e: N passed, N failed".
import path from 'node:path';
import { bundleAndTest, run } from './jest.mjs';

if (run(process.execPath, ['scripts/install-agent-clis.mjs']) !== 0) process.exit(1);
const bin = path.resolve('.cache', 'agent-clis', 'node_modules', '.bin');
bundleAndTest({
  label: 'e2e',
  runs: [
    { name: 'e2e', jestArgs: ['--config', 'jest.e2e.config.js'] },
    { name: 'agents', jestArgs: ['--config', 'jest.agents.config.js'] },
    // The model-based simulation again, deeper than npm test's 2,000 runs (about 30 s).
    { name: 'simulation', jestArgs: ['__tests__/simulation'] },
  ],
  env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, AGENT_LOOP_E2E_BIN: bin, SIM_RUNS: '10000' },
});
