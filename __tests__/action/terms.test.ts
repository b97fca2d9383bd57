/** The action's messages in its own terms (issue 14, src/action/terms.ts). */
import { describe, expect, it } from '@jest/globals';
import { cliVocabulary, inActionTerms } from '../../src/action/terms.js';

const ID = '3b241101-e2bb-4255-8caf-4136c566a962';

describe('inActionTerms (issue 14)', () => {
  it.each([
    [
      'then resume the run (--resume-halted; the action: resume: true), or push the fix',
      'then resume the run (resume: true), or push the fix',
    ],
    ['Resume a halted run with --resume-halted.', 'Resume a halted run with resume: true.'],
    [
      'Raise --max-iterations (the action: max-iterations) to continue from here',
      'Raise the input max-iterations to continue from here',
    ],
    [
      `--resume ${ID}: no checkpoint with id ${ID} exists in /s/checkpoints; run \`agent-loop status --state-dir /s\` to list the checkpoints there`,
      `checkpoint-id ${ID}: no checkpoint with id ${ID} exists in /s/checkpoints; each run's job summary and checkpoint-id output name its checkpoint`,
    ],
    ['--resume: bad. Start over with --fresh.', 'checkpoint-id: bad. Start over with fresh: true.'],
    [
      '--agent claude: `claude` is not on PATH. Choose another agent with --agent command --agent-command CMD.',
      'agent: claude: `claude` is not on PATH. Choose another agent with agent: command agent-command: CMD.',
    ],
    [
      'Give the command that runs the suite, e.g. --test-command "npm test".',
      'Give the command that runs the suite, e.g. test-command: "npm test".',
    ],
    [
      'Budget reached: $1 spent of the $1 cap (--max-cost-usd)',
      'Budget reached: $1 spent of the $1 cap (the input max-cost-usd)',
    ],
    [
      'Point --issues-file PATH at it; check --agent-command.',
      'Point issues-file: PATH at it; check the input agent-command.',
    ],
    [
      'wait for it to finish (agent-loop status shows its progress)',
      "wait for it to finish (its job's log shows its progress)",
    ],
  ])('%s', (cli, action) => {
    expect(inActionTerms(cli)).toBe(action);
    expect(cliVocabulary(inActionTerms(cli))).toEqual([]);
  });

  it('leaves alone what is no agent-loop option: other programs’ flags, words with dashes, agent-loop’s own name', () => {
    const text =
      'pytest --junitxml=junit.xml --continue-on-collection-errors; tar --posix; a well-known fix; agent-loop/issue-1 by agent-loop';
    expect(inActionTerms(text)).toBe(text);
    expect(cliVocabulary(text)).toEqual([]);
  });

  it('cliVocabulary finds the flags of agent-loop options and agent-loop status', () => {
    expect(cliVocabulary('run --resume-halted, or --fresh; see `agent-loop status`; pytest --junitxml')).toEqual([
      '--resume-halted',
      '--fresh',
      'agent-loop status',
    ]);
  });
});
