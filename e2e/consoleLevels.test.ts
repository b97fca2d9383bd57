/**
 * Issue 42: what the console shows. By default agent-loop's own lines — each verdict with the
 * failing tests and the first lines of their failure — and not the agent's and the test command's
 * output, which the run's log file has whole; --verbose echoes that output as before; --quiet shows
 * warnings, errors and the final result. The built CLI on a real repository, a command agent and a
 * TAP test (e2e/helpers.ts's check.sh).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DONE_REPORT, type Sandbox, createSandbox, expectExit, issue, runArgs, runCli, writeAgent } from './helpers.js';

/** Iteration 1 prints a line and leaves the test failing (rejected); iteration 2 fixes it. */
const SECOND_TIME = `echo "the agent is thinking aloud"
if [ "$AGENT_LOOP_ITERATION" -ge 2 ]; then echo good > value.txt; fi
${DONE_REPORT}`;

async function run(...extra: string[]): Promise<{ stdout: string; log: string; sb: Sandbox }> {
  const sb = await createSandbox([issue('bd-1', 'Make the value good')]);
  const args = runArgs(await writeAgent(sb, 'twice', SECOND_TIME), ...extra).filter((a) => a !== '--json');
  const r = await runCli(sb, args);
  expectExit(r, 0);
  const log = readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'logs', 'run.log'), 'utf8');
  await sb.cleanup();
  return { stdout: r.stdout, log, sb };
}

/** What the log file always has: every event, and the agent's and the test command's output. */
function expectWholeLog(log: string): void {
  expect(log).toContain('  │ the agent is thinking aloud');
  expect(log).toContain("  │ ASSERTION FAILED: value.txt is 'bad', expected 'good'");
  expect(log).toContain('[iteration 1/100] bd-1 "Make the value good"');
  expect(log).toMatch(/rejected: 1 target\(s\) still failing \(value_is_good\)/);
  expect(log).toContain('COMPLETE');
}

describe('console levels (issue 42)', () => {
  it('by default: the verdict and the failing test with its failure, not the echoed output, which is in the log file', async () => {
    const { stdout, log } = await run();
    expect(stdout).toMatch(
      /The agent's and the test command's output are not shown here; the whole log, with them, is in \S+run\.log \(--verbose shows them here too\)/,
    );
    expect(stdout).toContain('[iteration 1/100] bd-1 "Make the value good"');
    expect(stdout).toMatch(
      /WARN \[iteration 1\/100\] rejected: 1 target\(s\) still failing \(value_is_good\).*\nFailing tests \(1\):\n {2}target value_is_good: value\.txt is 'bad', expected 'good'\n/,
    );
    expect(stdout).not.toContain('│');
    expect(stdout).not.toContain('the agent is thinking aloud');
    expect(stdout).not.toContain('TAP version 13');
    expect(stdout.trimEnd().split('\n').slice(-5)[0]).toBe('COMPLETE');
    expectWholeLog(log);
  });

  it("--verbose: the agent's and the test command's output echoed as they print it", async () => {
    const { stdout, log } = await run('--verbose');
    expect(stdout).toContain('  │ the agent is thinking aloud');
    expect(stdout).toContain("  │ ASSERTION FAILED: value.txt is 'bad', expected 'good'");
    expect(stdout).toContain('Failing tests (1):');
    expect(stdout).not.toContain('are not shown here');
    expectWholeLog(log);
  });

  it('--quiet: warnings, errors and the final result only; the log file still has everything', async () => {
    const { stdout, log } = await run('--quiet');
    expect(stdout).not.toContain('[iteration 1/100] bd-1 "Make the value good"');
    expect(stdout).not.toContain('Starting run');
    expect(stdout).not.toContain('│');
    expect(stdout).toMatch(/WARN \[iteration 1\/100\] rejected: /);
    const tail = stdout.trimEnd().split('\n').slice(-5);
    expect(tail[0]).toBe('COMPLETE');
    expect(tail[2]).toBe('  closed in this run: bd-1');
    expectWholeLog(log);
  });

  it('--log-file: the whole log where it is asked; --quiet with --verbose is refused', async () => {
    const sb = await createSandbox([issue('bd-1', 'Make the value good')]);
    try {
      const agent = await writeAgent(sb, 'twice', SECOND_TIME);
      const r = await runCli(
        sb,
        runArgs(agent, '--log-file', '../agent-loop.log').filter((a) => a !== '--json'),
      );
      expectExit(r, 0);
      expect(r.stdout).toContain(`is in ${path.join(sb.root, 'agent-loop.log')} (--verbose`);
      expectWholeLog(readFileSync(path.join(sb.root, 'agent-loop.log'), 'utf8'));
      const both = await runCli(sb, runArgs(agent, '--quiet', '--verbose'));
      expectExit(both, 2);
      expect(both.stderr).toContain('--quiet and --verbose contradict each other: give one of them.');
    } finally {
      await sb.cleanup();
    }
  });
});
