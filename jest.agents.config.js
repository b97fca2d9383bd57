// The second run of npm run test:e2e: the loop driving the real Claude Code and Codex CLIs against
// scripted model servers on 127.0.0.1 (scripts/test-e2e.mjs installs the pinned CLIs first), and
// the campaign's input fuzzing (740 runs of the built CLI, about 4 minutes). One worker: the real
// CLIs are heavy.
import base from './jest.config.js';

/** @type {import('jest').Config} */
export default {
  ...base,
  roots: ['<rootDir>/e2e/agents', '<rootDir>/e2e/campaign'],
  testMatch: ['**/e2e/agents/**/*.test.ts', '**/e2e/campaign/inputFuzz.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  testTimeout: 120000,
};
