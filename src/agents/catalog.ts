/**
 * The agents agent-loop can run, as data: one entry per agent, everything the rest of the code
 * says or decides about an agent by its name (the --agent values, the help and messages that name
 * them, the CLI install-agent installs, the default --iteration-delay). A pure table every layer may
 * read (rule words-are-leaves in .dependency-cruiser.cjs: it imports nothing); the factory that
 * builds each agent is its line in src/agents/registry.ts, which the compiler requires for every
 * entry here. Adding an agent: docs/architecture.md, "Adding an agent".
 */

/** An agent CLI installed from npm: what install-agent installs and the not-on-PATH message names. */
export interface AgentCli {
  /** The npm package. */
  readonly pkg: string;
  /** The version agent-loop is tested against (scripts/install-agent-clis.mjs pins the same; a test checks). */
  readonly version: string;
  /** The executable the package puts on PATH. */
  readonly bin: string;
}

export interface AgentEntry {
  /** The agent in a sentence: "Claude Code", "the Codex CLI", "any command". */
  readonly says: string;
  /** Its CLI, for an agent that is one (install-agent installs it; a run refuses to start without it). */
  readonly cli?: AgentCli;
  /**
   * --iteration-delay when it is not given: seed 001's 10 seconds between invocations of an API
   * agent, which it paces; none for a command, which calls no API (rate limits and failures are
   * backed off by the retry policy, whatever the agent).
   */
  readonly iterationDelaySeconds: number;
  /** Runs --agent-command (the command agent; --agent-command alone means this agent). */
  readonly runsCommand?: true;
}

export const AGENT_CATALOG = {
  claude: {
    says: 'Claude Code',
    cli: { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' },
    iterationDelaySeconds: 10,
  },
  codex: {
    says: 'the Codex CLI',
    cli: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
    iterationDelaySeconds: 10,
  },
  command: { says: 'any command', iterationDelaySeconds: 0, runsCommand: true },
} as const satisfies Record<string, AgentEntry>;

export type AgentName = keyof typeof AGENT_CATALOG;

/** The --agent values, in the catalog's order. */
export const AGENT_NAMES = Object.keys(AGENT_CATALOG) as [AgentName, ...AgentName[]];

/** The entry of `name`, or undefined when it names no agent (a string from outside). */
export const agentEntry = (name: string): AgentEntry | undefined =>
  Object.hasOwn(AGENT_CATALOG, name) ? (AGENT_CATALOG as Record<string, AgentEntry>)[name] : undefined;

/** The agents that are a CLI of their own (claude, codex): the ones --agent-model and --agent-args reach. */
export const CLI_AGENT_NAMES = AGENT_NAMES.filter((name): name is CliAgentName => agentEntry(name)?.cli !== undefined);

/** The agents that are a CLI of their own. */
export type CliAgentName = {
  [Name in AgentName]: (typeof AGENT_CATALOG)[Name] extends { cli: AgentCli } ? Name : never;
}[AgentName];

/** The agent that runs --agent-command. */
export const COMMAND_AGENT = AGENT_NAMES.find((name) => agentEntry(name)?.runsCommand) as AgentName;

/** "a", "a or b", "a, b or c". */
export function orList(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
