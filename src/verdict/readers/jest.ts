/**
 * Jest. Each file is a group (`PASS path` / `FAIL path`); a failing test is `● Describe › name`
 * under its file, a file that could not load is `● Test suite failed to run`. With --verbose (or
 * a single test file) every test is listed with ✓ ✕ ○ under its describe blocks, by indentation.
 */
import { clipMessage, emptyRun, testId, markNoTests, recordOutcome } from '../results.js';
import { Nesting, type RunnerReader, plain } from './types.js';

const FILE = /^(PASS|FAIL) (\S+)(?: \([\d.]+ m?s\))?$/;
const BULLET = /^ {2}● (.+)$/;
const VERBOSE = /^(\s+)(✓|✕|○|√|×) (?:(?:skipped|todo) )?(.+?)(?: \(\d+ m?s\))?$/;
const SUMMARY = /^Tests:\s+.*\d+ total$/;

export function jestReader(): RunnerReader {
  const run = emptyRun(null);
  let recognised = false;
  let file: string | undefined;
  const describe = new Nesting();
  let failing: { id: string; lines: string[] } | undefined;
  let noTests = false;
  const closeFailing = () => {
    if (failing && failing.lines.length > 0 && !run.messages[failing.id])
      run.messages[failing.id] = clipMessage(failing.lines.join('\n'));
    failing = undefined;
  };
  return {
    name: 'jest',
    feed(raw) {
      const line = plain(raw);
      if (SUMMARY.test(line) || /^Test Suites: /.test(line)) {
        recognised = true;
        closeFailing();
        file = undefined;
        return;
      }
      if (/^No tests found/.test(line)) {
        noTests = true;
        recognised = true;
        return;
      }
      const f = FILE.exec(line);
      if (f) {
        closeFailing();
        file = f[2] as string;
        describe.reset();
        if (run.groups[file] !== 'error') run.groups[file] = f[1] === 'PASS' ? 'passed' : 'failed';
        return;
      }
      if (!file) return;
      if (/^Summary of all failing tests$/.test(line)) {
        closeFailing();
        return;
      }
      const b = BULLET.exec(line);
      if (b) {
        closeFailing();
        const title = b[1] as string;
        if (title === 'Test suite failed to run') {
          run.groups[file] = 'error';
          failing = { id: `${file}${'::'}*`, lines: [] };
        } else {
          const id = testId(file, title);
          run.tests[id] = 'failed';
          failing = { id, lines: [] };
        }
        return;
      }
      const v = VERBOSE.exec(raw.replace(/\r$/, ''));
      if (v && !failing) {
        const [, indent, mark, name] = v as unknown as [string, string, string, string];
        const id = testId(file, describe.path(indent.length, name).join(' › '));
        recordOutcome(run, id, mark === '✓' || mark === '√' ? 'passed' : mark === '○' ? 'skipped' : 'failed');
        return;
      }
      if (failing) {
        if (failing.lines.length < 8 && line.trim() !== '' && !/^\s+at /.test(line)) failing.lines.push(line.trim());
        return;
      }
      // A describe block's name in verbose output: indented text that is no test line.
      const d = /^(\s+)(\S.*)$/.exec(line);
      if (d) describe.open((d[1] as string).length, d[2] as string);
    },
    finish(exitCode) {
      closeFailing();
      if (!recognised) return undefined;
      run.reader = 'jest';
      run.exitCode = exitCode;
      const groups = Object.values(run.groups);
      if (noTests || groups.length === 0) markNoTests(run, 'jest found no tests');
      else if (groups.every((g) => g === 'error')) {
        const files = Object.keys(run.groups).slice(0, 3).join(', ');
        run.cannotRun = `no test file could run (${files}: ${Object.values(run.messages)[0] ?? 'test suite failed to run'})`;
      }
      return run;
    },
  };
}
