/**
 * A failing test's own failure text, as its runner printed it: the head of the test's failure
 * section (pytest's `___ test_x ___` section, jest's and vitest's block, mocha's numbered details,
 * node's error, a JUnit `<failure>`), kept per test by the readers so that the retry prompt can say
 * what failed and why instead of the log's tail (issue 42). Bounded per test and per run. Pure.
 */

/** Bounds: lines and characters of one test's text; characters of every text of one run. */
export const FAILURE_TEXT = { lines: 40, chars: 4096, runChars: 64 * 1024 } as const;

/** Lines a reader collects for one test before bounding (more is never kept). */
export const FAILURE_LINES_READ = 400;

/**
 * `lines` as one test's failure text: blank lines at its ends dropped, runs of blank lines made one,
 * at most FAILURE_TEXT.lines lines and FAILURE_TEXT.chars characters (what is cut is said).
 */
export function boundFailureText(lines: readonly string[]): string {
  const kept: string[] = [];
  for (const raw of lines) {
    const line = raw.trimEnd();
    if (line === '' && (kept.length === 0 || kept.at(-1) === '')) continue;
    kept.push(line);
  }
  while (kept.at(-1) === '') kept.pop();
  const more = kept.length - FAILURE_TEXT.lines;
  const head = more > 0 ? [...kept.slice(0, FAILURE_TEXT.lines), `… (${more} more line(s))`] : kept;
  const text = head.join('\n');
  return text.length <= FAILURE_TEXT.chars ? text : `${text.slice(0, FAILURE_TEXT.chars - 1)}…`;
}

/** Keeps `lines` as test `id`'s failure text in `run` (the first one read stands), bounded; nothing when empty. */
export function keepFailureText(
  run: { failureText?: Record<string, string> },
  id: string,
  lines: readonly string[],
): void {
  const text = boundFailureText(lines);
  if (text === '' || run.failureText?.[id] !== undefined) return;
  (run.failureText ??= {})[id] = text;
}

/** `run`'s failure texts within FAILURE_TEXT.runChars in all: those past the budget are dropped (their messages stay). */
export function boundRunTexts(run: { failureText?: Record<string, string> }): void {
  if (!run.failureText) return;
  let used = 0;
  for (const [id, text] of Object.entries(run.failureText)) {
    used += text.length;
    if (used > FAILURE_TEXT.runChars) delete run.failureText[id];
  }
}

/** A line of a stack trace (`    at f (file.js:1:2)`): only the first of a run of them is kept. */
const STACK_FRAME = /^\s+at /;

/** `lines` without the stack frames after the first of each run of them. */
export function withoutDeepStack(lines: readonly string[]): string[] {
  return lines.filter((line, i) => !STACK_FRAME.test(line) || !STACK_FRAME.test(lines[i - 1] ?? ''));
}

/** A pytest traceback line worth keeping when its section is too long: a failing line, an error line, where it was raised, captured output's heading. */
const PYTEST_KEY = /^(>|E |\S+:\d+: \w+$|-+ Captured )/;
/** Lines of a pytest section kept from its head (the test's code up to the failing line) when it is long. */
const PYTEST_HEAD = 12;

/**
 * A pytest failure section as its failure text: whole when it fits, else its head (the test's
 * code) and its `>` lines, `E ` lines and the location of the error (`tests/a.py:10: AssertionError`),
 * in order, the last of them when they are too many (the error is at the end), with `…` where lines
 * were left out.
 */
export function condensePytestSection(lines: readonly string[]): string {
  const body = lines.map((l) => l.trimEnd());
  while (body[0] === '') body.shift();
  while (body.at(-1) === '') body.pop();
  if (body.length <= FAILURE_TEXT.lines) return boundFailureText(body);
  const head = Math.min(PYTEST_HEAD, body.length);
  const keys = body.map((_, i) => i).filter((i) => i >= head && PYTEST_KEY.test(body[i] as string));
  const chosen = new Set([
    ...Array.from({ length: head }, (_, i) => i),
    ...keys.slice(-(FAILURE_TEXT.lines - head - 1)),
  ]);
  const out: string[] = [];
  let skipped = false;
  for (const [i, line] of body.entries()) {
    if (!chosen.has(i)) {
      skipped = true;
      continue;
    }
    if (skipped) out.push('…');
    skipped = false;
    out.push(line);
  }
  return boundFailureText(out);
}

/** A line of a test that passed or started, in any runner's output: never worth the agent's attention. */
const PASS_LINE =
  /^\s*(PASSED |✓|✔|√|ok \d+ |--- PASS|=== (RUN|PAUSE|CONT|NAME) |test \S.* \.\.\. ok$|\S+::\S.* PASSED\b)/;
/** Lines and characters of the output's end given after the failing tests' texts. */
export const OUTPUT_END = { lines: 15, chars: 1500 } as const;

/**
 * The end of a test run's output without the lines of passing tests (pytest's `-rA` `PASSED` lines,
 * ✓ lines): what the command printed besides the tests' own failures (a teardown's error, a summary,
 * a script's own message), bounded. Empty when nothing is left. Pure.
 */
export function outputEnd(tail: string): string {
  const lines = tail
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '' && !PASS_LINE.test(l))
    .slice(-OUTPUT_END.lines);
  const text = lines.join('\n');
  return text.length <= OUTPUT_END.chars ? text : `…${text.slice(-(OUTPUT_END.chars - 1))}`;
}

/** The failing tests' own texts (rejectionDetails), then the output's end without the passing tests' lines. */
export function withOutputEnd(details: string, tail: string): string {
  const end = outputEnd(tail);
  return end ? `${details}\n\nThe end of the test output (passing tests' lines left out):\n${end}` : details;
}
