/** Builds the agent the options name. */
import type { Options } from '../config.js';
import { splitArgs } from '../util/args.js';
import { ClaudeAgent } from './claude.js';
import { CodexAgent } from './codex.js';
import { CommandAgent } from './command.js';
import type { Agent } from './types.js';

export function createAgent(options: Options, env: NodeJS.ProcessEnv): Agent | { problem: string } {
  const extraArgs = options.agentArgs ? splitArgs(options.agentArgs) : [];
  switch (options.agent) {
    case 'command':
      return new CommandAgent({ command: options.agentCommand!, env });
    case 'claude':
      return new ClaudeAgent({
        model: options.agentModel, maxTurns: options.agentMaxTurns, permissionMode: options.agentPermissionMode,
        allowedTools: options.agentAllowedTools, extraArgs, env,
      });
    case 'codex':
      return new CodexAgent({ model: options.agentModel, sandbox: options.agentSandbox, extraArgs, env });
  }
}
