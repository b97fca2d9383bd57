/**
 * pytest. agent-loop runs the suite with `-rA` added to PYTEST_ADDOPTS (baseline.ts), so the short
 * summary names every test with its outcome (`PASSED tests/a.py::test_x`); without it the summary
 * still names the failing ones, and the progress lines (`tests/a.py ..F.`) or `-v` lines
 * (`tests/a.py::test_x PASSED`) tell which files ran. A collection error interrupts the whole
 * session: nothing ran.
 */
import { FAILURE_LINES_READ, condensePytestSection } from '../failureText.js';
import { type SuiteRun, clipMessage, emptyRun, markNoTests, recordOutcome } from '../results.js';
import { type RunnerReader, plain } from './types.js';

/**
 * A short summary line: the outcome, the test's id and, after ` - `, a message. An id may hold spaces,
 * brackets and ` - ` in its parameters (`test_x[a b]`, `test_x[[1]]`, `test_x[x - y]`; non-ASCII is
 * escaped unless an ini option says otherwise): the id is a path, `::` names without spaces, then the
 * parameters in brackets up to the `]` that ends the line or precedes the message. `ERROR tests/a.py`
 * (no `::`) is a file that could not be collected. A line it cannot take (an id printed over two
 * lines: a newline in a parameter, with escaping turned off) is not read, and counted as unread.
 */
