/** The option schema: its defaults, bounds and formats, and the help it generates. */
import { describe, expect, it } from '@jest/globals';
import { OPTIONS, defaultIterationDelay } from '../../src/config/options.js';
import { commandHelp } from '../../src/cli/help.js';
import { load, problemsOf } from './support.js';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const { options } = load(['run', '--agent', 'command', '--agent-command', 'x']);
    expect(options).toMatchObject({
      source: 'beads',
      issuesFile: '.beads/issues.jsonl',
      maxIterations: 100,
      agentTimeoutMinutes: 30,
      maxRetriesPerStep: 3,
      maxIterationsPerIssue: 20,
      maxConsecutiveEscalations: 2,
      onSuccess: 'merge',
      batch: false,
      fresh: false,
      strict: false,
      json: false,
    });
  });

  it('issue 40: --iteration-delay defaults by agent: 10 s between claude or codex invocations (seed 001), none for a command', () => {
    expect(load(['run', '--agent', 'command', '--agent-command', 'x']).options.iterationDelay).toBeUndefined();
    expect(defaultIterationDelay('command')).toBe(0);
    expect(defaultIterationDelay('claude')).toBe(10);
    expect(defaultIterationDelay('codex')).toBe(10);
    expect(load(['run', '--agent-command', 'x', '--iteration-delay', '3']).options.iterationDelay).toBe(3);
    expect(OPTIONS.find((o) => o.flag === 'iteration-delay')?.defaultValue).toBe(
      '10 with claude or codex, 0 with command',
    );
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

  it('validates --resume as a UUID v4 before anything touches the filesystem', () => {
    expect(problemsOf(() => load(['run', '--resume', '../../etc/passwd']))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^--resume: got "..\/..\/etc\/passwd"; expected a checkpoint id/)]),
    );
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
