/**
 * Options (src/config/options.ts's schema, in this order): The coding agent: which one, how it is run, what
 * it may do and spend.
 */
import { z } from 'zod';
import { AGENT_CATALOG, AGENT_NAMES, CLI_AGENT_NAMES, COMMAND_AGENT, orList } from '../../agents/catalog.js';
import { registry, RUN, int, positive, flagSwitch, text } from './kinds.js';

export const agentOptions = {
  agent: z
    .enum(AGENT_NAMES)
    .default('claude')
    .register(registry, {
      flag: 'agent',
      arg: AGENT_NAMES.join('|'),
      commands: RUN,
      help: (n) =>
        `The coding agent: ${AGENT_NAMES.map((name, i) => `${i > 0 && i === AGENT_NAMES.length - 1 ? 'or ' : ''}${AGENT_CATALOG[name].says}`).join(', ')} (${n('agentCommand')}, which alone means ${COMMAND_AGENT}).`,
      expected: `one of ${AGENT_NAMES.join(', ')}`,
    }),
  agentCommand: text().register(registry, {
    flag: 'agent-command',
    arg: 'CMD',
    commands: RUN,
    help: (n) =>
      `Shell command run as the agent (${n('agent', COMMAND_AGENT)}, implied when ${n('agent')} is not given; beside ${n('agent', orList(CLI_AGENT_NAMES))} it is refused); it gets the prompt on stdin and in $AGENT_LOOP_PROMPT_FILE, and $AGENT_LOOP_ISSUE_IDS, $AGENT_LOOP_ITERATION.`,
    expected: 'a non-empty shell command',
  }),
  agentModel: text().register(registry, {
    flag: 'agent-model',
    arg: 'MODEL',
    commands: RUN,
    defaultText: "the agent's own default",
    help: `Model for the ${orList(CLI_AGENT_NAMES)} agent (--model).`,
    expected: 'a model name',
  }),
  agentMaxTurns: int(1, 10_000).optional().register(registry, {
    flag: 'agent-max-turns',
    arg: 'N',
    commands: RUN,
    defaultText: "the agent's own limit",
    help: 'Turns one Claude Code invocation may take (--max-turns); reaching it is a max_turns failure.',
    expected: 'a whole number from 1 to 10000',
  }),
  agentPermissionMode: z
    .enum(['acceptEdits', 'auto', 'bypassPermissions', 'default', 'dontAsk', 'plan'])
    .default('acceptEdits')
    .register(registry, {
      flag: 'agent-permission-mode',
      arg: 'MODE',
      commands: RUN,
      help: "Claude Code's --permission-mode. bypassPermissions is refused by Claude Code when run as root.",
      expected: 'one of acceptEdits, auto, bypassPermissions, default, dontAsk, plan',
    }),
  agentAllowedTools: text().register(registry, {
    flag: 'agent-allowed-tools',
    arg: 'TOOLS',
    commands: RUN,
    defaultText: "the agent's own",
    help: 'Tools Claude Code may use without asking, as its --allowedTools takes them: "Bash Edit Write Read".',
    expected: 'a list of tool names',
  }),
  agentSandbox: z
    .enum(['read-only', 'workspace-write', 'danger-full-access'])
    .default('workspace-write')
    .register(registry, {
      flag: 'agent-sandbox',
      arg: 'MODE',
      commands: RUN,
      help: "Codex's --sandbox for the commands it runs.",
      expected: 'one of read-only, workspace-write, danger-full-access',
    }),
  agentArgs: text().register(registry, {
    flag: 'agent-args',
    arg: 'ARGS',
    commands: RUN,
    defaultText: 'none',
    help: `Extra arguments passed through to ${orList(CLI_AGENT_NAMES)}, split like a shell would ("--foo 'a b'").`,
    expected: 'arguments with balanced quotes',
  }),
  agentGithubToken: flagSwitch().register(registry, {
    flag: 'agent-github-token',
    commands: RUN,
    help: "Let the agent's environment keep GITHUB_TOKEN and GH_TOKEN (off: the agent never holds the workflow's token; the runner's ACTIONS_* tokens, file-command paths, inputs and the webhook it never holds at all).",
    expected: 'true or false',
  }),
  agentSession: z.enum(['fresh', 'continue']).default('fresh').register(registry, {
    flag: 'agent-session',
    arg: 'fresh|continue',
    commands: RUN,
    help: "continue resumes the cycle's previous Claude Code session on its next iteration, also after a rate limit, a timeout or a crash (the last good session); fresh after a failure tied to the issue or the environment (a failed resume falls back to a fresh one).",
    expected: 'one of fresh, continue',
  }),
  maxCostUsd: positive(1_000_000).optional().register(registry, {
    flag: 'max-cost-usd',
    arg: 'USD',
    commands: RUN,
    defaultText: 'no cap',
    help: "Halt (haltReason budget) before an iteration would start with the run's spend, across slices, at or over USD. Applies to agents that report cost (Claude Code); Codex reports tokens only.",
    expected: 'a number of dollars > 0, at most 1000000',
  }),
};
