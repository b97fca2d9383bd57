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
  if ((command === 'run' || command === 'plan') && options.onSuccess === 'pull-request') {
    problems.push({
      option: '--on-success',
      message:
        '--on-success pull-request: pull requests are opened by the GitHub Action; on the command line use merge or branch.',
    });
  }
  if (command === 'action' && options.source === 'beads' && options.onSuccess === 'branch') {
    problems.push({
      option: '--on-success',
      message:
        "--on-success branch: in the action a finished cycle's branch would stay on the runner, which is thrown away after the job; use pull-request (the action's default: a pull request per cycle) or merge (pushed to the base branch).",
    });
  }
  if (command === 'cleanup') {
    if (options.all === (options.olderThan !== undefined)) {
      problems.push({ option: '--older-than', message: 'cleanup needs exactly one of --older-than DAYS or --all.' });
    }
  }
  return problems;
}
