/** Builds the agent the options name. */
import { type Surface, surface } from '../config/surface.js';
import { splitArgs } from '../util/args.js';
import { isOnPath } from '../util/onPath.js';
import { ClaudeAgent } from './claude.js';
import { CodexAgent, type CodexAgentOptions } from './codex.js';
import { CommandAgent } from './command.js';
import type { Agent } from './types.js';

/** What the agent is built from (the run's options: --agent and the --agent-* flags). */
export interface AgentOptions {
  agent: 'claude' | 'codex' | 'command';
  agentCommand?: string;
  agentModel?: string;
  agentMaxTurns?: number;
  agentPermissionMode: string;
  agentAllowedTools?: string;
  agentArgs?: string;
  agentSandbox: CodexAgentOptions['sandbox'];
}

export function createAgent(options: AgentOptions, env: NodeJS.ProcessEnv): Agent {
  const extraArgs = options.agentArgs ? splitArgs(options.agentArgs) : [];
  switch (options.agent) {
    case 'command':
      return new CommandAgent({ command: options.agentCommand!, env });
    case 'claude':
      return new ClaudeAgent({
        model: options.agentModel,
        maxTurns: options.agentMaxTurns,
        permissionMode: options.agentPermissionMode,
        allowedTools: options.agentAllowedTools,
        extraArgs,
        env,
      });
    case 'codex':
      return new CodexAgent({ model: options.agentModel, sandbox: options.agentSandbox, extraArgs, env });
  }
}

/** The agent the options name, or why it cannot run here (its CLI is not on PATH). */
export async function availableAgent(
  options: AgentOptions,
  env: NodeJS.ProcessEnv,
  say: Surface = surface(),
): Promise<{ agent: Agent; problems: [] } | { agent?: undefined; problems: string[] }> {
  if ((options.agent === 'claude' || options.agent === 'codex') && !(await isOnPath(options.agent, env.PATH))) {
    const pkg = options.agent === 'claude' ? '@anthropic-ai/claude-code' : '@openai/codex';
    return {
      problems: [
        `${say.given('agent', options.agent)}: \`${options.agent}\` is not on PATH. Install it (npm install -g ${pkg}), or choose another agent with ${say.given('agent', 'command')} ${say.given('agentCommand', 'CMD')}.`,
      ],
    };
  }
  return { agent: createAgent(options, env), problems: [] };
}
