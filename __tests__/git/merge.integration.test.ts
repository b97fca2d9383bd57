/** Git.merge on real git: a merge that conflicts is undone, never left half-done in the checkout. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openGit } from '../../src/git/git.js';
import { GIT_ENV, gitIn } from './repo.js';

let dir: string;
const git = gitIn(() => dir);
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-merge-'));
  git('init', '-q', '-b', 'main');
  await fs.writeFile(path.join(dir, 'issues.jsonl'), 'one\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'one');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('Git.merge', () => {
  it('undoes a merge that conflicts and says in which files, leaving the branch and its files as they were', async () => {
    git('switch', '-q', '-c', 'agent-loop/x');
    await fs.writeFile(path.join(dir, 'issues.jsonl'), 'edited on the branch\n');
    git('commit', '-q', '-am', 'branch');
    const tip = git('rev-parse', 'HEAD');
    git('switch', '-q', 'main');
    await fs.writeFile(path.join(dir, 'issues.jsonl'), 'edited on main\n');
    git('commit', '-q', '-am', 'main');
    git('switch', '-q', 'agent-loop/x');
    const repo = (await openGit(dir, GIT_ENV))!;
    await expect(repo.merge('main', 'Merge main')).rejects.toThrow(
      /merging main into agent-loop\/x conflicts in issues\.jsonl; the merge was undone/,
    );
    expect(git('status', '--porcelain')).toBe('');
    expect(existsSync(path.join(dir, '.git', 'MERGE_HEAD'))).toBe(false);
    expect(git('rev-parse', 'HEAD')).toBe(tip);
    expect(await fs.readFile(path.join(dir, 'issues.jsonl'), 'utf8')).toBe('edited on the branch\n');
  });

  it('merges when nothing conflicts', async () => {
    git('switch', '-q', '-c', 'agent-loop/x');
    await fs.writeFile(path.join(dir, 'other.txt'), 'x\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'branch');
    git('switch', '-q', 'main');
    const repo = (await openGit(dir, GIT_ENV))!;
    await repo.merge('agent-loop/x', 'Merge agent-loop/x');
    expect(git('log', '-1', '--format=%s')).toBe('Merge agent-loop/x');
    expect(existsSync(path.join(dir, 'other.txt'))).toBe(true);
  });

  it('merges the branch, not a tag of the same name an agent made (git reads a tag first): the work is never left out', async () => {
    // Found in an adversarial pass: an agent's `git tag agent-loop/x` on the base made the merge
    // "already up to date", and the cycle's branch, its work merged nowhere, was then deleted.
    git('tag', 'agent-loop/x');
    git('switch', '-q', '-c', 'agent-loop/x');
    await fs.writeFile(path.join(dir, 'work.txt'), 'the work\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'the work');
    const work = git('rev-parse', 'HEAD');
    git('switch', '-q', 'main');
    const repo = (await openGit(dir, GIT_ENV))!;
    await repo.merge('agent-loop/x', 'Merge agent-loop/x');
    expect(git('merge-base', '--is-ancestor', work, 'main')).toBe('');
    expect(existsSync(path.join(dir, 'work.txt'))).toBe(true);
    git('reset', '-q', '--hard', 'HEAD~1');
    await repo.merge('agent-loop/x', 'Merge agent-loop/x', { fastForwardOnly: true });
    expect(git('rev-parse', 'main')).toBe(work);
  });
});
