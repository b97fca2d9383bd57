/**
 * Every option, in one zod schema: each field carries its flag, help text and what is expected, so
 * `--help`, the README's reference, the action's inputs and every error message come from the same
 * place. `OPTIONS` is the table the schema generates: flag, environment name (AGENT_LOOP_<OPTION>),
 * the default as shown, and where each option applies.
 */
import { z } from 'zod';
import { AGENT_CATALOG } from '../agents/catalog.js';
import { registry, type OptionMeta, type Scope } from './options/kinds.js';
import { inputOptions } from './options/input.js';
import { agentOptions } from './options/agent.js';
import { workOptions } from './options/work.js';
import { limitOptions } from './options/limits.js';
import { stateOptions } from './options/state.js';
import { githubOptions } from './options/github.js';
import { commandOptions } from './options/commands.js';

export { COMMANDS, type Command, type Scope, type NameOption, type Terms, type HelpText } from './options/kinds.js';

/** The schema, its options in the order --help, the README and action.yml list them (src/config/options/). */
export const OptionsSchema = z.object({
  ...inputOptions,
  ...agentOptions,
  ...workOptions,
  ...limitOptions,
  ...stateOptions,
  ...githubOptions,
  ...commandOptions,
});

export type Options = z.infer<typeof OptionsSchema>;
export type OptionKey = keyof Options;

/** Subset of options the run command uses, for modules that should not see the rest. */
export type RunOptions = Options;

export interface OptionInfo extends OptionMeta {
  key: OptionKey;
  /** The action's input (action.yml): the flag, or the name the option has there. */
  input: string;
  /** The default as shown to users. */
  defaultValue?: string;
  env: string;
}

export const OPTIONS: readonly OptionInfo[] = Object.entries(OptionsSchema.shape).map(([key, schema]) => {
  const meta = registry.get(schema as z.ZodType);
  if (!meta) throw new Error(`option ${key} has no metadata`);
  const parsed = (schema as z.ZodType).safeParse(undefined);
  const dflt = parsed.success && parsed.data !== undefined ? String(parsed.data) : meta.defaultText;
  return {
    ...meta,
    key: key as OptionKey,
    input: meta.input ?? meta.flag,
    defaultValue: dflt,
    env: `AGENT_LOOP_${meta.flag.toUpperCase().replace(/-/g, '_')}`,
  };
});

/** The options by their flag, and by their key. */
export const byFlag = new Map(OPTIONS.map((o) => [o.flag, o]));
export const byKey = new Map(OPTIONS.map((o) => [o.key, o]));
export const optionsFor = (command: Scope) => OPTIONS.filter((o) => o.commands.includes(command));

/** --iteration-delay when it is not given: the agent's own (src/agents/catalog.ts says why). */
export function defaultIterationDelay(agent: Options['agent']): number {
  return AGENT_CATALOG[agent].iterationDelaySeconds;
}
