/**
 * Issue 42, proof of fix: the two trees the agent's added tests run in. The judge tree with them (the
 * work, every protected path the agent changed taken from the base or dropped) and the cycle's base
 * with only those test files (an existing file's added tests too), whatever else the work changed
 * (the code, a conftest.py it added, a file renamed). Real git.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { execGit } from '../../src/git/exec.js';
import { judgeScratch, judgeTrees } from '../../src/judge/judgeTree.js';
import { openJudgePlace } from '../../src/loop/judgePlace.js';
import { GIT_ENV, gitIn, useCommittedRepo } from '../git/repo.js';

let repo = '';
let stateDir = '';
const git = gitIn(() => repo);
useCommittedRepo('agent-loop-added-trees', 'base', (r, s) => {
  repo = r;
  stateDir = s;
});

const write = (rel: string, text: string) => {
  const file = path.join(repo, rel);
  return fs.mkdir(path.dirname(file), { recursive: true }).then(() => fs.writeFile(file, text));
};

const BROKEN = 'def add(a, b):\n    return a - b\n';
const FIXED = 'def add(a, b):\n    return a + b\n';
const TEST_CALC = 'import calc\n\n\ndef test_sub():\n    assert calc.add(2, 0) == 2\n';
const ADDED = '\n\ndef test_add():\n    assert calc.add(2, 3) == 5\n';

describe("the trees the agent's added tests run in (issue 42)", () => {
  it('with the added tests: the work, the infrastructure it added dropped; on the base: only the added test files, as the work has them', async () => {
    await write('calc.py', BROKEN);
    await write('tests/test_calc.py', TEST_CALC);
    await write('notes/old.md', 'notes\n'.repeat(40));
    git('add', '-A');
    git('commit', '-q', '-m', 'the base');
    const tip = git('rev-parse', 'HEAD');
    git('switch', '-q', '-c', 'agent-loop/a-1');
    await write('calc.py', FIXED);
    await write('tests/test_calc.py', `${TEST_CALC}${ADDED}`);
    await write('tests/test_new.py', 'import calc\n\n\ndef test_new():\n    assert calc.add(1, 1) == 2\n');
    await write('tests/test_helpers.py', 'def two():\n    return 2\n');
    await write('conftest.py', 'def pytest_runtest_makereport(item, call):\n    pass\n');
    git('mv', 'notes/old.md', 'notes/new.md');

    const trees = judgeTrees({ git: execGit, env: GIT_ENV, repo, scratch: judgeScratch(stateDir) });
    const place = await openJudgePlace(trees, tip, { configFile: '.agent-loop.yml', extra: [], allowed: [] });
    try {
      expect(place.addedTests).toEqual([
        { path: 'tests/test_calc.py', names: ['test_add'] },
        { path: 'tests/test_new.py', names: ['test_new'] },
      ]);
      const withTests = await place.withAddedTests();
      try {
        const at = (rel: string) => path.join(withTests.place.cwd, rel);
        expect(readFileSync(at('calc.py'), 'utf8')).toBe(FIXED);
        expect(readFileSync(at('tests/test_calc.py'), 'utf8')).toBe(`${TEST_CALC}${ADDED}`);
        expect(existsSync(at('tests/test_new.py'))).toBe(true);
        expect(existsSync(at('conftest.py'))).toBe(false);
        expect(existsSync(at('notes/new.md'))).toBe(true);
        expect(withTests.place.reportDir).not.toBe(place.place.reportDir);
      } finally {
        await withTests.close();
      }
      const onBase = await place.baseWithAddedTests();
      try {
        const at = (rel: string) => path.join(onBase.place.cwd, rel);
        expect(readFileSync(at('calc.py'), 'utf8')).toBe(BROKEN);
        expect(readFileSync(at('tests/test_calc.py'), 'utf8')).toBe(`${TEST_CALC}${ADDED}`);
        expect(existsSync(at('tests/test_new.py'))).toBe(true);
        // A new test file with no test of its own (a helper the added tests import) comes with them.
        expect(existsSync(at('tests/test_helpers.py'))).toBe(true);
        expect(existsSync(at('conftest.py'))).toBe(false);
        expect(existsSync(at('notes/old.md'))).toBe(true);
        expect(existsSync(at('notes/new.md'))).toBe(false);
      } finally {
        await onBase.close();
      }
      expect(existsSync(onBase.place.cwd)).toBe(false);
      // The judge tree of the maintainer's tests is as it was: the added tests left out.
      expect(readFileSync(path.join(place.place.cwd, 'tests/test_calc.py'), 'utf8')).toBe(TEST_CALC);
    } finally {
      await place.close();
    }
  });
});
