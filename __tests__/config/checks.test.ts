/** The checks of accepted options judged together, through the one config parse. */
import { describe, expect, it } from '@jest/globals';
import { load, problemsOf } from './support.js';

describe('configuration', () => {
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

  it("issue 14: --on-success pull-request is the action's; on the command line it names merge and branch", () => {
    expect(problemsOf(() => load(['run', '--agent', 'codex', '--on-success', 'pull-request']))).toEqual([
      '--on-success pull-request: pull requests are opened by the GitHub Action; on the command line use merge or branch.',
    ]);
  });

  it('cleanup needs exactly one of --older-than and --all', () => {
    expect(problemsOf(() => load(['cleanup']))).toEqual([
      expect.stringMatching(/exactly one of --older-than DAYS or --all/),
    ]);
    expect(load(['cleanup', '--older-than', '7']).options.olderThan).toBe(7);
  });
});
