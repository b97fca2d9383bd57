/**
 * The checks the schema cannot make field by field, on options it has accepted: a value judged by
 * another parser (--agent-args), and the options of a command judged together.
 */
import { COMMAND_AGENT, agentEntry } from '../agents/catalog.js';
import { ISSUE_SOURCES } from '../issues/catalog.js';
import { splitArgs } from '../util/args.js';
import type { Origin } from './configFile.js';
import type { Options, Scope } from './options.js';
import type { ConfigProblem } from './problems.js';
import { type Surface, surface } from './surface.js';
import { actionOnlySource, agentContradiction, branchLostOnRunner } from './messages.js';

/** The problems of the accepted `options` of `command`; none when they hold together. */
export function checkOptions(command: Scope, options: Options): ConfigProblem[] {
  const say = surface(command === 'action' ? 'action' : 'cli');
  const problems: ConfigProblem[] = [];
  if (options.agentArgs !== undefined) {
    try {
      splitArgs(options.agentArgs);
    } catch (error) {
      problems.push({
        option: '--agent-args',
        message: `${say.option('agentArgs')}: ${(error as Error).message}; expected arguments with balanced quotes.`,
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
  if ((command === 'run' || command === 'plan') && ISSUE_SOURCES[options.source].builtBy === 'action') {
    // Checked here, not where the source is opened: a run with nothing to do never opens it.
    problems.push({
      option: '--source',
      message: actionOnlySource(options.source, ISSUE_SOURCES[options.source].title),
    });
  }
  if (options.quiet && options.verbose)
    problems.push({
      option: '--quiet',
      message: `${say.option('quiet')} and ${say.option('verbose')} contradict each other: give one of them.`,
    });
  if ((command === 'plan' || command === 'action') && options.goal && options.goalFile) {
    problems.push({
      option: '--goal',
      message: `${say.option('goal')} and ${say.option('goalFile')} contradict each other: give one of them.`,
    });
  }
  if (command === 'run' || command === 'plan' || command === 'action') {
    if (options.resume && options.fresh)
      problems.push({
        option: '--resume',
        message: `${say.option('resume')} and ${say.option('fresh')} contradict each other: give one of them.`,
      });
    if (agentEntry(options.agent)?.runsCommand && !options.agentCommand) {
      problems.push({
        option: '--agent-command',
        message: `${say.option('agentCommand')}: required with ${say.given('agent', options.agent)}; expected a shell command such as "./scripts/agent.sh".`,
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
  if (command === 'action' && ISSUE_SOURCES[options.source].inRepository && options.onSuccess === 'branch') {
    problems.push({
      option: '--on-success',
      message: branchLostOnRunner(say.given('onSuccess', 'branch')),
    });
  }
  if (command === 'cleanup') {
    if (options.all === (options.olderThan !== undefined)) {
      problems.push({ option: '--older-than', message: 'cleanup needs exactly one of --older-than DAYS or --all.' });
    }
  }
  return problems;
}

/**
 * The agent as the layers gave it, before the schema's default: --agent-command alone means
 * --agent command (a command given is a command to run); beside --agent claude or codex, from any
 * layer, it is a contradiction, named with where each came from and what to do. Pure.
 */
export function agentOfCommand(
  agent: Origin | undefined,
  command: Origin | undefined,
  say: Surface = surface(),
): { agent?: Origin; problem?: ConfigProblem } {
  const given = command !== undefined && command.value !== null && String(command.value).trim() !== '';
  if (!given) return { agent };
  if (agent === undefined) return { agent: { value: COMMAND_AGENT, from: command.from } };
  const entry = agentEntry(String(agent.value));
  if (entry === undefined || entry.runsCommand) return { agent };
  const name = entry.says;
  const from = (o: Origin, named: string) => (o.from === named ? '' : ` (from ${o.from})`);
  const agentIs = say.given('agent', String(agent.value));
  const commandOption = say.option('agentCommand');
  return {
    agent,
    problem: {
      option: '--agent',
      message: agentContradiction({
        agentIs,
        agentFrom: from(agent, say.option('agent')),
        commandOption,
        commandFrom: from(command, commandOption),
        name,
        commandAgent: say.given('agent', COMMAND_AGENT),
        agentOption: say.option('agent'),
      }),
    },
  };
}
