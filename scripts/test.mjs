// The README's test command: the unit and core tests (jest.config.js: __tests__/ but its
// *.integration.test.ts files), in ESM mode, then one closing line "tests: N passed, N failed". It
// does not bundle: nothing here runs dist/ (npm run test:integration and npm run test:e2e do).
import { bundleAndTest } from './jest.mjs';

bundleAndTest({ label: 'tests', bundle: false });
