/**
 * The words of the surface a run was started from (issue 40): the CLI names its flags and commands,
 * the action its inputs and the workflow. A message names an option or an act through this one
 * table, and says it in the words of the surface that runs, so the action never shows a flag and
 * the CLI never shows an input. The option names come from the schema (options.ts: each option's
 * flag and action input); the acts, what a person does (resume a halted run, start over, find a
 * checkpoint, watch a run's progress), are the rows of ACTS. Pure.
 */
import { type HelpText, type OptionInfo, type OptionKey, type Terms, byKey } from './options.js';

/** The surface that ran (declared beside the schema, whose help texts are written for each). */
export type { Terms };

/** What a person does, worded for each surface. */
export type Act = 'resumeHalted' | 'startFresh' | 'runAgain' | 'listCheckpoints' | 'seeProgress';

export interface Surface {
  readonly terms: Terms;
  /** An option, named: `--max-iterations`, or `the input max-iterations`. */
  option(key: OptionKey): string;
  /**
   * An option given a value: `--test-command "npm test"`, `test-command: "npm test"`; a switch
   * without a value is on: `--fresh`, `fresh: true`.
   */
  given(key: OptionKey, value?: string): string;
  /**
   * A thing to do (ACTS), as a phrase to put in a sentence; `arg`: the state directory of
   * listCheckpoints, the command of runAgain (the CLI's `run` by default).
   */
  act(act: Act, arg?: string): string;
}

type Words = Record<Terms, (say: Surface, arg?: string) => string>;

/** The acts, one row each: the CLI's words and the action's. */
const ACTS: Record<Act, Words> = {
  resumeHalted: {
    cli: (say) => `run agent-loop run ${say.given('resumeHalted')}`,
    action: (say) => `run the workflow by hand (workflow_dispatch) with the input ${say.given('resumeHalted')}`,
  },
  startFresh: {
    cli: (say) => `start over with ${say.given('fresh')}`,
    action: (say) => `start over with the input ${say.given('fresh')}`,
  },
  runAgain: {
    cli: (_say, command) => `run agent-loop ${command ?? 'run'} again`,
    action: () => 'run the workflow again',
  },
  listCheckpoints: {
    cli: (_say, stateDir) =>
      `run \`agent-loop status${stateDir ? ` --state-dir ${stateDir}` : ''}\` to list the checkpoints`,
    action: (say) =>
      `see each run's job summary or checkpoint-id output, which name its checkpoint (${say.option('resume')} takes it)`,
  },
  seeProgress: {
    cli: () => 'agent-loop status shows its progress',
    action: () => "its job's log shows its progress",
  },
};

function option(info: OptionInfo, terms: Terms): string {
  return terms === 'cli' ? `--${info.flag}` : `the input ${info.input}`;
}

function given(info: OptionInfo, terms: Terms, value?: string): string {
  if (terms === 'cli') return value === undefined ? `--${info.flag}` : `--${info.flag} ${value}`;
  return `${info.input}: ${value ?? 'true'}`;
}

function infoOf(key: string): OptionInfo {
  const info = byKey.get(key as OptionKey);
  if (!info) throw new Error(`no option ${String(key)}`);
  return info;
}

function build(terms: Terms): Surface {
  const say: Surface = {
    terms,
    option: (key) => option(infoOf(key), terms),
    given: (key, value) => given(infoOf(key), terms, value),
    act: (act, arg) => ACTS[act][terms](say, arg),
  };
  return Object.freeze(say);
}

const SURFACES: Record<Terms, Surface> = { cli: build('cli'), action: build('action') };

/** The words of `terms` (default: the CLI's). */
export function surface(terms: Terms = 'cli'): Surface {
  return SURFACES[terms];
}

/** A phrase (an act, an option) at the start of a sentence. */
export const upperFirst = (phrase: string) => phrase.charAt(0).toUpperCase() + phrase.slice(1);

/** A help text (an option's help or expected value) in the words of `terms`. */
export function helpText(text: HelpText, terms: Terms): string {
  if (typeof text === 'string') return text;
  return text(
    (key, value) => (value === undefined ? option(infoOf(key), terms) : given(infoOf(key), terms, value)),
    terms,
  );
}
