/**
 * The action's inputs, parsed by the same schema as the CLI's flags: each input is the flag of the
 * same name (INPUT_MAX-ITERATIONS is --max-iterations), `checkpoint-id` is --resume, `resume` is
 * --resume-halted, the issue
 * source defaults to github and on-success to pull-request. Errors name the input, not a flag.
 */
import { type LoadedConfig, loadConfig } from '../config/load.js';
import { OptionsSchema, byFlag, optionsFor } from '../config/options.js';
import { ConfigError } from '../config/problems.js';

/** The environment variable the runner sets for an input (as @actions/core's getInput reads it). */
export const inputEnv = (name: string) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;

export function readInputs(env: NodeJS.ProcessEnv): Map<string, string> {
  const flags = new Map<string, string>();
  for (const o of optionsFor('action')) {
    // Renamed for the workflow: the checkpoint to resume is checkpoint-id, resuming a halt is resume.
    if (o.flag === 'resume' || o.flag === 'resume-halted') continue;
    const value = env[inputEnv(o.flag)]?.trim();
    if (value) flags.set(o.flag, value);
  }
  const checkpoint = env[inputEnv('checkpoint-id')]?.trim();
  if (checkpoint) flags.set('resume', checkpoint);
  const resumeHalted = env[inputEnv('resume')]?.trim();
  if (resumeHalted) flags.set('resume-halted', resumeHalted);
  if (!flags.has('source')) flags.set('source', 'github');
  // A runner is thrown away: finished work goes to GitHub as a pull request unless the input says
  // merge (only the input opts in to pushing the base branch, not a config file meant for the CLI).
  if (!flags.has('on-success')) flags.set('on-success', 'pull-request');
  return flags;
}

/** Options of one action run; throws ConfigError whose messages name the inputs. */
export function loadActionConfig(env: NodeJS.ProcessEnv, readFile?: (path: string) => string): LoadedConfig {
  try {
    return loadConfig({ command: 'action', flags: readInputs(env), env, readFile });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(
      error.problems.map((p) => ({
        option: p.option
          .replace(/^--resume$/, 'checkpoint-id')
          .replace(/^--resume-halted$/, 'resume')
          .replace(/^--/, ''),
        message: p.message
          .replace(/--resume-halted\b/g, 'input resume')
          .replace(/--resume(?![-\w])/g, 'checkpoint-id')
          .replace(/(^|[\s(])--([a-z-]+)/g, '$1input $2'),
      })),
    );
  }
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
