/**
 * The implement workflow, plugged into the engine: the agent works until the tests pass
 * (implement → verify). Its iteration is a sub-machine of the core (machine.ts, deciding with
 * decide.ts's stepIteration); the interpreter performs its effects (src/loop/effects/agent.ts,
 * judge.ts).
 */
import type { Workflow } from '../../loop/deps.js';
import { implementMachine } from './machine.js';

/** The default workflow: the agent works until the tests pass (implement → verify). */
export const implementWorkflow: Workflow = {
  name: 'implement',
  batches: true,
  machine: (deps) =>
    implementMachine({
      settings: deps.settings,
      agentName: deps.agent.displayName,
      canMarkNoChange: deps.source.markNoChange !== undefined,
      sourceHint: deps.source.description,
    }),
};
