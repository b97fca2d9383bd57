/**
 * The configuration's second layer: the YAML file (`.agent-loop.yml`, or --config FILE), its keys
 * the flag names. A file that is no configuration is never echoed back.
 */
import YAML from 'yaml';
import { closest } from '../util/suggest.js';
import { OPTIONS, type OptionKey, OptionsSchema, byFlag } from './options.js';
import type { ConfigProblem } from './problems.js';
import { type Terms, surface } from './surface.js';
import { pausedInConfigFile, unknownKeysHidden } from './messages.js';
import { printable } from '../util/printable.js';

/** The configuration file a command line names: --config, else AGENT_LOOP_CONFIG, else `.agent-loop.yml`. */
export function configFileNamed(flags: ReadonlyMap<string, string | true>, env: NodeJS.ProcessEnv): string {
  const explicit = flags.get('config') ?? env.AGENT_LOOP_CONFIG;
  return typeof explicit === 'string' ? explicit : '.agent-loop.yml';
}

/** A value and the layer it came from (the file, an environment variable, a flag), for messages. */
export type Origin = { value: unknown; from: string };

/** The values the config file gives the options of this command, and the problems of the file. */
export function readConfigFile(input: {
  flags: Map<string, string | true>;
  env: NodeJS.ProcessEnv;
  readFile: (path: string) => string;
  allowed: ReadonlySet<OptionKey>;
  /** Whose words its problems use (default: the CLI's, which names the file by --config). */
  terms?: Terms;
}): { values: Map<OptionKey, Origin>; problems: ConfigProblem[] } {
  const { flags, env, allowed } = input;
  const problems: ConfigProblem[] = [];
  const values = new Map<OptionKey, Origin>();
  const explicitConfig = flags.get('config') ?? env.AGENT_LOOP_CONFIG;
  const configPath = configFileNamed(flags, env);
  // The action has no input for the file (it reads .agent-loop.yml, or AGENT_LOOP_CONFIG): it names the file.
  const label = input.terms === 'action' ? 'the config file' : surface('cli').option('config');
  const named = `${label} '${printable(configPath)}'`;
  const keys = input.terms === 'action' ? "the inputs' names" : 'the flag names';
  const fileText = readText(input, configPath, label, explicitConfig !== undefined, problems);
  if (fileText !== undefined) readKeys(fileText, { configPath, label, named, keys, allowed }, values, problems);
  return { values, problems };
}

/** The file's text; undefined when there is none (an absent default file is no problem) or it cannot be read. */
function readText(
  input: { readFile: (path: string) => string },
  configPath: string,
  label: string,
  explicit: boolean,
  problems: ConfigProblem[],
): string | undefined {
  try {
    return input.readFile(configPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (explicit || code !== 'ENOENT') {
      problems.push({
        option: '--config',
        message:
          code === 'ENOTREG' || code === 'EFBIG'
            ? `${label}: ${(error as Error).message}; expected a readable YAML file.`
            : `${label}: cannot read '${printable(configPath)}' (${code ?? (error as Error).message}); expected a readable YAML file.`,
      });
    }
  }
  return undefined;
}

/** The file's keys: the values of the options this command takes, and a problem for each key that is no option. */
function readKeys(
  fileText: string,
  said: { configPath: string; label: string; named: string; keys: string; allowed: ReadonlySet<OptionKey> },
  values: Map<OptionKey, Origin>,
  problems: ConfigProblem[],
): void {
  const { configPath, label, named, keys, allowed } = said;
  let doc: unknown;
  try {
    doc = YAML.parse(fileText);
  } catch (error) {
    problems.push({
      option: '--config',
      message: `${label}: '${printable(configPath)}' is not valid YAML (${(error as Error).message.split('\n')[0]}).`,
    });
  }
  if (doc !== null && doc !== undefined && (typeof doc !== 'object' || Array.isArray(doc))) {
    problems.push({
      option: '--config',
      message: `${label}: '${printable(configPath)}' must be a mapping of option names to values.`,
    });
  } else if (doc) {
    // A file that is no configuration at all (--config pointed at the wrong file) must not be
    // echoed line by line: only keys that look like option names are quoted, a few at most.
    const unknown: string[] = [];
    for (const [name, value] of Object.entries(doc as Record<string, unknown>)) {
      const info = byFlag.get(name) ?? OPTIONS.find((o) => o.key === name);
      if (!info || info.key === 'config') {
        unknown.push(name);
      } else if (
        info.key === 'paused' &&
        allowed.has('agent') &&
        value !== null &&
        OptionsSchema.shape.paused.safeParse(typeof value === 'string' ? value.trim() : value).data !== false
      ) {
        // The pause is read before any file (the action), and never by the CLI: a file's pause
        // would be ignored while the loop runs. Refused where an agent runs (run, plan, the action).
        problems.push({
          option: '--config',
          message: pausedInConfigFile(named),
        });
      } else if (allowed.has(info.key) && value !== null) {
        values.set(info.key, { value, from: configPath });
      }
    }
    const shown = unknown.filter((k) => OPTION_LIKE.test(k)).slice(0, 5);
    for (const name of shown)
      problems.push({
        option: name,
        message: `${named}: unknown option '${printable(name, 80)}'${didYouMean(name, allowed) || '.'} Keys are ${keys}, e.g. max-iterations.`,
      });
    const hidden = unknown.length - shown.length;
    if (hidden > 0) {
      problems.push({
        option: '--config',
        message: unknownKeysHidden(named, hidden, shown.length > 0, keys),
      });
    }
  }
}

/** ": did you mean max-iterations?" for a mistyped key: the command's own options first, then every option; '' when none is near. */
function didYouMean(name: string, allowed: ReadonlySet<OptionKey>): string {
  const keys = OPTIONS.filter((o) => o.key !== 'config');
  const meant =
    closest(
      name,
      keys.filter((o) => allowed.has(o.key)).map((o) => o.flag),
    ) ??
    closest(
      name,
      keys.map((o) => o.flag),
    );
  return meant ? `: did you mean ${meant}?` : '';
}

/** A key that may be a mistyped option name, and so may be quoted back: short, lower-case, dashes. */
const OPTION_LIKE = /^[a-zA-Z][a-zA-Z0-9-]{0,39}$/;
