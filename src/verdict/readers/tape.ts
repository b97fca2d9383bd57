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

/** What the reader keeps between lines. */
interface TapeState {
  run: SuiteRun;
  current?: string;
  assertions: number;
  /** tape prints `# tests N` last: a run without it stopped early (a test threw, the process died). */
  summarised: boolean;
  /** The error line of a crash (`TypeError: …`), printed on stderr after the last assertion. */
  crash?: string;
  /** The last test begun: where a run that dies before its summary died. */
  stoppedIn?: string;
  /** Per test: whether any assertion failed, whether every one was skipped. */
  tests: Map<string, { failed: boolean; skipped: boolean }>;
  details?: { id: string; lines: string[]; pending?: string };
}

/** An assertion of the current test. */
function assertionLine(s: TapeState, current: string, a: RegExpExecArray): void {
  s.assertions++;
  const t = s.tests.get(current) ?? { failed: false, skipped: true };
  const failed = a[1] === 'not ok' && a[3] !== 'TODO';
  s.tests.set(current, { failed: t.failed || failed, skipped: t.skipped && a[3] === 'SKIP' });
  s.details = undefined;
  if (failed && s.run.messages[current] === undefined) {
    s.details = { id: current, lines: [(a[2] as string).trim()] };
    s.run.messages[current] = clipMessage(s.details.lines.join('\n'));
  }
}

/** A line of a failing assertion's YAML block: its operator, expected and actual values kept. */
function detailLine(run: SuiteRun, details: NonNullable<TapeState['details']>, line: string): void {
  if (details.lines.length >= 4) return;
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
}

function feedTape(s: TapeState, raw: string): void {
  const line = plain(raw);
  const a = ASSERTION.exec(line);
  if (a && s.current !== undefined) return assertionLine(s, s.current, a);
  if (SUMMARY.test(line)) {
    if (line.startsWith('# tests')) s.summarised = true;
    s.current = undefined;
    s.stoppedIn = undefined;
    return;
  }
  const skipped = SKIPPED.exec(line);
  if (skipped) {
    s.current = undefined;
    s.stoppedIn = undefined;
    s.tests.set((skipped[1] as string).trim(), { failed: false, skipped: true });
    return;
  }
  const h = HEADER.exec(line);
  if (h && !line.startsWith('# Subtest:')) {
    s.current = (h[1] as string).trim();
    s.stoppedIn = s.current;
    s.details = undefined;
    return;
  }
  if (s.crash === undefined && /^(\w*Error|\w+Exception)\b.*?:/.test(line)) s.crash = line.trim();
  if (s.details) detailLine(s.run, s.details, line);
}

function finishTape(s: TapeState, exitCode: number | null): SuiteRun | undefined {
  const { run, stoppedIn, crash, assertions } = s;
  if (assertions === 0) return undefined;
  run.reader = 'tape';
  run.exitCode = exitCode;
  for (const [name, t] of s.tests) run.tests[name] = t.failed ? 'failed' : t.skipped ? 'skipped' : 'passed';
  // A run that died before its summary: the test it died in fails with the crash; the tests after it
  // never ran and are not listed (the verdict counts those that passed before as broken). Some tests
  // ran, so it is a verdict, not a suite that cannot run (which would bounce, and halt a red baseline).
  if (!s.summarised && exitCode !== 0 && stoppedIn !== undefined) {
    run.tests[stoppedIn] = 'failed';
    const why = `exit code ${exitCode}${crash ? `: ${crash}` : ''}`;
    const earlier = run.messages[stoppedIn] ? `\n${run.messages[stoppedIn]}` : '';
    run.messages[stoppedIn] = clipMessage(
      `tape stopped in this test after ${assertions} assertion(s), before its summary (${why})${earlier}`,
    );
  }
  return run;
}

export function tapeReader(): RunnerReader {
  const s: TapeState = { run: emptyRun(null), assertions: 0, summarised: false, tests: new Map() };
  return { name: 'tape', feed: (raw) => feedTape(s, raw), finish: (exitCode) => finishTape(s, exitCode) };
}
