/**
 * Mocha's default `spec` reporter: suites as indented titles, tests as `✔ name` (`✓` on older
 * versions), `N) name` when failing, `- name` when pending; then `N passing`, `N failing`, and the
 * failures' details, numbered like the tests. "Exception during run" means no test ran. The tests
 * read are compared with mocha's own count (passing + pending + failing).
 */
import { clipMessage, emptyRun, markNoTests, recordOutcome } from '../results.js';
import { Nesting, type RunnerReader, plain } from './types.js';

const TEST = /^(\s+)(✔|✓|\d+\)|-) (.+?)(?: \(\d+ms\))?$/;

export function mochaReader(): RunnerReader {
  const run = emptyRun(null);
  let recognised = false;
  let inList = true;
  const suites = new Nesting();
  const failingByNumber = new Map<string, string>();
  let details: { id: string; lines: string[]; body: boolean } | undefined;
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
        details = failingByNumber.has(head[1] as string)
          ? { id: failingByNumber.get(head[1] as string) as string, lines: [], body: false }
          : undefined;
        return;
      }
      // The titles end at the first blank line; the error follows.
      if (details && !details.body) {
        details.body = line.trim() === '';
        return;
      }
      if (details && line.trim() !== '' && !/^\s+at /.test(line) && details.lines.length < 6) {
        details.lines.push(line.trim());
        run.messages[details.id] = clipMessage(details.lines.join('\n'));
      }
    },
    finish(exitCode) {
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
