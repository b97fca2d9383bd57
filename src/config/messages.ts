/** The configuration's long messages (what is wrong, with what, what to do), one string each so a search finds them whole. */
import { printable } from '../util/printable.js';

/** `title`: the source's title in its catalog entry (src/issues/catalog.ts). */
export const actionOnlySource = (source: string, title: string) =>
  `--source ${source}: ${title} runs inside the GitHub Action (a .agent-loop.yml shared with the action may set it); on the command line use --source beads.`;

/** `given`: on-success branch, in the surface's words. */
export const branchLostOnRunner = (given: string) =>
  `${given} cannot work here: in the action a finished cycle's branch would stay on the runner, which is thrown away after the job; use pull-request (the action's default: a pull request per cycle) or merge (pushed to the base branch).`;

/** --agent and --agent-command given together, each named as the surface says it (and where it came from). */
export const agentContradiction = (w: {
  agentIs: string;
  agentFrom: string;
  commandOption: string;
  commandFrom: string;
  name: string;
  commandAgent: string;
  agentOption: string;
}) =>
  `${w.agentIs}${w.agentFrom} and ${w.commandOption}${w.commandFrom} contradict each other: ${w.agentIs} runs ${w.name}, ${w.commandOption} runs a command as the agent. To run the command, give ${w.commandAgent} or leave ${w.agentOption} out; to run ${w.name}, leave ${w.commandOption} out.`;

export const pausedInConfigFile = (named: string) =>
  `${named}: paused is not read from a config file; set the action's input paused or the repository variable AGENT_LOOP_PAUSED instead (nothing ran).`;

export const unknownKeysHidden = (named: string, hidden: number, more: boolean, keys: string) =>
  `${named}: ${hidden}${more ? ' more' : ''} key(s) that are no option names (not shown; is this the right file?). Keys are ${keys}, e.g. max-iterations.`;

/** Before the spaces of an absent command are closed up (argv.ts). */
export const argumentAfterDashes = (rest: string, command: string) =>
  `Unexpected argument '${printable(rest)}' after --: agent-loop ${command} takes no arguments, only options written --name value before any --.`;
