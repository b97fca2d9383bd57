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

  it('issue 40: --source github on the command line, as a flag or from a config file shared with the action, is refused, not read as beads', () => {
    expect(problemsOf(() => load(['run', '--source', 'github']))).toEqual([
      expect.stringMatching(
        /^--source github: the GitHub issue source runs inside the GitHub Action .*use --source beads\.$/,
      ),
    ]);
    expect(problemsOf(() => load(['plan', '--goal', 'g'], {}, { '.agent-loop.yml': 'source: github\n' }))).toEqual([
      expect.stringMatching(/^--source github/),
    ]);
    expect(load(['run', '--source', 'beads'], {}, { '.agent-loop.yml': 'source: github\n' }).options.source).toBe(
      'beads',
    );
  });

  describe('issue 15: --agent-command alone means --agent command', () => {
    it('a command given as a flag, an environment variable or in the config file runs as the agent', () => {
      expect(load(['run', '--agent-command', './agent.sh']).options).toMatchObject({
        agent: 'command',
        agentCommand: './agent.sh',
      });
      expect(load(['run'], { AGENT_LOOP_AGENT_COMMAND: './agent.sh' }).options.agent).toBe('command');
      expect(load(['run'], {}, { '.agent-loop.yml': 'agent-command: ./agent.sh\n' }).options.agent).toBe('command');
      expect(load(['run', '--agent', 'command', '--agent-command', './agent.sh']).options.agent).toBe('command');
    });

    it('without a command the agent stays Claude Code, also when the environment gives it empty', () => {
      expect(load(['run']).options.agent).toBe('claude');
      expect(load(['run'], { AGENT_LOOP_AGENT_COMMAND: '  ' }).options.agent).toBe('claude');
    });

    it('beside an explicit --agent claude or codex it is exit-2 usage, naming both options, where each came from and what to do', () => {
      expect(problemsOf(() => load(['run', '--agent', 'claude', '--agent-command', './agent.sh']))).toEqual([
        '--agent claude and --agent-command contradict each other: --agent claude runs Claude Code, --agent-command runs a command as the agent. To run the command, give --agent command or leave --agent out; to run Claude Code, leave --agent-command out.',
      ]);
      expect(
        problemsOf(() => load(['run', '--agent-command', './agent.sh'], {}, { '.agent-loop.yml': 'agent: codex\n' })),
      ).toEqual([
        expect.stringMatching(
          /^--agent codex \(from \.agent-loop\.yml\) and --agent-command contradict each other: --agent codex runs the Codex CLI, .*to run the Codex CLI, leave --agent-command out\.$/,
        ),
      ]);
      expect(problemsOf(() => load(['run', '--agent', 'codex'], { AGENT_LOOP_AGENT_COMMAND: './agent.sh' }))).toEqual([
        expect.stringMatching(/^--agent codex and --agent-command \(from AGENT_LOOP_AGENT_COMMAND\) contradict/),
      ]);
    });
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

  describe('the pause switch outside the action (review)', () => {
    it('a CLI run or plan under AGENT_LOOP_PAUSED=true is refused, not run; status and cleanup and a pause that is off go on', () => {
      expect(problemsOf(() => load(['run', '--agent-command', './a.sh'], { AGENT_LOOP_PAUSED: ' TRUE ' }))).toEqual([
        'AGENT_LOOP_PAUSED is on, but only the action pauses: agent-loop run does not run while it is set (unset it to run).',
      ]);
      expect(problemsOf(() => load(['plan', '--agent-command', './a.sh'], { AGENT_LOOP_PAUSED: 'true' }))).toHaveLength(
        1,
      );
      expect(load(['status'], { AGENT_LOOP_PAUSED: 'true' }).options).toBeDefined();
      expect(load(['run', '--agent-command', './a.sh'], { AGENT_LOOP_PAUSED: 'false' }).options.agent).toBe('command');
    });

    it('paused: true in the config file is refused where an agent runs (it would be ignored while the loop runs)', () => {
      const files = { '.agent-loop.yml': 'paused: true\nagent-command: ./a.sh\n' };
      expect(problemsOf(() => load(['run'], {}, files))).toEqual([
        "--config '.agent-loop.yml': paused is not read from a config file; set the action's input paused or the repository variable AGENT_LOOP_PAUSED instead (nothing ran).",
      ]);
      expect(load(['status'], {}, files).options).toBeDefined();
      for (const off of ['false', '"no"', '" off "'])
        expect(load(['run'], {}, { '.agent-loop.yml': `paused: ${off}\nagent-command: ./a.sh\n` }).options.agent).toBe(
          'command',
        );
      expect(
        problemsOf(() => load(['run'], {}, { '.agent-loop.yml': 'paused: "yes"\nagent-command: ./a.sh\n' })),
      ).toHaveLength(1);
      expect(load(['run'], {}, { '.agent-loop.yml': 'paused: false\nagent-command: ./a.sh\n' }).options.agent).toBe(
        'command',
      );
    });
  });
});
