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

/**
 * Reads a JUnit XML report. Root `<testsuites>` or a single `<testsuite>`; `<testcase>` with
 * `<failure>`, `<error>` or `<skipped>`. Counts are the larger of what the testcases show and what
 * the suites declare (a truncated file still says how many failed). Malformed XML yields what could
 * be read and a `problem`, never an exception.
 */
export function parseJUnitXml(xml: string): TestReport {
  const counted: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const rootDeclared: Partial<Counts> = {};
  const suitesDeclared: Partial<Counts> = {};
  const problems: string[] = [];
  const failed: FailedTest[] = [];
  const cases: TestReport['cases'] = [];
  let failing = 0;
  const suites: string[] = [];
  let root: string | undefined;
  let testcase: OpenCase | undefined;
  let capture: Capture | undefined;

  const addFailed = (entry: FailedTest) => {
    failing++;
    if (failed.length < REPORT_LIMITS.failed) failed.push(entry);
  };
  const finishCase = (tc: OpenCase) => {
    const kinds = new Set(tc.captures.map((c) => c.kind));
    if (kinds.has('failure')) counted.failures++;
    if (kinds.has('error')) counted.errors++;
    if (tc.captures.length > 0)
      addFailed(failedEntry(tc.name, tc.captures, { classname: tc.classname, file: tc.file }));
    else if (tc.skipped) counted.skipped++;
    cases.push({
      name: tc.name,
      ...(tc.classname ? { classname: tc.classname } : {}),
      ...(tc.file ? { file: tc.file } : {}),
      outcome: tc.captures.length > 0 ? 'failed' : tc.skipped ? 'skipped' : 'passed',
    });
  };
  const onOpen = (name: string, attrs: Attrs, depth: number) => {
    if (name === 'testsuite') {
      if (depth === 0) addDeclared(rootDeclared, attrs);
      else if (depth === 1 && root === 'testsuites') addDeclared(suitesDeclared, attrs);
      suites.push(attrs.name ?? '');
    } else if (name === 'testsuites' && depth === 0) {
      addDeclared(rootDeclared, attrs);
    } else if (name === 'testcase') {
      if (testcase) finishCase(testcase); // a testcase inside a testcase: close the outer one
      counted.tests++;
      testcase = { name: attrs.name ?? '', captures: [], skipped: false };
      if (attrs.classname) testcase.classname = attrs.classname;
      if (attrs.file) testcase.file = attrs.file;
    } else if ((name === 'failure' || name === 'error') && (testcase || suites.length > 0)) {
      capture = { kind: name, text: '' };
      if (attrs.message !== undefined) capture.message = attrs.message;
    } else if (name === 'skipped' && testcase) {
      testcase.skipped = true;
    }
  };
  const onClose = (name: string) => {
    if ((name === 'failure' || name === 'error') && capture) {
      if (testcase) testcase.captures.push(capture);
      else {
        // A failure outside any testcase: the suite itself failed (e.g. could not be loaded).
        if (capture.kind === 'failure') counted.failures++;
        else counted.errors++;
        addFailed(failedEntry(suites.at(-1) || 'testsuite', [capture], {}));
      }
      capture = undefined;
    } else if (name === 'testcase' && testcase) {
      finishCase(testcase);
      testcase = undefined;
    } else if (name === 'testsuite') {
      suites.pop();
    }
  };

  readXml(xml, {
    open(name, attrs, depth) {
      if (depth === 0) {
        if (name !== 'testsuites' && name !== 'testsuite') {
          problems.push(`the root element is <${name}>, not <testsuites> or <testsuite>`);
          return false;
        }
        root = name;
      }
      onOpen(name, attrs, depth);
    },
    close: onClose,
    text(text) {
      if (capture && capture.text.length < CAPTURE_LIMIT)
        capture.text += text.slice(0, CAPTURE_LIMIT - capture.text.length);
    },
    problem: (message) => problems.push(message),
  });
  if (root === undefined && problems.length === 0)
    problems.push('no <testsuites> or <testsuite> element (empty or not JUnit XML)');

  const declared = (field: keyof Counts) => rootDeclared[field] ?? suitesDeclared[field] ?? 0;
  const report: TestReport = {
    tests: Math.max(counted.tests, declared('tests')),
    failures: Math.max(counted.failures, declared('failures')),
    errors: Math.max(counted.errors, declared('errors')),
    skipped: Math.max(counted.skipped, declared('skipped')),
    failed,
    omitted: failing - failed.length,
    cases,
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
