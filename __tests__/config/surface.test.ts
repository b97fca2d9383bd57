/** The words of the surface that ran (issue 40, src/config/surface.ts): one table, each surface its own words. */
import { describe, expect, it } from '@jest/globals';
import { OPTIONS, optionsFor } from '../../src/config/options.js';
import { type Act, type Terms, helpText, surface } from '../../src/config/surface.js';
import { actionVocabulary, cliVocabulary } from '../../e2e/support/vocabulary.js';

const ID = '3b241101-e2bb-4255-8caf-4136c566a962';
const ACTS: Act[] = ['resumeHalted', 'startFresh', 'listCheckpoints', 'seeProgress'];

describe('the surface words (issue 40)', () => {
  it("name an option by the schema's flag in the CLI and by its input in the action", () => {
    const cli = surface('cli');
    const action = surface('action');
    expect(cli.option('maxIterations')).toBe('--max-iterations');
    expect(action.option('maxIterations')).toBe('the input max-iterations');
    // The two options the action names otherwise (action.yml's inputs).
    expect(cli.option('resumeHalted')).toBe('--resume-halted');
    expect(action.option('resumeHalted')).toBe('the input resume');
    expect(cli.option('resume')).toBe('--resume');
    expect(action.option('resume')).toBe('the input checkpoint-id');
  });

  it('give an option its value: a flag and its argument, an input and its value; a switch is on', () => {
    expect(surface('cli').given('testCommand', '"npm test"')).toBe('--test-command "npm test"');
    expect(surface('action').given('testCommand', '"npm test"')).toBe('test-command: "npm test"');
    expect(surface('cli').given('resumeHalted')).toBe('--resume-halted');
    expect(surface('action').given('resumeHalted')).toBe('resume: true');
    expect(surface('cli').given('resume', ID)).toBe(`--resume ${ID}`);
    expect(surface('action').given('resume', ID)).toBe(`checkpoint-id: ${ID}`);
  });

  it('word every act for each surface, with none of the other surface’s words', () => {
    expect(surface('cli').act('resumeHalted')).toBe('run agent-loop run --resume-halted');
    expect(surface('action').act('resumeHalted')).toBe(
      'run the workflow by hand (workflow_dispatch) with the input resume: true',
    );
    expect(surface('cli').act('startFresh')).toBe('start over with --fresh');
    expect(surface('action').act('startFresh')).toBe('start over with the input fresh: true');
    expect(surface('cli').act('listCheckpoints', '/s')).toBe(
      'run `agent-loop status --state-dir /s` to list the checkpoints',
    );
    for (const act of ACTS) {
      const cli = surface('cli').act(act, '/s');
      const action = surface('action').act(act, '/s');
      expect([act, actionVocabulary(cli)]).toEqual([act, []]);
      expect([act, cliVocabulary(action)]).toEqual([act, []]);
    }
  });

  it('refuses a key that is no option (a help text naming a gone option fails here, not in front of a user)', () => {
    expect(() => helpText((n) => n('noSuchOption'), 'cli')).toThrow('no option noSuchOption');
  });

  it.each<[Terms, (text: string) => string[]]>([
    ['cli', actionVocabulary],
    ['action', cliVocabulary],
  ])(
    "renders every help text and expected value in the words of %s: --help names flags, action.yml and the inputs' errors name inputs",
    (terms, otherWords) => {
      const options =
        terms === 'action' ? optionsFor('action') : OPTIONS.filter((o) => o.commands.some((c) => c !== 'action'));
      const found = options.map((o) => [
        o.flag,
        [...otherWords(helpText(o.help, terms)), ...otherWords(helpText(o.expected, terms))],
      ]);
      expect(found).toEqual(options.map((o) => [o.flag, []]));
    },
  );

  it('renders a help text that names other options for each surface', () => {
    const agent = OPTIONS.find((o) => o.flag === 'agent-command')!;
    expect(helpText(agent.help, 'cli')).toContain('(--agent command, implied when --agent is not given;');
    expect(helpText(agent.help, 'action')).toContain('(agent: command, implied when the input agent is not given;');
  });

  it("the tests' vocabularies find each surface's words, and leave other programs' flags alone", () => {
    expect(
      cliVocabulary(
        'run --resume-halted, or --fresh; see `agent-loop status`; pytest --junitxml --continue-on-collection-errors',
      ),
    ).toEqual(['--resume-halted', '--fresh', 'agent-loop status']);
    expect(cliVocabulary('agent-loop/issue-1 by agent-loop; a well-known fix; tar --posix')).toEqual([]);
    expect(
      actionVocabulary('raise the input max-iterations; resume: true; (--resume-halted; the action: resume: true)'),
    ).toEqual(['the input max-iterations', 'resume: true', 'resume: true', '; the action:']);
    expect(actionVocabulary('--resume-halted, --fresh, --max-iterations 3')).toEqual([]);
  });
});
