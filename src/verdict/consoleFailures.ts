/**
 * Which tests failed, and why, from a test runner's console output, for when there is no JUnit XML
 * report: jest's `● Suite › test` blocks, pytest's short test summary, go test's `--- FAIL` lines.
 * Pure, bounded, never throws.
 */
import { GO_MARKER, REPORT_LIMITS, STACK_FRAME, clip, dedent } from './testReport.js';

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[ -/]*[@-~]`, 'g');
const JEST_HEADER = /^\s*● (.+?)\s*$/;
const JEST_BLOCK_END =
  /^\s*(FAIL|PASS)\s+\S|^(Test Suites|Tests|Snapshots|Time|Ran all test suites)\b|^\s*Summary of all failing tests/;
const JEST_CODE_FRAME = /^\s*>?\s*\d+\s*\|/;
const PYTEST_SUMMARY = /^(FAILED|ERROR) (\S.*?)(?: - (.*))?$/;
const GO_FAIL = /^(\s*)--- FAIL: (\S+) \([\d.]+m?s\)/;
const GO_BUILD_FAILED = /^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]/;

/**
 * Failures read from a runner's console output, for when there is no JUnit XML: jest's
 * `● Suite › test` blocks, pytest's `FAILED path::test - message` summary lines, go's
 * `--- FAIL: TestName` lines (and `FAIL pkg [build failed]`). Repeats are dropped; at most
 * REPORT_LIMITS.failed, messages at most REPORT_LIMITS.message characters.
 */
export function failuresFromOutput(output: string): Array<{ name: string; message: string }> {
  const lines = output.replace(ANSI, '').replace(/\r\n?/g, '\n').split('\n');
  const found: Array<{ name: string; message: string }> = [];
  const seen = new Set<string>();
  const add = (name: string, message: string) => {
    const key = `${name}\n${message}`;
    if (seen.has(key) || found.length >= REPORT_LIMITS.failed) return;
    seen.add(key);
    found.push({ name, message: clip(message, REPORT_LIMITS.message) });
  };
  let jestFile: string | undefined;
  for (let i = 0; i < lines.length && found.length < REPORT_LIMITS.failed; i++) {
    const line = lines[i] ?? '';
    const fileLine = /^\s*FAIL\s+(\S+\.[A-Za-z]+)\s*/.exec(line);
    if (fileLine && !GO_BUILD_FAILED.test(line)) jestFile = fileLine[1];

    const jest = JEST_HEADER.exec(line);
    if (jest?.[1] && jest[1] !== 'Console') {
      const header = jest[1];
      const name = header === 'Test suite failed to run' && jestFile ? `${jestFile} › ${header}` : header;
      add(name, jestMessage(lines, i + 1));
      continue;
    }
    const pytest = PYTEST_SUMMARY.exec(line.trimEnd());
    if (pytest?.[2] && /::|\.py\b/.test(pytest[2])) {
      add(pytest[2], pytest[3] ?? '');
      continue;
    }
    const go = GO_FAIL.exec(line);
    if (go?.[2]) {
      add(go[2], goMessage(lines, i, go[1]?.length ?? 0, go[2]));
      continue;
    }
    const build = GO_BUILD_FAILED.exec(line);
    if (build?.[1]) add(build[1], goBuildMessage(lines, i, build[1]) || build[2] || 'build failed');
  }
  return found;
}

/** Lines read into one message from console output (the message is cut to REPORT_LIMITS.message anyway). */
const MESSAGE_LINES = 100;

/** A jest failure block's message: its lines up to the code frame or stack trace. */
function jestMessage(lines: string[], from: number): string {
  const block: string[] = [];
  for (let j = from; j < lines.length && block.length < MESSAGE_LINES; j++) {
    const line = lines[j] ?? '';
    if (JEST_HEADER.test(line) || JEST_BLOCK_END.test(line) || JEST_CODE_FRAME.test(line) || STACK_FRAME.test(line))
      break;
    block.push(line.trimEnd());
  }
  return dedent(block)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * A go test's log lines: those indented under its `--- FAIL` line (go test without -v), or else
 * those printed since its `=== RUN` (go test -v prints them as they happen).
 */
function goMessage(lines: string[], at: number, indent: number, name: string): string {
  const after: string[] = [];
  for (let j = at + 1; j < lines.length && after.length < MESSAGE_LINES; j++) {
    const line = lines[j] ?? '';
    const lineIndent = /^\s*/.exec(line)?.[0].length ?? 0;
    if (line.trim() === '' || lineIndent <= indent || GO_MARKER.test(line)) break;
    after.push(line);
  }
  if (after.length > 0) return dedent(after).join('\n').trim();
  const before: string[] = [];
  for (let j = at - 1; j >= 0 && j >= at - 200; j--) {
    const line = lines[j] ?? '';
    const marker = /^\s*=== (RUN|CONT|NAME|PAUSE)\s+(\S+)/.exec(line);
    if (marker) {
      if (marker[2] === name) break;
      return ''; // another test's output: nothing of ours in between
    }
    if (GO_MARKER.test(line)) return '';
    before.unshift(line);
  }
  return dedent(before.filter((l) => l.trim() !== ''))
    .join('\n')
    .trim();
}

/** The compiler output go prints under `# pkg` before `FAIL pkg [build failed]`. */
function goBuildMessage(lines: string[], at: number, pkg: string): string {
  let start = -1;
  for (let j = at - 1; j >= 0 && j >= at - 500 && start === -1; j--) {
    const line = lines[j] ?? '';
    if (line.trim() === `# ${pkg}` || line.startsWith(`# ${pkg} `)) start = j;
  }
  if (start === -1) return '';
  const block: string[] = [];
  for (let j = start + 1; j < at && block.length < MESSAGE_LINES; j++) {
    const line = lines[j] ?? '';
    if (line.startsWith('#') || line.startsWith('FAIL') || line.startsWith('ok ') || line.trim() === '') break;
    block.push(line.trimEnd());
  }
  return block.join('\n');
}
