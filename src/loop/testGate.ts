/** The test gate: which command proves the work is done, and running it. */
import { existsSync, lstatSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type Surface, surface } from '../config/surface.js';

/**
 * The test command detected from the repository at `cwd`; undefined when there is none. In order:
 * a package.json test script → npm test; pytest's configuration, or test_*.py / *_test.py files
 * at the top, in tests/ or in test/ → pytest; go.mod → go test ./...; Cargo.toml → cargo test; a
 * Makefile with a test target → make test. A tests/ directory alone says nothing about the
 * language (a Cargo crate has one too). Reads a few files only.
 */
export function detectTestCommand(cwd: string): string | undefined {
  const at = (f: string) => path.join(cwd, f);
  const read = (f: string) => {
    try {
      return readFileSync(at(f), 'utf8');
    } catch {
      return undefined;
    }
  };
  const pkg = read('package.json');
  if (pkg !== undefined) {
    try {
      const scripts = (JSON.parse(pkg) as { scripts?: Record<string, string> }).scripts;
      if (scripts?.test && !/no test specified/.test(scripts.test)) return 'npm test';
    } catch {
      // An unreadable package.json is not a test configuration.
    }
  }
  if (['pytest.ini', 'conftest.py'].some((f) => existsSync(at(f)))) return 'pytest';
  if (
    /^\[pytest\]/m.test(read('tox.ini') ?? '') ||
    /\[tool\.pytest/.test(read('pyproject.toml') ?? '') ||
    /\[tool:pytest\]/.test(read('setup.cfg') ?? '')
  )
    return 'pytest';
  if (['.', 'tests', 'test'].some((dir) => pythonTests(at(dir)))) return 'pytest';
  if (existsSync(at('go.mod'))) return 'go test ./...';
  if (existsSync(at('Cargo.toml'))) return 'cargo test';
  for (const f of ['Makefile', 'makefile', 'GNUmakefile']) {
    if (/^test\s*:/m.test(read(f) ?? '')) return 'make test';
  }
  return undefined;
}

/** Whether `dir` holds a pytest-style test file (test_*.py or *_test.py), looking at its entries only. */
function pythonTests(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => /^test_.+\.py$|^.+_test\.py$/.test(name));
  } catch {
    return false;
  }
}

import { promises as fs } from 'node:fs';
import { runProcess } from '../agents/process.js';
import type { TestOutcome } from './deps.js';
import type { SuiteRun } from '../verdict/results.js';
import type { SecretRedactor } from '../secrets/redact.js';
import { createSuiteReader } from '../verdict/readers/index.js';
import { MiB, readInput } from '../util/readInput.js';
import { printable } from '../util/printable.js';

/**
 * The environment the test command runs in: pytest also prints a line per passed test (-rA), so
 * that its results can be read per test without a report file.
 */
export function testEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const addopts = env.PYTEST_ADDOPTS ?? '';
  return /(^|\s)-r\S*A/.test(addopts) ? env : { ...env, PYTEST_ADDOPTS: `${addopts} -rA`.trim() };
}

/**
 * Runs the test command through the shell; exit code 0 is a pass. Output streams to `onLine`, a
 * bounded tail is kept, and every line is read per test (src/verdict/readers); with `junitFile`,
 * the report the command writes there (removed first) is read instead.
 */
