// npm run test:e2e: the loop driving the real Claude Code and Codex CLIs against scripted model
// servers on 127.0.0.1 (scripts/test-e2e.mjs installs the pinned CLIs first).
import base from './jest.config.js';

/** @type {import('jest').Config} */
export default {
  ...base,
  roots: ['<rootDir>/e2e/agents'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  testTimeout: 120000,
};
