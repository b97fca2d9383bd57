/**
 * Issue 40: a TDD commit never states a bug's title as the new behaviour (`feat: pluralize('box')
 * returns 'boxs'`): a bug's GREEN is a fix, and a title is quoted as the issue's.
 */
import { describe, expect, it } from '@jest/globals';
import { toCached, toIssue } from '../../../src/issues/github/issueFields.js';
import { commitNaming, isBug } from '../../../src/workflows/tdd/commitNaming.js';

const issue = (over: { labels?: string[]; type?: string; title?: string } = {}) => ({
  id: 'bd-7',
  title: "pluralize('box') returns 'boxs'",
  labels: [],
  ...over,
});

describe('commitNaming', () => {
  it("a bug whose one test is its title: fix, and the title quoted as the issue's with its id", () => {
    expect(commitNaming(issue({ type: 'bug' }), "pluralize('box') returns 'boxs'")).toEqual({
      subject: `bd-7 "pluralize('box') returns 'boxs'"`,
      change: 'fix',
    });
  });

  it("a checklist item names the commit as it is; a bug's is a fix, anything else a feat", () => {
    expect(commitNaming(issue({ labels: ['bug'] }), "pluralize('box') gives 'boxes'")).toEqual({
      subject: "pluralize('box') gives 'boxes'",
      change: 'fix',
    });
    expect(commitNaming(issue({ title: 'Calculator', type: 'feature' }), 'add two numbers')).toEqual({
      subject: 'add two numbers',
      change: 'feat',
    });
  });

  it('a feature described by its title is quoted as well: the title is the issue’s words', () => {
    expect(commitNaming(issue({ title: ' Calculator adds ' }), 'Calculator adds')).toEqual({
      subject: 'bd-7 "Calculator adds"',
      change: 'feat',
    });
  });
});

describe('isBug', () => {
  it('by the label (bug, type: bug, type/bug, kind/bug, any case) or the issue type (beads bug, GitHub Bug)', () => {
    for (const labels of [['bug'], ['Bug'], ['type: bug'], ['type/bug'], ['kind/bug'], ['x', ' BUG ']])
      expect(isBug({ labels })).toBe(true);
    expect(isBug({ labels: [], type: 'bug' })).toBe(true);
    expect(isBug({ labels: [], type: 'Bug' })).toBe(true);
    for (const labels of [[], ['bugfix'], ['debug'], ['not a bug'], ['enhancement']])
      expect(isBug({ labels })).toBe(false);
    expect(isBug({ labels: [], type: 'feature' })).toBe(false);
  });

  it("reads GitHub's issue type from the REST issue (its type's name)", () => {
    const raw = { number: 7, title: 't', body: '', state: 'open', labels: [], type: { id: 1, name: 'Bug' } };
    expect(toIssue(toCached(raw)!)).toMatchObject({ id: '7', type: 'Bug' });
    expect(isBug(toIssue(toCached(raw)!))).toBe(true);
    expect(toIssue(toCached({ ...raw, type: null })!).type).toBeUndefined();
  });
});
