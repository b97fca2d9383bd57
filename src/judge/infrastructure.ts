/**
 * Test files and test infrastructure, by the conventions of their runners (issue 42): what decides
 * which tests run and how their outcomes are read. Pure: texts in, a description of the change out.
 */
import { globMatch } from './glob.js';

export interface FileChange {
  path: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  base?: string;
  now?: string;
}

// ---------------------------------------------------------------------------------------------
// Test files, by the conventions of their runners.

/** Directories whose files are tests or the tests' data. */
const TEST_DIRS = /(^|\/)(tests?|__tests__|spec|specs|testdata|__snapshots__|__fixtures__)\//;
const TEST_NAMES = [
  /(^|\/)test_[^/]*\.py$/,
  /(^|\/)[^/]*_test\.py$/,
  /(^|\/)[^/]+\.(test|spec)\.[cm]?[jt]sx?$/,
  /(^|\/)[^/]+_test\.go$/,
  /(^|\/)[^/]+_spec\.rb$/,
  /\.snap$/,
];

/** Whether a path is a test file (or a test's data: under a test directory, or a snapshot) by the usual conventions. */
export function isTestFile(path: string): boolean {
  return TEST_DIRS.test(path) || TEST_NAMES.some((re) => re.test(path));
}

// ---------------------------------------------------------------------------------------------
// Test infrastructure: what decides which tests run and how their outcomes are read.

type Status = 'added' | 'modified' | 'deleted' | 'renamed';

/** Files that are infrastructure whole, by name (at any depth). */
const INFRA_FILES: [RegExp, string][] = [
  [/(^|\/)conftest\.py$/, "pytest's conftest.py (hooks, fixtures and plugins for every test under it)"],
  [/(^|\/)pytest\.ini$/, "pytest's configuration"],
  [/(^|\/)(sitecustomize|usercustomize)\.py$/, 'Python code run when the interpreter starts'],
  [/(^|\/)noxfile\.py$/, "nox's sessions (how the tests are run)"],
  [/(^|\/)jest\.config\.[^/]+$/, "jest's configuration"],
  [/(^|\/)vitest\.(config|workspace)\.[^/]+$/, "vitest's configuration"],
  [/(^|\/)vite\.config\.[^/]+$/, "vite's configuration (vitest reads its test field; the whole file is protected)"],
  [/(^|\/)\.mocharc(\.[^/]+)?$/, "mocha's configuration"],
  [/(^|\/)(babel\.config\.[^/]+|\.babelrc(\.[^/]+)?)$/, "babel's configuration (it transforms the tests jest runs)"],
  [
    /(^|\/)(ava|playwright|cypress|karma\.conf|karma)\.config\.[^/]+$|(^|\/)karma\.conf\.[^/]+$/,
    "a test runner's configuration",
  ],
  [/(^|\/)go\.work$/, "Go's workspace file (which modules the tests build)"],
];

/** A test setup file: one a runner is told to load before the tests (by its conventional names). */
const SETUP_FILE =
  /(^|\/)(jest|vitest|mocha|test|tests)[._-]?setup[^/]*\.[cm]?[jt]sx?$|(^|\/)setup[._-]?tests?\.[cm]?[jt]sx?$|(^|\/)setupTests\.[cm]?[jt]sx?$/i;

/** Why a changed path is test infrastructure (undefined: it is not, or its infrastructure part did not change). */
export function infrastructure(file: FileChange, status: Status, extra: string[]): string | undefined {
  const { path } = file;
  if (extra.some((g) => globMatch(g, path))) return `${path} is protected by the maintainer's configuration`;
  for (const [re, what] of INFRA_FILES) if (re.test(path)) return `${path}: ${what}, ${verb(status)}`;
  if (SETUP_FILE.test(path) || (TEST_DIRS.test(path) && /(^|\/)[^/]*setup[^/]*\.[cm]?[jt]sx?$/i.test(path)))
    return `${path}: a test setup file (loaded before the tests), ${verb(status)}`;
  if (
    /(^|\/)[^/]+_test\.go$/.test(path) &&
    status === 'added' &&
    file.now !== undefined &&
    /^func[ \t]+(TestMain|init)\b/m.test(file.now)
  )
    return `${path}: a new Go test file with TestMain or init (it runs before every test of its package)`;
  const sections = SECTIONED.find(([re]) => re.test(path));
  if (sections) {
    const [, read, what] = sections;
    // A file that did not exist (or no longer does) has no such part; a text not given cannot be told apart.
    const before = file.base !== undefined ? read(file.base) : status === 'added' ? '' : undefined;
    const after = file.now !== undefined ? read(file.now) : status === 'deleted' ? '' : undefined;
    if (before === undefined || after === undefined || before !== after)
      return `${path}: ${what} ${before === '' ? 'added' : after === '' ? 'removed' : 'changed'} (the judge takes the whole file from the base)`;
  }
  return undefined;
}

