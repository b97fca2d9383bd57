import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readEventLine, writeEventLine } from '../../src/secrets/eventText.js';
import { maskAcross } from '../../src/secrets/maskAcross.js';
import { createRedactor, secretForms } from '../../src/secrets/redact.js';

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

describe('issue 43: redact.mayHold, the one scan that lets an event with nothing to mask pass', () => {
  const SECRET = 'Zq81-mySecretValue-Kx7Lp0Wn';
  const redact = createRedactor([SECRET, 'pem\nline-two-of-it']);
  // Text made of the secret's forms cut anywhere, token shapes' prefixes and bodies, words and line breaks.
  const forms = [...secretForms(SECRET), 'ghp_', 'sk-ant-', 'xoxb-', 'Bearer ', 'github_pat_', 'A1b2C3d4E5'.repeat(4)];
  const cutForm = fc
    .tuple(fc.constantFrom(...forms), fc.nat(), fc.nat())
    .map(([f, a, b]) => f.slice(Math.min(a, b) % (f.length + 1), Math.max(a, b) % (f.length + 1)));
  const token = `sk-ant-${'A1b2C3d4E5'.repeat(3)}`;
  const piece = fc.oneof(
    cutForm,
    fc.constantFrom(token, SECRET, 'task', 'a', ' ', '\n', '\r\n', 'pem', 'line-two', '-', '"'),
  );

  it('is false only when no line, and no two adjacent lines joined, hold anything redact, edges or maskAcross would mask', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        if (redact.mayHold(text)) return;
        const lines = text.split(/\r\n|\n|\r/);
        for (const line of lines) {
          expect(redact(line)).toBe(line);
          expect(redact.edges(line)).toBe(line);
        }
        for (let i = 1; i < lines.length; i++) {
          const pair: [string, string] = [lines[i - 1] as string, lines[i] as string];
          expect(maskAcross(redact, ...pair)).toEqual(pair);
        }
        expect(redact(text)).toBe(text);
      }),
      { numRuns: 3000, seed: 43 },
    );
  });
});
