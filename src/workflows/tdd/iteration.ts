/**
 * The red/green/refactor workflow (--workflow tdd, seed 003), plugged into the engine: one agent
 * run per iteration for the current phase of the current test, the tests, then the phase's commit
 * with its git note, a retry, a skipped test, a rolled-back refactoring or an abort. Its iteration
 * is a sub-machine of the core (machine.ts, deciding with step.ts's stepTdd); the interpreter
 * performs its effects (src/loop/effects/).
 */
import type { Workflow } from '../../loop/deps.js';
import { tddMachine } from './machine.js';
import type { TddTemplates } from './settings.js';

/**
 * --workflow tdd: red/green/refactor per test of the checklist, one issue per cycle;
 * `templates` (--tdd-prompts) replace the built-in prompts by phase.
 */
export function tddWorkflow(templates?: TddTemplates): Workflow {
  return {
    name: 'tdd',
    batches: false,
    machine: (deps) =>
      tddMachine({
        settings: deps.settings,
        agentName: deps.agent.displayName,
        git: deps.git !== undefined,
        ...(templates ? { templates } : {}),
      }),
    // The step the cycle in flight runs next, as the run's stage in its checkpoint (state.stage).
    stage: (state) => {
      const phase = state.currentCycle?.tdd?.phase;
      return phase === 'RED' ? 'red' : phase === 'GREEN' ? 'green' : phase === 'REFACTOR' ? 'refactor' : undefined;
    },
  };
}
