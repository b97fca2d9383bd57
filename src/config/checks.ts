/**
 * The checks the schema cannot make field by field, on options it has accepted: a value judged by
 * another parser (--agent-args), and the options of a command judged together.
 */
import { splitArgs } from '../util/args.js';
import type { Options, Scope } from './options.js';
import type { ConfigProblem } from './problems.js';

/** The problems of the accepted `options` of `command`; none when they hold together. */
export function checkOptions(command: Scope, options: Options): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (options.agentArgs !== undefined) {
    try {
      splitArgs(options.agentArgs);
    } catch (error) {
      problems.push({
        option: '--agent-args',
        message: `--agent-args: ${(error as Error).message}; expected arguments with balanced quotes.`,
      });
    }
  }
  if (command === 'run' && options.workflow === 'pipeline') {
    problems.push({
      option: '--workflow',
      message:
        '--workflow pipeline is the action\'s way to run the planning pipeline; on the command line run `agent-loop plan --goal "…"`.',
    });
  }
  if ((command === 'plan' || command === 'action') && options.goal && options.goalFile) {
    problems.push({ option: '--goal', message: '--goal and --goal-file contradict each other: give one of them.' });
  }
  if (command === 'run' || command === 'plan' || command === 'action') {
    if (options.resume && options.fresh)
      problems.push({ option: '--resume', message: '--resume and --fresh contradict each other: give one of them.' });
    if (options.agent === 'command' && !options.agentCommand) {
      problems.push({
        option: '--agent-command',
        message:
          '--agent-command: required with --agent command; expected a shell command such as "./scripts/agent.sh".',
      });
    }
  }
  if (command === 'cleanup') {
    if (options.all === (options.olderThan !== undefined)) {
      problems.push({ option: '--older-than', message: 'cleanup needs exactly one of --older-than DAYS or --all.' });
    }
  }
  return problems;
}
