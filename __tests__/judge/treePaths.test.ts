/** Issue 42: what the judge tree reads from git's output, and which symlinks leave the tree. */
import { describe, expect, it } from '@jest/globals';
import { changedLinks, leavesTree, presentAt } from '../../src/judge/treePaths.js';

describe('the judge tree reads (issue 42)', () => {
  it('changedLinks: the paths that are symlinks on the new side, added or turned into one (a path with spaces included)', () => {
    const z = [0, 0, 0, 0].map(() => '0'.repeat(40));
    const raw = [
      `:000000 120000 ${z[0]} ${z[1]} A`,
      'a link',
      `:100644 100644 ${z[0]} ${z[1]} M`,
      'file.txt',
      `:100644 120000 ${z[0]} ${z[1]} T`,
      'tests/was_a_file',
      `:120000 000000 ${z[0]} ${z[1]} D`,
      'gone_link',
      '',
    ].join('\0');
    expect(changedLinks(raw)).toEqual(['a link', 'tests/was_a_file']);
    expect(changedLinks('')).toEqual([]);
  });

  it.each([
    ['escape', '/etc', true],
    ['tests/x', '../../etc/passwd', true],
    ['tests/x', '..', false],
    ['x', '..', true],
    ['x', 'a/../../b', true],
    ['tests/x', '../src/app.py', false],
    ['a/b/c', '../../d', false],
    ['a/b/c', '../../../d', true],
    ['x', 'C:\\Windows', true],
  ])('leavesTree(%j, %j) is %s', (link, target, leaves) => {
    expect(leavesTree(link, target)).toBe(leaves);
  });

  it('presentAt: the paths the base holds, as files or as directories above them', () => {
    const ls = ['src/app.py', 'tests/unit/test_a.py', 'README.md', ''].join('\0');
    expect(presentAt(ls, ['src/app.py', 'tests', 'tests/unit/', 'tests/new.py', 'src/app', 'READ'])).toEqual([
      'src/app.py',
      'tests',
      'tests/unit/',
    ]);
  });
});
