import { describe, expect, it } from '@jest/globals';
import { agentEnvironment } from '../../src/secrets/agentEnv.js';

describe('agentEnvironment', () => {
  const runner = {
    PATH: '/usr/bin',
    HOME: '/home/runner',
    ANTHROPIC_API_KEY: 'sk-ant-x',
    ACTIONS_RUNTIME_TOKEN: 't',
    ACTIONS_CACHE_URL: 'u',
    ACTIONS_ID_TOKEN_REQUEST_URL: 'u',
    INPUT_GOAL: 'g',
    STATE_generation: '1',
    GITHUB_ENV: '/f',
    GITHUB_OUTPUT: '/f',
    GITHUB_PATH: '/f',
    GITHUB_STATE: '/f',
    GITHUB_STEP_SUMMARY: '/f',
    AGENT_LOOP_DISCORD_WEBHOOK: 'https://discord.com/api/webhooks/1/x',
    GITHUB_TOKEN: 'ghs_x',
    GH_TOKEN: 'ghs_x',
    GITHUB_REPOSITORY: 'o/r',
  };

  it('keeps what the agent needs and drops the runtime, file commands, inputs, webhook and token', () => {
    expect(agentEnvironment(runner, { githubToken: false })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/runner',
      ANTHROPIC_API_KEY: 'sk-ant-x',
      GITHUB_REPOSITORY: 'o/r',
      GIT_TERMINAL_PROMPT: '0',
    });
  });

  it('keeps GITHUB_TOKEN and GH_TOKEN only when the user opts in', () => {
    expect(agentEnvironment(runner, { githubToken: true })).toMatchObject({ GITHUB_TOKEN: 'ghs_x', GH_TOKEN: 'ghs_x' });
  });

  it('never lets git prompt for a password, whatever the environment says', () => {
    expect(agentEnvironment({ GIT_TERMINAL_PROMPT: '1' }, { githubToken: false }).GIT_TERMINAL_PROMPT).toBe('0');
  });
});
