/**
 * The targets of a cycle are taken from its issues as its first iteration read them: the agent can
 * edit its own issue in a beads file, and a later iteration that took the tests from its edit had no
 * target, so the issue was closed with nothing fixed.
 */
import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { openGit } from '../../src/git/git.js';
import { runSlice, type TestOutcome } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import type { SuiteRun } from '../../src/verdict/results.js';
import { implementWorkflow } from '../../src/workflows/index.js';
import { GIT_ENV, useCommittedRepo } from '../git/repo.js';
import { ManualClock, MemorySource, ScriptedAgent, done, sliceSettings } from '../../fakes/index.js';

let repo: string;
let stateDir: string;
useCommittedRepo('agent-loop-edited-targets', 'base', (r, s) => ((repo = r), (stateDir = s)));

/** A fails (the issue's test, never fixed here), B passes. */
const suite = (): TestOutcome => {
  const run: SuiteRun = {
    reader: 'junit',
    exitCode: 1,
    tests: { 'suite::test_parse_week': 'failed', 'suite::B': 'passed' },
    groups: {},
    messages: { 'suite::test_parse_week': 'expected 1, got 0' },
  };
  return { passed: false, exitCode: 1, durationMs: 10, tail: '', run };
};

describe("a cycle's targets", () => {
  it('an agent that rewrites its own issue so it names no test still has the test it named as its target in the next iteration: not closed', async () => {
    const clock = new ManualClock();
    const source = MemorySource.of('bd-1');
    (source.issues[0] as { body: string }).body = 'suite::test_parse_week fails';
    const change = (n: number) => writeFileSync(path.join(repo, `work-${n}.txt`), 'changed\n');
    const result = await runSlice({
      settings: sliceSettings({ testCommand: 'the suite', maxIterations: 2 }),
      workflow: implementWorkflow,
      cwd: repo,
      stateDir,
      source,
      agent: new ScriptedAgent([
        () => {
          change(1);
          (source.issues[0] as { body: string }).body = 'make it better';
          return done;
        },
        () => {
          change(2);
          return done;
        },
      ]),
      clock,
      logger: createLogger({ json: true, write: () => undefined, clock, redact: createRedactor([]) }),
      store: new FileCheckpointStore(stateDir, { clock }),
      git: await openGit(repo, GIT_ENV),
      runTests: async () => suite(),
    });
    expect(result.issuesClosed).toEqual([]);
    expect(result.history.map((h) => h.verdict?.summary)).toEqual([
      expect.stringMatching(/^1 target\(s\) still failing \(suite::test_parse_week\)/),
      expect.stringMatching(/^1 target\(s\) still failing \(suite::test_parse_week\)/),
    ]);
  });
});
