/**
 * Git.laneState: where HEAD is and where the base branch points, in one git process, as the lane
 * guard asks twice per iteration; it must say what currentRef() and tipOf() say, in every state.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GIT_ENV, gitIn } from './repo.js';
import { type Git, openGit } from '../../src/git/git.js';

let dir: string;
let git: Git;
const env = GIT_ENV;
const sh = gitIn(() => dir);

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-lanestate-'));
  sh('init', '-q', '-b', 'main');
  sh('commit', '-q', '--allow-empty', '-m', 'one');
  git = (await openGit(dir, env)) as Git;
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const both = async (base: string) => ({ head: await git.currentRef(), baseTip: await git.tipOf(base) });

describe('Git.laneState', () => {
  it('on a branch: its name and the base tip', async () => {
    sh('checkout', '-q', '-b', 'agent-loop/a-1');
    sh('commit', '-q', '--allow-empty', '-m', 'two');
    expect(await git.laneState('main')).toEqual({ head: 'agent-loop/a-1', baseTip: sh('rev-parse', 'main') });
    expect(await git.laneState('main')).toEqual(await both('main'));
  });

  it('detached: the commit, as currentRef says', async () => {
    sh('checkout', '-q', '--detach');
    expect(await git.laneState('main')).toEqual({ head: sh('rev-parse', 'HEAD'), baseTip: sh('rev-parse', 'main') });
    expect(await git.laneState('main')).toEqual(await both('main'));
  });

  it('a base branch that is gone: undefined, HEAD still read', async () => {
    sh('checkout', '-q', '-b', 'other');
    sh('branch', '-q', '-D', 'main');
    expect(await git.laneState('main')).toEqual({ head: 'other', baseTip: undefined });
    expect(await git.laneState('main')).toEqual(await both('main'));
  });

  it('a base branch whose name is also a tag or a file: the branch', async () => {
    sh('tag', 'main', 'HEAD');
    sh('checkout', '-q', '-b', 'work');
    sh('commit', '-q', '--allow-empty', '-m', 'two');
    await fs.writeFile(path.join(dir, 'main'), 'a file');
    expect(await git.laneState('main')).toEqual(await both('main'));
  });
});
