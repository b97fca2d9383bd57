// npm test: the unit and core tests of __tests__/ (in-memory ports, pure functions, real processes
// where the process runner is the subject), run before every commit; about a minute or less on a
// 2-core machine. A test that starts real git is named *.integration.test.ts and runs in
// npm run test:integration (jest.integration.config.js), with the smoke files of e2e/ that run the
// built bundles; the rest of e2e/ is npm run test:e2e (jest.e2e.config.js, then jest.agents.config.js).
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json' }],
  },
  roots: ['<rootDir>/__tests__'],
  testMatch: ['<rootDir>/__tests__/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '\\.integration\\.test\\.ts$'],
  maxWorkers: 2,
  // A worker is replaced once its heap passes this after a file. Jest in ESM mode keeps each file's
  // modules, so a worker grew to about 1 GB by its last file; on a busy machine tearing that down took
  // longer than the 500 ms Jest waits, and it reported "A worker process has failed to exit
  // gracefully" although no handle was left open (each worker reached its exit event within 20 ms).
  workerIdleMemoryLimit: '700MB',
  testTimeout: 60000,
};