const SUMMARY = /^(PASSED|FAILED|ERROR|XFAIL|XPASS) (\S(?:.*?\S)?::[^\s[]+(?:\[.*?\])?|(?!\S*::)\S+)(?: - (.*))?$/;
/** `SKIPPED [3] tests/a.py:12: reason`: skips are listed by place, not by test (as many as the count says). */
const SKIPPED = /^SKIPPED \[(\d+)\] /;
/** The runner's own count, in its final line (`3 failed, 5 passed, 1 skipped, 1 deselected in 0.6s`). */
const COUNTED = /(\d+) (passed|failed|skipped|xfailed|xpassed|errors?)\b/g;
const VERBOSE = /^(\S+::\S.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/;
const PROGRESS = /^(\S+\.py) ([.FEsxX]+)(?:\s+\[\s*\d+%\])?$/;
const FINAL =
  /^=*\s*(?:(?:\d+ (?:passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?)(?:, )?)+|no tests ran) in [\d.]+s(?: \([^)]*\))?\s*=*$/;

/** The FAILURES and ERRORS sections' headings, and any other `=== … ===` heading that ends them. */
const SECTIONS = /^=+ (FAILURES|ERRORS) =+$/;
const HEADING = /^=+ .* =+$/;
/** A test's own section in them: `___ test_x[1] ___`, `___ TestA.test_b ___`, `___ ERROR at setup of test_x ___`. */
const SECTION = /^_{3,} (.+?) _{3,}$/;
/** A traceback's location line (`tests/a.py:10: AssertionError`): which file a section is of. */
const LOCATION = /^(\S+?\.py):\d+:/;
/** Failure sections kept per run (each bounded): a huge red suite's are not all held. */
const SECTIONS_KEPT = 2000;

/** A test's failure section as read: its heading's name, its text (bounded), the files its traceback names. */
interface Section {
  head: string;
  text: string;
  files: string[];
}

/** What the reader keeps between lines. */
interface PytestState {
  run: SuiteRun;
  recognised: boolean;
  /** The session's header and its final line (`=== 3 passed in 0.1s ===`): a header without one is a run that died. */
  started: boolean;
  finished: boolean;
  interrupted?: string;
  noTests: boolean;
  /** The results the final line counts, by kind (deselected ones not: they did not run). */
  counted?: Record<string, number>;
  collectErrors: string[];
  /**
   * Results the short summary listed, by the final line's word for them (a test listed twice, passed
   * then errored at teardown, counts twice, as pytest counts it).
   */
  listed: Record<string, number>;
  /** Inside the FAILURES or ERRORS section; the test section being read there; those read. */
  inSections: boolean;
  section?: { head: string; lines: string[] };
  sections: Section[];
}

/**
 * Only a test that ran and passed passes. XFAIL (failed as its mark expected) and XPASS (marked to
 * fail, passed: a non-strict mark) are neither: read as skipped, with why (`reasons`).
 */
const outcome = (word: string) =>
  word === 'PASSED' ? 'passed' : /^(SKIPPED|XFAIL|XPASS)$/.test(word) ? 'skipped' : 'failed';
/** The final line's word for a summary line's outcome. */
const KINDS: Record<string, string> = {
  PASSED: 'passed',
  FAILED: 'failed',
  ERROR: 'error',
  XFAIL: 'xfailed',
  XPASS: 'xpassed',
  errors: 'error',
};
const kindOf = (word: string) => KINDS[word] ?? word;

/**
 * The runner's count beside what was read, over the kinds of result its short summary lists (every
 * kind with -rA, as agent-loop runs it; failures and errors always; a kind the summary lists none of
 * is not asked for): a line the reader could not take shows as a difference, not as a test gone.
 */
function countedAndRead(counted: Record<string, number>, listed: Record<string, number>) {
  const kinds = Object.keys(counted).filter((k) => k === 'failed' || k === 'error' || (listed[k] ?? 0) > 0);
  const sum = (of: Record<string, number>) => kinds.reduce((n, k) => n + (of[k] ?? 0), 0);
  return { counted: sum(counted), read: sum(listed) };
}

const MARKED: Record<string, string> = {
  XFAIL: 'marked xfail (it failed as its mark expects): an expected failure is not a pass',
  XPASS: 'marked xfail and passed (XPASS): a test marked to fail is not a pass',
};
const groupOfId = (id: string) => id.split('::')[0] as string;

/** A short summary line (`FAILED tests/a.py::test_x - message`), or a file that could not be collected. */
function summaryLine(s: PytestState, word: string, id: string, message: string | undefined): void {
  const { run } = s;
  if (!id.includes('::')) {
    // `ERROR tests/a.py`: the file could not be collected.
    run.groups[id] = 'error';
    s.collectErrors.push(id);
    return;
  }
  recordOutcome(run, id, outcome(word));
  if (message && run.tests[id] === 'failed') run.messages[id] = clipMessage(message);
  const marked = MARKED[word];
  if (marked && run.tests[id] === 'skipped') (run.reasons ??= {})[id] = marked;
  const g = groupOfId(id);
  if (run.groups[g] !== 'error')
    run.groups[g] = run.tests[id] === 'failed' || run.groups[g] === 'failed' ? 'failed' : 'passed';
}

/** A test's `-v` line or a file's progress marks. */
function progressLine(run: SuiteRun, line: string): void {
  const v = VERBOSE.exec(line);
  if (v) {
    const [, id, word] = v as unknown as [string, string, string];
    if (!run.tests[id]) {
      run.tests[id] = outcome(word);
      const marked = MARKED[word];
      if (marked && run.tests[id] === 'skipped') (run.reasons ??= {})[id] = marked;
    }
    const g = groupOfId(id);
    if (run.groups[g] !== 'error' && run.groups[g] !== 'failed')
      run.groups[g] = run.tests[id] === 'failed' ? 'failed' : 'passed';
    return;
  }
  const p = PROGRESS.exec(line);
  if (p) {
    const [, file, marks] = p as unknown as [string, string, string];
    if (run.groups[file] !== 'error' && run.groups[file] !== 'failed')
      run.groups[file] = /[FE]/.test(marks) ? 'failed' : 'passed';
  }
}

/** The test section being read, done: kept as its text (the first SECTIONS_KEPT of them). */
function closeSection(s: PytestState): void {
  const { section } = s;
  s.section = undefined;
  if (!section || s.sections.length >= SECTIONS_KEPT) return;
  const files = section.lines.map((l) => LOCATION.exec(l)?.[1]).filter((f): f is string => f !== undefined);
  s.sections.push({ head: section.head, text: condensePytestSection(section.lines), files });
}

/** A line of the FAILURES/ERRORS sections: a test's heading, or a line of its section. */
function sectionLine(s: PytestState, line: string): void {
  if (HEADING.test(line) && !SECTIONS.test(line)) {
    closeSection(s);
    s.inSections = false;
    return;
  }
  const head = SECTION.exec(line);
  if (head) {
    closeSection(s);
    s.section = { head: head[1] as string, lines: [] };
  } else if (s.section && s.section.lines.length < FAILURE_LINES_READ) s.section.lines.push(line);
}

/**
 * The section of test `id` (`tests/a.py::TestA::test_b[1]`): headed by its name as pytest shows it
 * (`TestA.test_b[1]`), an error at its setup or teardown, or `ERROR collecting tests/a.py` for a
 * file; of the test's file where two files have a test of that name.
 */
function sectionOf(sections: readonly Section[], id: string): Section | undefined {
  const at = id.indexOf('::');
  const file = at < 0 ? id : id.slice(0, at);
  const names =
    at < 0
      ? [`ERROR collecting ${file}`]
      : [id.slice(at + 2).replace(/::/g, '.')].flatMap((n) => [
          n,
          `ERROR at setup of ${n}`,
          `ERROR at teardown of ${n}`,
        ]);
  const candidates = sections.filter((c) => names.includes(c.head));
  return candidates.find((c) => c.files.some((f) => f === file || f.endsWith(`/${file}`))) ?? candidates[0];
}

/** Each failed test's (and each file that could not be collected) own section, as its failure text. */
function keepSections(s: PytestState): void {
  closeSection(s);
  if (s.sections.length === 0) return;
  const { run } = s;
  const failed = [
    ...Object.keys(run.tests).filter((id) => run.tests[id] === 'failed'),
    ...Object.keys(run.groups).filter((g) => run.groups[g] === 'error'),
  ];
  for (const id of failed) {
    const section = sectionOf(s.sections, id);
    if (section?.text) (run.failureText ??= {})[id.includes('::') ? id : `${id}::*`] = section.text;
  }
}

function feedPytest(s: PytestState, raw: string): void {
  const line = plain(raw);
  if (SECTIONS.test(line)) {
    closeSection(s);
    s.inSections = true;
    return;
  }
  if (s.inSections) sectionLine(s, line);
  if (/^=+ test session starts =+$/.test(line)) {
    s.recognised = true;
    s.started = true;
    return;
  }
  if (FINAL.test(line)) {
    s.recognised = true;
    s.finished = true;
    s.counted = {};
    for (const m of line.matchAll(COUNTED)) s.counted[kindOf(m[2] as string)] = Number(m[1]);
    if (/no tests ran/.test(line)) s.noTests = !/\d+ (passed|failed)/.test(line);
    return;
  }
  const interrupt = /^!+ Interrupted: (.*?) !+$/.exec(line);
  if (interrupt) {
    s.interrupted = interrupt[1];
    return;
  }
  const skipped = SKIPPED.exec(line);
  if (skipped) {
    s.listed.skipped = (s.listed.skipped ?? 0) + Number(skipped[1]);
    return;
  }
  const summary = SUMMARY.exec(line);
  if (summary) {
    const [, word, id, message] = summary as unknown as [string, string, string, string | undefined];
    if (!id.includes('::') && word !== 'ERROR') return;
    s.listed[kindOf(word)] = (s.listed[kindOf(word)] ?? 0) + 1;
    return summaryLine(s, word, id, message);
  }
  progressLine(s.run, line);
}

function finishPytest(s: PytestState, exitCode: number | null): SuiteRun | undefined {
  const { run } = s;
  if (!s.recognised && Object.keys(run.tests).length === 0) return undefined;
  run.reader = 'pytest';
  run.exitCode = exitCode;
  keepSections(s);
  if (s.started && !s.finished) {
    // The process died mid-run (os._exit, a crash, a kill): the tests it listed ran; a file's
    // progress marks say nothing of its tests after the crash, so no file vouches for them.
    for (const g of Object.keys(run.groups)) if (run.groups[g] !== 'error') delete run.groups[g];
    if (Object.keys(run.tests).length === 0)
      run.cannotRun = `pytest stopped before its summary (exit code ${exitCode}): no test result could be read`;
    return run;
  }
  if (s.counted) Object.assign(run, countedAndRead(s.counted, s.listed));
  // 5: no tests were collected; 4: usage error; 3: internal error.
  const files = s.collectErrors.length ? ` (${s.collectErrors.slice(0, 5).join(', ')})` : '';
  if (s.interrupted && Object.keys(run.tests).length === 0)
    run.cannotRun = `pytest stopped before running any test: ${s.interrupted}${files}`;
  else if (exitCode === 5 || s.noTests) markNoTests(run, 'pytest collected no tests');
  else if (exitCode === 4 || exitCode === 3)
    run.cannotRun = `pytest could not run (exit code ${exitCode}: ${exitCode === 4 ? 'usage error' : 'internal error'})`;
  return run;
}

export function pytestReader(): RunnerReader {
  const s: PytestState = {
    run: emptyRun(null),
    recognised: false,
    started: false,
    finished: false,
    noTests: false,
    collectErrors: [],
    listed: {},
    inSections: false,
    sections: [],
  };
  return { name: 'pytest', feed: (raw) => feedPytest(s, raw), finish: (exitCode) => finishPytest(s, exitCode) };
}
