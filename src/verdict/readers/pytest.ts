/**
 * pytest. agent-loop runs the suite with `-rA` added to PYTEST_ADDOPTS (baseline.ts), so the short
 * summary names every test with its outcome (`PASSED tests/a.py::test_x`); without it the summary
 * still names the failing ones, and the progress lines (`tests/a.py ..F.`) or `-v` lines
 * (`tests/a.py::test_x PASSED`) tell which files ran. A collection error interrupts the whole
 * session: nothing ran.
 */
import { type SuiteRun, clipMessage, emptyRun, markNoTests, recordOutcome } from '../results.js';
import { type RunnerReader, plain } from './types.js';

const SUMMARY = /^(PASSED|FAILED|ERROR|XFAIL|XPASS) (\S+)(?: - (.*))?$/;
const VERBOSE = /^(\S+::\S.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/;
const PROGRESS = /^(\S+\.py) ([.FEsxX]+)(?:\s+\[\s*\d+%\])?$/;
const FINAL =
  /^=*\s*(?:(?:\d+ (?:passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?)(?:, )?)+|no tests ran) in [\d.]+s(?: \([^)]*\))?\s*=*$/;

/** What the reader keeps between lines. */
interface PytestState {
  run: SuiteRun;
  recognised: boolean;
  /** The session's header and its final line (`=== 3 passed in 0.1s ===`): a header without one is a run that died. */
  started: boolean;
  finished: boolean;
  interrupted?: string;
  noTests: boolean;
  collectErrors: string[];
}

const outcome = (word: string) =>
  word === 'PASSED' || word === 'XFAIL' ? 'passed' : word === 'SKIPPED' ? 'skipped' : 'failed';
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
  const g = groupOfId(id);
  if (run.groups[g] !== 'error')
    run.groups[g] = run.tests[id] === 'failed' || run.groups[g] === 'failed' ? 'failed' : 'passed';
}

/** A test's `-v` line or a file's progress marks. */
function progressLine(run: SuiteRun, line: string): void {
  const v = VERBOSE.exec(line);
  if (v) {
    const [, id, word] = v as unknown as [string, string, string];
    if (!run.tests[id]) run.tests[id] = outcome(word);
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

function feedPytest(s: PytestState, raw: string): void {
  const line = plain(raw);
  if (/^=+ test session starts =+$/.test(line)) {
    s.recognised = true;
    s.started = true;
    return;
  }
  if (FINAL.test(line)) {
    s.recognised = true;
    s.finished = true;
    if (/no tests ran/.test(line)) s.noTests = !/\d+ (passed|failed)/.test(line);
    return;
  }
  const interrupt = /^!+ Interrupted: (.*?) !+$/.exec(line);
  if (interrupt) {
    s.interrupted = interrupt[1];
    return;
  }
  const summary = SUMMARY.exec(line);
  if (summary) {
    const [, word, id, message] = summary as unknown as [string, string, string, string | undefined];
    return summaryLine(s, word, id, message);
  }
  progressLine(s.run, line);
}

function finishPytest(s: PytestState, exitCode: number | null): SuiteRun | undefined {
  const { run } = s;
  if (!s.recognised && Object.keys(run.tests).length === 0) return undefined;
  run.reader = 'pytest';
  run.exitCode = exitCode;
  if (s.started && !s.finished) {
    // The process died mid-run (os._exit, a crash, a kill): the tests it listed ran; a file's
    // progress marks say nothing of its tests after the crash, so no file vouches for them.
    for (const g of Object.keys(run.groups)) if (run.groups[g] !== 'error') delete run.groups[g];
    if (Object.keys(run.tests).length === 0)
      run.cannotRun = `pytest stopped before its summary (exit code ${exitCode}): no test result could be read`;
    return run;
  }
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
  };
  return { name: 'pytest', feed: (raw) => feedPytest(s, raw), finish: (exitCode) => finishPytest(s, exitCode) };
}
