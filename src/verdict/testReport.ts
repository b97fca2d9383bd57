/**
 * Which tests failed, and why, from the test runner: its JUnit XML report (jest-junit, pytest
 * `--junitxml`, go-junit-report, gotestsum), or its console output when there is no report. The
 * red/green/refactor workflow puts these in the retry prompt (seed 003: "Include the failing test
 * names and error messages"). Pure functions, no dependencies, bounded output, no throws.
 *
 * The report says which tests failed; whether the run failed is the test command's exit code.
 * jest-junit, for one, leaves a test file that fails to compile out of the report unless
 * `reportTestSuiteErrors` is on: a non-zero exit with no failures in the XML means "read the output".
 */

export interface FailedTest {
  name: string;
  classname?: string;
  file?: string;
  /** The failure's message (≤ REPORT_LIMITS.message characters). */
  message: string;
  /** The failure's text: stack, assertion diff, captured output (≤ REPORT_LIMITS.details characters). */
  details: string;
}

export interface TestReport {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  /** Failed and errored tests in report order, at most REPORT_LIMITS.failed. */
  failed: FailedTest[];
  /** Failed tests left out of `failed` by the bound. */
  omitted: number;
  /** Every testcase read, with its outcome (the per-test results of src/verdict). */
  cases: Array<{ name: string; classname?: string; file?: string; outcome: 'passed' | 'failed' | 'skipped' }>;
  /** What was wrong with the XML, when something was; the rest is what could be read. */
  problem?: string;
}

export const REPORT_LIMITS = { message: 2_000, details: 4_000, failed: 50 } as const;

/** Text kept per failure element while reading, before the final bound. */
const CAPTURE_LIMIT = 2 * REPORT_LIMITS.details;

