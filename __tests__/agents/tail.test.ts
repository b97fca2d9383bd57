import { describe, it, expect } from '@jest/globals';
import { TailBuffer } from '../../src/agents/tail.js';

describe('TailBuffer', () => {
  it('keeps everything while under the limit', () => {
    const t = new TailBuffer(16);
    t.push('abc');
    t.push(Buffer.from('def'));
    expect(t.toString()).toBe('abcdef');
    expect(t.totalBytes).toBe(6);
  });

  it('keeps only the last maxBytes bytes and counts every byte pushed', () => {
    const t = new TailBuffer(8);
    for (let i = 0; i < 100; i++) t.push(`${i % 10}`);
    expect(t.toString()).toBe('23456789');
    expect(t.totalBytes).toBe(100);
    t.push('0123456789ABCDEF'); // one chunk larger than the buffer
    expect(t.toString()).toBe('89ABCDEF');
    t.push('xy'); // wraps around the ring
    expect(t.toString()).toBe('ABCDEFxy');
    expect(t.totalBytes).toBe(118);
  });

  it('holds at most maxBytes whatever is pushed', () => {
    const t = new TailBuffer(1024);
    const big = Buffer.alloc(10 * 1024 * 1024, 0x61);
    for (let i = 0; i < 5; i++) t.push(big);
    for (let i = 0; i < 10_000; i++) t.push('z');
    expect(t.toBuffer().length).toBe(1024);
    expect(t.totalBytes).toBe(5 * big.length + 10_000);
  });

  it('drops a partial multibyte character at the cut start', () => {
    const t = new TailBuffer(5);
    t.push('a€bc'); // 'a' + E2 82 AC + 'bc' = 6 bytes; the tail starts inside '€'
    expect(t.toBuffer()).toEqual(Buffer.from([0xe2, 0x82, 0xac, 0x62, 0x63]));
    t.push('d'); // now starts at 0x82: two continuation bytes to drop
    expect(t.toString()).toBe('bcd');
    const emoji = new TailBuffer(5);
    emoji.push('x😀yz'); // 7 bytes; the tail keeps the last 3 bytes of the 4-byte 😀 → dropped
    expect(emoji.toString()).toBe('yz');
    expect(emoji.toString()).not.toContain('\ufffd');
  });

  it('does not drop anything when nothing was cut', () => {
    const t = new TailBuffer(7);
    t.push('€€'); // 6 bytes, nothing cut
    expect(t.toString()).toBe('€€');
  });

  it('a zero-size tail holds nothing but still counts', () => {
    const t = new TailBuffer(0);
    t.push('hello');
    expect(t.toString()).toBe('');
    expect(t.totalBytes).toBe(5);
  });

  it('grows with what it holds: a line takes a few hundred bytes, not maxBytes', () => {
    const t = new TailBuffer(64 * 1024);
    expect(t.allocatedBytes).toBe(0);
    t.push('work_remaining: step 1\n');
    expect(t.allocatedBytes).toBe(256);
    t.push('x'.repeat(1100));
    expect(t.allocatedBytes).toBe(2048);
    t.push('y'.repeat(100 * 1024));
    expect(t.allocatedBytes).toBe(64 * 1024);
    expect(t.toString()).toBe('y'.repeat(64 * 1024));
  });

  it('keeps the same bytes as a plain concatenation, whatever the chunk sizes around each growth', () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (const max of [1, 5, 256, 300, 1000, 4096]) {
      const t = new TailBuffer(max);
      let all = '';
      for (let i = 0; i < 200; i++) {
        const chunk = String.fromCharCode(97 + (i % 26)).repeat(rnd(i % 10 === 0 ? 3 * max : 40));
        t.push(chunk);
        all += chunk;
        expect(t.toString()).toBe(all.slice(-max));
        expect(t.allocatedBytes).toBeLessThanOrEqual(max);
      }
      expect(t.totalBytes).toBe(all.length);
    }
  });
});
