// The first run of npm run test:e2e: every scenario of e2e/ that runs the built CLI or the bundled
// action on temporary git repositories with scripted agents, and the adversarial campaign but its
// input fuzzing; not the three smoke files npm run test:integration runs (jest.integration.config.js).
// The real agent CLIs and the fuzzing are the second run (jest.agents.config.js).
import base from './jest.config.js';
import { SMOKE_E2E } from './jest.integration.config.js';

/** @type {import('jest').Config} */
export default {
  ...base,
  roots: ['<rootDir>/e2e'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/e2e/agents/',
    '<rootDir>/e2e/campaign/inputFuzz.test.ts',
    ...SMOKE_E2E.map((f) => `<rootDir>/${f}`),
  ],
  testTimeout: 120000,
};
