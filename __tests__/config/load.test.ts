/** The one config parse: the layers, their precedence, and every problem reported together. */
import { describe, expect, it } from '@jest/globals';
import { parseArgs } from '../../src/config/argv.js';
import { load, problemsOf } from './support.js';

describe('configuration', () => {
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
        '--on-success: got "rebase"; expected one of merge, branch, pull-request.',
        '--iteration-delay: got "-1" (from AGENT_LOOP_ITERATION_DELAY); expected a number of seconds from 0 to 3600.',
      ]),
    );
    expect(problems).toHaveLength(5);
  });

  it('rejects unknown options and flags of another command', () => {
    expect(parseArgs(['run', '--bogus']).problems[0]?.message).toMatch(/Unknown option --bogus/);
    expect(problemsOf(() => load(['status', '--max-iterations', '3']))).toEqual([
      expect.stringMatching(/--max-iterations is not an option of 'status'/),
    ]);
  });
});
