/**
 * Git.laneState: where HEAD is and where the base branch points, read from git's loose refs or in
 * one git process, as the lane guard asks twice per iteration; it must say what currentRef() and
 * tipOf() say, in every state.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GIT_ENV, gitIn } from './repo.js';
import { type Git, openGit } from '../../src/git/git.js';
import { laneFromFiles } from '../../src/git/looseRefs.js';

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

  it('reads loose refs from the files: no git process after the first call', async () => {
    sh('checkout', '-q', '-b', 'agent-loop/a-1');
    const trace = path.join(dir, '.git', 'trace.txt');
    const traced = (await openGit(dir, { ...env, GIT_TRACE: trace })) as Git;
    await traced.laneState('main');
    const before = (await fs.readFile(trace, 'utf8')).match(/built-in: git /g)?.length ?? 0;
    for (let i = 0; i < 5; i++) expect(await traced.laneState('main')).toEqual(await both('main'));
    const after = (await fs.readFile(trace, 'utf8')).match(/built-in: git /g)?.length ?? 0;
    // The trace does see this Git's processes (the first call's lookup of the git directories)...
    expect(before).toBeGreaterThan(0);
    // ...and the five later calls ran none (the comparisons run on another Git, untraced).
    expect(after).toBe(before);
  });

  it('sees every move at once, whoever makes it (no cache: the files are read each time)', async () => {
    sh('checkout', '-q', '-b', 'agent-loop/a-1');
    const check = async () => expect(await git.laneState('main')).toEqual(await both('main'));
    await check();
    sh('commit', '-q', '--allow-empty', '-m', 'two');
    await check();
    sh('update-ref', 'refs/heads/main', 'HEAD');
    await check();
    sh('checkout', '-q', 'main');
    await check();
    sh('checkout', '-q', '--detach');
    await check();
    sh('reset', '-q', '--hard', 'HEAD~1');
    await check();
    sh('checkout', '-q', '-b', 'nested/deep/name');
    await check();
  });

  it('leaves to git what the files cannot say alone: packed refs, a symbolic branch, an unborn HEAD', async () => {
    const dirs = { topLevel: dir, gitDir: path.join(dir, '.git'), commonDir: path.join(dir, '.git') };
    sh('checkout', '-q', '-b', 'work');
    expect(laneFromFiles(dirs, 'main')).toEqual({ head: 'work', baseTip: sh('rev-parse', 'main') });
    sh('pack-refs', '--all');
    expect(laneFromFiles(dirs, 'main')).toBeUndefined();
    expect(await git.laneState('main')).toEqual(await both('main'));
    sh('commit', '-q', '--allow-empty', '-m', 'loose again');
    sh('update-ref', 'refs/heads/main', 'HEAD');
    sh('symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    expect(laneFromFiles(dirs, 'alias')).toBeUndefined();
    expect(await git.laneState('alias')).toEqual(await both('alias'));
    sh('checkout', '-q', '--orphan', 'unborn');
    expect(laneFromFiles(dirs, 'main')).toBeUndefined();
    expect(await git.laneState('main')).toEqual({ head: 'unborn', baseTip: sh('rev-parse', 'main') });
  });

  it('in a linked work tree: its own HEAD, the shared refs', async () => {
    const other = `${dir}-wt`;
    sh('worktree', 'add', '-q', '-b', 'side', other);
    try {
      const wt = (await openGit(other, env)) as Git;
      expect(await wt.laneState('main')).toEqual({ head: 'side', baseTip: sh('rev-parse', 'main') });
      sh('commit', '-q', '--allow-empty', '-m', 'main moves');
      expect(await wt.laneState('main')).toEqual({ head: 'side', baseTip: sh('rev-parse', 'main') });
    } finally {
      await fs.rm(other, { recursive: true, force: true });
    }
  });

  it('never reads outside refs/heads for a branch name that climbs out of it', () => {
    const dirs = { topLevel: dir, gitDir: path.join(dir, '.git'), commonDir: path.join(dir, '.git') };
    expect(laneFromFiles(dirs, '../../HEAD')).toBeUndefined();
    expect(laneFromFiles(dirs, '/etc/passwd')).toBeUndefined();
  });

  it("follows git, not the files it first read, when the agent points a work tree's .git elsewhere", async () => {
    const other = `${dir}-wt`;
    sh('worktree', 'add', '-q', '-b', 'feature', other);
    try {
      const wt = (await openGit(other, env)) as Git;
      expect(await wt.laneState('main')).toEqual({ head: 'feature', baseTip: sh('rev-parse', 'main') });
      // The agent makes the work tree's git the main repository's, whose HEAD is on main.
      await fs.writeFile(path.join(other, '.git'), `gitdir: ${path.join(dir, '.git')}\n`);
      const viaGit = { head: await wt.currentRef(), baseTip: await wt.tipOf('main') };
      expect(viaGit.head).toBe('main');
      expect(await wt.laneState('main')).toEqual(viaGit);
    } finally {
      await fs.rm(other, { recursive: true, force: true });
    }
  });

  it('follows git when the agent moves .git away and leaves a gitdir: file (no error from the files)', async () => {
    sh('checkout', '-q', '-b', 'work');
    await git.laneState('main');
    const moved = `${dir}-gitdir`;
    await fs.rename(path.join(dir, '.git'), moved);
    try {
      await fs.writeFile(path.join(dir, '.git'), `gitdir: ${moved}\n`);
      sh('checkout', '-q', 'main');
      expect(await git.laneState('main')).toEqual({ head: 'main', baseTip: sh('rev-parse', 'main') });
    } finally {
      await fs.rm(moved, { recursive: true, force: true });
    }
  });

  it('takes a ref as git does: only the line end trimmed (a ref git calls broken is not read)', async () => {
    const dirs = { topLevel: dir, gitDir: path.join(dir, '.git'), commonDir: path.join(dir, '.git') };
    const tip = sh('rev-parse', 'main');
    await fs.writeFile(path.join(dir, '.git', 'refs', 'heads', 'main'), ` ${tip}\n`);
    expect(laneFromFiles(dirs, 'main')).toBeUndefined();
  });
});
