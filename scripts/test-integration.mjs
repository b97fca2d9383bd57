// `npm run test:integration`: bundles (the smoke files run the built CLI and action), then runs the
// tests that start real git and the built bundles (jest.integration.config.js), then the redaction
// property tests again with 1,000 runs per property (npm test runs 100: AGENT_LOOP_PROPERTY_RUNS).
// It prints one closing line "integration: N passed, N failed".
import { bundleAndTest } from './jest.mjs';

bundleAndTest({
  label: 'integration',
  runs: [
    { name: 'integration', jestArgs: ['--config', 'jest.integration.config.js'] },
    {
      name: 'properties',
      jestArgs: ['__tests__/report/redact.test.ts'],
      env: { AGENT_LOOP_PROPERTY_RUNS: '1000' },
    },
  ],
});
