/**
 * The bundles are written in ASCII (scripts/asciify.mjs): V8 keeps a script's source at two bytes
 * per character when any character is beyond Latin-1, and the action's 8 MB bundles held a few
 * thousand (… — → and a no-break space between tokens). Each is escaped only where the escape means
 * the same; the rest stops the build.
 */
import { describe, expect, it } from '@jest/globals';
import { asciify } from '../scripts/asciify.mjs';

/** Runs a module body's `result` (the source as a function body: no imports). */
const run = (source: string): unknown => new Function(`${source}; return result;`)();

describe('asciify', () => {
  it('keeps an ASCII source as it is', () => {
    const source = 'const a = "plain";\n';
    expect(asciify(source)).toBe(source);
  });

  it('escapes strings, templates, regular expressions, comments and identifiers, with the same values', () => {
    const source = [
      '// a comment — with a dash',
      'const café = "… and →";',
      'const tpl = `${café} ✓ ${"ok"} 😀`;',
      'const re = /[—–]+|😀/u;',
      // A regular expression's source text is its escaped form; one built from it matches the same.
      'const result = [café, tpl, re.test("x—y"), re.test("😀"), new RegExp(/é+/.source).test("ééé")];',
    ].join('\n');
    const out = asciify(source);
    expect(/[\u0080-\uffff]/.test(out)).toBe(false);
    expect(run(out)).toEqual(run(source));
    expect(out).toContain('caf\\u00e9');
  });

  it('writes Unicode whitespace between tokens as a space (\\u00a0 there would not parse)', () => {
    const source = 'const result = 1 +\u00a02;';
    const out = asciify(source);
    expect(out).toBe('const result = 1 + 2;');
    expect(run(out)).toBe(3);
  });

  it('stops on a character after a backslash, or in a tagged template (their meaning would change)', () => {
    expect(() => asciify('const result = "\\é";')).toThrow(/cannot write the bundle in ASCII.*\n.*line 1 \(string\)/);
    expect(() => asciify('const result = String.raw`→`;')).toThrow(/line 1 \(template\)/);
  });
});
