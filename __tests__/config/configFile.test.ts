/** The config file layer, through the one config parse. */
import { describe, expect, it } from '@jest/globals';
import { load, problemsOf } from './support.js';

describe('configuration', () => {
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

  it('rejects unknown keys in the config file and an unreadable explicit config', () => {
    expect(problemsOf(() => load(['run'], {}, { '.agent-loop.yml': 'max-iteration: 3\n' }))).toEqual([
      // issue 15: with the key most likely meant.
      "--config '.agent-loop.yml': unknown option 'max-iteration': did you mean max-iterations? Keys are the flag names, e.g. max-iterations.",
    ]);
    expect(problemsOf(() => load(['run', '--config', 'nope.yml']))).toEqual([
      expect.stringMatching(/--config: cannot read 'nope.yml'/),
    ]);
  });
});
