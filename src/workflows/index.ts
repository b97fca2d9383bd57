/**
 * The workflows plugged into the engine (src/loop runs the one it is given and names none):
 * implement (the default: the agent works until the tests pass) and tdd (red, green,
 * refactor per test of the checklist). The planning pipeline (`agent-loop plan`,
 * src/workflows/pipeline) runs its phases with the same agent turn, then hands its issues to implement.
 */
import type { Workflow } from '../loop/deps.js';
import { implementWorkflow } from './implement/iteration.js';
import { tddWorkflow } from './tdd/iteration.js';
import type { TddTemplates } from './tdd/settings.js';

export { implementWorkflow, tddWorkflow };

/** The workflow `--workflow <name>` runs each iteration with (pipeline's implementation phase is implement). */
export function workflowFor(name: string | undefined, options: { tddTemplates?: TddTemplates } = {}): Workflow {
  return name === 'tdd' ? tddWorkflow(options.tddTemplates) : implementWorkflow;
}