type Attrs = Record<string, string>;
type Token =
  | { kind: 'open'; name: string; attrs: Attrs; selfClosing: boolean }
  | { kind: 'close'; name: string }
  | { kind: 'text'; text: string }
  | { kind: 'problem'; message: string };

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
  const stack: string[] = [];
  const suites: string[] = [];
  let root: string | undefined;
  let testcase: OpenCase | undefined;
  let capture: Capture | undefined;
  let stopped = false;

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
  const onOpen = (name: string, attrs: Attrs) => {
    if (name === 'testsuite') {
      if (stack.length === 0) addDeclared(rootDeclared, attrs);
      else if (stack.length === 1 && root === 'testsuites') addDeclared(suitesDeclared, attrs);
      suites.push(attrs.name ?? '');
    } else if (name === 'testsuites' && stack.length === 0) {
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

  for (const token of tokenize(xml)) {
    if (token.kind === 'problem') {
      problems.push(token.message);
    } else if (token.kind === 'text') {
      if (capture && capture.text.length < CAPTURE_LIMIT)
        capture.text += token.text.slice(0, CAPTURE_LIMIT - capture.text.length);
    } else if (token.kind === 'open') {
      if (stack.length === 0) {
        if (root !== undefined) {
          problems.push(`content after the root element </${root}> ignored`);
          stopped = true;
          break;
        }
        if (token.name !== 'testsuites' && token.name !== 'testsuite') {
          problems.push(`the root element is <${token.name}>, not <testsuites> or <testsuite>`);
          stopped = true;
          break;
        }
        root = token.name;
      }
      onOpen(token.name, token.attrs);
      if (token.selfClosing) onClose(token.name);
      else stack.push(token.name);
    } else {
      const at = stack.lastIndexOf(token.name);
      if (at === -1) {
        problems.push(`</${token.name}> closes nothing`);
        continue;
      }
      const unclosed = stack.splice(at).reverse();
      if (unclosed.length > 1)
        problems.push(`${elements(unclosed.slice(0, -1), ', ')} not closed before </${token.name}>`);
      for (const name of unclosed) onClose(name);
    }
  }
  if (stack.length > 0 && !stopped) {
    problems.push(`the XML ends inside ${elements(stack, ' ')}`);
    for (const name of stack.splice(0).reverse()) onClose(name);
  }
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

/** Element names for a problem message, the first few only (the nesting may be deep). */
function elements(names: string[], separator: string): string {
  const shown = names
    .slice(0, 6)
    .map((n) => `<${n}>`)
    .join(separator);
  return names.length > 6 ? `${shown}${separator}… (${names.length - 6} more)` : shown;
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

const STACK_FRAME = /^\s+at\s/;
const GO_MARKER = /^\s*(=== (RUN|PAUSE|CONT|NAME)\s|--- (FAIL|PASS|SKIP):)/;

/** The part of a failure's text before its stack trace, without go's test markers. */
function messageFromText(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (STACK_FRAME.test(line)) break;
    if (!GO_MARKER.test(line)) lines.push(line.trimEnd());
  }
  return dedent(lines).join('\n').trim();
}

function dedent(lines: string[]): string[] {
  const common = lines.reduce(
    (min, l) => (l.trim() === '' ? min : Math.min(min, /^\s*/.exec(l)?.[0].length ?? 0)),
    Infinity,
  );
  return Number.isFinite(common) ? lines.map((l) => l.slice(Math.min(common, l.length))) : lines;
}

/** `text` cut to at most `max` characters, marked with "…" when cut, never splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five XML entities and numeric character references; anything else is left as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const valid = Number.isFinite(code) && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref] ?? whole;
  });
}

const NAME = /[A-Za-z_:][-\w.:]*/y;
const ATTR_NAME = /[^\s=/>]+/y;
const SPACE = /\s*/y;
const UNQUOTED = /[^\s>]+/y;

function matchAt(re: RegExp, text: string, at: number): string | undefined {
  re.lastIndex = at;
  return re.exec(text)?.[0];
}

/** XML tokens: tags with their attributes, text (entities decoded, CDATA verbatim), and problems. */
function* tokenize(xml: string): Generator<Token> {
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt === -1) {
      yield { kind: 'text', text: decodeEntities(xml.slice(i)) };
      return;
    }
    if (lt > i) yield { kind: 'text', text: decodeEntities(xml.slice(i, lt)) };
    const skipTo = (close: string, from: number): number | undefined => {
      const end = xml.indexOf(close, from);
      return end === -1 ? undefined : end + close.length;
    };
    if (xml.startsWith('<!--', lt)) {
      const next = skipTo('-->', lt + 4);
      if (next === undefined) {
        yield { kind: 'problem', message: 'unterminated comment' };
        return;
      }
      i = next;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      if (end === -1) {
        yield { kind: 'text', text: xml.slice(lt + 9) };
        yield { kind: 'problem', message: 'unterminated CDATA section' };
        return;
      }
      yield { kind: 'text', text: xml.slice(lt + 9, end) };
      i = end + 3;
    } else if (xml.startsWith('<?', lt) || xml.startsWith('<!', lt)) {
      const next = skipTo(xml[lt + 1] === '?' ? '?>' : '>', lt + 2);
      if (next === undefined) {
        yield { kind: 'problem', message: 'unterminated declaration' };
        return;
      }
      i = next;
    } else if (xml.startsWith('</', lt)) {
      const end = xml.indexOf('>', lt + 2);
      if (end === -1) {
        yield { kind: 'problem', message: 'unterminated closing tag' };
        return;
      }
      yield { kind: 'close', name: xml.slice(lt + 2, end).trim() };
      i = end + 1;
    } else {
      const name = matchAt(NAME, xml, lt + 1);
      if (name === undefined) {
        // A bare "<" in text is not well-formed; keep it as text and go on.
        yield { kind: 'text', text: '<' };
        i = lt + 1;
        continue;
      }
      const tag = readAttributes(xml, lt + 1 + name.length);
      if (tag === undefined) {
        yield { kind: 'problem', message: `unterminated tag <${name}` };
        return;
      }
      yield { kind: 'open', name, attrs: tag.attrs, selfClosing: tag.selfClosing };
      i = tag.next;
    }
  }
}

