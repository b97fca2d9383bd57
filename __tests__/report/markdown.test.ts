/** Verbatim text in Markdown (src/report/markdown.ts): fences and inline code longer than the text's backtick runs. */
import { describe, expect, it } from '@jest/globals';
import { fencedBlock, inlineCode } from '../../src/report/markdown.js';

describe('inline code', () => {
  it('holds any text on one line: backticks inside get a longer delimiter, a backtick at an end a space', () => {
    expect(inlineCode('fixed it')).toBe('`fixed it`');
    expect(inlineCode('run `npm test`\nthen @octo')).toBe('``run `npm test` then @octo``');
    expect(inlineCode('`x`')).toBe('`` `x` ``');
  });

  it('a fenced block is longer than every backtick run inside', () => {
    expect(fencedBlock('a ```` b', 'yaml')).toEqual(['`````yaml', 'a ```` b', '`````']);
  });
});
