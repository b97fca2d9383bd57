/** The agent, with its output masked where it enters the engine (see src/secrets/outputMasker.ts, which process.ts applies). */
import type { Agent } from './types.js';
import type { SecretRedactor } from '../secrets/redact.js';

export function maskOutput(agent: Agent, mask: SecretRedactor): Agent {
  return { displayName: agent.displayName, run: (request) => agent.run({ ...request, mask }) };
}
