// npm run test:integration: what starts real processes beyond the unit tests' own: every
// *.integration.test.ts of __tests__/ (the engine on real git repositories: the git adapter, the
// landing steps, the loop's real-git scenarios) and three smoke files of the end-to-end suite that run
// the built bundles (the action run as the runner runs it, bad input to the CLI, a dirty or detached
// repository left untouched). scripts/test-integration.mjs bundles first, then runs this, then the
// redaction property tests again with 1,000 runs per property.
import base from './jest.config.js';

/** The e2e/ files run here rather than in npm run test:e2e (jest.e2e.config.js leaves them out). */
export const SMOKE_E2E = ['e2e/action.test.ts', 'e2e/inputs.test.ts', 'e2e/preconditions.test.ts'];

/** @type {import('jest').Config} */
export default {
  ...base,
  roots: ['<rootDir>/__tests__', '<rootDir>/e2e'],
  testMatch: ['<rootDir>/__tests__/**/*.integration.test.ts', ...SMOKE_E2E.map((f) => `<rootDir>/${f}`)],
  testPathIgnorePatterns: ['/node_modules/'],
  // As jest.e2e.config.js: the smoke files run the built action end to end (about 4 minutes for
  // e2e/action.test.ts's five runs on a loaded machine).
  testTimeout: 120000,
};
