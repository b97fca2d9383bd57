/**
 * What is committed is what the tests ran on (src/git/staging.ts), on real git. An adversarial pass
 * (2026-11-28) merged regressions that the tests never saw: the agent defined a `clean` filter that
 * broke a file as git staged it, hid a file the work needed in .git/info/exclude, and staged a broken
 * file before marking it skip-worktree and putting the good one back.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openGit, type StagingMoment } from '../../src/git/git.js';
import { EXCLUDE_MARK, excludeAsBefore, flaggedPaths } from '../../src/git/staging.js';
import { GIT_ENV, gitIn, useCommittedRepo } from './repo.js';

let repo: string;
const git = gitIn(() => repo);
useCommittedRepo('agent-loop-staging', 'base', (r) => (repo = r));
const file = (name: string) => path.join(repo, name);
/** The agent's trick: `name` broken in the index, marked skip-worktree, and good again in the tree the tests see. */
const stageHidden = (name: string, broken: string, good: string) => {
  writeFileSync(file(name), broken);
  git('add', name);
  git('update-index', '--skip-worktree', name);
  writeFileSync(file(name), good);
};

describe('flaggedPaths and excludeAsBefore (pure)', () => {
  it('reads the skip-worktree (S) and assume-unchanged (lowercase) paths of ls-files -v -z', () => {
    expect(flaggedPaths('H a.txt\0S b.txt\0h c d.txt\0s e.txt\0')).toEqual(['b.txt', 'c d.txt', 'e.txt']);
  });
  it("puts the exclude file back with agent-loop's own patterns added since, and nothing else", () => {
    expect(excludeAsBefore('# mine\n*.log\n', ['/out/', '*.log'])).toBe(`# mine\n*.log\n${EXCLUDE_MARK}\n/out/\n`);
    expect(excludeAsBefore(undefined, [])).toBeUndefined();
    expect(excludeAsBefore(undefined, ['/out/'])).toBe(`${EXCLUDE_MARK}\n/out/\n`);
    expect(excludeAsBefore('no newline', [])).toBe('no newline');
  });
});

describe("agent-loop's commit", () => {
  it("commits the working tree the tests ran on, whatever filter, exclude pattern or index flag the agent set, and puts the repository's settings back", async () => {
    writeFileSync(file('calc.txt'), 'sub = a - b\n');
    git('add', 'calc.txt');
    git('commit', '-q', '-m', 'calc');
    const config = readFileSync(file('.git/config'), 'utf8');
    const told: string[][] = [];
    const moments: StagingMoment[] = [];
    const g = (await openGit(repo, GIT_ENV, {
      onStagingRestored: (what, when) => (told.push(what), moments.push(when)),
    }))!;
    await g.exclude('out/'); // agent-loop's own pattern (a test output): kept
    // The agent: a clean filter that breaks a.txt as git stages it; a new file the work needs, hidden;
    // calc.txt broken in the index, then marked skip-worktree and put back good in the tree.
    git('config', 'filter.x.clean', 'sed s/ok/broken/');
    writeFileSync(file('.git/info/attributes'), 'a.txt filter=x\n');
    writeFileSync(file('a.txt'), 'ok, fixed\n');
    writeFileSync(file('needed.txt'), 'the work needs me\n');
    writeFileSync(file('.git/info/exclude'), `${readFileSync(file('.git/info/exclude'), 'utf8')}needed.txt\n`);
    stageHidden('calc.txt', 'sub = 0\n', 'sub = a - b # checked\n');

    expect(await g.commitAll('the work')).toBe(true);
    expect(git('show', 'HEAD:a.txt')).toBe('ok, fixed');
    expect(git('show', 'HEAD:needed.txt')).toBe('the work needs me');
    expect(git('show', 'HEAD:calc.txt')).toBe('sub = a - b # checked');
    expect(readFileSync(file('.git/config'), 'utf8')).toBe(config);
    expect(existsSync(file('.git/info/attributes'))).toBe(false);
    expect(readFileSync(file('.git/info/exclude'), 'utf8')).toContain(`${EXCLUDE_MARK}\n/out/\n`);
    expect(readFileSync(file('.git/info/exclude'), 'utf8')).not.toContain('needed.txt');
    expect(git('ls-files', '-v', 'calc.txt')).toBe('H calc.txt');
    expect(told).toEqual([
      [
        '.git/config',
        '.git/info/attributes',
        '.git/info/exclude',
        'the skip-worktree/assume-unchanged flag of calc.txt',
      ],
    ]);
    expect(moments).toEqual(['commit']);
  });

  it('leaves alone what the person had set before agent-loop started: their assume-unchanged settings file stays out of the commit, and nothing is said', async () => {
    writeFileSync(file('settings.txt'), 'shared\n');
    git('add', 'settings.txt');
    git('commit', '-q', '-m', 'settings');
    git('update-index', '--assume-unchanged', 'settings.txt');
    writeFileSync(file('settings.txt'), 'my own token\n');
    const told: string[][] = [];
    const g = (await openGit(repo, GIT_ENV, { onStagingRestored: (what) => told.push(what) }))!;
    writeFileSync(file('a.txt'), 'changed\n');
    expect(await g.commitAll('the work')).toBe(true);
    expect(git('show', 'HEAD:settings.txt')).toBe('shared');
    expect(git('ls-files', '-v', 'settings.txt')).toBe('h settings.txt');
    expect(told).toEqual([]);
  });

  it('commits when the agent set commit.gpgsign with a gpg that does not exist (git refused every commit until a person removed it)', async () => {
    const g = (await openGit(repo, GIT_ENV))!;
    git('config', 'commit.gpgsign', 'true');
    git('config', 'gpg.program', '/nonexistent/gpg');
    writeFileSync(file('a.txt'), 'changed\n');
    expect(await g.commitAll('the work')).toBe(true);
    expect(git('log', '-1', '--format=%s')).toBe('the work');
    expect(git('config', '--list', '--local')).not.toMatch(/gpgsign/);
  });

  it('puts .git/config back as a file of its own, never writing through a link the agent put there', async () => {
    const config = readFileSync(file('.git/config'), 'utf8');
    const g = (await openGit(repo, GIT_ENV))!;
    const elsewhere = `${repo}-elsewhere`;
    writeFileSync(elsewhere, `${config}[commit]\n\tgpgsign = true\n`);
    rmSync(file('.git/config'));
    symlinkSync(elsewhere, file('.git/config'));
    writeFileSync(file('a.txt'), 'changed\n');
    try {
      expect(await g.commitAll('the work')).toBe(true);
      expect(lstatSync(file('.git/config')).isFile()).toBe(true);
      expect(readFileSync(file('.git/config'), 'utf8')).toBe(config);
      expect(readFileSync(elsewhere, 'utf8')).toContain('gpgsign = true');
    } finally {
      rmSync(elsewhere, { force: true });
    }
  });
});

