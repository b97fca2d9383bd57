/**
 * Vitest. A file that passed is one line (` ✓ path (3 tests) 2ms`): its tests are not listed; a
 * file with a failure lists each test (`✓`, `×`, `↓` skipped) under ` ❯ path`. Files that could not
 * load are listed under "Failed Suites" as ` FAIL  path [ path ]`; failing tests again under
 * "Failed Tests" as ` FAIL  path > describe > name`, with their message on the next line.
 */
import { FAILURE_LINES_READ, keepFailureText } from '../failureText.js';
import { type SuiteRun, clipMessage, emptyRun, testId, markNoTests, recordOutcome } from '../results.js';
import { type RunnerReader, plain } from './types.js';

const FILE = /^ (✓|❯|×|↓) (\S+) \((\d+) tests?(?: \| (\d+) failed)?(?: \| \d+ skipped)?\)(?: \d+m?s)?$/;
const TEST = /^ {3,}(✓|×|↓|✗) (.+?)(?: \d+m?s)?$/;
const FAILED = /^ FAIL {1,2}(\S+?)(?: > (.+?))?(?: \[ (\S+) \])?$/;
/** The rule that ends a failure's block (`⎯⎯⎯[1/2]⎯`), and the summary that follows the last. */
const BLOCK_END = /^⎯|^ {0,6}Test Files /;

/**
 * The failure blocks under "Failed Tests" and "Failed Suites": each block's first line is its test's
 * message, the block its failure text.
 */
function failureBlocks(run: SuiteRun) {
  /** The block being read (after ` FAIL  path > name`): its test, its lines, whether its message is read. */
  let block: { id: string; lines: string[]; message: boolean } | undefined;
  const close = () => {
    if (block) keepFailureText(run, block.id, block.lines);
    block = undefined;
  };
  return {
    close,
    /** A ` FAIL  …` line: the block of `id` starts after it. */
    open: (id: string) => {
      block = { id, lines: [], message: false };
    },
    /** A line of the output; true when it was the block's message (nothing else to read in it). */
    feed: (line: string): boolean => {
      if (block && (BLOCK_END.test(line) || FAILED.test(line))) close();
      if (!block) return false;
      if (block.lines.length < FAILURE_LINES_READ) block.lines.push(line);
      if (block.message) return false;
      if (line.trim() !== '') {
        run.messages[block.id] = clipMessage(line);
        block.message = true;
      }
      return true;
    },
  };
}

export function vitestReader(): RunnerReader {
  const run = emptyRun(null);
  let recognised = false;
  let file: string | undefined;
  const blocks = failureBlocks(run);
  let noFiles = false;
  /** Tests read: a listed test, or a file that passed or was skipped whole by its count; and vitest's own count. */
  let listed = 0;
  let counted: number | undefined;
  return {
    name: 'vitest',
    feed(raw) {
      const line = plain(raw);
      if (blocks.feed(line)) return;
      if (/^ RUN {1,2}v\d/.test(line) || /^ {0,6}Test Files /.test(line)) {
        recognised = true;
        return;
      }
      const total = /^ {0,6}Tests {2}.*\((\d+)\)$/.exec(line);
      if (total) {
        counted = Number(total[1]);
        return;
      }
      if (/No test files found/.test(line)) {
        recognised = true;
        noFiles = true;
        return;
      }
      const f = FILE.exec(line);
      if (f) {
        file = f[2] as string;
        run.groups[file] = f[1] === '✓' ? 'passed' : f[1] === '↓' ? 'skipped' : 'failed';
        // A file that passed (or was skipped) whole lists none of its tests: its count stands for them.
        if (f[1] === '✓' || f[1] === '↓') listed += Number(f[3]);
        return;
      }
      const failed = FAILED.exec(line);
      if (failed) {
        file = undefined;
        const [, path, name, suite] = failed as unknown as [string, string, string | undefined, string | undefined];
        if (suite !== undefined || name === undefined) {
          run.groups[path] = 'error';
          blocks.open(`${path}::*`);
        } else {
          const id = testId(path, name);
          run.tests[id] = 'failed';
          blocks.open(id);
        }
        return;
      }
      const t = file ? TEST.exec(line) : null;
      if (t && file) {
        const [, mark, name] = t as unknown as [string, string, string];
        recordOutcome(run, testId(file, name), mark === '✓' ? 'passed' : mark === '↓' ? 'skipped' : 'failed');
        listed++;
        return;
      }
      if (!/^ {3,}/.test(line)) file = undefined;
    },
    finish(exitCode) {
      blocks.close();
      if (!recognised) return undefined;
      run.reader = 'vitest';
      run.exitCode = exitCode;
      if (counted !== undefined) Object.assign(run, { counted, read: listed });
      const groups = Object.values(run.groups);
      if (noFiles || groups.length === 0) markNoTests(run, 'vitest found no test files');
      else if (groups.every((g) => g === 'error'))
        run.cannotRun = `no test file could run (${Object.keys(run.groups).slice(0, 3).join(', ')})`;
      return run;
    },
  };
}