export async function runTestCommand(
  command: string,
  opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
    signal?: AbortSignal;
    onLine: (line: string, stream: 'stdout' | 'stderr', cut?: { before: boolean; after: boolean }) => void;
    /** Told the test command's process group (the run records it while it runs). */
    onSpawn?: (pid: number) => void;
    /** Masks the output and the JUnit report where they enter the engine. */
    mask?: SecretRedactor;
    /** The JUnit XML report the command writes (absolute path). */
    junitFile?: string;
    /** Told to the command as AGENT_LOOP_TEST_PURPOSE (baseline or verify). */
    purpose?: string;
  },
): Promise<TestOutcome> {
  const reader = createSuiteReader();
  if (opts.junitFile) await removeStaleReport(opts.junitFile, opts.cwd);
  const r = await runProcess({
    command,
    shell: true,
    cwd: opts.cwd,
    env: testEnv(opts.purpose ? { ...opts.env, AGENT_LOOP_TEST_PURPOSE: opts.purpose } : opts.env),
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    tailBytes: 16 * 1024,
    onSpawn: opts.onSpawn,
    mask: opts.mask,
    onLine: (line, stream, cut) => {
      reader.feed(line);
      opts.onLine(line, stream, cut);
    },
  });
  const note = r.timedOut
    ? `\n(test command timed out after ${opts.timeoutMs / 60000} min)`
    : r.spawnError
      ? `\n(${r.spawnError})`
      : '';
  let xml: string | undefined;
  if (opts.junitFile) {
    try {
      // The report enters the engine here (the verdict quotes its failures, the next prompt too): masked as the output is.
      const report = readInput(opts.junitFile, 64 * MiB);
      xml = opts.mask ? opts.mask(report) : report;
    } catch {
      xml = undefined; // not written (the runner crashed before): the console output is read
    }
  }
  const read = reader.finish(r.timedOut ? null : r.exitCode, xml);
  const run = opts.mask ? maskedRun(read, opts.mask) : read;
  if (r.timedOut) run.cannotRun = `the test command timed out after ${opts.timeoutMs / 60000} min`;
  return {
    passed: r.exitCode === 0 && !r.timedOut,
    exitCode: r.exitCode,
    durationMs: r.durationMs,
    tail: r.tail + note,
    run,
    ...(xml !== undefined ? { junit: xml } : {}),
  };
}

/**
 * Removes the report an earlier run left, so that a run that writes none is not read as the old
 * one: only a regular file inside `workTree`. A path elsewhere, a device, a directory or a link is
 * never touched (a --junit-file of /dev/zero must not remove /dev/zero).
 */
export async function removeStaleReport(file: string, workTree: string): Promise<void> {
  const rel = path.relative(path.resolve(workTree), path.resolve(file));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return;
  const stat = await fs.lstat(file).catch(() => undefined);
  if (stat?.isFile()) await fs.rm(file, { force: true });
}

/** Why the JUnit file option cannot be used in `workTree`, if it cannot: outside it, or not a regular file. */
export function junitFileProblem(file: string, workTree: string, say: Surface = surface()): string | undefined {
  const abs = path.resolve(workTree, file);
  const rel = path.relative(path.resolve(workTree), abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    return (
      `${say.option('junitFile')}: '${printable(file)}' is outside the repository ${workTree}. Give the path, inside ` +
      `the repository, where the test command writes its JUnit XML report (e.g. junit.xml or reports/junit.xml).`
    );
  }
  let stat;
  try {
    stat = lstatSync(abs);
  } catch {
    return undefined; // not written yet: the test command writes it
  }
  if (!stat.isFile())
    return (
      `${say.option('junitFile')}: '${printable(file)}' exists and is not a regular file (` +
      (stat.isDirectory() ? 'a directory' : stat.isSymbolicLink() ? 'a symbolic link' : 'a device or special file') +
      `). Give the path of the JUnit XML report the test command writes.`
    );
  return undefined;
}

/**
 * The run's test ids and texts masked: a reader decodes what the mask saw encoded (an XML character
 * reference such as `&#115;k-ant-…`, a JSON escape in a runner's events), so what it read enters here.
 */
function maskedRun(run: SuiteRun, mask: (text: string) => string): SuiteRun {
  const keys = <T>(record: Record<string, T>, value: (v: T) => T): Record<string, T> =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [mask(k), value(v)]));
  const same = <T>(v: T) => v;
  return {
    ...run,
    tests: keys(run.tests, same),
    groups: keys(run.groups, same),
    messages: keys(run.messages, mask),
    ...(run.failureText ? { failureText: keys(run.failureText, mask) } : {}),
    ...(run.cannotRun !== undefined ? { cannotRun: mask(run.cannotRun) } : {}),
  };
}
