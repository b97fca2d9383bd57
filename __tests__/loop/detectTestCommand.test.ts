import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectTestCommand, junitFileProblem, removeStaleReport } from '../../src/loop/testGate.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'detect-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function files(entries: Record<string, string>): Promise<string> {
  for (const [name, text] of Object.entries(entries)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), text);
  }
  return dir;
}

describe('test-command detection (issue 12)', () => {
  it.each([
    ['a package.json test script', { 'package.json': '{"scripts":{"test":"jest"}}' }, 'npm test'],
    ['pytest.ini', { 'pytest.ini': '[pytest]\n' }, 'pytest'],
    ['pyproject.toml with [tool.pytest.ini_options]', { 'pyproject.toml': '[tool.pytest.ini_options]\n' }, 'pytest'],
    ['setup.cfg with [tool:pytest]', { 'setup.cfg': '[tool:pytest]\n' }, 'pytest'],
    ['tox.ini with [pytest]', { 'tox.ini': '[tox]\n[pytest]\n' }, 'pytest'],
    ['test_*.py in tests/', { 'tests/test_dates.py': '' }, 'pytest'],
    ['*_test.py at the top', { 'dates_test.py': '' }, 'pytest'],
    ['go.mod', { 'go.mod': 'module example.com/x\n' }, 'go test ./...'],
    [
      'Cargo.toml, with a tests/ directory of Rust tests',
      { 'Cargo.toml': '[package]\nname = "x"\n', 'tests/integration.rs': '' },
      'cargo test',
    ],
    ['a Makefile test target', { Makefile: 'all:\n\ttrue\ntest:\n\t./run\n' }, 'make test'],
  ])('%s', async (_name, entries, expected) => {
    expect(detectTestCommand(await files(entries))).toBe(expected);
  });

  it("nothing: a tests/ directory alone, a tox.ini without pytest, npm's placeholder script", async () => {
    expect(
      detectTestCommand(
        await files({
          'tests/README.md': '',
          'tox.ini': '[tox]\nenvlist = py3\n',
          'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}',
        }),
      ),
    ).toBeUndefined();
  });

  it('a package.json test script wins over a Makefile and Python files', async () => {
    expect(
      detectTestCommand(
        await files({
          'package.json': '{"scripts":{"test":"vitest run"}}',
          Makefile: 'test:\n\ttrue\n',
          'test_x.py': '',
        }),
      ),
    ).toBe('npm test');
  });
});

describe('--junit-file is only ever a regular file inside the repository (found by the input fuzzing)', () => {
  it('refuses a path outside the repository, a directory or a FIFO; accepts a file not written yet', async () => {
    await files({ 'reports/old.xml': '<testsuites/>' });
    expect(junitFileProblem('/dev/zero', dir)).toMatch(/^--junit-file: '\/dev\/zero' is outside the repository/);
    expect(junitFileProblem('../elsewhere.xml', dir)).toMatch(/is outside the repository/);
    expect(junitFileProblem('reports', dir)).toMatch(/exists and is not a regular file \(a directory\)/);
    expect(junitFileProblem('reports/old.xml', dir)).toBeUndefined();
    expect(junitFileProblem('junit.xml', dir)).toBeUndefined();
  });

  it('removes a stale report only when it is a regular file inside the work tree', async () => {
    await files({ 'junit.xml': 'old', 'outside/keep.xml': 'keep' });
    const repo = path.join(dir, 'repo');
    await fs.mkdir(repo);
    await fs.writeFile(path.join(repo, 'junit.xml'), 'old');
    await fs.mkdir(path.join(repo, 'a-dir'));
    await removeStaleReport(path.join(repo, 'junit.xml'), repo);
    await removeStaleReport(path.join(dir, 'outside', 'keep.xml'), repo);
    await removeStaleReport(path.join(repo, 'a-dir'), repo);
    await removeStaleReport('/dev/zero', repo);
    await expect(fs.access(path.join(repo, 'junit.xml'))).rejects.toThrow();
    expect(await fs.readFile(path.join(dir, 'outside', 'keep.xml'), 'utf8')).toBe('keep');
    expect((await fs.stat(path.join(repo, 'a-dir'))).isDirectory()).toBe(true);
    expect((await fs.lstat('/dev/zero')).isCharacterDevice()).toBe(true);
  });
});
