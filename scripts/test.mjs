// The README's test command: bundle first (integration tests run the built CLI), then jest in ESM
// mode, then one closing line "tests: N passed, N failed".
import { bundleAndTest } from './jest.mjs';

bundleAndTest({ label: 'tests' });
