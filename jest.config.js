// npm test: the unit and integration tests (__tests__/: the engine with real git and in-memory
// ports) and three smoke files of the end-to-end suite, so every commit also exercises the built
// CLI and the bundled action: the action run as the runner runs it, bad input to the CLI, and a
// dirty or detached repository left untouched. The rest of e2e/ is npm run test:e2e
// (jest.e2e.config.js, then jest.agents.config.js).
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json' }],
  },
  roots: ['<rootDir>/__tests__', '<rootDir>/e2e'],
  testMatch: [
    '<rootDir>/__tests__/**/*.test.ts',
    '<rootDir>/e2e/action.test.ts',
    '<rootDir>/e2e/inputs.test.ts',
    '<rootDir>/e2e/preconditions.test.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 2,
  testTimeout: 60000,
};