/** The attributes from `at` to the end of the tag; undefined when the input ends first. Quoted values may hold ">". */
function readAttributes(xml: string, at: number): { attrs: Attrs; selfClosing: boolean; next: number } | undefined {
  const attrs: Attrs = {};
  let i = at;
  for (;;) {
    i += matchAt(SPACE, xml, i)?.length ?? 0;
    if (i >= xml.length) return undefined;
    if (xml.startsWith('/>', i)) return { attrs, selfClosing: true, next: i + 2 };
    if (xml[i] === '>') return { attrs, selfClosing: false, next: i + 1 };
    const name = matchAt(ATTR_NAME, xml, i);
    if (name === undefined) {
      i++;
      continue;
    } // a stray "/" or "="
    i += name.length;
    i += matchAt(SPACE, xml, i)?.length ?? 0;
    if (xml[i] !== '=') {
      attrs[name] = '';
      continue;
    }
    i++;
    i += matchAt(SPACE, xml, i)?.length ?? 0;
    const quote = xml[i];
    if (quote === '"' || quote === "'") {
      const end = xml.indexOf(quote, i + 1);
      if (end === -1) return undefined;
      attrs[name] = decodeEntities(xml.slice(i + 1, end));
      i = end + 1;
    } else {
      const value = matchAt(UNQUOTED, xml, i) ?? '';
      attrs[name] = decodeEntities(value);
      i += value.length;
    }
  }
}

/** "suite › name", or the name alone when it already says the suite (jest-junit's default). */
export function failureLabel(f: Pick<FailedTest, 'name' | 'classname'>): string {
  const { name, classname } = f;
  if (!classname || classname === name || name.startsWith(classname)) return name || classname || '(unnamed test)';
  return name ? `${classname} › ${name}` : classname;
}

/**
 * The failures as text for a retry prompt: a count, then one line per failure (name and first line
 * of its message) with up to CONTEXT_LINES lines of context indented below, at most `max` failures.
 */
export function summariseFailures(report: TestReport, max = 10): string {
  const total = Math.max(report.failed.length + report.omitted, report.failures + report.errors);
  const incomplete = report.problem ? `(The test report could not be read completely: ${report.problem}.)` : '';
  if (total === 0)
    return report.problem ? `No failing tests found in the test report. ${incomplete}` : 'No failing tests.';
  const shown = report.failed.slice(0, Math.max(0, max));
  const lines = [`${total} failing test${total === 1 ? '' : 's'}:`];
  for (const f of shown) {
    const [head = '', ...rest] = nonEmptyLines(f.message);
    lines.push(`- ${failureLabel(f)}: ${clip(head.trim(), 300) || '(no message)'}`);
    for (const line of contextLines(rest, f.details, head)) lines.push(`    ${clip(line, 200)}`);
  }
  if (total > shown.length) lines.push(`- … and ${total - shown.length} more`);
  if (incomplete) lines.push(incomplete);
  return lines.join('\n');
}

const CONTEXT_LINES = 5;

/** The message's further lines, or else the telling lines of the details (pytest's "E " lines when there are any). */
function contextLines(restOfMessage: string[], details: string, head: string): string[] {
  if (restOfMessage.length > 0)
    return dedent(restOfMessage)
      .map((l) => l.trimEnd())
      .slice(0, CONTEXT_LINES);
  const useful = nonEmptyLines(details).filter(
    (l) => !STACK_FRAME.test(l) && !GO_MARKER.test(l) && l.trim() !== head.trim(),
  );
  const pytestErrors = useful.filter((l) => /^E\s/.test(l));
  return dedent(pytestErrors.length > 0 ? pytestErrors : useful)
    .map((l) => l.trimEnd())
    .slice(0, CONTEXT_LINES);
}

