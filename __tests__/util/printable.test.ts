/**
 * Issue 43: every user-supplied value (an option's value, a path, an issue id, a title) is printed
 * through one function (src/util/printable.ts): no raw control character, a bounded length, the
 * head and the tail of a long value kept.
 */
import { describe, expect, it } from '@jest/globals';
import { PRINTABLE_MAX, escapeControls, printable } from '../../src/util/printable.js';

describe('printable (issue 43)', () => {
  it('leaves an ordinary value as it is, unicode and backslashes included', () => {
    expect(printable('.beads/issues.jsonl')).toBe('.beads/issues.jsonl');
    expect(printable('C:\\work\\état – 日本語 🚀')).toBe('C:\\work\\état – 日本語 🚀');
  });

  it('shows newline, CR, tab and escape escaped, never raw', () => {
    const shown = printable('/tmp/x\n::error::pwned\r\t\x1b[31mred');
    expect(shown).toBe('/tmp/x\\n::error::pwned\\r\\t\\e[31mred');
    for (const raw of ['\n', '\r', '\t', '\x1b']) expect(shown).not.toContain(raw);
  });

  it('shows other C0, DEL, C1, line separators and bidi controls as hex escapes', () => {
    expect(escapeControls('a\x00b\x07c\x7fd\x85e\x9bf\u2028g\u2029h\u202ei\u2066j')).toBe(
      'a\\x00b\\x07c\\x7fd\\x85e\\x9bf\\u2028g\\u2029h\\u202ei\\u2066j',
    );
  });

  it('bounds a long value, keeping its head and its tail and saying how much was cut', () => {
    const long = `/home/user/${'deep/'.repeat(200)}issues.jsonl`;
    const shown = printable(long);
    expect(shown.length).toBeLessThanOrEqual(PRINTABLE_MAX);
    expect(shown.startsWith('/home/user/deep/')).toBe(true);
    expect(shown.endsWith('deep/issues.jsonl')).toBe(true);
    const cut = Number(/…\[([\d,]+) characters cut\]…/.exec(shown)![1]!.replaceAll(',', ''));
    const [head, tail] = shown.split(/…\[[\d,]+ characters cut\]…/);
    expect(head!.length + cut + tail!.length).toBe(long.length);
  });

  it('bounds a 50 MB value quickly, to the limit given', () => {
    const title = 'T'.repeat(50 * 1024 * 1024);
    const shown = printable(title, 80);
    expect(shown.length).toBeLessThanOrEqual(80);
    expect(shown).toContain('characters cut]…');
    expect(shown).toMatch(/^T+…\[52,428,\d{3} characters cut\]…T+$/);
  });

  it('counts an escaped character at its shown length, and a long run of control characters stays bounded', () => {
    const shown = printable('\n'.repeat(1000));
    expect(shown.length).toBeLessThanOrEqual(PRINTABLE_MAX);
    expect(shown).not.toContain('\n');
    expect(printable('\n'.repeat(100)).length).toBeLessThanOrEqual(PRINTABLE_MAX);
  });

  it('never splits a character made of two code units', () => {
    const shown = printable('🚀'.repeat(10_000), 60);
    expect(shown).toMatch(/^(🚀)+…\[[\d,]+ characters cut\]…(🚀)+$/u);
  });
});
