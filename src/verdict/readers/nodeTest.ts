/**
 * Node's test runner (`node --test`): TAP (the default when the output is not a terminal on
 * Node 20) and the `spec` reporter (the default on a terminal, and on Node 22+). Subtests nest by
 * indentation; a test that has subtests is a suite, its leaves are the tests (`suite › test`). A
 * file that fails outside its tests (an import that fails, a syntax error) appears as a failing
 * test named by its absolute path: it is read as a group that did not load (`<path>::*`), with the
 * error node printed before it (its stderr) as the message.
 */
import { type SuiteRun, clipMessage, emptyRun, markNoTests, recordOutcome } from '../results.js';
import { Nesting, type RunnerReader, plain } from './types.js';

const TAP_SUBTEST = /^(\s*)# Subtest: (.+)$/;
const TAP_RESULT = /^(\s*)(ok|not ok) \d+ - (.+?)(?: # (SKIP|TODO)\b.*)?$/;
const SPEC_RESULT = /^(\s*)(✔|✖|﹣) (.+?)(?: \([\d.]+m?s\))?(?: # (SKIP|TODO)\b.*)?$/;
const SPEC_SUITE = /^(\s*)▶ (.+?)(?: \([\d.]+m?s\))?$/;
/** How node names a test file that failed outside its tests. */
const FILE_PATH = /^(\/|[A-Za-z]:\\).+\.[cm]?[jt]sx?$/;
/** The line of a file's stderr that says what went wrong (`SyntaxError: …`, `Error [ERR_MODULE_NOT_FOUND]: …`). */
const ERROR_LINE = /^(\w*Error|\w+Exception)\b.*?:/;

/** The message of a file that did not load: its error line, after where it happened. */
function loadError(lines: readonly string[]): string {
  const at = lines.findIndex((l) => ERROR_LINE.test(l));
  if (at === -1) return 'the file failed outside its tests';
  const where = lines.slice(0, at).find((l) => /^file:\/\/|:\d+$/.test(l));
  return clipMessage([lines[at], where].filter(Boolean).join('\n'));
}

export function nodeTestReader(): RunnerReader {
  const run = emptyRun(null);
  let format: 'tap' | 'spec' | undefined;
  let counted = false;
  const stack = new Nesting();
  const seen: Array<{ path: string[]; outcome: SuiteRun['tests'][string] }> = [];
  let errorFor: { id: string; lines: string[] } | undefined;
  let block: { indent: number; lines: string[] } | undefined;
  let afterList = false;
  /** What node printed between two results: a failing file's stderr. */
  let between: string[] = [];
  /** Records a result; false when it is a file that did not load (a group, not a test). */
  const record = (indent: number, name: string, outcome: SuiteRun['tests'][string]): boolean => {
    const printed = between;
    between = [];
    if (indent === 0 && outcome === 'failed' && FILE_PATH.test(name)) {
      run.groups[name] = 'error';
      run.messages[`${name}::*`] = loadError(printed);
      return false;
    }
    seen.push({ path: stack.path(indent, name), outcome });
    return true;
  };
  return {
    name: 'node-test',
    feed(raw) {
      const line = plain(raw);
      if (/^TAP version \d+$/.test(line)) {
        format = 'tap';
        return;
      }
      if (/^(# |ℹ )(tests|pass|fail) \d+$/.test(line)) {
        counted = true;
        return;
      }
      if (format !== 'tap' && /^✖ failing tests:$/.test(line)) {
        afterList = true;
        return;
      }
      if (afterList) return;
      if (format === 'tap') {
        const sub = TAP_SUBTEST.exec(line);
        if (sub) {
          stack.open((sub[1] as string).length, sub[2] as string);
          return;
        }
        const r = TAP_RESULT.exec(line);
        if (r) {
          const isTest = record(
            (r[1] as string).length,
            r[3] as string,
            r[4] ? 'skipped' : r[2] === 'ok' ? 'passed' : 'failed',
          );
          block = undefined;
          errorFor = r[2] === 'not ok' && isTest ? { id: seen.at(-1)?.path.join(' › ') ?? '', lines: [] } : undefined;
          return;
        }
        const comment = /^# (.*)$/.exec(line);
        if (comment) {
          between.push((comment[1] as string).trimEnd());
          return;
        }
        if (block && errorFor) {
          // The lines of a block scalar (error: |-), more indented than its key.
          if (line.trim() === '' || line.length - line.trimStart().length > block.indent) {
            block.lines.push(line.trim());
            run.messages[errorFor.id] = clipMessage(block.lines.join('\n'));
            return;
          }
          block = undefined;
        }
        const e = /^(\s+)error: (.*)$/.exec(line);
        if (e && errorFor) {
          const value = (e[2] as string).trim();
          if (/^[|>][-+]?$/.test(value)) block = { indent: (e[1] as string).length, lines: [] };
          else run.messages[errorFor.id] = clipMessage(unquoteYaml(value));
        }
        return;
      }
      const suite = SPEC_SUITE.exec(line);
      if (suite) {
        format = 'spec';
        stack.open((suite[1] as string).length, suite[2] as string);
        return;
      }
      const r = SPEC_RESULT.exec(line);
      if (r) {
        format = 'spec';
        const isTest = record(
          (r[1] as string).length,
          r[3] as string,
          r[4] ? 'skipped' : r[2] === '✔' ? 'passed' : r[2] === '﹣' ? 'skipped' : 'failed',
        );
        errorFor = r[2] === '✖' && isTest ? { id: seen.at(-1)?.path.join(' › ') ?? '', lines: [] } : undefined;
        return;
      }
      if (line.trim() !== '') between.push(line.trimEnd());
      if (errorFor && line.trim() !== '' && !/^\s+at /.test(line) && errorFor.lines.length < 4) {
        errorFor.lines.push(line.trim());
        run.messages[errorFor.id] = clipMessage(errorFor.lines.join('\n'));
      }
    },
    finish(exitCode) {
      if (!format || (!counted && seen.length === 0)) return undefined;
      run.reader = 'node-test';
      run.exitCode = exitCode;
      // A suite is a test some other test is nested in: only the leaves are tests.
      const ids = seen.map((s) => s.path.join(' › '));
      for (const [i, s] of seen.entries()) {
        const id = ids[i] as string;
        if (ids.some((other) => other.startsWith(`${id} › `))) continue;
        recordOutcome(run, id, s.outcome);
      }
      const files = Object.keys(run.groups);
      if (Object.keys(run.tests).length === 0 && files.length > 0)
        run.cannotRun = `no test file could run (${files.slice(0, 3).join(', ')}: ${run.messages[`${files[0]}::*`]?.split('\n')[0]})`;
      else if (Object.keys(run.tests).length === 0) markNoTests(run, 'node --test ran no tests');
      return run;
    },
  };
}

/** A TAP YAML scalar as text: a quoted one unquoted, a block indicator (|, >) dropped, a plain one as it is. */
function unquoteYaml(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1);
    }
  }
  return v.replace(/^[|>][-+]?\s*$/, '');
}