function nonEmptyLines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[ -/]*[@-~]`, 'g');
const JEST_HEADER = /^\s*● (.+?)\s*$/;
const JEST_BLOCK_END =
  /^\s*(FAIL|PASS)\s+\S|^(Test Suites|Tests|Snapshots|Time|Ran all test suites)\b|^\s*Summary of all failing tests/;
const JEST_CODE_FRAME = /^\s*>?\s*\d+\s*\|/;
const PYTEST_SUMMARY = /^(FAILED|ERROR) (\S.*?)(?: - (.*))?$/;
const GO_FAIL = /^(\s*)--- FAIL: (\S+) \([\d.]+m?s\)/;
const GO_BUILD_FAILED = /^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]/;

/**
 * Failures read from a runner's console output, for when there is no JUnit XML: jest's
 * `● Suite › test` blocks, pytest's `FAILED path::test - message` summary lines, go's
 * `--- FAIL: TestName` lines (and `FAIL pkg [build failed]`). Repeats are dropped; at most
 * REPORT_LIMITS.failed, messages at most REPORT_LIMITS.message characters.
 */
export function failuresFromOutput(output: string): Array<{ name: string; message: string }> {
  const lines = output.replace(ANSI, '').replace(/\r\n?/g, '\n').split('\n');
  const found: Array<{ name: string; message: string }> = [];
  const seen = new Set<string>();
  const add = (name: string, message: string) => {
    const key = `${name}\n${message}`;
    if (seen.has(key) || found.length >= REPORT_LIMITS.failed) return;
    seen.add(key);
    found.push({ name, message: clip(message, REPORT_LIMITS.message) });
  };
  let jestFile: string | undefined;
  for (let i = 0; i < lines.length && found.length < REPORT_LIMITS.failed; i++) {
    const line = lines[i] ?? '';
    const fileLine = /^\s*FAIL\s+(\S+\.[A-Za-z]+)\s*/.exec(line);
    if (fileLine && !GO_BUILD_FAILED.test(line)) jestFile = fileLine[1];

    const jest = JEST_HEADER.exec(line);
    if (jest?.[1] && jest[1] !== 'Console') {
      const header = jest[1];
      const name = header === 'Test suite failed to run' && jestFile ? `${jestFile} › ${header}` : header;
      add(name, jestMessage(lines, i + 1));
      continue;
    }
    const pytest = PYTEST_SUMMARY.exec(line.trimEnd());
    if (pytest?.[2] && /::|\.py\b/.test(pytest[2])) {
      add(pytest[2], pytest[3] ?? '');
      continue;
    }
    const go = GO_FAIL.exec(line);
    if (go?.[2]) {
      add(go[2], goMessage(lines, i, go[1]?.length ?? 0, go[2]));
      continue;
    }
    const build = GO_BUILD_FAILED.exec(line);
    if (build?.[1]) add(build[1], goBuildMessage(lines, i, build[1]) || build[2] || 'build failed');
  }
  return found;
}

/** Lines read into one message from console output (the message is cut to REPORT_LIMITS.message anyway). */
const MESSAGE_LINES = 100;

/** A jest failure block's message: its lines up to the code frame or stack trace. */
function jestMessage(lines: string[], from: number): string {
  const block: string[] = [];
  for (let j = from; j < lines.length && block.length < MESSAGE_LINES; j++) {
    const line = lines[j] ?? '';
    if (JEST_HEADER.test(line) || JEST_BLOCK_END.test(line) || JEST_CODE_FRAME.test(line) || STACK_FRAME.test(line))
      break;
    block.push(line.trimEnd());
  }
  return dedent(block)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * A go test's log lines: those indented under its `--- FAIL` line (go test without -v), or else
 * those printed since its `=== RUN` (go test -v prints them as they happen).
 */
function goMessage(lines: string[], at: number, indent: number, name: string): string {
  const after: string[] = [];
  for (let j = at + 1; j < lines.length && after.length < MESSAGE_LINES; j++) {
    const line = lines[j] ?? '';
    const lineIndent = /^\s*/.exec(line)?.[0].length ?? 0;
    if (line.trim() === '' || lineIndent <= indent || GO_MARKER.test(line)) break;
    after.push(line);
  }
  if (after.length > 0) return dedent(after).join('\n').trim();
  const before: string[] = [];
  for (let j = at - 1; j >= 0 && j >= at - 200; j--) {
    const line = lines[j] ?? '';
    const marker = /^\s*=== (RUN|CONT|NAME|PAUSE)\s+(\S+)/.exec(line);
    if (marker) {
      if (marker[2] === name) break;
      return ''; // another test's output: nothing of ours in between
    }
    if (GO_MARKER.test(line)) return '';
    before.unshift(line);
  }
  return dedent(before.filter((l) => l.trim() !== ''))
    .join('\n')
    .trim();
}

/** The compiler output go prints under `# pkg` before `FAIL pkg [build failed]`. */
function goBuildMessage(lines: string[], at: number, pkg: string): string {
  let start = -1;
  for (let j = at - 1; j >= 0 && j >= at - 500 && start === -1; j--) {
    const line = lines[j] ?? '';
    if (line.trim() === `# ${pkg}` || line.startsWith(`# ${pkg} `)) start = j;
  }
  if (start === -1) return '';
  const block: string[] = [];
  for (let j = start + 1; j < at && block.length < MESSAGE_LINES; j++) {
    const line = lines[j] ?? '';
    if (line.startsWith('#') || line.startsWith('FAIL') || line.startsWith('ok ') || line.trim() === '') break;
    block.push(line.trimEnd());
  }
  return block.join('\n');
}
