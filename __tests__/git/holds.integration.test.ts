/** Git.holds on real git: whether a branch holds a commit (a landing checks the fetched branch holds its recorded work). */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openGit } from '../../src/git/git.js';
import { GIT_ENV, gitIn } from './repo.js';

let dir: string;
const git = gitIn(() => dir);
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-holds-'));
  git('init', '-q', '-b', 'main');
  git('commit', '-q', '--allow-empty', '-m', 'one');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('Git.holds', () => {
  it('true for the tip and its ancestors, false for a later commit, an unknown commit or branch', async () => {
    const repo = (await openGit(dir, GIT_ENV))!;
    const first = git('rev-parse', 'HEAD');
    git('switch', '-q', '-c', 'agent-loop/x');
    git('commit', '-q', '--allow-empty', '-m', 'two');
    const second = git('rev-parse', 'HEAD');
    expect(await repo.holds('agent-loop/x', second)).toBe(true);
    expect(await repo.holds('agent-loop/x', first)).toBe(true);
    expect(await repo.holds('main', second)).toBe(false);
    expect(await repo.holds('main', 'f'.repeat(40))).toBe(false);
    expect(await repo.holds('nope', first)).toBe(false);
  });
});
