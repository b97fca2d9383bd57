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
});
