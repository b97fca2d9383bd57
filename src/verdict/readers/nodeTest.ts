/**
 * Node's test runner (`node --test`): TAP (the default when the output is not a terminal on
 * Node 20) and the `spec` reporter (the default on a terminal, and on Node 22+). Subtests nest by
 * indentation; a test that has subtests is a suite, its leaves are the tests (`suite › test`). A
 * file that fails outside its tests (an import that fails, a syntax error) appears as a failing
 * test named by its absolute path: it is read as a group that did not load (`<path>::*`), with the
 * error node printed before it (its stderr) as the message.
 */
import { FAILURE_LINES_READ, keepFailureText, withoutDeepStack } from '../failureText.js';
import { type SuiteRun, clipMessage, emptyRun, markNoTests, recordOutcome } from '../results.js';
import { Nesting, type RunnerReader, plain } from './types.js';

const TAP_SUBTEST = /^(\s*)# Subtest: (.+)$/;
const TAP_RESULT = /^(\s*)(ok|not ok) \d+ - (.+?)(?: # (SKIP|TODO)\b.*)?$/;
const SPEC_RESULT = /^(\s*)(✔|✖|﹣) (.+?)(?: \([\d.]+m?s\))?(?: # (SKIP|TODO)\b.*)?$/;
const SPEC_SUITE = /^(\s*)▶ (.+?)(?: \([\d.]+m?s\))?$/;
/** How node names a test file that failed outside its tests. */
const FILE_PATH = /^(\/|[A-Za-z]:\\).+\.[cm]?[jt]sx?$/;
/** The line of a file's stderr that says what went wrong (`SyntaxError: …`, `Error [ERR_MODULE_NOT_FOUND]: …`). */
const ERROR_LINE = /^(\w*Error|\w+Exception)\b.*?:/;

/** The message of a file that did not load: its error line, after where it happened. */
function loadError(lines: readonly string[]): string {
  const at = lines.findIndex((l) => ERROR_LINE.test(l));
  if (at === -1) return 'the file failed outside its tests';
  const where = lines.slice(0, at).find((l) => /^file:\/\/|:\d+$/.test(l));
  return clipMessage([lines[at], where].filter(Boolean).join('\n'));
}

/** What the reader keeps between lines. */
interface NodeTestState {
  run: SuiteRun;
  format?: 'tap' | 'spec';
  counted: boolean;
  stack: Nesting;
  seen: Array<{ path: string[]; outcome: SuiteRun['tests'][string] }>;
  /**
   * The failing test whose message the lines after its result hold: its message's lines, and its
   * failure text (spec: the error printed under it; TAP: its YAML block without timings and stack).
   */
  errorFor?: { id: string; lines: string[]; text: string[]; indent?: number; inStack?: number };
  /** A TAP block scalar (`error: |-`) being read. */
  block?: { indent: number; lines: string[] };
  /** After the spec reporter's `✖ failing tests:` list, which repeats the failures: nothing more is read. */
  afterList: boolean;
  /** What node printed between two results: a failing file's stderr. */
  between: string[];
  /** node's own counts (`# tests 6`, `# suites 1`, …): `tests` counts every test, one with subtests too, and a file that failed outside its tests. */
  totals: Record<string, number>;
}

/** Records a result; false when it is a file that did not load (a group, not a test). */
function record(s: NodeTestState, indent: number, name: string, outcome: SuiteRun['tests'][string]): boolean {
  const printed = s.between;
  s.between = [];
  if (indent === 0 && outcome === 'failed' && FILE_PATH.test(name)) {
    s.run.groups[name] = 'error';
    s.run.messages[`${name}::*`] = loadError(printed);
    return false;
  }
  s.seen.push({ path: s.stack.path(indent, name), outcome });
  return true;
}

/** The test whose message the next lines hold: the one just recorded, if it failed and is a test. */
function failingTest(s: NodeTestState, failed: boolean, isTest: boolean): NodeTestState['errorFor'] {
  closeError(s);
  return failed && isTest ? { id: s.seen.at(-1)?.path.join(' › ') ?? '', lines: [], text: [] } : undefined;
}

/** The failing test's lines read so far kept as its failure text. */
function closeError(s: NodeTestState): void {
  if (s.errorFor) keepFailureText(s.run, s.errorFor.id, withoutDeepStack(s.errorFor.text));
  s.errorFor = undefined;
}

/** TAP YAML keys that say nothing of why a test failed. */
const TAP_NOISE = /^(duration_ms|failureType|location|code):/;

/** A line of a failing test's TAP YAML block, kept as its failure text (its `stack:` block left out). */
function tapTextLine(errorFor: NonNullable<NodeTestState['errorFor']>, line: string): void {
  const indent = line.length - line.trimStart().length;
  const body = line.trim();
  if (body === '---') {
    errorFor.indent = indent;
    return;
  }
  if (errorFor.indent === undefined || errorFor.text.length >= FAILURE_LINES_READ) return;
  if (errorFor.inStack !== undefined) {
    if (body === '' || indent > errorFor.inStack) return;
    errorFor.inStack = undefined;
  }
  if (/^stack:/.test(body)) {
    errorFor.inStack = indent;
    return;
  }
  if (body === '...') {
    errorFor.indent = undefined; // the block's end: nothing after it is this test's
    return;
  }
  if (TAP_NOISE.test(body)) return;
  errorFor.text.push(line.slice(Math.min(indent, errorFor.indent)));
}

/** A TAP line after a failing result: its YAML `error:` value, or a line of its block scalar. */
function tapErrorLine(s: NodeTestState, errorFor: NonNullable<NodeTestState['errorFor']>, line: string): void {
  if (s.block) {
    // The lines of a block scalar (error: |-), more indented than its key.
    if (line.trim() === '' || line.length - line.trimStart().length > s.block.indent) {
      s.block.lines.push(line.trim());
      s.run.messages[errorFor.id] = clipMessage(s.block.lines.join('\n'));
      return;
    }
    s.block = undefined;
  }
  const e = /^(\s+)error: (.*)$/.exec(line);
  if (e) {
    const value = (e[2] as string).trim();
    if (/^[|>][-+]?$/.test(value)) s.block = { indent: (e[1] as string).length, lines: [] };
    else s.run.messages[errorFor.id] = clipMessage(unquoteYaml(value));
  }
}

function tapLine(s: NodeTestState, line: string): void {
  const sub = TAP_SUBTEST.exec(line);
  if (sub) {
    s.stack.open((sub[1] as string).length, sub[2] as string);
    return;
  }
  const r = TAP_RESULT.exec(line);
  if (r) {
    const isTest = record(
      s,
      (r[1] as string).length,
      r[3] as string,
      r[4] ? 'skipped' : r[2] === 'ok' ? 'passed' : 'failed',
    );
    s.block = undefined;
    s.errorFor = failingTest(s, r[2] === 'not ok', isTest);
    return;
  }
  const comment = /^# (.*)$/.exec(line);
  if (comment) {
    s.between.push((comment[1] as string).trimEnd());
    return;
  }
  if (s.errorFor) {
    tapTextLine(s.errorFor, line);
    tapErrorLine(s, s.errorFor, line);
  }
}

/** A line of the spec reporter (or of a run whose format is not known yet). */
function specLine(s: NodeTestState, line: string): void {
  const suite = SPEC_SUITE.exec(line);
  if (suite) {
    s.format = 'spec';
    s.stack.open((suite[1] as string).length, suite[2] as string);
    return;
  }
  const r = SPEC_RESULT.exec(line);
  if (r) {
    s.format = 'spec';
    const outcome = r[4] ? 'skipped' : r[2] === '✔' ? 'passed' : r[2] === '﹣' ? 'skipped' : 'failed';
    const isTest = record(s, (r[1] as string).length, r[3] as string, outcome);
    s.errorFor = failingTest(s, r[2] === '✖', isTest);
    return;
  }
  if (line.trim() !== '') s.between.push(line.trimEnd());
  const { errorFor } = s;
  if (errorFor && errorFor.text.length < FAILURE_LINES_READ) errorFor.text.push(line.replace(/^ {4}/, ''));
  if (errorFor && line.trim() !== '' && !/^\s+at /.test(line) && errorFor.lines.length < 4) {
    errorFor.lines.push(line.trim());
    s.run.messages[errorFor.id] = clipMessage(errorFor.lines.join('\n'));
  }
}

function feedNodeTest(s: NodeTestState, raw: string): void {
  const line = plain(raw);
  if (/^TAP version \d+$/.test(line)) {
    s.format = 'tap';
    return;
  }
  const count = /^(?:# |ℹ )(tests|suites|pass|fail) (\d+)$/.exec(line);
  if (count) {
    s.counted = true;
    s.totals[count[1] as string] = Number(count[2]);
    return;
  }
  if (s.format !== 'tap' && /^✖ failing tests:$/.test(line)) {
    closeError(s);
    s.afterList = true;
    return;
  }
  if (s.afterList) return;
  if (s.format === 'tap') tapLine(s, line);
  else specLine(s, line);
}

function finishNodeTest(s: NodeTestState, exitCode: number | null): SuiteRun | undefined {
  closeError(s);
  const { run, seen } = s;
  if (!s.format || (!s.counted && seen.length === 0)) return undefined;
  run.reader = 'node-test';
  run.exitCode = exitCode;
  // A suite is a test some other test is nested in: only the leaves are tests.
  const ids = seen.map((t) => t.path.join(' › '));
  for (const [i, t] of seen.entries()) {
    const id = ids[i] as string;
    if (ids.some((other) => other.startsWith(`${id} › `))) continue;
    recordOutcome(run, id, t.outcome);
  }
  const files = Object.keys(run.groups);
  // Every result read (tests, suites, files that did not load), less node's count of suites (a
  // describe block), against its count of tests: a result line the reader could not take shows.
  if (s.totals.tests !== undefined)
    Object.assign(run, { counted: s.totals.tests, read: seen.length + files.length - (s.totals.suites ?? 0) });
  if (Object.keys(run.tests).length === 0 && files.length > 0)
    run.cannotRun = `no test file could run (${files.slice(0, 3).join(', ')}: ${run.messages[`${files[0]}::*`]?.split('\n')[0]})`;
  else if (Object.keys(run.tests).length === 0) markNoTests(run, 'node --test ran no tests');
  return run;
}

export function nodeTestReader(): RunnerReader {
  const s: NodeTestState = {
    run: emptyRun(null),
    counted: false,
    stack: new Nesting(),
    seen: [],
    afterList: false,
    between: [],
    totals: {},
  };
  return { name: 'node-test', feed: (raw) => feedNodeTest(s, raw), finish: (exitCode) => finishNodeTest(s, exitCode) };
}

/** A TAP YAML scalar as text: a quoted one unquoted, a block indicator (|, >) dropped, a plain one as it is. */
function unquoteYaml(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1);
    }
  }
  return v.replace(/^[|>][-+]?\s*$/, '');
}
