/**
 * The command line: argv split into a command and its `--flag value` pairs, every problem collected.
 * The values are judged later, with the other layers, by loadConfig (load.ts).
 */
import { closest } from '../util/suggest.js';
import { COMMANDS, type Command, OPTIONS, byFlag, optionsFor } from './options.js';
import { helpText } from './surface.js';
import type { ConfigProblem } from './problems.js';
import { argumentAfterDashes } from './messages.js';
import { printable } from '../util/printable.js';

export interface ParsedArgs {
  command?: Command;
  help: boolean;
  version: boolean;
  values: Map<string, string | true>;
  problems: ConfigProblem[];
}

/** Splits argv into a command and `--flag value` / `--flag=value` / `--switch` pairs; collects every problem. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { help: false, version: false, values: new Map(), problems: [] };
  let i = 0;
  const first = argv[0];
  if (first !== undefined && !first.startsWith('-')) {
    readCommandWord(first, out);
    i = 1;
  }
  // The switch just read (--batch): a stray word after it was most likely meant as its value.
  let lastSwitch: string | undefined;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    const afterSwitch = lastSwitch;
    lastSwitch = undefined;
    if (arg === '--help' || arg === '-h') {
      out.help = true;
      continue;
    }
    if (arg === '--version' || arg === '-V') {
      out.version = true;
      continue;
    }
    // `--` ends the options (as for any command); nothing may follow it, since no command takes arguments.
    if (arg === '--') {
      for (const rest of argv.slice(i + 1))
        out.problems.push({
          option: rest,
          message: argumentAfterDashes(rest, out.command ?? '').replace('  ', ' '),
        });
      break;
    }
    if (!arg.startsWith('--')) {
      out.problems.push(
        afterSwitch
          ? {
              option: `--${afterSwitch}`,
              message: `--${afterSwitch} takes no value, got '${printable(arg)}': write --${afterSwitch} to turn it on (or --${afterSwitch} true|false).`,
            }
          : { option: arg, message: `Unexpected argument '${printable(arg)}'. Options are written --name value.` },
      );
      continue;
    }
    const read = readOption(argv, i, out);
    i = read.last;
    lastSwitch = read.switchOn;
  }
  return out;
}

/** The first word, when it is no option: the command, `help`, or a problem naming the command meant. */
function readCommandWord(first: string, out: ParsedArgs): void {
  if ((COMMANDS as readonly string[]).includes(first)) out.command = first as Command;
  else if (first === 'help') out.help = true;
  else {
    const meant = closest(first, [...COMMANDS, 'help']);
    out.problems.push({
      option: first,
      message: `Unknown command '${printable(first, 80)}'${meant ? `: did you mean ${meant}?` : '.'} Expected one of: ${COMMANDS.join(', ')}.`,
    });
  }
}

/**
 * The option `--name[=value]` at argv[i], and its value: recorded in `out` (or its problem). Returns the
 * index of the last word it took, and the switch it turned on without a value (`--fresh`).
 */
function readOption(argv: readonly string[], i: number, out: ParsedArgs): { last: number; switchOn?: string } {
  const arg = argv[i] as string;
  const eq = arg.indexOf('=');
  const name = arg.slice(2, eq === -1 ? undefined : eq);
  const info = byFlag.get(name);
  const next = argv[i + 1];
  if (!info) {
    const meant = suggestFlag(name, out.command);
    out.problems.push({
      option: `--${name}`,
      message:
        `Unknown option --${name}${meant ? `: did you mean --${meant}?` : '.'} See agent-loop ${out.command ?? ''} --help.`.replace(
          '  ',
          ' ',
        ),
    });
    // `--max-iteration 5`: the word after it is the value of the option meant, not a stray argument.
    if (eq === -1 && meant && byFlag.get(meant)?.arg && next !== undefined && !next.startsWith('--'))
      return { last: i + 1 };
    return { last: i };
  }
  const empty = () =>
    out.problems.push({
      option: `--${name}`,
      message: `--${name} was given an empty value; expected ${helpText(info.expected, 'cli')}. Leave --${name} out for its default.`,
    });
  if (eq !== -1) {
    // On the command line an empty value is a mistake (an unset shell variable), never "the default":
    // `--agent-command "$AGENT"` with AGENT unset must not run Claude Code instead.
    if (info.arg && arg.slice(eq + 1).trim() === '') empty();
    else out.values.set(name, arg.slice(eq + 1));
    return { last: i };
  }
  if (!info.arg) {
    // A switch: --fresh, or --fresh true|false.
    if (next !== undefined && /^(true|false)$/i.test(next)) {
      out.values.set(name, next);
      return { last: i + 1 };
    }
    out.values.set(name, true);
    return { last: i, switchOn: name };
  }
  if (next === undefined || (next.startsWith('--') && byFlag.has(next.slice(2).split('=')[0] ?? ''))) {
    out.problems.push({
      option: `--${name}`,
      message: `--${name}: a value is missing; expected ${helpText(info.expected, 'cli')}.`,
    });
    return { last: i };
  }
  if (next.trim() === '') empty();
  else out.values.set(name, next);
  return { last: i + 1 };
}

/** The flag a mistyped `--name` most likely meant: among the command's own options first, then every option. */
export function suggestFlag(name: string, command: Command | undefined): string | undefined {
  const own = command ? optionsFor(command).map((o) => o.flag) : [];
  return (
    closest(name, [...own, 'help', 'version']) ?? closest(name, [...OPTIONS.map((o) => o.flag), 'help', 'version'])
  );
}
