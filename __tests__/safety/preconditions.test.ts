/** What a resumed run takes as its own on a cycle branch is named, never taken silently. */
import { describe, expect, it } from '@jest/globals';
import { adoptedChanges, preconditionProblems, type RepoFacts } from '../../src/safety/preconditions.js';

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
