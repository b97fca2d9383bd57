/**
 * Node's test runner (`node --test`): TAP (the default when the output is not a terminal on
 * Node 20) and the `spec` reporter (the default on a terminal, and on Node 22+). Subtests nest by
 * indentation; a test that has subtests is a suite, its leaves are the tests (`suite › test`). A
 * file that fails before defining any test appears as a failing test named by its path.
 */
import { type SuiteRun, clipMessage, emptyRun } from '../results.js';
import { Nesting, type RunnerReader, plain } from './types.js';

const TAP_SUBTEST = /^(\s*)# Subtest: (.+)$/;
const TAP_RESULT = /^(\s*)(ok|not ok) \d+ - (.+?)(?: # (SKIP|TODO)\b.*)?$/;
const SPEC_RESULT = /^(\s*)(✔|✖|﹣) (.+?)(?: \([\d.]+m?s\))?(?: # (SKIP|TODO)\b.*)?$/;
const SPEC_SUITE = /^(\s*)▶ (.+?)(?: \([\d.]+m?s\))?$/;

export function nodeTestReader(): RunnerReader {
  const run = emptyRun(null);
  let format: 'tap' | 'spec' | undefined;
  let counted = false;
  const stack = new Nesting();
  const seen: Array<{ path: string[]; outcome: SuiteRun['tests'][string] }> = [];
  let errorFor: { id: string; lines: string[] } | undefined;
  let block: { indent: number; lines: string[] } | undefined;
  let afterList = false;
  const record = (indent: number, name: string, outcome: SuiteRun['tests'][string]) => {
    seen.push({ path: stack.path(indent, name), outcome });
  };
  return {
    name: 'node-test',
    feed(raw) {
      const line = plain(raw);
      if (/^TAP version \d+$/.test(line)) { format = 'tap'; return; }
      if (/^(# |ℹ )(tests|pass|fail) \d+$/.test(line)) { counted = true; return; }
      if (format !== 'tap' && /^✖ failing tests:$/.test(line)) { afterList = true; return; }
      if (afterList) return;
      if (format === 'tap') {
        const sub = TAP_SUBTEST.exec(line);
        if (sub) {
          stack.open((sub[1] as string).length, sub[2] as string);
          return;
        }
        const r = TAP_RESULT.exec(line);
        if (r) {
          record((r[1] as string).length, r[3] as string, r[4] ? 'skipped' : r[2] === 'ok' ? 'passed' : 'failed');
          block = undefined;
          errorFor = r[2] === 'not ok' ? { id: seen.at(-1)?.path.join(' › ') ?? '', lines: [] } : undefined;
          return;
        }
        if (block && errorFor) {
          // The lines of a block scalar (error: |-), more indented than its key.
          if (line.trim() === '' || (line.length - line.trimStart().length) > block.indent) {
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
        record((r[1] as string).length, r[3] as string, r[4] ? 'skipped' : r[2] === '✔' ? 'passed' : r[2] === '﹣' ? 'skipped' : 'failed');
        errorFor = r[2] === '✖' ? { id: seen.at(-1)?.path.join(' › ') ?? '', lines: [] } : undefined;
        return;
      }
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
        run.tests[id] = s.outcome;
      }
      if (Object.keys(run.tests).length === 0) run.cannotRun = 'node --test ran no tests';
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
