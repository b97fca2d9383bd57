/**
 * `cargo test`: each test binary starts with `Running unittests src/lib.rs (target/…)` or
 * `Running tests/x.rs (…)` (the group, named by its source: the target's hash changes with every
 * build), then `test path::name ... ok|FAILED|ignored`, then `test result: ok|FAILED. …`. Without
 * --no-fail-fast, cargo stops after the first binary that fails: the later ones did not run.
 * A compile error (`error: could not compile`) means nothing ran.
 */
import { clipMessage, emptyRun, recordOutcome, testId } from '../results.js';
import { type RunnerReader, plain } from './types.js';

const RUNNING = /^\s*Running (?:unittests )?(\S+) \(/;
const DOC = /^\s*Doc-tests (\S+)$/;
const TEST = /^test (.+?) \.\.\. (ok|FAILED|ignored)$/;
const RESULT = /^test result: (ok|FAILED)\./;

export function cargoTestReader(): RunnerReader {
  const run = emptyRun(null);
  let group: string | undefined;
  let results = 0;
  let compileError: string | undefined;
  let panicFor: string | undefined;
  return {
    name: 'cargo-test',
    feed(raw) {
      const line = plain(raw);
      const g = RUNNING.exec(line) ?? DOC.exec(line);
      if (g) {
        group = DOC.test(line) ? `doc-tests ${g[1]}` : (g[1] as string);
        run.groups[group] = 'passed';
        return;
      }
      const t = TEST.exec(line);
      if (t) {
        const id = testId(group, t[1] as string);
        recordOutcome(run, id, t[2] === 'ok' ? 'passed' : t[2] === 'ignored' ? 'skipped' : 'failed');
        if (t[2] === 'FAILED' && group) run.groups[group] = 'failed';
        return;
      }
      const r = RESULT.exec(line);
      if (r) {
        results++;
        if (group && r[1] === 'FAILED') run.groups[group] = 'failed';
        return;
      }
      const c = /^error: could not compile `([^`]+)`/.exec(line);
      if (c) {
        compileError = line;
        return;
      }
      const panic = /^---- (.+) stdout ----$/.exec(line);
      if (panic) {
        panicFor = testId(group, panic[1] as string);
        return;
      }
      if (panicFor && /panicked at|assertion|left:|right:/.test(line)) {
        run.messages[panicFor] = clipMessage(`${run.messages[panicFor] ?? ''}\n${line}`);
      }
      if (/^failures:$/.test(line) && panicFor) panicFor = undefined;
    },
    finish(exitCode) {
      if (results === 0 && compileError === undefined) return undefined;
      run.reader = 'cargo-test';
      run.exitCode = exitCode;
      if (results === 0) run.cannotRun = `cargo could not build the tests: ${compileError}`;
      return run;
    },
  };
}
