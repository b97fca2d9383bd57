/**
 * Mocha's default `spec` reporter: suites as indented titles, tests as `✔ name` (`✓` on older
 * versions), `N) name` when failing, `- name` when pending; then `N passing`, `N failing`, and the
 * failures' details, numbered like the tests. "Exception during run" means no test ran. The tests
 * read are compared with mocha's own count (passing + pending + failing).
 */
import { FAILURE_LINES_READ, keepFailureText, withoutDeepStack } from '../failureText.js';
import { type SuiteRun, clipMessage, emptyRun, markNoTests, recordOutcome } from '../results.js';
import { Nesting, type RunnerReader, plain } from './types.js';

const TEST = /^(\s+)(✔|✓|\d+\)|-) (.+?)(?: \(\d+ms\))?$/;

/** A failure's details being read: its message's first lines, and its whole text (the failure text). */
interface Details {
  id: string;
  lines: string[];
  body: boolean;
  text: string[];
}

/** A line of a failure's details: its titles (up to the test's own, `title:`), then the error. */
function detailsLine(run: SuiteRun, details: Details, line: string): void {
  // The titles end with the test's own, `title:`, then (mostly) a blank line; the error follows.
  if (!details.body) {
    const title = details.id.split(' › ').at(-1) as string;
    details.body = line.trim() === '' || line.trim() === `${title}:`;
    return;
  }
  if (details.text.length < FAILURE_LINES_READ) details.text.push(line);
  if (line.trim() !== '' && !/^\s+at /.test(line) && details.lines.length < 6) {
    details.lines.push(line.trim());
    run.messages[details.id] = clipMessage(details.lines.join('\n'));
  }
}

/** The details read, kept as the test's failure text (mocha's indentation and the deeper stack frames left out). */
function closeDetails(run: SuiteRun, details: Details | undefined): void {
  if (details)
    keepFailureText(
      run,
      details.id,
      withoutDeepStack(details.text).map((l) => l.replace(/^ {1,6}/, '')),
    );
}

export function mochaReader(): RunnerReader {
  const run = emptyRun(null);
  let recognised = false;
  let inList = true;
  const suites = new Nesting();
  const failingByNumber = new Map<string, string>();
  let details: Details | undefined;
  let exception: string | undefined;
  /** Test lines read, and mocha's own count (`3 passing`, `1 pending`, `1 failing`). */
  let listed = 0;
  let counted: number | undefined;
  return {
    name: 'mocha',
    feed(raw) {
      const line = plain(raw);
      const ex = /^\s*Exception during run: (.*)$/.exec(line);
      if (ex) {
        exception = ex[1];
        recognised = true;
        return;
      }
      const count = /^\s+(\d+) (passing|failing|pending)( \(\d+m?s\))?$/.exec(line);
      if (count) {
        recognised = true;
        counted = (counted ?? 0) + Number(count[1]);
        inList = false;
        return;
      }
      if (inList) {
        const t = TEST.exec(line);
        if (t) {
          const [, indent, mark, title] = t as unknown as [string, string, string, string];
          const id = suites.path(indent.length, title).join(' › ');
          recordOutcome(run, id, mark === '-' ? 'skipped' : /^\d+\)$/.test(mark) ? 'failed' : 'passed');
          listed++;
          if (/^\d+\)$/.test(mark)) failingByNumber.set(mark, id);
          return;
        }
        const s = /^(\s+)(\S.*)$/.exec(line);
        if (s) suites.open((s[1] as string).length, s[2] as string);
        return;
      }
      // The details: "  1) Suite" … "       test:" then the error's first lines.
      const head = /^\s+(\d+\)) /.exec(line);
      if (head) {
        closeDetails(run, details);
        details = failingByNumber.has(head[1] as string)
          ? { id: failingByNumber.get(head[1] as string) as string, lines: [], body: false, text: [] }
          : undefined;
        return;
      }
      if (details) detailsLine(run, details, line);
    },
    finish(exitCode) {
      closeDetails(run, details);
      details = undefined;
      if (!recognised) return undefined;
      run.reader = 'mocha';
      run.exitCode = exitCode;
      if (counted !== undefined) Object.assign(run, { counted, read: listed });
      if (exception !== undefined && Object.keys(run.tests).length === 0)
        run.cannotRun = `mocha stopped before running any test: ${exception}`;
      else if (Object.keys(run.tests).length === 0) markNoTests(run, 'mocha ran no tests');
      return run;
    },
  };
}
