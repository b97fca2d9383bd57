/** Issue 43: the identity a state directory is bound to, and when another repository differs from it. */
import { describe, expect, it } from '@jest/globals';
import { completed, identityMismatch, normaliseOrigin } from '../../src/safety/stateDirOwner.js';

describe('normaliseOrigin', () => {
  it.each([
    ['https://github.com/o/r.git', 'github.com/o/r'],
    ['https://x-access-token:ghs_secret@github.com/o/r', 'github.com/o/r'],
    ['https://GitHub.com/o/r/', 'github.com/o/r'],
    ['ssh://git@github.com:22/o/r.git', 'github.com/o/r'],
    ['git@github.com:o/r.git', 'github.com/o/r'],
    ['/srv/git/r.git', '/srv/git/r'],
  ])('%s is %s (credentials never kept)', (url, expected) => {
    expect(normaliseOrigin(url)).toBe(expected);
  });
});

describe('identityMismatch', () => {
  const a = { origin: 'github.com/o/a', roots: ['1'.repeat(40)] };
  it('the same repository, on another runner or as a shallow clone (no roots), matches', () => {
    expect(identityMismatch(a, { origin: 'github.com/o/a' })).toBeUndefined();
    expect(identityMismatch(a, a)).toBeUndefined();
    expect(identityMismatch({ roots: a.roots }, { origin: 'github.com/o/b', roots: a.roots })).toBeUndefined();
  });
  it('another origin, or disjoint root commits, differs and says both', () => {
    expect(identityMismatch(a, { origin: 'github.com/o/b' })).toBe("origin github.com/o/a, this one's github.com/o/b");
    expect(identityMismatch({ roots: a.roots }, { roots: ['2'.repeat(40)] })).toBe(
      `root commit ${'1'.repeat(12)}, this one's ${'2'.repeat(12)}`,
    );
  });
  it('a field learnt later is recorded, a known one never replaced', () => {
    expect(completed({ roots: a.roots }, { origin: 'github.com/o/a' })).toEqual({
      origin: 'github.com/o/a',
      roots: a.roots,
    });
    expect(completed(a, { origin: 'github.com/o/a', roots: ['3'.repeat(40)] })).toEqual(a);
  });
});
