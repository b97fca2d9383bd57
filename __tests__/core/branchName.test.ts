/**
 * Issue 43: whether a cycle branch's name can be a branch, decided as git decides it. Each name is
 * also given to the real `git check-ref-format --branch`, so the pure rules cannot drift from git's.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { branchNameProblem, cycleBranchName } from '../../src/core/branch.js';

const gitAccepts = (name: string) =>
  spawnSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' }).status === 0;

describe('branchNameProblem (issue 43)', () => {
  it.each([
    'agent-loop/bd-1',
    'agent-loop/issue-42',
    'agent-loop/a.b_c-d',
    'agent-loop/batch-bd-1-and-2-more',
    'agent-loop/lock.locked',
  ])('takes %s, as git does', (name) => {
    expect(branchNameProblem(name)).toBeUndefined();
    expect(gitAccepts(name)).toBe(true);
  });

  it.each([
    ['agent-loop/bad..id', '".."'],
    ['agent-loop/fix.lock', '".lock"'],
    ['agent-loop/.hidden', 'starts with "."'],
    ['agent-loop/x.', 'ends with "."'],
    ['agent-loop/a@{b', '"@{"'],
    ['agent-loop/a b', 'a space'],
    ['agent-loop/a~b', '~'],
    ['agent-loop//a', 'empty path component'],
    ['-agent', 'starts with "-"'],
  ])('refuses %s (%s), as git does', (name, why) => {
    expect(branchNameProblem(name)).toContain(why);
    expect(gitAccepts(name)).toBe(false);
  });

  it('refuses a component too long to be a file name, which git takes as a name but cannot create', () => {
    const name = `agent-loop/${'x'.repeat(201)}`;
    expect(branchNameProblem(name)).toContain('201 bytes');
    expect(branchNameProblem(`agent-loop/${'x'.repeat(200)}`)).toBeUndefined();
  });

  it('cycle branches of ids the sanitiser leaves invalid are caught', () => {
    expect(branchNameProblem(cycleBranchName(['bad..id']))).toBeDefined();
    expect(branchNameProblem(cycleBranchName(['fix.lock']))).toBeDefined();
    expect(branchNameProblem(cycleBranchName(['bd 1/x']))).toBeUndefined(); // made bd-1-x
  });
});
