/** What a resumed run takes as its own on a cycle branch is named, never taken silently. */
import { describe, expect, it } from '@jest/globals';
import { adoptedChanges, preconditionProblems, staleRefLocks, type RepoFacts } from '../../src/safety/preconditions.js';

const facts = (over: Partial<RepoFacts>): RepoFacts => ({ topLevel: '/r', branch: 'main', dirty: [], ...over });

describe('adoptedChanges', () => {
  it("names the uncommitted changes a resumed run takes as the interrupted cycle's (a file the user made there after a crash went into its commit unsaid)", () => {
    const f = facts({ branch: 'agent-loop/bd-1', dirty: ['value.txt', 'mynotes.txt'] });
    expect(preconditionProblems(f)).toEqual([]);
    expect(adoptedChanges(f)).toMatch(
      /on agent-loop\/bd-1, the cycle branch of an earlier run \(one that stopped before the cycle's commit\), with uncommitted changes: value\.txt, mynotes\.txt\. They are taken as that cycle's work/,
    );
  });

  it('says nothing on a clean cycle branch, and a dirty base branch is refused, not adopted', () => {
    expect(adoptedChanges(facts({ branch: 'agent-loop/bd-1' }))).toBeUndefined();
    const dirtyMain = facts({ dirty: ['notes.txt'] });
    expect(adoptedChanges(dirtyMain)).toBeUndefined();
    expect(preconditionProblems(dirtyMain)).toHaveLength(1);
  });
});

describe('stale git ref locks (issue 43)', () => {
  const lock = (name: string) => ({ path: `/r/.git/${name}`, since: '2026-11-29T08:00:00.000Z' });
  it('one problem names each lock, since when, and the one command that removes them', () => {
    const problems = preconditionProblems(facts({ refLocks: [lock('HEAD.lock'), lock('refs/heads/main.lock')] }));
    expect(problems).toEqual([
      expect.stringContaining(
        'git: 2 ref locks exist: /r/.git/HEAD.lock (since 2026-11-29T08:00:00.000Z), /r/.git/refs/heads/main.lock (since 2026-11-29T08:00:00.000Z).',
      ),
    ]);
    expect(problems[0]).toContain("remove them (rm '/r/.git/HEAD.lock' '/r/.git/refs/heads/main.lock') and run again.");
  });
  it('many locks: the first ten shown, the rest counted', () => {
    const many = Array.from({ length: 13 }, (_, i) => lock(`refs/heads/b${i}.lock`));
    const [problem] = preconditionProblems(facts({ refLocks: many }));
    expect(problem).toContain('13 ref locks exist');
    expect(problem).toContain('and 3 more');
    expect(problem).not.toContain('b12.lock');
  });
});

describe('staleRefLocks (issue 43)', () => {
  it('a lock younger than a minute is a git at work now and not reported; an older one is', () => {
    const now = new Date('2026-11-30T12:00:00.000Z');
    const young = { path: '/r/.git/refs/heads/a.lock', since: '2026-11-30T11:59:30.000Z' };
    const old = { path: '/r/.git/HEAD.lock', since: '2026-11-30T11:58:59.000Z' };
    expect(staleRefLocks([young, old], now)).toEqual([old]);
  });
});
