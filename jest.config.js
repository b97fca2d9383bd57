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
  maxWorkers: 2,
  testTimeout: 60000,
};
