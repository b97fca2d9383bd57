import { describe, expect, it } from '@jest/globals';
import { inert, inertJson, isWorkflowCommand } from '../../src/report/workflowCommands.js';

describe('inert: no line agent-loop did not write itself is a workflow command (issue 11)', () => {
  it('neutralises ::name:: at a line start, after white space, on every line, and ##[ anywhere', () => {
    const hostile = [
      '::error::forged',
      '   ::set-output name=status::complete',
      '\t::add-mask::x',
      'ok line',
      'see ##[error]v1 form',
      '\u00a0::stop-commands::tok',
    ].join('\n');
    const lines = inert(hostile).split('\n');
    expect(lines.filter(isWorkflowCommand)).toEqual([]);
    // A visible backslash inside each marker, and nothing invisible (issue 15): what a reader copies is what they see.
    expect(lines.join('\n')).not.toMatch(/[\u200b-\u200d\u2060\ufeff]/);
    expect(lines).toEqual([
      ':\\:error::forged',
      '   :\\:set-output name=status::complete',
      '\t:\\:add-mask::x',
      'ok line',
      'see ##\\[error]v1 form',
      '\u00a0:\\:stop-commands::tok',
    ]);
  });

  it('leaves text without markers as it is, and a :: inside a line (a C++ name, a URL) alone', () => {
    expect(inert('std::vector and http://x')).toBe('std::vector and http://x');
    expect(inert('plain')).toBe('plain');
  });

  it('keeps JSON valid and equal in value', () => {
    const json = JSON.stringify({ line: '##[error]forged', other: '::error::x' });
    const safe = inertJson(json);
    expect(safe.includes('##[')).toBe(false);
    expect(JSON.parse(safe)).toEqual(JSON.parse(json));
  });
});
