// `npm run test:e2e`: installs the pinned Claude Code and Codex CLIs into .cache/agent-clis (on
// demand, see scripts/install-agent-clis.mjs), bundles, then runs e2e/agents with the CLIs first on
// PATH, and prints one closing line "e2e: N passed, N failed".
import path from 'node:path';
import { bundleAndTest, run } from './jest.mjs';

if (run(process.execPath, ['scripts/install-agent-clis.mjs']) !== 0) process.exit(1);
const bin = path.resolve('.cache', 'agent-clis', 'node_modules', '.bin');
bundleAndTest({
  label: 'e2e',
  jestArgs: ['--config', 'jest.e2e.config.js'],
  env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, AGENT_LOOP_E2E_BIN: bin },
});