describe('putBackStaging (a slice’s end, no commit)', () => {
  it('puts back a remote the agent added (a push would go there), a filter and an index flag, leaves the working tree as it is, and says what', async () => {
    const config = readFileSync(file('.git/config'), 'utf8');
    const told: string[][] = [];
    const moments: StagingMoment[] = [];
    const g = (await openGit(repo, GIT_ENV, {
      onStagingRestored: (what, when) => (told.push(what), moments.push(when)),
    }))!;
    git('remote', 'add', 'origin', 'https://example.invalid/attacker.git');
    git('config', 'filter.x.clean', 'sed s/ok/broken/');
    git('update-index', '--skip-worktree', 'a.txt');
    writeFileSync(file('a.txt'), 'work in progress\n');
    const head = git('rev-parse', 'HEAD');

    await g.putBackStaging();
    expect(readFileSync(file('.git/config'), 'utf8')).toBe(config);
    expect(git('ls-files', '-v', 'a.txt')).toBe('H a.txt');
    expect(readFileSync(file('a.txt'), 'utf8')).toBe('work in progress\n');
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(told).toEqual([['.git/config', 'the skip-worktree/assume-unchanged flag of a.txt']]);
    expect(moments).toEqual(['slice end']);

    await g.putBackStaging(); // nothing changed since: nothing said
    expect(told).toHaveLength(1);
  });
});

describe('in a sparse checkout', () => {
  it("leaves git's own skip-worktree flags alone (a branch's new file outside the sparse patterns is never committed as deleted), and a file in the tree that the agent hid with skip-worktree is still committed as the tests saw it", async () => {
    mkdirSync(file('in'));
    mkdirSync(file('out'));
    writeFileSync(file('in/calc.txt'), 'sub = a - b\n');
    writeFileSync(file('out/b.txt'), 'b\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'two folders');
    git('checkout', '-q', '-b', 'other');
    writeFileSync(file('out/c.txt'), 'c\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'c, outside the sparse patterns');
    git('checkout', '-q', 'main');
    git('sparse-checkout', 'set', 'in');
    const told: string[][] = [];
    const g = (await openGit(repo, GIT_ENV, { onStagingRestored: (what) => told.push(what) }))!;
    await g.checkout('other'); // git marks out/c.txt skip-worktree: it is not in the tree
    expect(git('ls-files', '-v', 'out/c.txt')).toBe('S out/c.txt');

    await g.putBackStaging();
    expect(git('ls-files', '-v', 'out/c.txt')).toBe('S out/c.txt');
    expect(git('status', '--porcelain')).toBe('');
    expect(told).toEqual([]);

    // The agent's trick, on a file in the tree: a broken version staged and hidden.
    stageHidden('in/calc.txt', 'sub = 0\n', 'sub = a - b # checked\n');
    expect(await g.commitAll('the work')).toBe(true);
    expect(git('show', 'HEAD:in/calc.txt')).toBe('sub = a - b # checked');
    expect(git('show', '--stat', '--format=', 'HEAD')).not.toContain('out/');
    expect(git('ls-tree', '-r', '--name-only', 'HEAD', 'out')).toBe('out/b.txt\nout/c.txt');
    // Said or not: git (2.37 on) itself clears the flag of a file present in a sparse checkout's tree.
    expect(git('ls-files', '-v', 'in/calc.txt')).toBe('H in/calc.txt');
  });
});
