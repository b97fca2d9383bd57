/**
 * A red baseline is confirmed by a second run, on real git: a test that fails once before any change
 * and passes on the second run is flaky, and counts as passing at baseline. Kept for the commit, the
 * flake otherwise excused a real break of that test by the agent ("failing before this cycle").
 */
import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { openGit } from '../../src/git/git.js';
import { runSlice, type TestOutcome, type TestPurpose } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import type { SuiteRun } from '../../src/verdict/results.js';
import { implementWorkflow } from '../../src/workflows/index.js';
import { GIT_ENV, useCommittedRepo } from '../git/repo.js';
import { ManualClock, MemorySource, ScriptedAgent, done, sliceSettings } from '../../fakes/index.js';

let repo: string;
let stateDir: string;
useCommittedRepo('agent-loop-flaky', 'base', (r, s) => ((repo = r), (stateDir = s)));

/** legacy always fails; A passes unless `aFails`. */
function suite(aFails: boolean): TestOutcome {
  const run: SuiteRun = {
    reader: 'junit',
    exitCode: 1,
    tests: { 'suite::A': aFails ? 'failed' : 'passed', 'suite::legacy': 'failed' },
    groups: {},
    messages: aFails ? { 'suite::A': 'timed out' } : {},
  };
  return { passed: false, exitCode: 1, durationMs: 10, tail: JSON.stringify(run.tests), run };
}

describe('a red baseline, confirmed', () => {
  it('A fails once before any change (a flake) and passes again: it counts as passing, so the agent breaking it is rejected, not excused', async () => {
    const clock = new ManualClock();
    const lines: string[] = [];
    const purposes: TestPurpose[] = [];
    let baselineRuns = 0;
    const source = MemorySource.of('bd-1');
    const result = await runSlice({
      settings: sliceSettings({ testCommand: 'the suite', maxIterations: 1 }),
      workflow: implementWorkflow,
      cwd: repo,
      stateDir,
      source,
      // The agent changes a file (so it is not "already satisfied") and breaks A.
      agent: new ScriptedAgent([
        () => {
          writeFileSync(path.join(repo, 'a.txt'), 'changed\n');
          return done;
        },
      ]),
      clock,
      logger: createLogger({ json: true, write: (s) => lines.push(s), clock, redact: createRedactor([]) }),
      store: new FileCheckpointStore(stateDir, { clock }),
      git: await openGit(repo, GIT_ENV),
      runTests: async (_command, _signal, purpose) => {
        purposes.push(purpose ?? 'verify');
        if (purpose === 'baseline') return suite(++baselineRuns === 1);
        return suite(true);
      },
    });
    expect(purposes.slice(0, 2)).toEqual(['baseline', 'baseline']);
    const events = lines.map((l) => JSON.parse(l) as { event: string; message: string });
    expect(events.find((e) => e.event === 'tests.flaky')?.message).toMatch(
      /^Flaky before any change: suite::A failed once/,
    );
    expect(result.issuesClosed).toEqual([]);
    expect(result.history.map((h) => h.outcome)).toEqual(['tests_failed']);
    expect(result.history[0]?.verdict?.summary).toMatch(/^1 test\(s\) broken \(suite::A\)/);
  });

  it('a suite that stays red the same way is run once per baseline: only failures the last baseline did not have are run again', async () => {
    const clock = new ManualClock();
    const purposes: TestPurpose[] = [];
    let baselines = 0;
    const source = MemorySource.of('bd-1', 'bd-2', 'bd-3');
    // Each agent fixes its issue with a change of its own (each cycle's base is a new commit).
    const fix = (n: number) => () => {
      writeFileSync(path.join(repo, `fix-${n}.txt`), 'done\n');
      return done;
    };
    await runSlice({
      settings: sliceSettings({ testCommand: 'the suite', maxIterations: 3 }),
      workflow: implementWorkflow,
      cwd: repo,
      stateDir,
      source,
      agent: new ScriptedAgent([fix(1), fix(2), fix(3)]),
      clock,
      logger: createLogger({ json: true, write: () => undefined, clock, redact: createRedactor([]) }),
      store: new FileCheckpointStore(stateDir, { clock }),
      git: await openGit(repo, GIT_ENV),
      runTests: async (_command, _signal, purpose) => {
        purposes.push(purpose ?? 'verify');
        if (purpose === 'baseline') baselines++;
        // The third cycle's first baseline run (the fourth in all): A fails once, a flake.
        return suite(purpose === 'baseline' && baselines === 4);
      },
    });
    // Cycle 1: legacy fails, no baseline recorded before: run twice. Cycle 2: the same failure: once.
    // Cycle 3: A fails too (and passes on the second run): twice.
    expect(purposes).toEqual([
      'baseline',
      'baseline',
      'verify',
      'baseline',
      'verify',
      'baseline',
      'baseline',
      'verify',
    ]);
  });
  it('a record of the last failing tests the agent rewrote does not skip the second run: a flake it lists is still told from a failure, and the break of it rejected', async () => {
    const clock = new ManualClock();
    const lines: string[] = [];
    const purposes: TestPurpose[] = [];
    let cycle = 0;
    let baselines = 0;
    const source = MemorySource.of('bd-1', 'bd-2');
    const record = path.join(
      stateDir,
      'baselines-last-failing',
      `${createHash('sha256').update('the suite').digest('hex')}.json`,
    );
    const result = await runSlice({
      settings: sliceSettings({ testCommand: 'the suite', maxIterations: 2 }),
      workflow: implementWorkflow,
      cwd: repo,
      stateDir,
      source,
      agent: new ScriptedAgent([
        // bd-1: fixes it, and says A failed in the last baseline too.
        () => {
          cycle = 1;
          writeFileSync(path.join(repo, 'fix-1.txt'), 'done\n');
          mkdirSync(path.dirname(record), { recursive: true });
          writeFileSync(record, `${JSON.stringify(['suite::A', 'suite::legacy'])}\n`);
          return done;
        },
        // bd-2: changes a file and breaks A.
        () => {
          cycle = 2;
          writeFileSync(path.join(repo, 'fix-2.txt'), 'done\n');
          return done;
        },
      ]),
      clock,
      logger: createLogger({ json: true, write: (s) => lines.push(s), clock, redact: createRedactor([]) }),
      store: new FileCheckpointStore(stateDir, { clock }),
      git: await openGit(repo, GIT_ENV),
      runTests: async (_command, _signal, purpose) => {
        purposes.push(purpose ?? 'verify');
        // bd-2's first baseline run (the third in all): A flakes once. bd-2's work breaks A.
        if (purpose === 'baseline') return suite(++baselines === 3);
        return suite(cycle === 2);
      },
    });
    expect(purposes.filter((p) => p === 'baseline')).toHaveLength(4);
    const events = lines.map((l) => JSON.parse(l) as { event: string; message: string });
    expect(events.find((e) => e.event === 'tests.flaky')?.message).toMatch(/suite::A failed once/);
    expect(events.some((e) => /changed since this run recorded them/.test(e.message))).toBe(true);
    expect(result.issuesClosed).toEqual(['bd-1']);
    expect(result.history.map((h) => h.outcome)).toEqual(['complete', 'tests_failed']);
    expect(result.history[1]?.verdict?.summary).toMatch(/^1 test\(s\) broken \(suite::A\)/);
  });
});
