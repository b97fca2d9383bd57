/**
 * Issue 42: what the text console shows at each level (src/report/logger.ts), the console and the
 * run's log file written together (teeLogger.ts), the log file's bound (logFile.ts), and the failing
 * tests as the console says them (src/verdict/failuresSaid.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cappedEcho } from '../../src/report/echo.js';
import { openLogFile } from '../../src/report/logFile.js';
import { type ConsoleLevel, createLogger } from '../../src/report/logger.js';
import { teeLogger } from '../../src/report/teeLogger.js';
import { judge } from '../../src/verdict/judge.js';
import { failuresSaid } from '../../src/verdict/failuresSaid.js';
import { readSuiteOutput } from '../../src/verdict/readers/index.js';
import type { SuiteRun } from '../../src/verdict/results.js';
import { ManualClock } from '../../fakes/index.js';

const clock = new ManualClock();
const plain = (text: string) => text;

/** A logger at `level` and what it wrote, after one of each kind of line. */
function written(level: ConsoleLevel, json = false): string {
  const out: string[] = [];
  const logger = createLogger({ json, write: (t) => out.push(t), clock, redact: plain, level });
  logger.info('cycle.start', 'a cycle starts');
  logger.warn('tests.failed', 'rejected: 1 test(s) broken');
  logger.error('run.error', 'it broke');
  const echo = cappedEcho(logger, 'tests', undefined, 40);
  for (let i = 0; i < 5; i++) echo(`PASSED test_${i}`, 'stdout');
  logger.result({ status: 'complete' }, 'COMPLETE');
  return out.join('');
}

describe('console levels (issue 42)', () => {
  it('default: every event of agent-loop, none of the output it echoes (and no echo budget spent on it)', () => {
    const text = written('default');
    expect(text).toContain('a cycle starts');
    expect(text).toContain('WARN rejected');
    expect(text).not.toContain('│');
    expect(text).not.toContain('printed more than');
    expect(text).toContain('COMPLETE');
  });

  it('verbose: the output too, within the echo budget, as before', () => {
    const text = written('verbose');
    expect(text).toContain('  │ PASSED test_0');
    expect(text).toContain('  │ PASSED test_1');
    expect(text).not.toContain('PASSED test_2');
    expect(text).toContain('The test command printed more than 40 bytes');
  });

  it('quiet: warnings, errors and the result only', () => {
    const text = written('quiet');
    expect(text).not.toContain('a cycle starts');
    expect(text).not.toContain('│');
    expect(text).toContain('WARN rejected');
    expect(text).toContain('ERROR it broke');
    expect(text).toContain('COMPLETE');
  });

  it('--json: every event and output line, whatever the level', () => {
    const text = written('quiet', true);
    expect(text).toContain('"event":"cycle.start"');
    expect(text).toContain('"event":"tests.output"');
  });
});

describe('the log file beside the console (issue 42)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'log-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has every line, the output the console does not show included, masked; a later logger of the run appends', () => {
    const file = openLogFile(path.join(dir, 'logs', 'run.log'));
    if ('problem' in file) throw new Error(file.problem);
    expect(file.fresh).toBe(true);
    const screen: string[] = [];
    const mask = (t: string) => t.replace(/sekrit/g, '***');
    const logger = teeLogger(
      createLogger({ json: false, write: (t) => screen.push(t), clock, redact: mask, level: 'default' }),
      createLogger({ json: false, write: file.write, clock, redact: mask }),
    );
    logger.info('cycle.start', 'a cycle starts');
    cappedEcho(logger, 'agent', undefined, 10)('the sekrit is out, and long enough to pass the budget', 'stdout');
    const again = openLogFile(path.join(dir, 'logs', 'run.log'));
    if ('problem' in again) throw new Error(again.problem);
    expect(again.fresh).toBeUndefined();
    again.write('a later logger\n');
    expect(screen.join('')).not.toContain('│');
    expect(readFileSync(path.join(dir, 'logs', 'run.log'), 'utf8')).toMatch(
      /a cycle starts\n {2}│ the \*\*\* is out, and long enough to pass the budget\na later logger\n$/,
    );
  });

  it('stops at its bound and says so once', () => {
    const file = openLogFile(path.join(dir, 'small.log'), 20);
    if ('problem' in file) throw new Error(file.problem);
    for (let i = 0; i < 5; i++) file.write(`line ${i}\n`);
    expect(readFileSync(path.join(dir, 'small.log'), 'utf8')).toBe(
      'line 0\nline 1\n… the log was cut here at 0 MiB.\n',
    );
  });

  it('one that cannot be written says why', () => {
    const blocker = openLogFile(path.join(dir, 'blocker'));
    if ('problem' in blocker) throw new Error(blocker.problem);
    const under = openLogFile(path.join(dir, 'blocker', 'run.log'));
    expect('problem' in under && under.problem).toMatch(
      /the log file .*blocker\/run\.log"? cannot be written \((ENOTDIR|EEXIST)\)/,
    );
  });
});

describe('the failing tests on the console (issue 42)', () => {
  it('each broken test and failing target with its message and its first E lines, from a real pytest run', () => {
    const output = readFileSync(new URL('../fixtures/runners/pytest-9.0.3-rA-tracebacks.txt', import.meta.url), 'utf8');
    const now = readSuiteOutput(output, 1);
    const baseline: SuiteRun = {
      ...now,
      tests: Object.fromEntries(Object.keys(now.tests).map((id) => [id, 'passed' as const])),
    };
    baseline.tests['tests/test_calc.py::test_total'] = 'failed';
    const v = judge({ baseline, now, targetTests: ['tests/test_calc.py::test_total'] });
    const said = failuresSaid(v);
    expect(said.split('\n').slice(0, 4)).toEqual([
      'Failing tests (5):',
      '  tests/test_calc.py::test_parse_words: assert [1, 2] == [1, 2, 3]',
      '      E         Right contains one more item: 3',
      '      E         Use -v to get more diff',
    ]);
    expect(said).toContain(
      "  target tests/test_calc.py::test_total: AssertionError: assert 7 == 6\n      E        +  where 7 = total('1,2,3')",
    );
    expect(said).not.toContain('PASSED');
    expect(failuresSaid({ broken: [], targetsFailing: [] })).toBe('');
  });
});
