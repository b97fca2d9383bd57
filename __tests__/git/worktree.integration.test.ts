/** run --parallel's git side on real git (src/git/worktree.ts): job worktrees, and merges into the base one at a time. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitRunner } from '../../src/git/git.js';
import { worktrees } from '../../src/git/worktree.js';
import { GIT_ENV, gitIn } from './repo.js';

let dir: string;
const git = gitIn(() => dir);
const line = (id: string, status = 'open') => JSON.stringify({ id, title: `Issue ${id}`, status });
const ISSUES = '.beads/issues.jsonl';

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-worktree-')));
  git('init', '-q', '-b', 'main');
  await fs.mkdir(path.join(dir, '.beads'));
  await fs.writeFile(path.join(dir, ISSUES), [line('bd-1'), line('bd-2'), line('bd-3')].join('\n') + '\n');
  await fs.writeFile(path.join(dir, 'shared.txt'), 'nobody\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** In the worktree at `tree`: closes `id` in the issue file, writes `shared` to shared.txt when given, commits. */
async function work(tree: string, id: string, shared?: string): Promise<void> {
  const file = path.join(tree, ISSUES);
  const text = await fs.readFile(file, 'utf8');
  await fs.writeFile(file, text.replace(line(id), line(id, 'closed')));
  if (shared) await fs.writeFile(path.join(tree, 'shared.txt'), `${shared}\n`);
  gitIn(() => tree)('commit', '-q', '-am', `work ${id}`);
}

