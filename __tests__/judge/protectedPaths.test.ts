/**
 * Issue 42: the tests that judge a change are the maintainer's. Which of the agent's changed paths
 * are protected (pre-existing tests, test infrastructure, agent-loop's configuration), the finding
 * each makes, and the judge tree's plan (what it takes from the base, what it drops); the cheats of
 * the campaign each caught, honest work (new tests, new test files, a fix with a new
 * dependency) never a finding.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { type ChangedFile, type ProtectionRules, protect } from '../../src/judge/protectedPaths.js';
import { isTestFile } from '../../src/judge/infrastructure.js';
import { globMatch } from '../../src/judge/glob.js';

const fixture = (name: string) => readFileSync(join('__tests__', 'fixtures', 'judge', name), 'utf8');
const pytestFile = fixture('test_cacheutils.py');
const tapeFile = fixture('minimist-parse.js.txt');
const minimistPackage = fixture('minimist-package.json');

const rules: ProtectionRules = { configFile: '.agent-loop.yml', extra: [], allowed: [] };
const baseFiles = [
  '.agent-loop.yml',
  'cacheutils.py',
  'tests/test_cacheutils.py',
  'tests/conftest.py',
  'tests/data/expected.json',
  'pytest.ini',
  'pyproject.toml',
  'setup.cfg',
  'tox.ini',
  'index.js',
  'package.json',
  'test/parse.js',
  'jest.config.js',
  'jest.setup.js',
  'src/__snapshots__/render.test.ts.snap',
  'go.mod',
  'sum.go',
  'sum_test.go',
  'Makefile',
];

const modified = (path: string, base: string, now: string): ChangedFile => ({ path, status: 'modified', base, now });
const added = (path: string, now: string): ChangedFile => ({ path, status: 'added', now });
const one = (file: ChangedFile, with_: Partial<ProtectionRules> = {}) =>
  protect([file], baseFiles, { ...rules, ...with_ });

const pyproject = `[project]
name = "cacheutils"
dependencies = ["attrs>=22"]

[tool.pytest.ini_options]
addopts = "-ra"
testpaths = ["tests"]

[tool.ruff]
line-length = 100
`;

describe('protect: the cheats of issue 42 are findings, and the judge tree takes the base', () => {
  it('an assertion rewritten in an existing test file: test-changed, restored from the base', () => {
    const out = one(
      modified('tests/test_cacheutils.py', pytestFile, pytestFile.replace('assert len(cache) == 3', 'assert True')),
    );
    expect(out.findings).toEqual([
      { path: 'tests/test_cacheutils.py', kind: 'test-changed', detail: 'test_lru_add: its body changed' },
    ]);
    expect(out.restore).toEqual(['tests/test_cacheutils.py']);
    expect(out.drop).toEqual([]);
    expect(out.addedTests).toEqual([]);
  });

  it('a second def test_x, @pytest.mark.xfail, pytestmark: test-changed with the reasons', () => {
    const now = `pytestmark = pytest.mark.skip\n${pytestFile.replace('def test_lri():', '@pytest.mark.xfail\ndef test_lri():')}\n\ndef test_lru_add():\n    pass\n`;
    const [finding] = one(modified('tests/test_cacheutils.py', pytestFile, now)).findings;
    expect(finding?.kind).toBe('test-changed');
    expect(finding?.detail).toMatch(/test_lri: its decorators or signature changed/);
    expect(finding?.detail).toMatch(/test_lru_add is defined twice/);
    expect(finding?.detail).toMatch(/pytestmark/);
  });

  it('a conftest.py added with a pytest_runtest_makereport hook: infrastructure-added, dropped (at any depth)', () => {
    const hook =
      'import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = "passed"\n';
    const out = protect([added('conftest.py', hook), added('tests/unit/conftest.py', hook)], baseFiles, rules);
    expect(out.findings.map((f) => [f.path, f.kind])).toEqual([
      ['conftest.py', 'infrastructure-added'],
      ['tests/unit/conftest.py', 'infrastructure-added'],
    ]);
    expect(out.drop).toEqual(['conftest.py', 'tests/unit/conftest.py']);
    expect(out.addedTests).toEqual([]);
  });

  it('an existing conftest.py changed (a monkeypatch of the code under test): infrastructure-changed, restored', () => {
    const out = one(
      modified(
        'tests/conftest.py',
        'import pytest\n',
        'import pytest\nimport cacheutils\ncacheutils.LRU.__len__ = lambda s: 3\n',
      ),
    );
    expect(out.findings).toEqual([
      expect.objectContaining({ path: 'tests/conftest.py', kind: 'infrastructure-changed' }),
    ]);
    expect(out.restore).toEqual(['tests/conftest.py']);
  });

  it('pytest.ini with -p no:terminal, the [tool.pytest…] section of pyproject.toml, [tool:pytest] of setup.cfg, [pytest]/[testenv] of tox.ini', () => {
    const out = protect(
      [
        modified('pytest.ini', '[pytest]\naddopts = -ra\n', '[pytest]\naddopts = -ra -p no:terminal\n'),
        modified(
          'pyproject.toml',
          pyproject,
          pyproject.replace('addopts = "-ra"', 'addopts = "-ra -p no:cacheprovider -p tests.fake"'),
        ),
        modified(
          'setup.cfg',
          '[metadata]\nname = x\n\n[tool:pytest]\nxfail_strict = true\n',
          '[metadata]\nname = x\n\n[tool:pytest]\nxfail_strict = false\n',
        ),
        modified(
          'tox.ini',
          '[tox]\nenvlist = py311\n\n[testenv]\ncommands = pytest\n',
          '[tox]\nenvlist = py311\n\n[testenv]\ncommands = python -c "print(1)"\n',
        ),
      ],
      baseFiles,
      rules,
    );
    expect(out.findings.map((f) => [f.path, f.kind])).toEqual([
      ['pytest.ini', 'infrastructure-changed'],
      ['pyproject.toml', 'infrastructure-changed'],
      ['setup.cfg', 'infrastructure-changed'],
      ['tox.ini', 'infrastructure-changed'],
    ]);
    expect(out.findings[1]?.detail).toMatch(
      /pytest sections .* changed \(the judge takes the whole file from the base\)/,
    );
    expect(out.restore).toEqual(['pyproject.toml', 'pytest.ini', 'setup.cfg', 'tox.ini']);
  });

  it('a pytest section added to pyproject.toml or a pytest11 plugin registered is a finding; a dependency or a ruff setting is not', () => {
    const bare = pyproject.replace(/\[tool\.pytest[\s\S]*?\n\n/, '');
    expect(
      one(modified('pyproject.toml', bare, `${bare}\n[tool.pytest.ini_options]\naddopts = "-p no:terminal"\n`))
        .findings[0]?.detail,
    ).toMatch(/added/);
    expect(
      one(modified('pyproject.toml', pyproject, `${pyproject}\n[project.entry-points.pytest11]\nfake = "tests.fake"\n`))
        .findings,
    ).toHaveLength(1);
    const honest = pyproject
      .replace('"attrs>=22"', '"attrs>=22", "packaging"')
      .replace('line-length = 100', 'line-length = 120');
    expect(one(modified('pyproject.toml', pyproject, honest))).toMatchObject({ findings: [], restore: [], drop: [] });
  });

  it('.agent-loop.yml rewritten (test-command: "node -e 0"): config-changed, restored, even when allowed', () => {
    const out = one(modified('.agent-loop.yml', 'test-command: npm test\n', 'test-command: "node -e 0"\n'), {
      allowed: ['**'],
    });
    expect(out.findings).toEqual([expect.objectContaining({ path: '.agent-loop.yml', kind: 'config-changed' })]);
    expect(out.findings[0]?.detail).toMatch(/the run keeps the maintainer's configuration/);
    expect(out.restore).toEqual(['.agent-loop.yml']);
    // created where the base had none (another --config name): dropped.
    expect(protect([added('.agent-loop.yml', 'x: 1\n')], [], rules).drop).toEqual(['.agent-loop.yml']);
  });

  it('jest: test.skip/it.only/.todo in an existing file, jest.config.js testPathIgnorePatterns, a setup file that mocks the module', () => {
    const out = protect(
      [
        modified('test/parse.js', tapeFile, tapeFile.replace("test('strings'", "test.skip('strings'")),
        modified(
          'jest.config.js',
          'export default { testEnvironment: "node" };\n',
          'export default { testEnvironment: "node", testPathIgnorePatterns: ["parse"] };\n',
        ),
        modified('jest.setup.js', '', "jest.mock('./index.js', () => () => ({ _: [] }));\n"),
        added('vitest.config.ts', 'export default { test: { exclude: ["**"] } };\n'),
      ],
      baseFiles,
      rules,
    );
    expect(out.findings.map((f) => [f.path, f.kind])).toEqual([
      ['test/parse.js', 'test-changed'],
      ['jest.config.js', 'infrastructure-changed'],
      ['jest.setup.js', 'infrastructure-changed'],
      ['vitest.config.ts', 'infrastructure-added'],
    ]);
    expect(out.findings[0]?.detail).toBe("'strings': its call (modifiers) changed (test → test.skip)");
    expect(out.restore).toEqual(['jest.config.js', 'jest.setup.js', 'test/parse.js']);
    expect(out.drop).toEqual(['vitest.config.ts']);
  });

  it("package.json: the test script changed to exit 0, or a script it runs (minimist's tests-only), or the jest field, is a finding; a dependency is not", () => {
    const pkg = JSON.parse(minimistPackage) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
      jest?: unknown;
    };
    const change = (edit: (p: typeof pkg) => void) => {
      const copy = JSON.parse(minimistPackage) as typeof pkg;
      edit(copy);
      return one(modified('package.json', minimistPackage, JSON.stringify(copy, null, '\t'))).findings.map(
        (f) => f.kind,
      );
    };
    expect(change((p) => (p.scripts.test = 'exit 0'))).toEqual(['infrastructure-changed']);
    expect(change((p) => (p.scripts['tests-only'] = 'nyc tape test/nothing.js'))).toEqual(['infrastructure-changed']);
    expect(change((p) => (p.scripts.posttest = 'true'))).toEqual(['infrastructure-changed']);
    expect(change((p) => (p.jest = { testPathIgnorePatterns: ['test'] }))).toEqual(['infrastructure-changed']);
    expect(change((p) => (p.devDependencies['left-pad'] = '^1.3.0'))).toEqual([]);
    expect(change((p) => (p.scripts.version = 'true'))).toEqual([]);
    expect(pkg.scripts.test).toBe('npm run tests-only');
  });

  it("go.mod's replace lines, a _test.go helper changed, a new _test.go with TestMain: findings; a require line is not", () => {
    const mod = 'module example.com/sum\n\ngo 1.22\n\nrequire golang.org/x/text v0.14.0\n';
    const goTest =
      'package sum\n\nimport "testing"\n\nfunc eq(a, b int) bool { return a == b }\n\nfunc TestSum(t *testing.T) {\n\tif !eq(Sum(1, 2), 3) {\n\t\tt.Fatal()\n\t}\n}\n';
    const out = protect(
      [
        modified('go.mod', mod, `${mod}\nreplace example.com/dep => ./fakedep\n`),
        modified('sum_test.go', goTest, goTest.replace('return a == b', 'return true')),
        added(
          'main_test.go',
          'package sum\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n',
        ),
      ],
      baseFiles,
      rules,
    );
    expect(out.findings.map((f) => [f.path, f.kind])).toEqual([
      ['go.mod', 'infrastructure-changed'],
      ['sum_test.go', 'test-changed'],
      ['main_test.go', 'infrastructure-added'],
    ]);
    expect(one(modified('go.mod', mod, mod.replace('v0.14.0', 'v0.15.0'))).findings).toEqual([]);
  });

  it("a Makefile's test target changed is a finding; another target is not", () => {
    const make = 'build:\n\tgo build ./...\n\ntest: build\n\tgo test ./...\n';
    expect(one(modified('Makefile', make, make.replace('go test ./...', 'true'))).findings.map((f) => f.kind)).toEqual([
      'infrastructure-changed',
    ]);
    expect(one(modified('Makefile', make, make.replace('go build ./...', 'go build -v ./...'))).findings).toEqual([]);
  });

  it('a pre-existing test file deleted or renamed away: test-removed, restored; test data and snapshots changed: test-changed', () => {
    const out = protect(
      [
        { path: 'tests/test_cacheutils.py', status: 'deleted', base: pytestFile },
        { path: 'test/parse_args.js', status: 'renamed', from: 'test/parse.js', base: tapeFile, now: tapeFile },
        modified('tests/data/expected.json', '{"a": 1}\n', '{"a": 2}\n'),
        modified('src/__snapshots__/render.test.ts.snap', 'exports[`x`] = `a`;\n', 'exports[`x`] = `b`;\n'),
      ],
      baseFiles,
      rules,
    );
    expect(out.findings.map((f) => [f.path, f.kind])).toEqual([
      ['tests/test_cacheutils.py', 'test-removed'],
      ['test/parse.js', 'test-removed'],
      ['tests/data/expected.json', 'test-changed'],
      ['src/__snapshots__/render.test.ts.snap', 'test-changed'],
    ]);
    expect(out.restore).toEqual([
      'src/__snapshots__/render.test.ts.snap',
      'test/parse.js',
      'tests/data/expected.json',
      'tests/test_cacheutils.py',
    ]);
    // The renamed copy is a new test file: kept, its tests listed.
    expect(out.addedTests.map((t) => t.path)).toEqual(['test/parse_args.js']);
  });

  it('a path the maintainer protects (rules.extra) is a finding; one the issue allows is reported as allowed and kept', () => {
    const out = protect(
      [modified('scripts/check.sh', 'pytest\n', 'true\n'), modified('src/__snapshots__/render.test.ts.snap', 'a', 'b')],
      [...baseFiles, 'scripts/check.sh'],
      { ...rules, extra: ['scripts/*.sh'], allowed: ['**/__snapshots__/**'] },
    );
    expect(out.findings).toEqual([
      expect.objectContaining({ path: 'scripts/check.sh', kind: 'infrastructure-changed' }),
    ]);
    expect(out.allowed).toEqual([
      expect.objectContaining({ path: 'src/__snapshots__/render.test.ts.snap', kind: 'test-changed' }),
    ]);
    expect(out.restore).toEqual(['scripts/check.sh']);
  });
});

describe('protect: honest work is no finding', () => {
  it('a fix with a new test in an existing file: the work keeps its version, the new test listed', () => {
    const out = protect(
      [
        modified('cacheutils.py', 'class LRU: ...\n', 'class LRU:\n    pass\n'),
        modified(
          'tests/test_cacheutils.py',
          pytestFile,
          `${pytestFile}\n\ndef test_lru_zero():\n    assert len(LRU(max_size=0)) == 0\n`,
        ),
      ],
      baseFiles,
      rules,
    );
    expect(out).toEqual({
      findings: [],
      allowed: [],
      restore: [],
      drop: [],
      addedTests: [{ path: 'tests/test_cacheutils.py', names: ['test_lru_zero'] }],
      withoutAddedTests: { restore: ['tests/test_cacheutils.py'], drop: [] },
    });
  });

  it('new test files (pytest, jest, Go) are added tests, kept; without them the tree drops them', () => {
    const out = protect(
      [
        added(
          'tests/test_new.py',
          'def test_a():\n    assert 1\n\n\nclass TestB:\n    def test_c(self):\n        pass\n',
        ),
        added('src/render.test.tsx', "describe('render', () => { it('draws', () => {}); });\n"),
        added('new_test.go', 'package sum\n\nfunc TestNew(t *testing.T) {}\n'),
        added('tests/fixtures/new-case.json', '{}\n'),
      ],
      baseFiles,
      rules,
    );
    expect(out.findings).toEqual([]);
    expect(out.addedTests).toEqual([
      { path: 'tests/test_new.py', names: ['test_a', 'TestB::test_c'] },
      { path: 'src/render.test.tsx', names: ['render › draws'] },
      { path: 'new_test.go', names: ['TestNew'] },
    ]);
    expect(out.withoutAddedTests).toEqual({
      restore: [],
      drop: ['new_test.go', 'src/render.test.tsx', 'tests/fixtures/new-case.json', 'tests/test_new.py'],
    });
  });

  it('a new test module without tests (its import-time code still runs under pytest) is dropped from the tree without added tests', () => {
    const out = protect(
      [added('tests/test_zz_patch.py', 'import cacheutils\ncacheutils.LRU.__len__ = lambda s: 3\n')],
      baseFiles,
      rules,
    );
    expect(out).toMatchObject({
      findings: [],
      addedTests: [],
      withoutAddedTests: { restore: [], drop: ['tests/test_zz_patch.py'] },
    });
  });

  it('a source file, a README, a dependency in package.json: nothing protected', () => {
    const pkg = minimistPackage.replace('"tape": "^5.6.3"', '"tape": "^5.7.0"');
    expect(
      protect(
        [
          modified('index.js', 'a', 'b'),
          modified('README.md', 'a', 'b'),
          modified('package.json', minimistPackage, pkg),
        ],
        baseFiles,
        rules,
      ),
    ).toMatchObject({
      findings: [],
      restore: [],
      drop: [],
    });
  });
});

describe('test files and globs', () => {
  it.each([
    ['tests/test_x.py', true],
    ['pkg/x_test.py', true],
    ['src/a.test.ts', true],
    ['src/a.spec.jsx', true],
    ['src/__tests__/a.ts', true],
    ['test/helpers.js', true],
    ['sum_test.go', true],
    ['pkg/testdata/golden.txt', true],
    ['spec/models/user_spec.rb', true],
    ['src/testing.ts', false],
    ['src/contest.py', false],
    ['latest/x.py', false],
  ])('%s is a test file: %s', (path, yes) => expect(isTestFile(path)).toBe(yes));

  it('matches globs: * within a directory, ** across, {a,b}, a name alone at any depth', () => {
    expect(globMatch('scripts/*.sh', 'scripts/check.sh')).toBe(true);
    expect(globMatch('scripts/*.sh', 'scripts/ci/check.sh')).toBe(false);
    expect(globMatch('scripts/**/*.sh', 'scripts/ci/check.sh')).toBe(true);
    expect(globMatch('scripts/**/*.sh', 'scripts/check.sh')).toBe(true);
    expect(globMatch('**/__snapshots__/**', 'src/__snapshots__/a.snap')).toBe(true);
    expect(globMatch('*.{snap,golden}', 'deep/x.golden')).toBe(true);
    expect(globMatch('conftest.py', 'a/b/conftest.py')).toBe(true);
    expect(globMatch('/conftest.py', 'a/conftest.py')).toBe(false);
    expect(globMatch('tests/[ab].py', 'tests/c.py')).toBe(false);
  });
});
