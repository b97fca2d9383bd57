/**
 * Which tests failed, and why, from a JUnit XML report: jest-junit's, pytest's `--junitxml`,
 * go-junit-report's, gotestsum's. `<testsuites>` and `<testsuite>` give the declared counts,
 * `<testcase>` with `<failure>`, `<error>` or `<skipped>` the outcomes, bounded as TestReport says.
 * The XML itself is read by xmlReader.ts, tolerantly: a report cut off mid-write gives what it
 * holds and a problem. Pure, never throws.
 */
import { GO_MARKER, REPORT_LIMITS, STACK_FRAME, type FailedTest, type TestReport, clip, dedent } from './testReport.js';
import { readXml } from './xmlReader.js';

/** Text kept per failure element while reading, before the final bound. */
const CAPTURE_LIMIT = 2 * REPORT_LIMITS.details;

type Attrs = Record<string, string>;

interface Capture {
  kind: 'failure' | 'error';
  message?: string;
  text: string;
}
interface OpenCase {
  name: string;
  classname?: string;
  file?: string;
  captures: Capture[];
  skipped: boolean;
}
type Counts = { tests: number; failures: number; errors: number; skipped: number };
const COUNT_FIELDS = ['tests', 'failures', 'errors', 'skipped'] as const;

/** What the reader keeps while the XML streams by. */
interface JUnitState {
  counted: Counts;
  /** The counts the root element declares, and those its `<testsuite>` children declare. */
  rootDeclared: Partial<Counts>;
  suitesDeclared: Partial<Counts>;
  problems: string[];
  failed: FailedTest[];
  cases: TestReport['cases'];
  /** Every failure seen, the bounded `failed` list's and the omitted ones. */
  failing: number;
  /** The names of the open `<testsuite>` elements, the innermost last. */
  suites: string[];
  root?: string;
  testcase?: OpenCase;
  capture?: Capture;
}

/**
 * Reads a JUnit XML report. Root `<testsuites>` or a single `<testsuite>`; `<testcase>` with
 * `<failure>`, `<error>` or `<skipped>`. Counts are the larger of what the testcases show and what
 * the suites declare (a truncated file still says how many failed). Malformed XML yields what could
 * be read and a `problem`, never an exception.
 */
export function parseJUnitXml(xml: string): TestReport {
  const s: JUnitState = {
    counted: { tests: 0, failures: 0, errors: 0, skipped: 0 },
    rootDeclared: {},
    suitesDeclared: {},
    problems: [],
    failed: [],
    cases: [],
    failing: 0,
    suites: [],
  };
  readXml(xml, {
    open(name, attrs, depth) {
      if (depth === 0) {
        if (name !== 'testsuites' && name !== 'testsuite') {
          s.problems.push(`the root element is <${name}>, not <testsuites> or <testsuite>`);
          return false;
        }
        s.root = name;
      }
      onOpen(s, name, attrs, depth);
    },
    close: (name) => onClose(s, name),
    text(text) {
      const { capture } = s;
      if (capture && capture.text.length < CAPTURE_LIMIT)
        capture.text += text.slice(0, CAPTURE_LIMIT - capture.text.length);
    },
    problem: (message) => s.problems.push(message),
  });
  if (s.root === undefined && s.problems.length === 0)
    s.problems.push('no <testsuites> or <testsuite> element (empty or not JUnit XML)');
  return reportOf(s);
}

function addFailed(s: JUnitState, entry: FailedTest): void {
  s.failing++;
  if (s.failed.length < REPORT_LIMITS.failed) s.failed.push(entry);
}

/** A testcase closed: counted by its outcome, listed in the cases, and in the failed ones if it failed. */
function finishCase(s: JUnitState, tc: OpenCase): void {
  const kinds = new Set(tc.captures.map((c) => c.kind));
  if (kinds.has('failure')) s.counted.failures++;
  if (kinds.has('error')) s.counted.errors++;
  if (tc.captures.length > 0)
    addFailed(s, failedEntry(tc.name, tc.captures, { classname: tc.classname, file: tc.file }));
  else if (tc.skipped) s.counted.skipped++;
  s.cases.push({
    name: tc.name,
    ...(tc.classname ? { classname: tc.classname } : {}),
    ...(tc.file ? { file: tc.file } : {}),
    outcome: tc.captures.length > 0 ? 'failed' : tc.skipped ? 'skipped' : 'passed',
  });
}

