/** The command line split into a command and its flags. */
import { describe, expect, it } from '@jest/globals';
import { parseArgs } from '../../src/config/argv.js';

describe('configuration', () => {
  it('issue 11: a word after a switch is refused naming the switch (input fuzzing found "Unexpected argument" alone)', () => {
    expect(parseArgs(['run', '--batch', 'maybe']).problems.map((p) => p.message)).toEqual([
      "--batch takes no value, got 'maybe': write --batch to turn it on (or --batch true|false).",
    ]);
    expect(parseArgs(['run', '--batch', 'false']).problems).toEqual([]);
    expect(parseArgs(['run', 'stray']).problems[0]?.message).toMatch(/^Unexpected argument 'stray'/);
  });

  it('an empty value on the command line is refused (an unset shell variable), never read as the default', () => {
    const messages = (argv: string[]) => parseArgs(argv).problems.map((p) => p.message);
    expect(messages(['run', '--agent-command', ''])).toEqual([
      expect.stringMatching(
        /^--agent-command was given an empty value; expected .*Leave --agent-command out for its default\.$/,
      ),
    ]);
    expect(messages(['run', '--test-command=  '])).toEqual([
      expect.stringMatching(/^--test-command was given an empty value/),
    ]);
    expect(parseArgs(['run', '--agent-command', '']).values.has('agent-command')).toBe(false);
  });

  it('-- ends the options: alone it is accepted, a word after it is refused as an argument, not as an unknown option', () => {
    expect(parseArgs(['run', '--batch', '--']).problems).toEqual([]);
    expect(parseArgs(['run', '--', '--max-iterations', '3']).problems.map((p) => p.message)).toEqual([
      "Unexpected argument '--max-iterations' after --: agent-loop run takes no arguments, only options written --name value before any --.",
      "Unexpected argument '3' after --: agent-loop run takes no arguments, only options written --name value before any --.",
    ]);
  });

  it('issue 15: a mistyped option or command names what was most likely meant', () => {
    const messages = (argv: string[]) => parseArgs(argv).problems.map((p) => p.message);
    expect(messages(['run', '--max-iteration', '5'])).toEqual([
      'Unknown option --max-iteration: did you mean --max-iterations? See agent-loop run --help.',
    ]);
    expect(messages(['status', '--josn'])).toEqual([
      'Unknown option --josn: did you mean --json? See agent-loop status --help.',
    ]);
    // Not an option of cleanup, but of run: still named (loadConfig then says whose option it is).
    expect(messages(['cleanup', '--max-iteration', '5'])[0]).toMatch(/did you mean --max-iterations\?/);
    expect(messages(['stauts'])).toEqual([
      "Unknown command 'stauts': did you mean status? Expected one of: run, plan, status, cleanup.",
    ]);
    expect(messages(['deploy'])).toEqual(["Unknown command 'deploy'. Expected one of: run, plan, status, cleanup."]);
    expect(messages(['run', '--bogus'])).toEqual(['Unknown option --bogus. See agent-loop run --help.']);
  });
});
