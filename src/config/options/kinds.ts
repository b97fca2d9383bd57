/**
 * The parts every option of the schema (src/config/options.ts) is made of: where an option applies, how its
 * help names other options, its metadata, and the coercions of raw values (flags, environment, YAML).
 */
import { z } from 'zod';
import { AGENT_CATALOG, AGENT_NAMES, type AgentName, orList } from '../../agents/catalog.js';

export const COMMANDS = ['run', 'plan', 'status', 'cleanup'] as const;
export type Command = (typeof COMMANDS)[number];
/** Where an option applies: a CLI command, or the GitHub Action's inputs. */
export type Scope = Command | 'action';

/**
 * Names another option (by its key, as OptionKey has it: the schema cannot refer to its own type) in
 * a help text, in the words of the surface the text is shown on: its flag in `--help`
 * (`--agent-command`), its input in action.yml (`the input agent-command`); given a value, the option
 * set to it (`--agent command`, `agent: command`). src/config/surface.ts renders it, and refuses a key
 * that is no option (__tests__/config/surface.test.ts renders every help text).
 */
export type NameOption = (key: string, value?: string) => string;

/** The surface that ran: the CLI (`agent-loop …`) or the GitHub Action (src/config/surface.ts words it). */
export type Terms = 'cli' | 'action';

/** A help text: plain, or naming other options (and saying other things) in the surface's words. */
export type HelpText = string | ((name: NameOption, terms: Terms) => string);

export interface OptionMeta {
  /** kebab-case flag without dashes. */
  flag: string;
  /** The action's input, where it is not named as the flag. */
  input?: string;
  /** One sentence for --help and action.yml (src/config/surface.ts's helpText renders it for each). */
  help: HelpText;
  /** What a valid value looks like, for errors and --help. */
  expected: HelpText;
  commands: readonly Scope[];
  /** Placeholder in --help; absent for switches. */
  arg?: string;
  /** Masked in every log line and diagnostic. */
  secret?: boolean;
  /** Shown in --help when the schema has no default. */
  defaultText?: string;
}

export const registry = z.registry<OptionMeta>();

/** The options of a run of the loop: `run`, `plan` (whose last phase is the loop) and the action. */
export const RUN = ['run', 'plan', 'action'] as const;
export const ALL = ['run', 'plan', 'status', 'cleanup', 'action'] as const;
export const PLAN = ['plan', 'action'] as const;
export const ACTION = ['action'] as const;

// Raw values arrive as strings (flags, environment) or as YAML scalars: coerce those that are clear.
export const toNumber = (v: unknown) =>
  typeof v === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(v) ? Number(v) : v;
export const toBoolean = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(s)) return true;
  if (['false', '0', 'no', 'off', ''].includes(s)) return false;
  return v;
};
export const toUndefinedIfEmpty = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

// Every number has an upper bound: a duration Node's timers cannot hold (over 2^31-1 ms, about 24.8
// days) would fire at once, and a count nobody means is a typo.
export const int = (min: number, max = 1_000_000) => z.preprocess(toNumber, z.number().int().min(min).max(max));
export const positive = (max: number) => z.preprocess(toNumber, z.number().positive().finite().max(max));
export const nonNegative = (max: number) => z.preprocess(toNumber, z.number().min(0).finite().max(max));
export const flagSwitch = () => z.preprocess(toBoolean, z.boolean()).default(false);
export const text = () => z.preprocess(toUndefinedIfEmpty, z.string().trim().min(1).optional());
/** Globs as a list (a configuration file's) or one text, comma-separated (a flag's, an input's); absent when none. */
export const globList = () =>
  z
    .preprocess(
      (v) =>
        typeof v === 'string'
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '')
          : v,
      z.array(z.string().trim().min(1)).optional(),
    )
    .transform((v) => (v && v.length > 0 ? v : undefined));
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** "10 with claude or codex, 0 with command": each default delay and the agents it is theirs. */
export function delaysByAgent(): string {
  const delays = [...new Set(AGENT_NAMES.map((name) => AGENT_CATALOG[name].iterationDelaySeconds))];
  const having = (delay: number) =>
    AGENT_NAMES.filter((name: AgentName) => AGENT_CATALOG[name].iterationDelaySeconds === delay);
  return delays.map((delay) => `${delay} with ${orList(having(delay))}`).join(', ');
}
