/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json' }],
  },
  roots: ['<rootDir>/__tests__', '<rootDir>/e2e'],
  testMatch: ['**/*.test.ts'],
  // The real Claude Code and Codex CLIs, and the input fuzzing: npm run test:e2e (jest.e2e.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/e2e/agents/', '<rootDir>/e2e/campaign/inputFuzz.test.ts'],
  maxWorkers: 2,
  testTimeout: 60000,
};
