/** Issue 41: one catalog and one registry of agents; what the rest of the code says of an agent comes from them. */
import { describe, expect, it } from '@jest/globals';
import { PINNED_AGENT_CLIS } from '../../src/action/installAgent.js';
import { AGENT_CATALOG, AGENT_NAMES, CLI_AGENT_NAMES, COMMAND_AGENT } from '../../src/agents/catalog.js';
import { createAgent } from '../../src/agents/index.js';
import { AGENT_FACTORIES } from '../../src/agents/registry.js';
import { byKey, defaultIterationDelay } from '../../src/config/options.js';
import { helpText } from '../../src/config/surface.js';
import { load, problemsOf } from '../config/support.js';

const options = (agent: (typeof AGENT_NAMES)[number]) => ({
  agent,
  agentCommand: 'true',
  agentPermissionMode: 'acceptEdits',
  agentSandbox: 'workspace-write' as const,
});

describe('the agents, one entry each (issue 41)', () => {
  it('every agent of the catalog has a factory, and createAgent builds each by its name', () => {
    expect(Object.keys(AGENT_FACTORIES).sort()).toEqual([...AGENT_NAMES].sort());
    for (const name of AGENT_NAMES) expect(createAgent(options(name), {}).displayName).toEqual(expect.any(String));
  });

  it("--agent accepts exactly the catalog's names, and its help names each agent in the catalog's words", () => {
    const agent = byKey.get('agent')!;
    expect(agent.arg).toBe(AGENT_NAMES.join('|'));
    expect(agent.expected).toBe(`one of ${AGENT_NAMES.join(', ')}`);
    for (const name of AGENT_NAMES) expect(helpText(agent.help, 'cli')).toContain(AGENT_CATALOG[name].says);
    expect(problemsOf(() => load(['run', '--agent', 'gemini']))).toEqual([
      expect.stringContaining(`one of ${AGENT_NAMES.join(', ')}`),
    ]);
  });

  it("install-agent installs the catalog's CLI agents at the catalog's versions, and the default delay is the catalog's", () => {
    expect(Object.keys(PINNED_AGENT_CLIS)).toEqual(CLI_AGENT_NAMES);
    for (const name of CLI_AGENT_NAMES) expect(PINNED_AGENT_CLIS[name]).toEqual(AGENT_CATALOG[name].cli);
    for (const name of AGENT_NAMES) expect(defaultIterationDelay(name)).toBe(AGENT_CATALOG[name].iterationDelaySeconds);
  });

  it('--agent-command beside a CLI agent is refused in the words of its catalog entry', () => {
    for (const name of CLI_AGENT_NAMES)
      expect(problemsOf(() => load(['run', '--agent', name, '--agent-command', 'x']))).toEqual([
        expect.stringContaining(`--agent ${name} runs ${AGENT_CATALOG[name].says}`),
      ]);
    expect(COMMAND_AGENT).toBe('command');
  });
});
