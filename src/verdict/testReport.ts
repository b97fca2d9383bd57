/**
 * Which tests failed, and why: the report the red/green/refactor workflow puts in its retry prompt
 * (seed 003: "Include the failing test names and error messages"), its bounds, and its text for
 * the prompt. It is read from the test runner's JUnit XML report (junit.ts) or, when there is no
 * report, from its console output (consoleFailures.ts). Pure functions, no dependencies.
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

/** A stack trace's line (node's "    at …"). */
export const STACK_FRAME = /^\s+at\s/;
/** go test's lines around a test's log: `=== RUN`, `--- FAIL:` and the like. */
export const GO_MARKER = /^\s*(=== (RUN|PAUSE|CONT|NAME)\s|--- (FAIL|PASS|SKIP):)/;

/** The lines without the indentation they share (blank lines aside). */
export function dedent(lines: string[]): string[] {
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
