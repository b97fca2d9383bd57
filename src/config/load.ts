/**
 * Every option, parsed once: the one place that turns the inputs (flags or the action's inputs, the
 * environment, the config file) into a validated configuration.
 * Precedence: defaults < `.agent-loop.yml` (or --config FILE) < environment (AGENT_LOOP_<OPTION>) < flags.
 * src/config/ is the only code that reads the environment.
 */
import { readFileSync } from 'node:fs';
import { agentOfCommand, checkOptions } from './checks.js';
import { type Origin, readConfigFile } from './configFile.js';
import { OPTIONS, type OptionKey, type Options, OptionsSchema, type Scope, byFlag, optionsFor } from './options.js';
import { ConfigError, type ConfigProblem } from './problems.js';
import { helpText, surface } from './surface.js';
import { collectSecrets } from './secrets.js';

export interface ConfigSources {
  command: Scope;
  flags: Map<string, string | true>;
  env: NodeJS.ProcessEnv;
  /** Reads the config file; injectable for tests. */
  readFile?: (path: string) => string;
}

export interface LoadedConfig {
  options: Options;
  /** Secret values (option values and well-known environment secrets) to mask everywhere. */
  secrets: string[];
}

/** Merges the four layers and validates once. Throws ConfigError listing every problem. */
export function loadConfig(sources: ConfigSources): LoadedConfig {
  const { command, flags, env } = sources;
  const readFile = sources.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const allowed = new Set(optionsFor(command).map((o) => o.key));
  // The action's problems name its inputs, the CLI's its flags (src/config/surface.ts).
  const say = surface(command === 'action' ? 'action' : 'cli');
  const problems: ConfigProblem[] = [];

  for (const [flag] of flags) {
    const info = byFlag.get(flag);
    if (info && !allowed.has(info.key)) {
      problems.push({
        option: `--${flag}`,
        message: `--${flag} is not an option of '${command}'. See agent-loop ${command} --help.`,
      });
    }
  }

  // The pause switch is the action's: a CLI run would go on under AGENT_LOOP_PAUSED=true. Refused.
  if (
    (command === 'run' || command === 'plan') &&
    OptionsSchema.shape.paused.safeParse(env[byFlag.get('paused')!.env]?.trim()).data === true
  )
    problems.push({
      option: '--paused',
      message: `${byFlag.get('paused')!.env} is on, but only the action pauses: agent-loop ${command} does not run while it is set (unset it to run).`,
    });

  // Layer 2: the config file.
  const file = readConfigFile({ flags, env, readFile, allowed, terms: say.terms });
  problems.push(...file.problems);
  const merged = new Map<OptionKey, Origin>(file.values);

  // Layer 3: the environment. Layer 4: flags.
  for (const info of OPTIONS) {
    if (!allowed.has(info.key) || info.key === 'config') continue;
    const fromEnv = env[info.env];
    if (fromEnv !== undefined && fromEnv !== '') merged.set(info.key, { value: fromEnv, from: info.env });
    const fromFlag = flags.get(info.flag);
    if (fromFlag !== undefined) merged.set(info.key, { value: fromFlag, from: say.option(info.key) });
  }

  // --agent-command alone means --agent command; beside --agent claude|codex it is refused.
  if (allowed.has('agent')) {
    const chosen = agentOfCommand(merged.get('agent'), merged.get('agentCommand'), say);
    if (chosen.agent) merged.set('agent', chosen.agent);
    if (chosen.problem) problems.push(chosen.problem);
  }

  const input = Object.fromEntries([...merged].map(([k, o]) => [k, o.value]));
  const result = OptionsSchema.safeParse(input);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = issue.path[0] as OptionKey | undefined;
      const info = OPTIONS.find((o) => o.key === key);
      if (!info) {
        problems.push({ option: String(key), message: issue.message });
        continue;
      }
      const origin = merged.get(info.key);
      const shown = info.secret ? '***' : JSON.stringify(origin?.value);
      const where = origin && origin.from !== say.option(info.key) ? ` (from ${origin.from})` : '';
      problems.push({
        option: `--${info.flag}`,
        message: `${say.option(info.key)}: got ${shown}${where}; expected ${helpText(info.expected, say.terms)}.`,
      });
    }
  }
  const options = result.success ? result.data : undefined;

  if (options) problems.push(...checkOptions(command, options));
  if (problems.length > 0 || !options) throw new ConfigError(problems);

  return { options, secrets: collectSecrets(options, env) };
}
