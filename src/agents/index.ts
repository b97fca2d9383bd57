/** Builds the agent the options name (its factory in registry.ts, what is said of it in catalog.ts). */
import { type Surface, surface } from '../config/surface.js';
import { splitArgs } from '../util/args.js';
import { isOnPath } from '../util/onPath.js';
import { COMMAND_AGENT, agentEntry } from './catalog.js';
import { AGENT_FACTORIES, type AgentOptions } from './registry.js';
import type { Agent } from './types.js';

export type { AgentOptions } from './registry.js';

export function createAgent(options: AgentOptions, env: NodeJS.ProcessEnv): Agent {
  return AGENT_FACTORIES[options.agent](options, env, options.agentArgs ? splitArgs(options.agentArgs) : []);
}

/** The agent the options name, or why it cannot run here (its CLI is not on PATH). */
export async function availableAgent(
  options: AgentOptions,
  env: NodeJS.ProcessEnv,
  say: Surface = surface(),
): Promise<{ agent: Agent; problems: [] } | { agent?: undefined; problems: string[] }> {
  const cli = agentEntry(options.agent)?.cli;
  if (cli && !(await isOnPath(cli.bin, env.PATH))) {
    return {
      problems: [
        `${say.given('agent', options.agent)}: \`${cli.bin}\` is not on PATH. Install it (npm install -g ` +
          `${cli.pkg}), or choose another agent with ${say.given('agent', COMMAND_AGENT)} ${say.given('agentCommand', 'CMD')}.`,
      ],
    };
  }
  return { agent: createAgent(options, env), problems: [] };
}
