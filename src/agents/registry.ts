/**
 * The agent adapters by name: one line per agent, the factory that builds it from the run's options.
 * What is said and decided about each agent by name (its --agent value, words, CLI, default delay)
 * is its entry in catalog.ts; the compiler requires a factory here for every entry there.
 */
import type { AgentName } from './catalog.js';
import { ClaudeAgent } from './claude.js';
import { CodexAgent, type CodexAgentOptions } from './codex.js';
import { CommandAgent } from './command.js';
import type { Agent } from './types.js';

/** What the agent is built from (the run's options: --agent and the --agent-* flags). */
export interface AgentOptions {
  agent: AgentName;
  agentCommand?: string;
  agentModel?: string;
  agentMaxTurns?: number;
  agentPermissionMode: string;
  agentAllowedTools?: string;
  agentArgs?: string;
  agentSandbox: CodexAgentOptions['sandbox'];
}

/** Builds one agent: the options, the environment it runs in, --agent-args already split. */
export type AgentFactory = (options: AgentOptions, env: NodeJS.ProcessEnv, extraArgs: string[]) => Agent;

export const AGENT_FACTORIES: { readonly [Name in AgentName]: AgentFactory } = {
  claude: (o, env, extraArgs) =>
    new ClaudeAgent({
      model: o.agentModel,
      maxTurns: o.agentMaxTurns,
      permissionMode: o.agentPermissionMode,
      allowedTools: o.agentAllowedTools,
      extraArgs,
      env,
    }),
  codex: (o, env, extraArgs) => new CodexAgent({ model: o.agentModel, sandbox: o.agentSandbox, extraArgs, env }),
  command: (o, env) => new CommandAgent({ command: o.agentCommand!, env }),
};