const verb = (status: Status) => (status === 'added' ? 'added' : status === 'deleted' ? 'deleted' : 'changed');

/** Files of which a part is infrastructure: the part's text ('' when the file has none). */
const SECTIONED: [RegExp, (text: string) => string, string][] = [
  [
    /(^|\/)pyproject\.toml$/,
    (t) => iniSections(t, (name) => /pytest/i.test(name)),
    'its pytest sections ([tool.pytest…], pytest11 plugins)',
  ],
  [/(^|\/)setup\.cfg$/, (t) => iniSections(t, (name) => /pytest/i.test(name)), 'its [tool:pytest] section'],
  [
    /(^|\/)tox\.ini$/,
    (t) => iniSections(t, (name) => /pytest|^tox\b|^testenv\b/i.test(name)),
    'its [pytest], [tox] and [testenv…] sections',
  ],
  [
    /(^|\/)package\.json$/,
    packageTestParts,
    'its test scripts (test, pretest, posttest and the scripts they run) or its jest/mocha/ava/vitest fields',
  ],
  [/(^|\/)go\.mod$/, goReplaces, 'its replace directives'],
  [/(^|\/)(GNU)?[Mm]akefile$/, makeTestTargets, 'its test targets (test, tests, check)'],
];

/** The named sections of an INI or TOML text (header and body), those `keep` chooses, in order. */
function iniSections(text: string, keep: (name: string) => boolean): string {
  const out: string[] = [];
  let keeping = false;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) keeping = keep((header[1] as string).replace(/["']/g, ''));
    if (keeping && line.trim() !== '' && !/^\s*[#;]/.test(line)) out.push(line.trimEnd());
  }
  return out.join('\n');
}

/** package.json's test scripts (and the scripts they run by name) and the test runners' fields. */
function packageTestParts(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `unreadable:${text}`;
  }
  if (typeof json !== 'object' || json === null) return `unreadable:${text}`;
  const pkg = json as Record<string, unknown>;
  const scripts = (typeof pkg.scripts === 'object' && pkg.scripts !== null ? pkg.scripts : {}) as Record<
    string,
    unknown
  >;
  const names = new Set(['test', 'pretest', 'posttest']);
  for (const name of names) {
    const body = scripts[name];
    if (typeof body !== 'string') continue;
    for (const m of body.matchAll(/\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([\w:.-]+)/g)) {
      const run = m[1] as string;
      if (run in scripts) {
        names.add(run);
        names.add(`pre${run}`);
        names.add(`post${run}`);
      }
    }
  }
  const part: Record<string, unknown> = {};
  for (const name of [...names].sort()) if (name in scripts) part[`scripts.${name}`] = scripts[name];
  for (const field of ['jest', 'mocha', 'ava', 'vitest', 'c8', 'nyc', 'tap'])
    if (field in pkg) part[field] = pkg[field];
  return JSON.stringify(part);
}

/** go.mod's replace directives, one a line, sorted. */
function goReplaces(text: string): string {
  const out: string[] = [];
  let block = false;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (block) {
      if (line === ')') block = false;
      else if (line) out.push(line);
    } else if (/^replace\s*\($/.test(line)) block = true;
    else if (/^replace\s/.test(line)) out.push(line.replace(/^replace\s+/, ''));
  }
  return out
    .map((l) => l.replace(/\s+/g, ' '))
    .sort()
    .join('\n');
}

/** A Makefile's test targets: their rule lines and recipes. */
function makeTestTargets(text: string): string {
  const out: string[] = [];
  let keeping = false;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\t/.test(line)) {
      if (keeping) out.push(line);
      continue;
    }
    const rule = /^([^\s:=#][^:=]*?)\s*::?(?!=)/.exec(line);
    if (rule) keeping = (rule[1] as string).split(/\s+/).some((t) => /^(tests?|check)$/.test(t));
    else if (line.trim() !== '' && !line.startsWith('#')) keeping = false;
    if (keeping) out.push(line);
  }
  return out.join('\n');
}

/**
 * Whether the judge reads a changed path's texts (at the base and in the work): a test file's (its
 * units), or a file of which a part is infrastructure (that part). Other paths are judged by name.
 */
export function textNeeded(path: string): boolean {
  return isTestFile(path) || SECTIONED.some(([re]) => re.test(path));
}
