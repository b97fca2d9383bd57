import { describe, expect, it } from '@jest/globals';
import { readEventLine, writeEventLine } from '../../src/secrets/eventText.js';

describe('issue 43: a JSON event line read as the strings it carries', () => {
  it('reads its strings (keys too) in order, decoded, and tells framing (keys, types, ids) from carried text', () => {
    const event = readEventLine(
      '{"type":"assistant","content":[{"type":"text","text":"a\\nb"},"c\\u00e9"],"n":1.5e3,"ok":true}',
    );
    expect(event?.strings.map((s) => [s.text, s.carried])).toEqual([
      ['type', false],
      ['assistant', false],
      ['content', false],
      ['type', false],
      ['text', false],
      ['text', false],
      ['a\nb', true],
      ['cé', true],
      ['n', false],
      ['ok', false],
    ]);
  });

  it('reads no event from a line that is not a JSON object', () => {
    for (const line of [
      'plain text',
      '{"a":"b"} and more',
      '{"a":"unterminated}',
      '{"a":"bad \\x escape"}',
      '["a"]',
      '{a: 1}',
    ]) {
      expect(readEventLine(line)).toBeUndefined();
    }
  });

  it('writes back only the strings that changed, every other byte as printed', () => {
    const line = '{"id":"x\\u0041","big":123456789012345678901,"text":"secret here"}';
    const event = readEventLine(line);
    if (!event) throw new Error('not read');
    expect(writeEventLine(event)).toBe(line);
    (event.strings[4] as { text: string }).text = '*** "here"';
    expect(writeEventLine(event)).toBe('{"id":"x\\u0041","big":123456789012345678901,"text":"*** \\"here\\""}');
  });
});
