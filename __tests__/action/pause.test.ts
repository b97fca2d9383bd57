/**
 * The pause switch (issue 15): a repository variable (AGENT_LOOP_PAUSED, passed by the reusable
 * workflow as the input paused) that the action checks before anything else.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { type ActionCore, runAction } from '../../src/action/main.js';
import { inputEnv, loadActionConfig, readPauseSwitch } from '../../src/action/inputs.js';
import { pausedSummary, pausedWarning } from '../../src/action/summary.js';
import { ConfigError } from '../../src/config/problems.js';
import { ManualClock } from '../../fakes/index.js';

const fakeCore = () => ({
  setSecret: jest.fn<ActionCore['setSecret']>(),
  setOutput: jest.fn<ActionCore['setOutput']>(),
  setFailed: jest.fn<ActionCore['setFailed']>(),
  error: jest.fn<ActionCore['error']>(),
  warning: jest.fn<ActionCore['warning']>(),
  notice: jest.fn<ActionCore['notice']>(),
  info: jest.fn<ActionCore['info']>(),
  saveState: jest.fn<ActionCore['saveState']>(),
  writeSummary: jest.fn<ActionCore['writeSummary']>(async () => {}),
});

describe('the pause switch (issue 15)', () => {
  it('is on when the input paused is true, or AGENT_LOOP_PAUSED is in the environment without the input; the input wins', () => {
    expect(readPauseSwitch({ [inputEnv('paused')]: 'true' })).toBe('input');
    expect(readPauseSwitch({ [inputEnv('paused')]: ' TRUE ' })).toBe('input');
    expect(readPauseSwitch({ AGENT_LOOP_PAUSED: 'true' })).toBe('env');
    expect(readPauseSwitch({ [inputEnv('paused')]: 'false', AGENT_LOOP_PAUSED: 'true' })).toBeUndefined();
    // An unset repository variable reaches the action as an empty input.
    expect(readPauseSwitch({ [inputEnv('paused')]: '' })).toBeUndefined();
    expect(readPauseSwitch({})).toBeUndefined();
  });

  it('a value that is not true or false pauses nothing and fails the inputs, naming paused', () => {
    const env = { [inputEnv('paused')]: 'please', [inputEnv('agent')]: 'command', [inputEnv('agent-command')]: 'x' };
    expect(readPauseSwitch(env)).toBeUndefined();
    expect(() => loadActionConfig(env, () => '')).toThrow(ConfigError);
    try {
      loadActionConfig(env, () => '');
    } catch (error) {
      expect((error as ConfigError).problems.map((p) => p.message)).toEqual([
        'the input paused: got "please"; expected true or false.',
      ]);
    }
  });

  it('a paused run ends green before it reads anything else: status paused, a warning and a summary saying how to resume, nothing for post to publish', async () => {
    const core = fakeCore();
    // Inputs that would fail the step, and no repository or token: the pause comes first.
    const given: NodeJS.ProcessEnv = {
      [inputEnv('paused')]: 'true',
      [inputEnv('max-iterations')]: 'lots',
      [inputEnv('agent')]: 'robot',
    };
    const read = new Set<string>();
    const env = new Proxy(given, {
      get: (target, key) => {
        if (typeof key === 'string') read.add(key);
        return target[key as string];
      },
    });
    const stdout = jest.fn();

    await runAction({ core, env, cwd: '/nonexistent', clock: new ManualClock(0), stdout });

    expect(core.setFailed).not.toHaveBeenCalled();
    expect(core.error).not.toHaveBeenCalled();
    expect([...read]).toEqual([inputEnv('paused')]);
    expect(Object.fromEntries(core.setOutput.mock.calls)).toEqual({
      status: 'paused',
      'result-json': '{"status":"paused","paused":true}',
    });
    expect(core.warning.mock.calls).toEqual([[pausedWarning('input')]]);
    expect(core.warning.mock.calls[0]![0]).toMatch(
      /^agent-loop is paused: the input paused is true .*AGENT_LOOP_PAUSED.*To resume, set the repository variable AGENT_LOOP_PAUSED to false or delete it/,
    );
    expect(core.writeSummary.mock.calls).toEqual([[pausedSummary('input')]]);
    expect(core.saveState.mock.calls).toEqual([['unchanged', 'paused']]);
    expect(core.setSecret).not.toHaveBeenCalled();
    expect(stdout).not.toHaveBeenCalled();
  });

  it('the summary says it is paused, that nothing was done, and how to resume from where the switch is set', () => {
    const byInput = pausedSummary('input');
    expect(byInput).toMatch(/^## ⏯️ agent-loop: paused\n/);
    expect(byInput).toContain('no agent was installed or run, nothing was published');
    expect(byInput).toContain('**To resume:** set the repository variable `AGENT_LOOP_PAUSED` to `false` or delete it');
    const byEnv = pausedSummary('env');
    expect(byEnv).toContain("`AGENT_LOOP_PAUSED` is true in the step's environment");
    expect(byEnv).toContain("drop `AGENT_LOOP_PAUSED` from the step's `env:`");
  });

  it('paused: true in the config file fails the step instead of being ignored while the loop runs (review)', () => {
    const read = (p: string) => {
      if (p.endsWith('.agent-loop.yml')) return 'paused: true\n';
      throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    };
    expect(() => loadActionConfig({ [inputEnv('agent')]: 'claude' }, read)).toThrow(ConfigError);
  });
});