describe('worktrees (run --parallel)', () => {
  it('adds a worktree per job on its own branch from the base, and removes it with its files', async () => {
    const trees = worktrees(dir, gitRunner(dir, GIT_ENV));
    const tree = path.join(dir, '.git', 'agent-loop', 'parallel', 'wave-1', 'bd-1', 'tree');
    await trees.add(tree, 'agent-loop-wave/bd-1', 'main');
    expect(await trees.list()).toEqual([tree]);
    expect(gitIn(() => tree)('symbolic-ref', '--short', 'HEAD')).toBe('agent-loop-wave/bd-1');
    await trees.remove(tree);
    await trees.deleteBranches('agent-loop-wave/bd-1', 'agent-loop-wave/gone');
    expect(await trees.list()).toEqual([]);
    expect(existsSync(tree)).toBe(false);
    expect(await trees.branchExists('agent-loop-wave/bd-1')).toBe(false);
  });

  it('merges jobs that closed neighbouring issues: the issue file merged issue by issue, not a conflict', async () => {
    const trees = worktrees(dir, gitRunner(dir, GIT_ENV));
    const [a, b] = [path.join(dir, '..', `${path.basename(dir)}-a`), path.join(dir, '..', `${path.basename(dir)}-b`)];
    try {
      await trees.add(a, 'job/bd-1', 'main');
      await trees.add(b, 'job/bd-2', 'main');
      await work(a, 'bd-1');
      await work(b, 'bd-2');
      expect(await trees.merge('job/bd-1', 'Merge bd-1', ISSUES)).toMatchObject({
        kind: 'merged',
        issuesFileResolved: false,
      });
      expect(await trees.merge('job/bd-2', 'Merge bd-2', ISSUES)).toMatchObject({
        kind: 'merged',
        issuesFileResolved: true,
      });
      expect(git('show', `main:${ISSUES}`)).toBe(
        [line('bd-1', 'closed'), line('bd-2', 'closed'), line('bd-3')].join('\n'),
      );
      expect(git('status', '--porcelain')).toBe('');
      expect(git('log', '-1', '--format=%s')).toBe('Merge bd-2');
      // Merged already (a resumed run): nothing to do.
      expect(await trees.merge('job/bd-2', 'Merge bd-2', ISSUES)).toEqual({ kind: 'up_to_date' });
    } finally {
      await trees.remove(a, b);
    }
  });

  it('aborts a merge with any other conflict, naming the files, and leaves the base as it was', async () => {
    const trees = worktrees(dir, gitRunner(dir, GIT_ENV));
    const [a, b] = [path.join(dir, '..', `${path.basename(dir)}-a`), path.join(dir, '..', `${path.basename(dir)}-b`)];
    try {
      await trees.add(a, 'job/bd-1', 'main');
      await trees.add(b, 'job/bd-2', 'main');
      await work(a, 'bd-1', 'one');
      await work(b, 'bd-2', 'two');
      await trees.merge('job/bd-1', 'Merge bd-1', ISSUES);
      const tip = git('rev-parse', 'main');
      expect(await trees.merge('job/bd-2', 'Merge bd-2', ISSUES)).toEqual({
        kind: 'conflict',
        files: [ISSUES, 'shared.txt'],
        detail: 'conflicting changes in shared.txt',
      });
      expect(git('rev-parse', 'main')).toBe(tip);
      expect(git('status', '--porcelain')).toBe('');
      expect(existsSync(path.join(dir, '.git', 'MERGE_HEAD'))).toBe(false);
    } finally {
      await trees.remove(a, b);
    }
  });

  it('says when the checkout itself is in the way (a file staged during the run): refused, not a conflict', async () => {
    const trees = worktrees(dir, gitRunner(dir, GIT_ENV));
    const a = path.join(dir, '..', `${path.basename(dir)}-a`);
    try {
      await trees.add(a, 'job/bd-1', 'main');
      await work(a, 'bd-1', 'one');
      await fs.writeFile(path.join(dir, 'mine.txt'), 'my own work\n');
      git('add', 'mine.txt');
      const tip = git('rev-parse', 'main');
      const merged = await trees.merge('job/bd-1', 'Merge bd-1', ISSUES);
      expect(merged.kind).toBe('refused');
      expect(git('rev-parse', 'main')).toBe(tip);
      expect(git('status', '--porcelain')).toBe('A  mine.txt');
    } finally {
      await trees.remove(a);
    }
  });

  it('refuses a merge that would overwrite an ignored file of the checkout (git would do it silently)', async () => {
    await fs.writeFile(path.join(dir, '.gitignore'), 'notes.local\n');
    git('add', '.gitignore');
    git('commit', '-q', '-m', 'ignore notes');
    await fs.writeFile(path.join(dir, 'notes.local'), 'my private notes\n');
    const trees = worktrees(dir, gitRunner(dir, GIT_ENV));
    const a = path.join(dir, '..', `${path.basename(dir)}-a`);
    try {
      await trees.add(a, 'job/bd-1', 'main');
      await fs.writeFile(path.join(a, 'notes.local'), 'the agent wrote this\n');
      gitIn(() => a)('add', '-f', 'notes.local');
      await work(a, 'bd-1');
      const tip = git('rev-parse', 'main');
      const merged = await trees.merge('job/bd-1', 'Merge bd-1', ISSUES);
      expect(merged).toMatchObject({ kind: 'refused', detail: expect.stringContaining('notes.local') });
      expect(await fs.readFile(path.join(dir, 'notes.local'), 'utf8')).toBe('my private notes\n');
      expect(git('rev-parse', 'main')).toBe(tip);
    } finally {
      await trees.remove(a);
    }
  });

  it("merges a job's branch, not a tag of the same name a job's agent made: its work is never left out", async () => {
    const trees = worktrees(dir, gitRunner(dir, GIT_ENV));
    const a = path.join(dir, '..', `${path.basename(dir)}-a`);
    try {
      await trees.add(a, 'job/bd-1', 'main');
      gitIn(() => a)('tag', 'job/bd-1'); // on the base: the tag's commit is merged already
      await work(a, 'bd-1');
      const tip = gitIn(() => a)('rev-parse', 'HEAD');
      expect(await trees.merge('job/bd-1', 'Merge bd-1', ISSUES)).toMatchObject({ kind: 'merged' });
      expect(git('merge-base', '--is-ancestor', tip, 'main')).toBe('');
    } finally {
      await trees.remove(a);
    }
  });
});
