/** The console echo of an agent's or a test command's output stops at a budget per run (src/report/echo.ts). */
import { describe, expect, it } from '@jest/globals';
import { cappedEcho } from '../../src/report/echo.js';

function recorder() {
  const lines: string[] = [];
  const warnings: string[] = [];
  return {
    lines,
    warnings,
    logger: {
      output: (_source: 'agent' | 'tests', line: string) => void lines.push(line),
      warn: (_event: string, message: string) => void warnings.push(message),
    },
  };
}

describe('cappedEcho', () => {
  it('echoes every line under the budget, then one warning naming the log, then nothing of that run', () => {
    const r = recorder();
    const echo = cappedEcho(r.logger, 'agent', '/state/logs/iteration-3.*', 1024 * 1024);
    const line = 'x'.repeat(99);
    for (let k = 0; k < 20_000; k++) echo(line, 'stdout');
    expect(r.lines).toHaveLength(Math.floor((1024 * 1024) / 100));
    expect(r.warnings).toEqual([
      'The agent printed more than 1 MiB in this run: the rest is not shown here; the output is in /state/logs/iteration-3.* (up to 32 MiB).',
    ]);
  });

  it('each run has its own budget', () => {
    const r = recorder();
    const first = cappedEcho(r.logger, 'tests', undefined, 10);
    first('123456789', 'stdout');
    first('more', 'stdout');
    const second = cappedEcho(r.logger, 'tests', undefined, 10);
    second('again', 'stderr');
    expect(r.lines).toEqual(['123456789', 'again']);
    expect(r.warnings).toEqual([
      'The test command printed more than 10 bytes in this run: the rest is not shown here.',
    ]);
  });
});
