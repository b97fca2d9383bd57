import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { optionsFor } from '../../src/config/options.js';
import { ConfigError } from '../../src/config/problems.js';
import { inputEnv, loadActionConfig } from '../../src/action/inputs.js';

const noFile = () => {
  throw Object.assign(new Error('missing'), { code: 'ENOENT' });
};
const problems = (env: NodeJS.ProcessEnv, readFile: (path: string) => string = noFile) => {
  try {
    loadActionConfig(env, readFile);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.message);
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('action inputs', () => {
  it('are parsed by the same schema as the CLI flags, with the action defaults', () => {
    const { options } = loadActionConfig(
      {
        [inputEnv('max-iterations')]: '7',
        [inputEnv('label')]: 'bots',
        [inputEnv('agent')]: 'command',
        [inputEnv('agent-command')]: './a.sh',
      },
      noFile,
    );
    expect(options).toMatchObject({
      maxIterations: 7,
      label: 'bots',
      source: 'github',
      allowedAuthors: 'OWNER,MEMBER,COLLABORATOR',
      agent: 'command',
    });
    // Not given: the run takes the agent's default (0 for a command: defaultIterationDelay).
    expect(options.iterationDelay).toBeUndefined();
  });

  it('issue 14: on-success is pull-request unless the input says merge; branch with source beads names what to use instead', () => {
    const agent = { [inputEnv('agent')]: 'command', [inputEnv('agent-command')]: 'x', [inputEnv('source')]: 'beads' };
    // A config file meant for the CLI does not opt the action into pushing its base branch.
    const cliFile = () => 'on-success: merge\n';
    expect(loadActionConfig({ ...agent, [inputEnv('config')]: '.agent-loop.yml' }, cliFile).options.onSuccess).toBe(
      'pull-request',
    );
    expect(loadActionConfig({ ...agent, [inputEnv('on-success')]: 'merge' }, noFile).options.onSuccess).toBe('merge');
    expect(problems({ ...agent, [inputEnv('on-success')]: 'branch' })).toEqual([
      expect.stringMatching(
        /^on-success: branch cannot work here: in the action a finished cycle's branch would stay on the runner, .*use pull-request \(the action's default: a pull request per cycle\) or merge/,
      ),
    ]);
  });

  it('issue 15: the input agent-command alone means agent command; beside agent claude it is refused, naming both inputs', () => {
    expect(loadActionConfig({ [inputEnv('agent-command')]: './a.sh' }, noFile).options.agent).toBe('command');
    expect(problems({ [inputEnv('agent')]: 'claude', [inputEnv('agent-command')]: './a.sh' })).toEqual([
      expect.stringMatching(
        /^agent: claude and the input agent-command contradict each other: .*give agent: command or leave the input agent out; to run Claude Code, leave the input agent-command out\.$/,
      ),
    ]);
  });

  it('checkpoint-id is --resume', () => {
    const id = '2b1c6f2e-3c1a-4d4e-9f00-0123456789ab';
    expect(
      loadActionConfig(
        { [inputEnv('checkpoint-id')]: id, [inputEnv('agent')]: 'command', [inputEnv('agent-command')]: 'x' },
        noFile,
      ).options.resume,
    ).toBe(id);
  });

  it('resume is --resume-halted (true or false), not a checkpoint id', () => {
    const base = { [inputEnv('agent')]: 'command', [inputEnv('agent-command')]: 'x' };
    expect(loadActionConfig({ ...base, [inputEnv('resume')]: 'true' }, noFile).options).toMatchObject({
      resumeHalted: true,
    });
    expect(loadActionConfig(base, noFile).options).toMatchObject({ resumeHalted: false });
    expect(problems({ ...base, [inputEnv('resume')]: '2b1c6f2e-3c1a-4d4e-9f00-0123456789ab' })).toEqual([
      'the input resume: got "2b1c6f2e-3c1a-4d4e-9f00-0123456789ab"; expected true or false.',
    ]);
  });

  it('a bad input fails naming the input, the value and what is expected; every one at once', () => {
    expect(
      problems({
        [inputEnv('max-iterations')]: 'lots',
        [inputEnv('checkpoint-id')]: 'latest',
        [inputEnv('agent')]: 'robot',
      }),
    ).toEqual(
      expect.arrayContaining([
        'the input max-iterations: got "lots"; expected a whole number from 1 to 1000000.',
        'the input checkpoint-id: got "latest"; expected a checkpoint id (UUID v4, as a run\'s checkpoint-id output or job summary names it).',
        'the input agent: got "robot"; expected one of claude, codex, command.',
      ]),
    );
  });

  it("issue 40: a problem of the repository's config file names the file and the inputs, none of the CLI's flags", () => {
    const file = () => 'max-iteration: 3\n';
    const found = problems({ [inputEnv('agent')]: 'command', [inputEnv('agent-command')]: 'x' }, file);
    expect(found).toEqual([
      "the config file '.agent-loop.yml': unknown option 'max-iteration': did you mean max-iterations? Keys are the inputs' names, e.g. max-iterations.",
    ]);
  });

  it('the token is a secret: never shown in an error, collected for masking', () => {
    const token = 'ghs_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const { secrets } = loadActionConfig(
      { [inputEnv('github-token')]: token, [inputEnv('agent')]: 'command', [inputEnv('agent-command')]: 'x' },
      noFile,
    );
    expect(secrets).toContain(token);
  });

  it('action.yml declares exactly the action options (checkpoint-id for --resume, resume for --resume-halted), runs node24 with main and post(always)', () => {
    const action = YAML.parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
      inputs: Record<string, unknown>;
      runs: Record<string, string>;
      outputs: Record<string, unknown>;
    };
    const expected = optionsFor('action')
      .map((o) => o.flag)
      .filter((f) => !['json', 'config', 'resume', 'resume-halted'].includes(f));
    expect(Object.keys(action.inputs).sort()).toEqual([...expected, 'checkpoint-id', 'resume'].sort());
    expect(action.runs).toEqual({
      using: 'node24',
      main: 'dist/main/index.js',
      post: 'dist/post/index.js',
      'post-if': 'always()',
    });
    expect(Object.keys(action.outputs)).toEqual([
      'status',
      'halt-reason',
      'iterations',
      'failed-iterations',
      'successful-iterations',
      'issues-closed',
      'issues-escalated',
      'issues-no-change',
      'issues-held',
      'preexisting-failures',
      'pull-requests',
      'cost-usd',
      'loop-iterations',
      'loop-issues-closed',
      'loop-issues-escalated',
      'loop-issues-no-change',
      'loop-issues-held',
      'loop-pull-requests',
      'loop-cost-usd',
      'checkpoint-id',
      'result-json',
      'matrix',
      'wave',
      'jobs',
    ]);
  });

  it('issue 15: action.yml is what the Marketplace accepts: a description under 125 characters, branding with a Feather icon and an allowed colour', () => {
    const action = YAML.parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
      name: string;
      description: string;
      branding: { icon: string; color: string };
    };
    expect(action.name).toBe('agent-loop');
    expect(action.description.length).toBeGreaterThan(20);
    expect(action.description.length).toBeLessThan(125);
    // GitHub's branding colours; the icon is one of the Feather icons GitHub accepts.
    expect(['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark']).toContain(
      action.branding.color,
    );
    expect(['repeat', 'refresh-cw', 'rotate-cw', 'git-pull-request', 'cpu', 'tool']).toContain(action.branding.icon);
  });
});
