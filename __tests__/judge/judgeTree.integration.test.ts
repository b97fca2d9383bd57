/**
 * Issue 42: the judge tree, on real git. The base plus the agent's work (committed, uncommitted,
 * untracked; a binary file, a rename, a deletion, an executable bit, symlinks), the restored paths
 * the base's, the dropped ones gone, the agent's repository untouched, nothing left after close(),
 * a killed run's leftover removed by the next open, and a real runner's report in the report directory.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs, lstatSync, readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execGit } from '../../src/git/exec.js';
import {
  type JudgeTree,
  type JudgeTreeRequest,
  clearJudgeTrees,
  judgeScratch,
  openJudgeTree,
} from '../../src/judge/judgeTree.js';
import { REPORT_DIR_VARIABLE, judgeRun } from '../../src/judge/judgeRun.js';
import { runTestCommand } from '../../src/loop/testGate.js';
import { GIT_ENV, gitIn } from '../git/repo.js';

let repo: string;
let scratch: string;
let outside: string;
let base: string;
const git = gitIn(() => repo);
const write = async (rel: string, text: string | Buffer) => {
  await fs.mkdir(path.dirname(path.join(repo, rel)), { recursive: true });
  await fs.writeFile(path.join(repo, rel), text);
};
const BINARY = Buffer.from([0, 1, 2, 0xff, 0xfe, 0, 10, 13, 0x89, 0x50, 0x4e, 0x47]);

/** The agent's repository as a person would check it: HEAD, the branch, the index and working tree's status. */
const repoState = () => ({
  head: git('rev-parse', 'HEAD'),
  branch: git('symbolic-ref', 'HEAD'),
  status: git('status', '--porcelain=v2', '--untracked-files=all', '-z'),
  index: readFileSync(path.join(repo, '.git', 'index')).toString('base64'),
  refs: git('for-each-ref'),
});
const worktrees = () =>
  git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '));

const request = (over: Partial<JudgeTreeRequest> = {}): JudgeTreeRequest => ({
  git: execGit,
  env: GIT_ENV,
  repo,
  base,
  work: 'working-tree',
  restore: [],
  drop: [],
  scratch,
  ...over,
});

