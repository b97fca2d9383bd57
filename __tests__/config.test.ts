import { describe, expect, it } from '@jest/globals';
import { ConfigError, OPTIONS, collectSecrets, loadConfig, parseArgs } from '../src/config.js';
import { commandHelp } from '../src/cli/help.js';

const load = (argv: string[], env: NodeJS.ProcessEnv = {}, files: Record<string, string> = {}) => {
  const args = parseArgs(argv);
  return loadConfig({
    command: args.command ?? 'run',
    flags: args.values,
    env,
    readFile: (p) => {
      if (p in files) return files[p] as string;
      throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    },
  });
};
const problemsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.message);
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const { options } = load(['run', '--agent', 'command', '--agent-command', 'x']);
    expect(options).toMatchObject({
      source: 'beads',
      issuesFile: '.beads/issues.jsonl',
      maxIterations: 100,
      iterationDelay: 10,
      agentTimeoutMinutes: 30,
      maxRetriesPerStep: 3,
      maxConsecutiveEscalations: 2,
      onSuccess: 'merge',
      batch: false,
      fresh: false,
      strict: false,
      json: false,
    });
  });

  it('layers defaults < config file < environment < flags', () => {
    const files = {
      '.agent-loop.yml':
        'max-iterations: 7\niteration-delay: 3\nslice-iterations: 4\nagent: command\nagent-command: from-file\n',
    };
    const env = { AGENT_LOOP_ITERATION_DELAY: '2', AGENT_LOOP_SLICE_ITERATIONS: '5' };
    const { options } = load(['run', '--slice-iterations', '6'], env, files);
    expect(options.maxIterations).toBe(7); // file over default
    expect(options.iterationDelay).toBe(2); // env over file
    expect(options.sliceIterations).toBe(6); // flag over env
    expect(options.agentCommand).toBe('from-file');
  });

  it('reports every invalid value together, naming the option, the value and what is expected', () => {
    const problems = problemsOf(() =>
      load(
        [
          'run',
          '--max-iterations',
          'abc',
          '--agent',
          'robot',
          '--agent-timeout-minutes',
          '0',
          '--on-success',
          'rebase',
        ],
        { AGENT_LOOP_ITERATION_DELAY: '-1' },
      ),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        '--max-iterations: got "abc"; expected a whole number from 1 to 1000000.',
        '--agent: got "robot"; expected one of claude, codex, command.',
        '--agent-timeout-minutes: got "0"; expected a number of minutes > 0, at most 1440 (a day).',
        '--on-success: got "rebase"; expected one of merge, branch.',
        '--iteration-delay: got "-1" (from AGENT_LOOP_ITERATION_DELAY); expected a number of seconds from 0 to 3600.',
      ]),
    );
    expect(problems).toHaveLength(5);
  });

  it('accepts decimals for the agent timeout', () => {
    expect(
      load(['run', '--agent', 'command', '--agent-command', 'x', '--agent-timeout-minutes', '0.05']).options
        .agentTimeoutMinutes,
    ).toBe(0.05);
  });

  it('issue 11: bounds every duration and count at parse time (40000 minutes would overflow the timer and fire at once)', () => {
    expect(
      problemsOf(() => load(['run', '--agent', 'command', '--agent-command', 'x', '--agent-timeout-minutes', '40000'])),
    ).toEqual([expect.stringMatching(/--agent-timeout-minutes.*40000.*at most 1440/)]);
    const problems = problemsOf(() =>
      load([
        'run',
        '--agent',
        'command',
        '--agent-command',
        'x',
        '--iteration-delay',
        '1e9',
        '--slice-minutes',
        '99999999',
        '--max-iterations',
        '1e12',
      ]),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/--iteration-delay/),
        expect.stringMatching(/--slice-minutes/),
        expect.stringMatching(/--max-iterations/),
      ]),
    );
    expect(problemsOf(() => load(['cleanup', '--older-than', '1e400']))).toEqual([
      expect.stringMatching(/--older-than/),
    ]);
  });

  it('issue 11: a file that is no configuration is never echoed: only option-like keys are quoted, a few at most', () => {
    const shadow =
      'root:$6$saltsalt$hashhashhash:19000:0:99999:7:::\ndaemon: secretvalue123\n' +
      Array.from({ length: 20 }, (_, i) => `user${i}: x`).join('\n');
    const problems = problemsOf(() => load(['status', '--config', 'shadow'], {}, { shadow }));
    expect(problems.join('\n')).not.toContain('$6$');
    expect(problems.join('\n')).not.toContain('secretvalue123');
    expect(problems.length).toBeLessThanOrEqual(6);
    expect(problems.at(-1)).toMatch(/key\(s\) that are no option names \(not shown; is this the right file\?\)/);
    expect(problems.at(-1)).toMatch(/^--config 'shadow': /); // names the option that brought the file in
  });

  it('issue 11: a word after a switch is refused naming the switch (input fuzzing found "Unexpected argument" alone)', () => {
    expect(parseArgs(['run', '--batch', 'maybe']).problems.map((p) => p.message)).toEqual([
      "--batch takes no value, got 'maybe': write --batch to turn it on (or --batch true|false).",
    ]);
    expect(parseArgs(['run', '--batch', 'false']).problems).toEqual([]);
    expect(parseArgs(['run', 'stray']).problems[0]?.message).toMatch(/^Unexpected argument 'stray'/);
  });

  it('rejects unknown options and flags of another command', () => {
    expect(parseArgs(['run', '--bogus']).problems[0]?.message).toMatch(/Unknown option --bogus/);
    expect(problemsOf(() => load(['status', '--max-iterations', '3']))).toEqual([
      expect.stringMatching(/--max-iterations is not an option of 'status'/),
    ]);
  });

  it('rejects unknown keys in the config file and an unreadable explicit config', () => {
    expect(problemsOf(() => load(['run'], {}, { '.agent-loop.yml': 'max-iteration: 3\n' }))).toEqual([
      expect.stringMatching(/unknown option 'max-iteration'/),
    ]);
    expect(problemsOf(() => load(['run', '--config', 'nope.yml']))).toEqual([
      expect.stringMatching(/--config: cannot read 'nope.yml'/),
    ]);
  });

  it('requires --agent-command with --agent command, and one of --resume / --fresh', () => {
    expect(problemsOf(() => load(['run', '--agent', 'command']))).toEqual([
      expect.stringMatching(/--agent-command: required/),
    ]);
    expect(
      problemsOf(() =>
        load([
          'run',
          '--agent',
          'command',
          '--agent-command',
          'x',
          '--fresh',
          '--resume',
          '2b1c6f2e-3c1a-4d4e-9f00-0123456789ab',
        ]),
      ),
    ).toEqual([expect.stringMatching(/--resume and --fresh contradict/)]);
  });

  it('validates --resume as a UUID v4 before anything touches the filesystem', () => {
    expect(problemsOf(() => load(['run', '--resume', '../../etc/passwd']))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^--resume: got "..\/..\/etc\/passwd"; expected a checkpoint id/)]),
    );
  });

  it('cleanup needs exactly one of --older-than and --all', () => {
    expect(problemsOf(() => load(['cleanup']))).toEqual([
      expect.stringMatching(/exactly one of --older-than DAYS or --all/),
    ]);
    expect(load(['cleanup', '--older-than', '7']).options.olderThan).toBe(7);
  });

  it('never shows a secret value in an error, and collects secrets to mask', () => {
    const problems = problemsOf(() => load(['run', '--discord-webhook', 'not a url secretvalue']));
    expect(problems.join('\n')).not.toContain('secretvalue');
    expect(
      collectSecrets(
        { discordWebhook: 'https://discord.example/api/webhooks/1/abcdef' },
        { GITHUB_TOKEN: 'ghp_123456', HOME: '/root' },
      ),
    ).toEqual(expect.arrayContaining(['https://discord.example/api/webhooks/1/abcdef', 'ghp_123456']));
  });

  it('documents every option of a command in --help with its default and environment variable', () => {
    const help = commandHelp('run');
    for (const o of OPTIONS.filter((x) => x.commands.includes('run'))) {
      expect(help).toContain(`--${o.flag}`);
      expect(help).toContain(o.env);
    }
    expect(help).toContain('(default: 100)');
  });
});
