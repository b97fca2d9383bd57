/**
 * The action's inputs, parsed by the same schema as the CLI's flags: each input is the flag of the
 * same name (INPUT_MAX-ITERATIONS is --max-iterations), `checkpoint-id` is --resume, `resume` is
 * --resume-halted (the schema's input names), the issue source defaults to github and on-success
 * to pull-request. Errors name the input, not a flag.
 */
import { type LoadedConfig, loadConfig } from '../config/load.js';
import { OptionsSchema, byFlag, optionsFor } from '../config/options.js';

/** The environment variable the runner sets for an input (as @actions/core's getInput reads it). */
export const inputEnv = (name: string) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;

export function readInputs(env: NodeJS.ProcessEnv): Map<string, string> {
  const flags = new Map<string, string>();
  for (const o of optionsFor('action')) {
    // Each input by its name (the schema's: the checkpoint to resume is checkpoint-id, resuming a halt is resume).
    const value = env[inputEnv(o.input)]?.trim();
    if (value) flags.set(o.flag, value);
  }
  if (!flags.has('source')) flags.set('source', 'github');
  // A runner is thrown away: finished work goes to GitHub as a pull request unless the input says
  // merge (only the input opts in to pushing the base branch, not a config file meant for the CLI).
  if (!flags.has('on-success')) flags.set('on-success', 'pull-request');
  return flags;
}

/**
 * Options of one action run; throws ConfigError whose messages name the inputs (the configuration
 * words its problems for the action: src/config/surface.ts).
 */
export function loadActionConfig(env: NodeJS.ProcessEnv, readFile?: (path: string) => string): LoadedConfig {
  return loadConfig({ command: 'action', flags: readInputs(env), env, readFile });
}

/** Where the pause switch was found on: the input, or AGENT_LOOP_PAUSED in the step's environment. */
export type PausedBy = 'input' | 'env';

/**
 * The pause switch (issue 15), read before anything else, even before the other inputs are parsed:
 * a loop paused because its configuration is broken stays paused, green. The input wins over the
 * environment, as in the one parse (loadConfig); a value the schema does not take is left to that
 * parse, which fails the step naming it.
 */
export function readPauseSwitch(env: NodeJS.ProcessEnv): PausedBy | undefined {
  const isOn = (value: string | undefined) => OptionsSchema.shape.paused.safeParse(value).data === true;
  const input = env[inputEnv('paused')]?.trim();
  if (input) return isOn(input) ? 'input' : undefined;
  return isOn(env[byFlag.get('paused')!.env]?.trim()) ? 'env' : undefined;
}
