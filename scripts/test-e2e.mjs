// `npm run test:e2e`: installs the pinned Claude Code and Codex CLIs into .cache/agent-clis (on
// demand, see scripts/install-agent-clis.mjs), bundles, then runs the end-to-end suite in two jest
// runs: the built CLI and the bundled action on temporary repositories (jest.e2e.config.js, two
// workers), then the real agent CLIs and the input fuzzing (jest.agents.config.js, one worker, the
// CLIs first on PATH). It prints one closing line "e2e: N passed, N failed".
import path from 'node:path';
import { bundleAndTest, run } from './jest.mjs';

if (run(process.execPath, ['scripts/install-agent-clis.mjs']) !== 0) process.exit(1);
const bin = path.resolve('.cache', 'agent-clis', 'node_modules', '.bin');
bundleAndTest({
  label: 'e2e',
  runs: [
    { name: 'e2e', jestArgs: ['--config', 'jest.e2e.config.js'] },
    { name: 'agents', jestArgs: ['--config', 'jest.agents.config.js'] },
  ],
  env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, AGENT_LOOP_E2E_BIN: bin },
});