beforeEach(async () => {
  repo = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-judge-'));
  scratch = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-judge-state-')), 'judge');
  outside = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-judge-outside-'));
  git('init', '-q', '-b', 'main');
  // A person's settings that change what porcelain prints: the judge tree reads plumbing only.
  git('config', 'color.ui', 'always');
  git('config', 'diff.renames', 'copies');
  await write('src/app.py', 'def answer():\n    return 41\n');
  await write('tests/test_app.py', 'from src.app import answer\n\ndef test_answer():\n    assert answer() == 42\n');
  await write('old_name.txt', 'renamed content\n');
  await write('doomed.txt', 'deleted\n');
  await write('run.sh', '#!/bin/sh\necho run\n');
  await write('.gitignore', 'ignored.log\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  base = git('rev-parse', 'HEAD');
  // The agent's work: a commit on its branch…
  git('switch', '-q', '-c', 'agent-loop/1');
  await write('src/app.py', 'def answer():\n    return 42\n');
  git('add', 'src/app.py');
  git('mv', 'old_name.txt', 'new_name.txt');
  git('commit', '-q', '-m', 'work');
  // …uncommitted changes (one staged, others not)…
  await fs.rm(path.join(repo, 'doomed.txt'));
  await fs.chmod(path.join(repo, 'run.sh'), 0o755);
  await write('tests/test_app.py', 'def test_answer():\n    assert True\n');
  git('add', 'tests/test_app.py');
  // …and untracked files: a binary, new test infrastructure, symlinks in and out of the tree, an ignored log.
  await write('data/blob.bin', BINARY);
  await write('tests/conftest.py', 'raise SystemExit("forged")\n');
  await write('added_by_agent.txt', 'new\n');
  await fs.symlink('../src/app.py', path.join(repo, 'tests', 'link_in.py'));
  await fs.symlink(outside, path.join(repo, 'escape'));
  await fs.symlink('../../etc/passwd', path.join(repo, 'tests', 'escape_relative'));
  await write('ignored.log', 'noise\n');
});

afterEach(async () => {
  for (const dir of [repo, path.dirname(scratch), outside]) await fs.rm(dir, { recursive: true, force: true });
});

describe('the judge tree (issue 42)', () => {
  it('holds the base plus the work: committed, uncommitted and untracked, a binary, a rename, a deletion, an executable bit', async () => {
    const tree = await openJudgeTree(request());
    try {
      const at = (rel: string) => path.join(tree.dir, rel);
      expect(readFileSync(at('src/app.py'), 'utf8')).toContain('return 42');
      expect(readFileSync(at('new_name.txt'), 'utf8')).toBe('renamed content\n');
      expect(existsSync(at('old_name.txt'))).toBe(false);
      expect(existsSync(at('doomed.txt'))).toBe(false);
      expect(statSync(at('run.sh')).mode & 0o111).toBe(0o111);
      expect(readFileSync(at('data/blob.bin')).equals(BINARY)).toBe(true);
      expect(readFileSync(at('tests/test_app.py'), 'utf8')).toBe('def test_answer():\n    assert True\n');
      expect(readFileSync(at('added_by_agent.txt'), 'utf8')).toBe('new\n');
      expect(readlinkSync(at('tests/link_in.py'))).toBe('../src/app.py');
      expect(existsSync(at('ignored.log'))).toBe(false);
      // Detached at the base: the work is in the index and the files, not in a commit.
      expect(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: tree.dir, env: GIT_ENV }).toString().trim()).toBe(base);
      expect(
        execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: tree.dir, env: GIT_ENV }).toString(),
      ).toBe('HEAD\n');
    } finally {
      await tree.close();
    }
  });

  it('takes the restored paths from the base (removed when the base has none) and removes the dropped ones', async () => {
    const tree = await openJudgeTree(
      request({ restore: ['tests/test_app.py', 'added_by_agent.txt', 'src'], drop: ['tests/conftest.py'] }),
    );
    try {
      const at = (rel: string) => path.join(tree.dir, rel);
      expect(readFileSync(at('tests/test_app.py'), 'utf8')).toContain('assert answer() == 42');
      expect(readFileSync(at('src/app.py'), 'utf8')).toContain('return 41');
      expect(existsSync(at('added_by_agent.txt'))).toBe(false);
      expect(existsSync(at('tests/conftest.py'))).toBe(false);
      // What was not named stays the work's.
      expect(readFileSync(at('new_name.txt'), 'utf8')).toBe('renamed content\n');
      const status = execFileSync('git', ['status', '--porcelain', '--', 'tests', 'src'], {
        cwd: tree.dir,
        env: GIT_ENV,
      });
      expect(status.toString()).toBe('A  tests/link_in.py\n');
    } finally {
      await tree.close();
    }
  });

  it('removes the symlinks of the work that point outside the tree, and says which', async () => {
    const tree = await openJudgeTree(request());
    try {
      expect(tree.removedLinks.sort()).toEqual(['escape', 'tests/escape_relative']);
      expect(lstatSync(path.join(tree.dir, 'escape'), { throwIfNoEntry: false })).toBeUndefined();
      expect(lstatSync(path.join(tree.dir, 'tests/escape_relative'), { throwIfNoEntry: false })).toBeUndefined();
      expect(lstatSync(path.join(tree.dir, 'tests/link_in.py')).isSymbolicLink()).toBe(true);
    } finally {
      await tree.close();
    }
  });

  it("leaves the agent's repository untouched: HEAD, branch, index, status and refs identical", async () => {
    const before = repoState();
    const tree = await openJudgeTree(request({ restore: ['tests/test_app.py'], drop: ['tests/conftest.py'] }));
    expect(repoState()).toEqual(before);
    await tree.close();
    expect(repoState()).toEqual(before);
  });

  it('close() leaves no worktree and no temporary directory; the report directory is outside the tree', async () => {
    const tree = await openJudgeTree(request());
    expect(worktrees()).toHaveLength(2);
    expect(path.relative(tree.dir, tree.reportDir).startsWith('..')).toBe(true);
    expect(path.relative(repo, tree.dir).startsWith('..')).toBe(true);
    expect(readdirSync(tree.reportDir)).toEqual([]);
    await tree.close();
    expect(worktrees()).toEqual([`worktree ${repo}`]);
    expect(existsSync(tree.dir)).toBe(false);
    expect(existsSync(tree.reportDir)).toBe(false);
    expect(existsSync(scratch)).toBe(false);
    expect(
      existsSync(path.join(repo, '.git', 'worktrees')) ? readdirSync(path.join(repo, '.git', 'worktrees')) : [],
    ).toEqual([]);
  });

  it('a judge tree a killed run left is removed by the next open', async () => {
    // What a run killed between `worktree add` and close() leaves: a registered worktree in the scratch directory.
    const left = path.join(scratch, '999999-killed', 'tree');
    await fs.mkdir(path.dirname(left), { recursive: true });
    git('worktree', 'add', '-q', '--detach', left, base);
    expect(worktrees()).toContain(`worktree ${left}`);
    const tree = await openJudgeTree(request());
    try {
      expect(worktrees()).not.toContain(`worktree ${left}`);
      expect(existsSync(path.dirname(left))).toBe(false);
      expect(readdirSync(scratch)).toEqual([path.basename(path.dirname(tree.dir))]);
    } finally {
      await tree.close();
    }
  });

  it('a commit as the work: its tree alone, the working tree not read', async () => {
    const tree = await openJudgeTree(request({ work: { commit: 'agent-loop/1' } }));
    try {
      expect(readFileSync(path.join(tree.dir, 'doomed.txt'), 'utf8')).toBe('deleted\n');
      expect(readFileSync(path.join(tree.dir, 'src/app.py'), 'utf8')).toContain('return 42');
      expect(existsSync(path.join(tree.dir, 'data/blob.bin'))).toBe(false);
    } finally {
      await tree.close();
    }
  });

  it("a state directory's scratch is outside it and outside every .git (test runners skip what lies under .git)", () => {
    const stateDir = path.join(repo, '.git', 'agent-loop');
    const a = judgeScratch(stateDir, '/tmp');
    expect(path.dirname(a)).toBe('/tmp');
    expect(a).not.toContain('.git');
    expect(judgeScratch(stateDir, '/tmp')).toBe(a);
    expect(judgeScratch(path.join(repo, 'other-state'), '/tmp')).not.toBe(a);
  });

  it('a scratch planted as a symlink, or writable by others, is refused with a message, and nothing is judged in it', async () => {
    const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-planted-'));
    try {
      // What the link points at holds someone's files: the leftovers' clearing must not take them for its own.
      await fs.writeFile(path.join(elsewhere, 'precious.txt'), 'mine');
      await fs.mkdir(path.join(elsewhere, 'work'));
      const planted = path.join(path.dirname(scratch), 'planted');
      await fs.symlink(elsewhere, planted);
      await expect(openJudgeTree(request({ scratch: planted }))).rejects.toThrow(
        /will not judge work in .*planted: it is a symlink.*Remove it, or set TMPDIR/,
      );
      expect(await clearJudgeTrees(request({ scratch: planted }))).toEqual([]);
      const open = path.join(path.dirname(scratch), 'open');
      await fs.mkdir(open);
      await fs.writeFile(path.join(open, 'theirs.txt'), 'not ours');
      await fs.chmod(open, 0o777);
      await expect(openJudgeTree(request({ scratch: open }))).rejects.toThrow(/writable by other users \(mode 777\)/);
      // Before the fix: every entry of the link's target (and of the open directory) was removed as a leftover.
      expect(readdirSync(elsewhere).sort()).toEqual(['precious.txt', 'work']);
      expect(readdirSync(open)).toEqual(['theirs.txt']);
    } finally {
      await fs.rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('a failure is said with the git command, and leaves nothing behind', async () => {
    await expect(openJudgeTree(request({ base: 'no-such-commit' }))).rejects.toThrow(
      /could not make the judge tree: git worktree add .*no-such-commit/,
    );
    expect(worktrees()).toEqual([`worktree ${repo}`]);
    expect(existsSync(scratch)).toBe(false);
  });
});

describe('the test command in the judge tree writes its report into the report directory (issue 42)', () => {
  let tree: JudgeTree;
  beforeEach(async () => {
    await write('pytest.ini', '[pytest]\n');
    await write('reports/junit.xml', '<testsuite tests="1"><testcase classname="forged" name="test_x"/></testsuite>');
    tree = await openJudgeTree(request({ restore: ['tests/test_app.py'], drop: ['tests/conftest.py'] }));
  });
  afterEach(() => tree.close());

  const run = async (command: string, junitFile: string | undefined) => {
    const where = await judgeRun({ cwd: tree.dir, reportDir: tree.reportDir }, { PATH: process.env.PATH }, junitFile);
    return runTestCommand(command, { ...where, timeoutMs: 120_000, onLine: () => undefined });
  };

  it('pytest told --junitxml at the JUnit file option’s path writes into the report directory; the work’s own copy is gone', async () => {
    const outcome = await run(
      'python3 -m pytest -q -p no:cacheprovider --junitxml=reports/junit.xml tests',
      'reports/junit.xml',
    );
    const report = path.join(tree.reportDir, 'reports', 'junit.xml');
    expect(readFileSync(report, 'utf8')).toContain('test_answer');
    expect(outcome.junit).toContain('test_answer');
    expect(outcome.junit).not.toContain('forged');
    // The base's test runs, against the work's fix: it passes.
    expect(Object.entries(outcome.run?.tests ?? {})).toEqual([[expect.stringContaining('test_answer'), 'passed']]);
    expect(lstatSync(path.join(tree.dir, 'reports', 'junit.xml')).isSymbolicLink()).toBe(true);
  });

  it(`a command that writes to $${REPORT_DIR_VARIABLE} itself`, async () => {
    const outcome = await run(
      `node -e "require('fs').writeFileSync(process.env.${REPORT_DIR_VARIABLE} + '/junit.xml', '<testsuite tests=\\"1\\"><testcase classname=\\"n\\" name=\\"t\\"/></testsuite>')"`,
      'junit.xml',
    );
    expect(outcome.passed).toBe(true);
    expect(readFileSync(path.join(tree.reportDir, 'junit.xml'), 'utf8')).toContain('name="t"');
    expect(outcome.junit).toContain('name="t"');
  });
});