function onOpen(s: JUnitState, name: string, attrs: Attrs, depth: number): void {
  if (name === 'testsuite') {
    if (depth === 0) addDeclared(s.rootDeclared, attrs);
    else if (depth === 1 && s.root === 'testsuites') addDeclared(s.suitesDeclared, attrs);
    s.suites.push(attrs.name ?? '');
  } else if (name === 'testsuites' && depth === 0) {
    addDeclared(s.rootDeclared, attrs);
  } else if (name === 'testcase') {
    if (s.testcase) finishCase(s, s.testcase); // a testcase inside a testcase: close the outer one
    s.counted.tests++;
    s.testcase = { name: attrs.name ?? '', captures: [], skipped: false };
    if (attrs.classname) s.testcase.classname = attrs.classname;
    if (attrs.file) s.testcase.file = attrs.file;
  } else if ((name === 'failure' || name === 'error') && (s.testcase || s.suites.length > 0)) {
    s.capture = { kind: name, text: '' };
    if (attrs.message !== undefined) s.capture.message = attrs.message;
  } else if (name === 'skipped' && s.testcase) {
    s.testcase.skipped = true;
  }
}

function onClose(s: JUnitState, name: string): void {
  if ((name === 'failure' || name === 'error') && s.capture) {
    const { capture } = s;
    if (s.testcase) s.testcase.captures.push(capture);
    else {
      // A failure outside any testcase: the suite itself failed (e.g. could not be loaded).
      if (capture.kind === 'failure') s.counted.failures++;
      else s.counted.errors++;
      addFailed(s, failedEntry(s.suites.at(-1) || 'testsuite', [capture], {}));
    }
    s.capture = undefined;
  } else if (name === 'testcase' && s.testcase) {
    finishCase(s, s.testcase);
    s.testcase = undefined;
  } else if (name === 'testsuite') {
    s.suites.pop();
  }
}

/** The report: each count the larger of the counted and the declared (the root's, else its suites'), and the problems met. */
function reportOf(s: JUnitState): TestReport {
  const { counted, failed, problems } = s;
  const declared = (field: keyof Counts) => s.rootDeclared[field] ?? s.suitesDeclared[field] ?? 0;
  const report: TestReport = {
    tests: Math.max(counted.tests, declared('tests')),
    failures: Math.max(counted.failures, declared('failures')),
    errors: Math.max(counted.errors, declared('errors')),
    skipped: Math.max(counted.skipped, declared('skipped')),
    failed,
    omitted: s.failing - failed.length,
    cases: s.cases,
  };
  if (problems.length > 0) {
    report.problem =
      problems.slice(0, 3).join('; ') + (problems.length > 3 ? ` (and ${problems.length - 3} more problems)` : '');
  }
  return report;
}

function addDeclared(into: Partial<Counts>, attrs: Attrs): void {
  for (const field of COUNT_FIELDS) {
    const raw = attrs[field] ?? (field === 'skipped' ? attrs.disabled : undefined);
    if (raw === undefined || !/^\s*\d+\s*$/.test(raw)) continue;
    into[field] = (into[field] ?? 0) + Number(raw);
  }
}

function failedEntry(name: string, captures: Capture[], where: { classname?: string; file?: string }): FailedTest {
  const first = captures[0];
  const text = captures
    .map((c) => c.text.trim())
    .filter((t) => t !== '')
    .join('\n\n');
  const given = first?.message?.trim() ?? '';
  const message = isGeneric(given) ? messageFromText(first?.text ?? '') || given : given;
  const entry: FailedTest = {
    name,
    message: clip(message, REPORT_LIMITS.message),
    details: clip(text, REPORT_LIMITS.details),
  };
  if (where.classname) entry.classname = where.classname;
  if (where.file) entry.file = where.file;
  return entry;
}

/** go-junit-report and gotestsum say message="Failed" for every failure: the text says why. */
function isGeneric(message: string): boolean {
  return /^(failed|failure|error)?$/i.test(message);
}

/** The part of a failure's text before its stack trace, without go's test markers. */
function messageFromText(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (STACK_FRAME.test(line)) break;
    if (!GO_MARKER.test(line)) lines.push(line.trimEnd());
  }
  return dedent(lines).join('\n').trim();
}
