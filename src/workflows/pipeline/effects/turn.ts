/** One agent run of a phase's attempt, through the one agent turn every workflow uses (src/loop/turn.ts). */
import { runTurn } from '../../../loop/turn.js';
import { stateFiles } from '../../../persist/stateFiles.js';
import type { Handler } from './context.js';

export const agentTurn: Handler<'agentTurn'> = async (effect, { deps }) => {
  const ports = { ...deps, files: stateFiles(deps.stateDir, deps.redact) };
  const request = { prompt: effect.prompt, iteration: effect.iteration, issueIds: [], timeoutMs: deps.agentTimeoutMs };
  const result = await runTurn(ports, { ...request, keepLog: true });
  const now = deps.clock.now().getTime();
  if (!result) return { type: 'turnRan', now, interrupted: true };
  return { type: 'turnRan', now, ...(result.failure ? { failure: result.failure } : {}) };
};
