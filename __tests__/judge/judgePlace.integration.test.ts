/**
 * Issue 42, the wiring (slice 4a): the agent's change read through the one git runner (committed,
 * uncommitted and untracked alike; renames found; texts only of the paths the judge reads, binary
 * and oversized ones left out), weighed by protect, and the judge tree opened holding the
 * maintainer's tests alone. Real git.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { execGit } from '../../src/git/exec.js';
import { readWorkChange } from '../../src/git/workChange.js';
import { textNeeded } from '../../src/judge/infrastructure.js';
import { judgeScratch, judgeTrees } from '../../src/judge/judgeTree.js';
import { openJudgePlace } from '../../src/loop/judgePlace.js';
import { GIT_ENV, gitIn, useCommittedRepo } from '../git/repo.js';

let repo = '';
let stateDir = '';
const git = gitIn(() => repo);
useCommittedRepo('agent-loop-judge-place', 'base', (r, s) => {
  repo = r;
  stateDir = s;
});

const write = (rel: string, text: string | Buffer) => {
  const file = path.join(repo, rel);
  return fs.mkdir(path.dirname(file), { recursive: true }).then(() => fs.writeFile(file, text));
};

const TEST_CALC = 'import calc\n\n\ndef test_add():\n    assert calc.add(2, 3) == 5\n';

/** The base: code, its test, a config file, a file to rename and one to delete. */
async function base(): Promise<string> {
  await write('calc.py', 'def add(a, b):\n    return a - b\n');
  await write('tests/test_calc.py', TEST_CALC);
  await write('.agent-loop.yml', 'test-command: pytest -q\n');
  await write('notes/old.md', 'notes\n'.repeat(40));
  await write('tests/test_gone.py', 'def test_gone():\n    assert True\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'the base');
  git('switch', '-q', '-c', 'agent-loop/a-1');
  return git('rev-parse', 'HEAD');
}

const trees = () => judgeTrees({ git: execGit, env: GIT_ENV, repo, scratch: judgeScratch(stateDir, stateDir) });

describe("the agent's change, read for the judge (issue 42)", () => {
  it('committed, uncommitted and untracked changes, a rename, a deletion; texts of the test files and none of the code', async () => {
    const tip = await base();
    // Committed: the fix and an xfail on the maintainer's test.
    await write('calc.py', 'def add(a, b):\n    return a + b\n');
    await write(
      'tests/test_calc.py',
      `import calc\nimport pytest\n\n\n@pytest.mark.xfail\n${TEST_CALC.split('\n\n\n')[1]}`,
    );
    git('commit', '-q', '-am', 'fix');
    // Uncommitted and untracked.
    git('mv', 'notes/old.md', 'notes/new.md');
    git('rm', '-q', 'tests/test_gone.py');
    await write('conftest.py', 'def pytest_runtest_makereport(item, call):\n    pass\n');
    await write('tests/test_new.py', 'def test_new():\n    assert True\n');
    await write('tests/data.bin', Buffer.from([0, 1, 2, 3]));

    const change = await trees().change({ base: tip, wants: textNeeded });
    const by = new Map(change.changed.map((c) => [c.path, c]));
    expect([...by.keys()].sort()).toEqual(
      [
        'calc.py',
        'conftest.py',
        'notes/new.md',
        'tests/data.bin',
        'tests/test_calc.py',
        'tests/test_gone.py',
        'tests/test_new.py',
      ].sort(),
    );
    expect(by.get('calc.py')).toEqual({ path: 'calc.py', status: 'modified' });
    expect(by.get('notes/new.md')).toEqual({ path: 'notes/new.md', status: 'renamed', from: 'notes/old.md' });
    expect(by.get('tests/test_calc.py')).toMatchObject({ status: 'modified', base: TEST_CALC });
    expect(by.get('tests/test_calc.py')?.now).toContain('@pytest.mark.xfail');
    expect(by.get('tests/test_gone.py')).toMatchObject({
      status: 'deleted',
      base: 'def test_gone():\n    assert True\n',
    });
    expect(by.get('tests/test_gone.py')?.now).toBeUndefined();
    // Binary: no text, though a test path.
    expect(by.get('tests/data.bin')).toEqual({ path: 'tests/data.bin', status: 'added' });
    expect(change.baseFiles.sort()).toEqual(
      ['.agent-loop.yml', 'a.txt', 'calc.py', 'notes/old.md', 'tests/test_calc.py', 'tests/test_gone.py'].sort(),
    );
    // The repository's own index and branch are untouched: the rename and deletion still staged only, conftest.py untracked.
    expect(git('status', '--porcelain')).toContain('?? conftest.py');
    expect(git('rev-parse', 'HEAD')).not.toBe(tip);
  });

  it('a text over the bound is not read (the judge then takes the file as changed)', async () => {
    const tip = await base();
    await write('tests/test_calc.py', `${TEST_CALC}\n\ndef test_more():\n    assert True\n`);
    const tree = (await trees().change({ base: tip, wants: textNeeded })).tree;
    const read = await readWorkChange(execGit, GIT_ENV, repo, { base: tip, tree, wants: textNeeded, bound: 20 });
    expect(read.changed).toEqual([{ path: 'tests/test_calc.py', status: 'modified' }]);
  });

  it("the judge place: the maintainer's tests as the base had them, the infrastructure the agent added dropped, its new tests left out, the config restored; the findings named", async () => {
    const tip = await base();
    await write('calc.py', 'def add(a, b):\n    return a + b\n');
    await write('tests/test_calc.py', TEST_CALC.replace('== 5', '== -1'));
    await write('conftest.py', 'def pytest_runtest_makereport(item, call):\n    pass\n');
    await write('tests/test_new.py', 'import calc\ncalc.add = lambda a, b: 5\n\ndef test_new():\n    assert True\n');
    await write('.agent-loop.yml', 'test-command: "true"\n');

    const place = await openJudgePlace(trees(), tip, { configFile: '.agent-loop.yml', extra: [], allowed: [] });
    try {
      const inTree = (rel: string) => path.join(place.place.cwd, rel);
      expect(readFileSync(inTree('calc.py'), 'utf8')).toContain('a + b');
      expect(readFileSync(inTree('tests/test_calc.py'), 'utf8')).toBe(TEST_CALC);
      expect(readFileSync(inTree('.agent-loop.yml'), 'utf8')).toBe('test-command: pytest -q\n');
      expect(existsSync(inTree('conftest.py'))).toBe(false);
      expect(existsSync(inTree('tests/test_new.py'))).toBe(false);
      expect(place.findings.map((f) => `${f.path} ${f.kind}`).sort()).toEqual([
        '.agent-loop.yml config-changed',
        'conftest.py infrastructure-added',
        'tests/test_calc.py test-changed',
      ]);
      expect(place.addedTests).toEqual([{ path: 'tests/test_new.py', names: ['test_new'] }]);
      // The agent's working tree is as it left it.
      expect(readFileSync(path.join(repo, '.agent-loop.yml'), 'utf8')).toBe('test-command: "true"\n');
    } finally {
      await place.close();
    }
    expect(existsSync(place.place.cwd)).toBe(false);
  });

  it('what the test command was installed with (an ignored node_modules) is linked into the judge tree, which has none', async () => {
    await write('.gitignore', 'node_modules/\n');
    const tip = await base();
    await write('node_modules/left-pad/index.js', 'module.exports = 1;\n');
    const place = await openJudgePlace(trees(), tip, { configFile: '.agent-loop.yml', extra: [], allowed: [] });
    try {
      const linked = path.join(place.place.cwd, 'node_modules');
      expect(await fs.readlink(linked)).toBe(path.join(repo, 'node_modules'));
      expect(readFileSync(path.join(linked, 'left-pad', 'index.js'), 'utf8')).toBe('module.exports = 1;\n');
      expect(existsSync(path.join(place.place.cwd, '.venv'))).toBe(false);
    } finally {
      await place.close();
    }
    // Removing the tree left the repository's own directory as it was.
    expect(readFileSync(path.join(repo, 'node_modules', 'left-pad', 'index.js'), 'utf8')).toBe('module.exports = 1;\n');
  });
});
