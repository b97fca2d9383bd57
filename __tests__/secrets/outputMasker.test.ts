import { describe, expect, it } from '@jest/globals';
import { type Stream, createOutputMasker } from '../../src/secrets/outputMasker.js';
import { createRedactor } from '../../src/secrets/redact.js';

const SECRET = 'Zq81-mySecretValue-Kx7Lp0Wn';
const H = 10;

/** Pushes the lines (quietMs 0: nothing is released by time), flushes, returns what was emitted. */
function through(lines: Array<[string, Stream]>): Array<[string, Stream]> {
  const out: Array<[string, Stream]> = [];
  const masker = createOutputMasker(createRedactor([SECRET]), (line, stream) => out.push([line, stream]), {
    quietMs: 0,
  });
  for (const [line, stream] of lines) masker.push(line, stream);
  masker.flush();
  return out;
}
const text = (out: Array<[string, Stream]>) => out.map(([l]) => l).join('\n');

describe('the output masker: secrets split where output enters the engine', () => {
  it('masks a line holding a secret, and keeps the lines in order with their streams', () => {
    expect(
      through([
        ['a', 'stdout'],
        [`key ${SECRET}`, 'stderr'],
        ['b', 'stdout'],
      ]),
    ).toEqual([
      ['a', 'stdout'],
      ['key ***', 'stderr'],
      ['b', 'stdout'],
    ]);
  });

  it('masks a secret split across two adjacent lines of one stream, both halves', () => {
    const out = through([
      [`x ${SECRET.slice(0, H)}`, 'stdout'],
      [`${SECRET.slice(H)} y`, 'stdout'],
    ]);
    expect(text(out)).not.toContain(SECRET.slice(0, H));
    expect(text(out)).not.toContain(SECRET.slice(H));
    expect(out.map(([l]) => l)).toEqual(['x ***', '*** y']);
  });

  it('masks a secret split across stdout and stderr when other stdout lines arrive in between (the pipes interleave)', () => {
    const out = through([
      [`mixed ${SECRET.slice(0, H)}`, 'stdout'],
      ['b64: abc', 'stdout'],
      ['more', 'stdout'],
      ['and more', 'stdout'],
      [`${SECRET.slice(H)} end`, 'stderr'],
    ]);
    expect(text(out)).not.toContain(SECRET.slice(0, H));
    expect(text(out)).not.toContain(SECRET.slice(H));
    expect(out).toContainEqual(['b64: abc', 'stdout']);
  });

  it('masks a secret whose second half, on stderr, arrived before the first, on stdout', () => {
    const out = through([
      [`${SECRET.slice(H)} end`, 'stderr'],
      ['noise', 'stdout'],
      [`start ${SECRET.slice(0, H)}`, 'stdout'],
    ]);
    expect(text(out)).not.toContain(SECRET.slice(H));
    expect(text(out)).not.toContain(SECRET.slice(0, H));
  });

  it('does not join two lines of one stream that are not adjacent; each half is masked on its own (a fragment of 8+ characters at a line end)', () => {
    const out = through([
      [SECRET.slice(0, H), 'stdout'],
      ['between', 'stdout'],
      [SECRET.slice(H), 'stdout'],
    ]);
    expect(out.map(([l]) => l)).toEqual(['***', 'between', '***']);
    // Fewer than 8 characters of a secret at a line's end are text: nothing can tell them apart.
    expect(through([[`ends with ${SECRET.slice(0, 7)}`, 'stdout']]).map(([l]) => l)).toEqual([
      `ends with ${SECRET.slice(0, 7)}`,
    ]);
    // A fragment inside a line (not at an end) is not a split secret: left as it is.
    expect(through([[`x ${SECRET.slice(0, H)} y`, 'stdout']]).map(([l]) => l)).toEqual([`x ${SECRET.slice(0, H)} y`]);
  });

  it('masks both halves of a secret printed on stdout and stderr too far apart to be held together (a loaded machine)', () => {
    const out: string[] = [];
    const masker = createOutputMasker(createRedactor([SECRET]), (line) => out.push(line), { quietMs: 0 });
    masker.push(`mixed ${SECRET.slice(0, 13)}`, 'stdout');
    // More than eight lines in between: the first half is emitted before the second arrives.
    for (let i = 0; i < 9; i += 1) masker.push(`noise ${i}`, 'stdout');
    expect(out[0]).toBe('mixed ***');
    masker.push(`${SECRET.slice(13)} end`, 'stderr');
    masker.flush();
    expect(out.at(-1)).toBe('*** end');
    expect(out.join('\n')).not.toContain(SECRET.slice(0, 8));
    expect(out.join('\n')).not.toContain(SECRET.slice(-8));
  });

  it('emits a line once more than eight lines follow it, before the output ends', () => {
    const out: string[] = [];
    const masker = createOutputMasker(createRedactor([SECRET]), (line) => out.push(line), { quietMs: 0 });
    for (let i = 0; i < 9; i += 1) masker.push(`line ${i}`, 'stdout');
    expect(out).toEqual(['line 0']);
    masker.flush();
    expect(out).toHaveLength(9);
  });

  it('masks all of a known secret that starts the line after a token shape (the shape runs on into it)', () => {
    const secret = 'supersecretvalue-42-xyz';
    const out: string[] = [];
    const masker = createOutputMasker(createRedactor([secret]), (line) => out.push(line), { quietMs: 0 });
    masker.push('ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123', 'stdout');
    masker.push(`${secret} done`, 'stdout');
    masker.flush();
    expect(out).toEqual(['***', '*** done']);
  });
});
