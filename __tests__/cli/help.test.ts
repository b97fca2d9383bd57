/** --help: each command's own exit codes, and every halt reason, listed from the code (issue 15). */
import { describe, expect, it } from '@jest/globals';
import { HALT_REASON_HELP, commandHelp, mainHelp } from '../../src/cli/help.js';
import { HaltReasons } from '../../src/core/state.js';

/** The exit-code lines of a help text: the code at the start of each, after "Exit codes:". */
const exitCodes = (help: string) =>
  help
    .slice(help.indexOf('Exit codes:'))
    .split('\n')
    .flatMap((line) => /^ {2}(\d+(?:\/\d+)?) {2}/.exec(line)?.[1] ?? []);

describe('--help', () => {
  it('the top-level help and run and plan --help name every halt reason, with what it means', () => {
    for (const help of [mainHelp('0.1.0'), commandHelp('run'), commandHelp('plan')])
      for (const reason of HaltReasons)
        expect(help).toMatch(new RegExp(`^ +${reason} +${escape(HALT_REASON_HELP[reason])}$`, 'm'));
  });

  it('each command lists its own exit codes', () => {
    expect(exitCodes(commandHelp('run'))).toEqual(['0', '1', '2', '75', '130/143']);
    expect(exitCodes(commandHelp('plan'))).toEqual(['0', '1', '2', '75', '130/143']);
    expect(exitCodes(commandHelp('status'))).toEqual(['0', '2']);
    expect(exitCodes(commandHelp('cleanup'))).toEqual(['0', '1', '2']);
    expect(exitCodes(mainHelp('0.1.0'))).toEqual(['0', '1', '2', '75', '130/143']);
  });

  it("status and cleanup --help say nothing of run's halts", () => {
    for (const help of [commandHelp('status'), commandHelp('cleanup')]) {
      expect(help).not.toMatch(/halt|continuing|SIGINT/i);
      for (const reason of HaltReasons) expect(help).not.toContain(reason);
    }
    expect(commandHelp('cleanup')).toContain('1  a deletion failed');
    expect(commandHelp('status')).toContain('0  the checkpoints listed');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
