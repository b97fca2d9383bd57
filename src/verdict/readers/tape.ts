/**
 * tape (and tap-producing runners like it): TAP whose tests are `# name` comment lines, each
 * followed by its assertions `ok N message` / `not ok N message` (no ` - ` before the message, which
 * is how node's own TAP names a test). A test fails when one of its assertions fails; a test whose
 * assertions are all `# SKIP` is skipped. The message of a failing test is its first failing
 * assertion's, with the `operator`, `expected` and `actual` lines of its YAML block. A run that
 * dies before tape's summary fails the test it died in, with the crash as its message.
 */
import { type SuiteRun, clipMessage, emptyRun } from '../results.js';
import { type RunnerReader, plain } from './types.js';

const HEADER = /^# (.+)$/;
/** The summary comments at the end: `# tests 12`, `# pass 11`, `# fail 1`, `# ok`, `# skip 2`, `# todo 0`. */
const SUMMARY = /^# (tests|pass|fail|skip|todo) +\d+$|^# ok$/;
const ASSERTION = /^(ok|not ok) \d+ (?!- )(.*?)(?: # (SKIP|TODO)\b.*)?$/;
const DETAIL = /^\s+(operator|expected|actual): (.*)$/;
/** A test tape skipped whole (`test(name, { skip: true }, …)`): `# SKIP name`. */
const SKIPPED = /^# SKIP (.+)$/;

export function tapeReader(): RunnerReader {
  const run = emptyRun(null);
  let current: string | undefined;
  let assertions = 0;
  /** tape prints `# tests N` last: a run without it stopped early (a test threw, the process died). */
  let summarised = false;
  /** The error line of a crash (`TypeError: …`), printed on stderr after the last assertion. */
  let crash: string | undefined;
  /** The last test begun: where a run that dies before its summary died. */
  let stoppedIn: string | undefined;
  /** Per test: whether any assertion failed, whether every one was skipped. */
  const tests = new Map<string, { failed: boolean; skipped: boolean }>();
  let details: { id: string; lines: string[]; pending?: string } | undefined;
  return {
    name: 'tape',
    feed(raw) {
      const line = plain(raw);
      const a = ASSERTION.exec(line);
      if (a && current !== undefined) {
        assertions++;
        const t = tests.get(current) ?? { failed: false, skipped: true };
        const failed = a[1] === 'not ok' && a[3] !== 'TODO';
        tests.set(current, { failed: t.failed || failed, skipped: t.skipped && a[3] === 'SKIP' });
        details = undefined;
        if (failed && run.messages[current] === undefined) {
          details = { id: current, lines: [(a[2] as string).trim()] };
          run.messages[current] = clipMessage(details.lines.join('\n'));
        }
        return;
      }
      if (SUMMARY.test(line)) {
        if (line.startsWith('# tests')) summarised = true;
        current = undefined;
        stoppedIn = undefined;
        return;
      }
      const skipped = SKIPPED.exec(line);
      if (skipped) {
        current = undefined;
        stoppedIn = undefined;
        tests.set((skipped[1] as string).trim(), { failed: false, skipped: true });
        return;
      }
      const h = HEADER.exec(line);
      if (h && !line.startsWith('# Subtest:')) {
        current = (h[1] as string).trim();
        stoppedIn = current;
        details = undefined;
        return;
      }
      if (crash === undefined && /^(\w*Error|\w+Exception)\b.*?:/.test(line)) crash = line.trim();
      if (!details || details.lines.length >= 4) return;
      const d = DETAIL.exec(line);
      if (d) {
        // A block scalar (`expected: |-`) has its value on the next line.
        const value = (d[2] as string).trim();
        details.pending = /^[|>][-+]?$/.test(value) ? (d[1] as string) : undefined;
        if (!details.pending) details.lines.push(`${d[1]}: ${value}`);
      } else if (details.pending) {
        details.lines.push(`${details.pending}: ${line.trim()}`);
        details.pending = undefined;
      } else return;
      run.messages[details.id] = clipMessage(details.lines.join('\n'));
    },
    finish(exitCode): SuiteRun | undefined {
      if (assertions === 0) return undefined;
      run.reader = 'tape';
      run.exitCode = exitCode;
      for (const [name, t] of tests) run.tests[name] = t.failed ? 'failed' : t.skipped ? 'skipped' : 'passed';
      // A run that died before its summary: the test it died in fails with the crash; the tests after it
      // never ran and are not listed (the verdict counts those that passed before as broken). Some tests
      // ran, so it is a verdict, not a suite that cannot run (which would bounce, and halt a red baseline).
      if (!summarised && exitCode !== 0 && stoppedIn !== undefined) {
        run.tests[stoppedIn] = 'failed';
        const why = `exit code ${exitCode}${crash ? `: ${crash}` : ''}`;
        const earlier = run.messages[stoppedIn] ? `\n${run.messages[stoppedIn]}` : '';
        run.messages[stoppedIn] = clipMessage(
          `tape stopped in this test after ${assertions} assertion(s), before its summary (${why})${earlier}`,
        );
      }
      return run;
    },
  };
}
