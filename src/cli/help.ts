import { COMMANDS, type Command, optionsFor } from '../config/options.js';
import { type HaltReason, HaltReasons } from '../core/state.js';

const SYNOPSIS: Record<Command, string> = {
  run: 'Run the agent over the ready issues until they are closed and the tests pass, resuming the newest checkpoint.',
  plan: 'From a goal to issues to implementation: research, decomposition, planning and phase files by the agent (each checked by a hard barrier), one issue per phase in the beads file, then the loop on those issues. A checkpoint at every phase; a new run resumes where the last stopped.',
  status: 'List the checkpoints: id, phase, age, errors and loop progress; marks the one a run would resume.',
  cleanup: 'Delete old checkpoints (the newest resumable one is kept unless --all).',
};

/** Each halt reason in a line (`haltReason` in the --json result). A Record: a new reason cannot be left out of --help. */
export const HALT_REASON_HELP: Record<HaltReason, string> = {
  max_iterations: '--max-iterations agent runs used up, counted across slices',
  stuck: 'the agent made no progress (the same work remaining, or it said it is stuck)',
  contract_violation: "the agent's report contradicted itself (--strict)",
  budget: "the run's spend reached --max-cost-usd",
  failure_loop: '--max-consecutive-escalations escalated cycles in a row (FAILURE LOOP DETECTED)',
  bounce_loop: 'more step-back transitions in one cycle than --max-retries-per-step (BOUNCE LOOP DETECTED)',
  all_escalated: 'only escalated issues remain',
  agent_unavailable:
    'the agent cannot work here: permanent failures of the environment (auth, billing, permissions, not installed)',
  workflow_aborted: 'the red/green/refactor workflow (--workflow tdd) aborted its cycle',
  repository_moved: 'something other than agent-loop moved HEAD or the base branch',
  secret_in_change: "the agent's change adds a secret (not committed)",
  source_unreadable: 'the agent left the issues unreadable',
  baseline_unreadable: 'before any change the suite fails and cannot be read per test, or cannot run (no agent ran)',
  publish_refused:
    "GitHub refused a finished cycle's push or pull request for a reason no retry changes, or failed it 30 times in a row (the action)",
};

const width = Math.max(...HaltReasons.map((r) => r.length));
const haltReasons = (indent: string) => HaltReasons.map((r) => `${indent}${r.padEnd(width)}  ${HALT_REASON_HELP[r]}`);

const HALTED = [
  '  1  halted, with a diagnostic (stdout, <state-dir>/halt.md) and every piece of state left as it is; the reasons:',
  ...haltReasons('       '),
  '     also a later run over a halt that still stands (STILL HALTED): it runs nothing until --resume-halted or the cause changes',
];
const INTERRUPTED = '  130/143  interrupted by SIGINT/SIGTERM: the iteration in flight dropped, the checkpoint written';

/** What each command's exit codes mean (the README's Exit codes, command by command). */
const EXIT_CODES: Record<Command, string[]> = {
  run: [
    '  0  complete, or the slice ended with work remaining (continuing: run again to resume)',
    ...HALTED,
    '  2  invalid usage or configuration (every bad option is named), or the run cannot start (a precondition of the repository fails, another run holds the lock)',
    INTERRUPTED,
  ],
  plan: [
    '  0  complete, or the loop on the planned issues ended its slice with work remaining (continuing)',
    '  1  a phase failed after its retries (run agent-loop plan again: it resumes at that phase), or the loop on the planned issues halted:',
    ...haltReasons('       '),
    '  2  invalid usage or configuration (every bad option is named), or the pipeline cannot start',
    INTERRUPTED,
  ],
  status: [
    '  0  the checkpoints listed (files that are no valid checkpoint are named and skipped)',
    '  2  invalid usage (every bad option is named), or the state directory cannot be read',
  ],
  cleanup: [
    '  0  the old checkpoints deleted (or, with --dry-run, listed)',
    '  1  a deletion failed (named; the others were still deleted)',
    '  2  invalid usage (every bad option is named; exactly one of --older-than and --all), or a run holds the lock',
  ],
};

export function commandHelp(command: Command): string {
  const lines = [`Usage: agent-loop ${command} [options]`, '', SYNOPSIS[command], '', 'Options:'];
  for (const o of optionsFor(command)) {
    const head = `  --${o.flag}${o.arg ? ` ${o.arg}` : ''}`;
    const dflt = o.defaultValue !== undefined && o.defaultValue !== 'false' ? ` (default: ${o.defaultValue})` : '';
    lines.push(head, `      ${o.help}${dflt}  [env ${o.env}]`);
  }
  lines.push('  --help', '      Show this help.', '', 'Exit codes:', ...EXIT_CODES[command]);
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
    'Run `agent-loop <command> --help` for the options and the exit codes of a command.',
    '',
    'Exit codes:',
    '  0  run, plan: complete or continuing (a slice ended with work remaining); status, cleanup: done',
    '  1  run, plan: halted (the reasons below; a plan phase failed); cleanup: a deletion failed',
    '  2  invalid usage or configuration (every bad option is named), or the command cannot start',
    INTERRUPTED,
    '',
    'Halt reasons (exit 1 of run and plan, haltReason in the --json result; state left for inspection):',
    ...haltReasons('  '),
  ].join('\n');
}
