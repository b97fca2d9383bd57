import { describe, it, expect } from '@jest/globals';
import { LineSplitter } from '../../src/agents/lines.js';

const b = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('LineSplitter', () => {
  it('joins lines across chunk boundaries', () => {
    const s = new LineSplitter();
    expect(s.push(b('hel'))).toEqual([]);
    expect(s.push(b('lo\nwor'))).toEqual(['hello']);
    expect(s.push(b('ld\n\nlast'))).toEqual(['world', '']);
    expect(s.flush()).toEqual(['last']);
    expect(s.flush()).toEqual([]);
  });

  it('strips a trailing CR (CRLF), also when CR and LF arrive in different chunks', () => {
    const s = new LineSplitter();
    expect(s.push(b('a\r\nb\r'))).toEqual(['a']);
    expect(s.push(b('\nc\r\n'))).toEqual(['b', 'c']);
    expect(s.push(b('mid\rdle\n'))).toEqual(['mid\rdle']);
  });

  it('emits a line longer than maxLineBytes as chunks of at most maxLineBytes', () => {
    const s = new LineSplitter(10);
    const out: string[] = [];
    for (let i = 0; i < 5; i++) out.push(...s.push(b('abcdefg'))); // 35 bytes, no newline
    out.push(...s.push(b('XY\nnext\n')));
    // Pieces of at most 10 bytes that rejoin to the line; then the next line whole.
    expect(out.at(-1)).toBe('next');
    expect(out.slice(0, -1).join('')).toBe(`${'abcdefg'.repeat(5)}XY`);
    expect(out.length).toBeGreaterThan(3);
    expect(out.every((l) => Buffer.byteLength(l) <= 10)).toBe(true);
  });

  it('an overlong line cut at a chunk boundary inside a multibyte character keeps the character whole', () => {
    const s = new LineSplitter(8);
    const euro = Buffer.from('€'); // 3 bytes
    const out = [
      ...s.push(Buffer.concat([b('aaaaaa'), euro.subarray(0, 1)])),
      ...s.push(Buffer.concat([euro.subarray(1), b('bbbbbbb\n')])),
    ];
    expect(out.join('')).toBe('aaaaaa€bbbbbbb');
    expect(out.join('')).not.toContain('\ufffd');
    expect(out.every((l) => Buffer.byteLength(l) <= 8)).toBe(true);
  });

  it('a line of exactly maxLineBytes comes out whole', () => {
    const s = new LineSplitter(8);
    expect(s.push(b('12345678'))).toEqual([]);
    expect(s.push(b('\n'))).toEqual(['12345678']);
  });

  it('chunks a huge line pushed in one go and keeps bounded state', () => {
    const s = new LineSplitter(1024);
    const out = s.push(Buffer.alloc(1024 * 1024 + 5, 0x78));
    expect(out).toHaveLength(1024);
    expect(s.flush()).toEqual(['xxxxx']);
  });

  it('decodes a multibyte character split across chunks', () => {
    const s = new LineSplitter();
    const bytes = b('ça 😀 va\n');
    const out: string[] = [];
    for (const byte of bytes) out.push(...s.push(Buffer.from([byte])));
    expect(out).toEqual(['ça 😀 va']);
  });

  it('never cuts a multibyte character when chunking a long line', () => {
    const s = new LineSplitter(5);
    const out = s.push(b('ab😀😀cd\n')); // 'ab' + 4 + 4 + 'cd'
    expect(out.join('')).toBe('ab😀😀cd');
    expect(out.some((l) => l.includes('\ufffd'))).toBe(false);
    expect(out.every((l) => Buffer.byteLength(l) <= 5)).toBe(true);
  });
});
