/**
 * Reading a suite's run per test: the JUnit report when the user names one (--junit-file),
 * else whichever built-in reader understands the console output, fed line by line while it
 * streams. Nothing understood: only the exit code counts (`reader` undefined).
 */
import { boundRunTexts, keepFailureText } from '../failureText.js';
import { parseJUnitXml } from '../junit.js';
import { type SuiteRun, clipMessage, emptyRun, failedIds, recordOutcome, testId } from '../results.js';
import { cargoTestReader } from './cargoTest.js';
import { goTestReader } from './goTest.js';
import { jestReader } from './jest.js';
import { mochaReader } from './mocha.js';
import { nodeTestReader } from './nodeTest.js';
import { pytestReader } from './pytest.js';
import { tapeReader } from './tape.js';
import type { RunnerReader } from './types.js';
import { vitestReader } from './vitest.js';

export interface SuiteReader {
  feed(line: string): void;
  /** The run as read; `junitXml` is the report's text when --junit-file was given and written. */
  finish(exitCode: number | null, junitXml?: string): SuiteRun;
}

export function createSuiteReader(): SuiteReader {
  const readers: RunnerReader[] = [
    pytestReader(),
    jestReader(),
    vitestReader(),
    mochaReader(),
    nodeTestReader(),
    tapeReader(),
    goTestReader(),
    cargoTestReader(),
  ];
  return {
    feed(line) {
      for (const r of readers) r.feed(line);
    },
    finish(exitCode, junitXml) {
      const fromJUnit = junitXml !== undefined ? readJUnit(junitXml, exitCode) : undefined;
      const read = readers.map((r) => r.finish(exitCode)).filter((r): r is SuiteRun => r !== undefined);
      const size = (r: SuiteRun) => Object.keys(r.tests).length + Object.keys(r.groups).length;
      const best = fromJUnit ?? read.sort((a, b) => size(b) - size(a))[0] ?? emptyRun(exitCode);
      if (exitCode === 127 || exitCode === 126)
        best.cannotRun = `the test command could not be run (exit code ${exitCode}: ${exitCode === 127 ? 'command not found' : 'not executable'})`;
      onlyFailedTexts(best);
      return best;
    },
  };
}

/** Failure texts only for what failed (not a suite that fails because a test in it does), within the run's bound. */
function onlyFailedTexts(run: SuiteRun): void {
  if (!run.failureText) return;
  const failed = new Set(failedIds(run));
  for (const id of Object.keys(run.failureText)) if (!failed.has(id)) delete run.failureText[id];
  if (Object.keys(run.failureText).length === 0) delete run.failureText;
  else boundRunTexts(run);
}

/** Reads a whole console output (tests, benchmarks, recorded fixtures). */
export function readSuiteOutput(output: string, exitCode: number | null, junitXml?: string): SuiteRun {
  const reader = createSuiteReader();
  for (const line of output.split('\n')) reader.feed(line);
  return reader.finish(exitCode, junitXml);
}

/** A JUnit report as a run: each testcase `classname::name` (or `file::name`), its suite file as the group when given. */
export function readJUnit(xml: string, exitCode: number | null): SuiteRun | undefined {
  const report = parseJUnitXml(xml);
  if (report.cases.length === 0) return undefined;
  const run = emptyRun(exitCode);
  run.reader = 'junit';
  for (const c of report.cases) recordOutcome(run, testId(c.classname ?? c.file, c.name), c.outcome);
  for (const f of report.failed) {
    const id = testId(f.classname ?? f.file, f.name);
    if (run.tests[id] !== 'failed') continue;
    run.messages[id] = clipMessage(f.message || f.details);
    // The report's own text of the failure: its message, then its body (the assertion, the trace).
    const body = f.details && f.details.trim() !== f.message.trim() ? f.details.split('\n') : [];
    keepFailureText(run, id, [...(f.message ? [f.message] : []), ...(f.message && body.length ? [''] : []), ...body]);
  }
  return run;
}
