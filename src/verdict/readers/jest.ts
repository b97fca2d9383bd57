/**
 * Jest. Each file is a group (`PASS path` / `FAIL path`); a failing test is `● Describe › name`
 * under its file, a file that could not load is `● Test suite failed to run`. With --verbose (or
 * a single test file) every test is listed with ✓ ✕ ○ ✎ under its describe blocks, by indentation,
 * and the tests read are compared with jest's own count (`Tests: … 7 total`).
 */
import { FAILURE_LINES_READ, keepFailureText, withoutDeepStack } from '../failureText.js';
import { type SuiteRun, clipMessage, emptyRun, testId, markNoTests, recordOutcome } from '../results.js';
import { Nesting, type RunnerReader, plain } from './types.js';

const FILE = /^(PASS|FAIL) (\S+)(?: \([\d.]+ m?s\))?$/;
const BULLET = /^ {2}● (.+)$/;
const VERBOSE = /^(\s+)(✓|✕|○|√|×|✎) (?:(?:skipped|todo) )?(.+?)(?: \(\d+ m?s\))?$/;
const SUMMARY = /^Tests:\s+.*\d+ total$/;
const TOTAL = /(\d+) total$/;

/** What the reader keeps between lines. */
interface JestState {
  run: SuiteRun;
  recognised: boolean;
  file?: string;
  describe: Nesting;
  /** The `●` block being read: its message's first lines, and its whole text (the failure text). */
  failing?: { id: string; lines: string[]; text: string[] };
  noTests: boolean;
  /** Test lines read (--verbose: every test has one), and jest's own count (`Tests: … 7 total`). */
  listed: number;
  counted?: number;
}

function closeFailing(s: JestState): void {
  const { failing, run } = s;
  if (failing && failing.lines.length > 0 && !run.messages[failing.id])
    run.messages[failing.id] = clipMessage(failing.lines.join('\n'));
  if (failing) keepFailureText(run, failing.id, withoutDeepStack(failing.text));
  s.failing = undefined;
}

/** A `● title` line under a file: a failing test, or the file that could not run. */
function bulletLine(s: JestState, file: string, title: string): void {
  closeFailing(s);
  if (title === 'Test suite failed to run') {
    s.run.groups[file] = 'error';
    s.failing = { id: `${file}${'::'}*`, lines: [], text: [] };
  } else {
    const id = testId(file, title);
    s.run.tests[id] = 'failed';
    s.failing = { id, lines: [], text: [] };
  }
}

/** A line within a file's section: a failing test, a verbose test line, a failure's message, a describe block. */
function fileLine(s: JestState, file: string, raw: string, line: string): void {
  if (/^Summary of all failing tests$/.test(line)) return closeFailing(s);
  const b = BULLET.exec(line);
  if (b) return bulletLine(s, file, b[1] as string);
  const v = VERBOSE.exec(raw.replace(/\r$/, ''));
  if (v && !s.failing) {
    const [, indent, mark, name] = v as unknown as [string, string, string, string];
    const id = testId(file, s.describe.path(indent.length, name).join(' › '));
    // ○ skipped, ✎ todo: not a pass.
    recordOutcome(
      s.run,
      id,
      mark === '✓' || mark === '√' ? 'passed' : mark === '○' || mark === '✎' ? 'skipped' : 'failed',
    );
    s.listed++;
    return;
  }
  if (s.failing) {
    if (s.failing.text.length < FAILURE_LINES_READ) s.failing.text.push(dedentBlock(line));
    if (s.failing.lines.length < 8 && line.trim() !== '' && !/^\s+at /.test(line)) s.failing.lines.push(line.trim());
    return;
  }
  // A describe block's name in verbose output: indented text that is no test line.
  const d = /^(\s+)(\S.*)$/.exec(line);
  if (d) s.describe.open((d[1] as string).length, d[2] as string);
}

/** A `●` block's line without the block's own indentation (4 spaces). */
const dedentBlock = (line: string) => line.replace(/^ {4}/, '');

function feedJest(s: JestState, raw: string): void {
  const line = plain(raw);
  if (SUMMARY.test(line) || /^Test Suites: /.test(line)) {
    s.recognised = true;
    const total = SUMMARY.test(line) ? TOTAL.exec(line) : null;
    if (total) s.counted = Number(total[1]);
    closeFailing(s);
    s.file = undefined;
    return;
  }
  if (/^No tests found/.test(line)) {
    s.noTests = true;
    s.recognised = true;
    return;
  }
  const f = FILE.exec(line);
  if (f) {
    closeFailing(s);
    const file = f[2] as string;
    s.file = file;
    s.describe.reset();
    if (s.run.groups[file] !== 'error') s.run.groups[file] = f[1] === 'PASS' ? 'passed' : 'failed';
    return;
  }
  if (s.file) fileLine(s, s.file, raw, line);
}

function finishJest(s: JestState, exitCode: number | null): SuiteRun | undefined {
  closeFailing(s);
  if (!s.recognised) return undefined;
  const { run } = s;
  run.reader = 'jest';
  run.exitCode = exitCode;
  // With --verbose every test has a line: what was read is compared with jest's count. Without it
  // only failures are named (the files vouch for the rest): nothing to compare.
  if (s.listed > 0 && s.counted !== undefined) Object.assign(run, { counted: s.counted, read: s.listed });
  const groups = Object.values(run.groups);
  if (s.noTests || groups.length === 0) markNoTests(run, 'jest found no tests');
  else if (groups.every((g) => g === 'error')) {
    const files = Object.keys(run.groups).slice(0, 3).join(', ');
    run.cannotRun = `no test file could run (${files}: ${Object.values(run.messages)[0] ?? 'test suite failed to run'})`;
  }
  return run;
}

export function jestReader(): RunnerReader {
  const s: JestState = { run: emptyRun(null), recognised: false, describe: new Nesting(), noTests: false, listed: 0 };
  return { name: 'jest', feed: (raw) => feedJest(s, raw), finish: (exitCode) => finishJest(s, exitCode) };
}
