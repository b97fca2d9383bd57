/**
 * --on-success branch: an issue whose cycle finished on its own branch, not merged into the base, is
 * not worked again (each later run ran the agent again on top of the finished work), on real git.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openGit } from '../../src/git/git.js';
import { finishedBranches } from '../../src/loop/finishedBranches.js';
import { GIT_ENV, gitIn, useCommittedRepo } from '../git/repo.js';

let repo: string;
const git = gitIn(() => repo);
useCommittedRepo('agent-loop-finished', 'base', (r) => (repo = r));

/** The branches' tips agent-loop recorded (loop.cycleTips). */
let tips: Record<string, string> = {};

/** A branch from main with commits of these subjects (recorded at its first, as agent-loop's landing records it), then back on main. */
function branch(name: string, ...subjects: string[]) {
  git('checkout', '-q', '-b', name, 'main');
  for (const [i, subject] of subjects.entries()) {
    writeFileSync(path.join(repo, `${name.replace(/\//g, '_')}-${i}.txt`), subject);
    git('add', '-A');
    git('commit', '-q', '-m', subject);
    if (i === 0) tips[name] = git('rev-parse', 'HEAD');
  }
  git('checkout', '-q', 'main');
}

describe('finishedBranches', () => {
  beforeEach(() => {
    tips = {};
  });

  it("finds an issue's own branch that holds its finished cycle's commit and is not merged, whatever came after it", async () => {
    branch('agent-loop/bd-1', 'agent-loop: bd-1 Make the value good');
    branch('agent-loop/bd-2', 'agent-loop: bd-2 Another', 'review: rename a variable');
    const g = (await openGit(repo, GIT_ENV))!;
    expect(await finishedBranches(g, 'main', ['bd-1', 'bd-2'], tips)).toEqual(
      new Map([
        ['bd-1', 'agent-loop/bd-1'],
        ['bd-2', 'agent-loop/bd-2'],
      ]),
    );
  });

  it('finds none for an escalated cycle (wip:), a merged branch, another issue of a similar name, or no branch', async () => {
    branch('agent-loop/bd-3', 'wip: bd-3 escalated: stuck');
    branch('agent-loop/bd-4', 'agent-loop: bd-4 Merged already');
    git('merge', '-q', '--no-ff', '-m', 'Merge agent-loop/bd-4', 'agent-loop/bd-4');
    branch('agent-loop/bd-5', 'agent-loop: bd-55 Another issue');
    const g = (await openGit(repo, GIT_ENV))!;
    expect(await finishedBranches(g, 'main', ['bd-3', 'bd-4', 'bd-5', 'bd-6'], tips)).toEqual(new Map());
  });

  it('finds none, and does not throw, when the base is not a branch git knows', async () => {
    branch('agent-loop/bd-1', 'agent-loop: bd-1 Make the value good');
    const g = (await openGit(repo, GIT_ENV))!;
    expect(await finishedBranches(g, 'no-such-base', ['bd-1'], tips)).toEqual(new Map());
  });

  it('finds none on a branch agent-loop never left (issue 42): an agent made agent-loop/<next-id> with a finished-looking commit', async () => {
    branch('agent-loop/bd-7', 'agent-loop: bd-7 Done, trust me');
    const forged = { ...tips };
    tips = {};
    const g = (await openGit(repo, GIT_ENV))!;
    // Before the fix: bd-7 was skipped as finished, for ever, its forged branch waiting to be merged as agent-loop's work.
    expect(await finishedBranches(g, 'main', ['bd-7'], tips)).toEqual(new Map());
    // Recorded elsewhere (another branch's tip) is no record of this one.
    expect(await finishedBranches(g, 'main', ['bd-7'], { 'agent-loop/bd-8': forged['agent-loop/bd-7']! })).toEqual(
      new Map(),
    );
  });
});
