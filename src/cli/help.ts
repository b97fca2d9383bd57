import { COMMANDS, type Command, optionsFor } from '../config/options.js';

const SYNOPSIS: Record<Command, string> = {
  run: 'Run the agent over the ready issues until they are closed and the tests pass, resuming the newest checkpoint.',
  plan: 'From a goal to issues to implementation: research, decomposition, planning and phase files by the agent (each checked by a hard barrier), one issue per phase in the beads file, then the loop on those issues. A checkpoint at every phase; a new run resumes where the last stopped.',
  status: 'List the checkpoints: id, phase, age, errors and loop progress; marks the one a run would resume.',
  cleanup: 'Delete old checkpoints (the newest resumable one is kept unless --all).',
};

const EXIT_CODES = `Exit codes:
  0  complete, or the slice ended with work remaining (continuing)
  1  halted: max iterations, stuck, contract violation (--strict) and the failure loops; state is left for inspection
     (also a later run over a halt that still stands: it runs nothing until --resume-halted or the cause changes)
  2  invalid usage or configuration (every bad option is named)
  130/143  interrupted by SIGINT/SIGTERM after writing the checkpoint`;

export function commandHelp(command: Command): string {
  const lines = [`Usage: agent-loop ${command} [options]`, '', SYNOPSIS[command], '', 'Options:'];
  for (const o of optionsFor(command)) {
    const head = `  --${o.flag}${o.arg ? ` ${o.arg}` : ''}`;
    const dflt = o.defaultValue !== undefined && o.defaultValue !== 'false' ? ` (default: ${o.defaultValue})` : '';
    lines.push(head, `      ${o.help}${dflt}  [env ${o.env}]`);
  }
  lines.push('  --help', '      Show this help.', '', EXIT_CODES);
  return lines.join('\n');
}

export function mainHelp(version: string): string {
  return [
    `agent-loop ${version}: run a coding agent over open issues until the work is done and the tests pass.`,
    '',
    'Usage: agent-loop <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.padEnd(8)} ${SYNOPSIS[c]}`),
    '',
    'Options come from flags, then AGENT_LOOP_<OPTION> environment variables, then .agent-loop.yml (or --config FILE), then defaults.',
    'Run `agent-loop <command> --help` for the options of a command.',
    '',
    EXIT_CODES,
  ].join('\n');
}
