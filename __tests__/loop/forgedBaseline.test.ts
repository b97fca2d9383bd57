/**
 * A recorded baseline the agent rewrote is not trusted. The baseline of a cycle is read again from
 * the state directory by the next slice (or the run after a crash); an agent that rewrote it there
 * (it has a shell, and the state directory is in .git) to say a test was failing before had that
 * test's breakage excused as "failing before, not targeted", and its regression was merged.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { openGit } from '../../src/git/git.js';
import { runSlice, type SliceDeps, type TestOutcome } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/report/redact.js';
import type { SuiteRun } from '../../src/verdict/results.js';
import { BASELINES_DIR } from '../../src/verdict/baseline.js';
import { implementWorkflow } from '../../src/workflows/index.js';
import type { AgentResult } from '../../src/agents/types.js';
import { GIT_ENV, gitIn } from '../git/repo.js';
import { ManualClock, MemorySource, ScriptedAgent, done, sliceSettings, working } from './fakes.js';

let repo: string;
let stateDir: string;
const git = gitIn(() => repo);
beforeEach(async () => {
  repo = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-forged-'));
  stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-forged-state-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 't');
  git('config', 'user.email', 't@example.invalid');
  writeFileSync(path.join(repo, 'a.txt'), 'ok\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'B passes, A fails');
});
afterEach(async () => {
  await fs.rm(repo, { recursive: true, force: true });
  await fs.rm(stateDir, { recursive: true, force: true });
});

/** The suite: A (the issue's target) passes once fixed; B passes unless broken. */
function suite(fixed: boolean, broken: boolean): TestOutcome {
  const run: SuiteRun = {
    reader: 'junit',
    exitCode: fixed && !broken ? 0 : 1,
    tests: { 'suite::A': fixed ? 'passed' : 'failed', 'suite::B': broken ? 'failed' : 'passed' },
    groups: {},
    messages: {},
  };
  return { passed: run.exitCode === 0, exitCode: run.exitCode, durationMs: 10, tail: JSON.stringify(run.tests), run };
}

async function slice(step: (req: unknown) => Partial<AgentResult>) {
  const clock = new ManualClock();
  const lines: string[] = [];
  const deps: SliceDeps = {
    settings: sliceSettings({ testCommand: 'the suite', sliceIterations: 1 }),
    workflow: implementWorkflow,
    cwd: repo,
    stateDir,
    source: MemorySource.of('bd-1'),
    agent: new ScriptedAgent([step]),
    clock,
    logger: createLogger({ json: true, write: (s) => lines.push(s), clock, redact: createRedactor([]) }),
    store: new FileCheckpointStore(stateDir, { clock }),
    git: await openGit(repo, GIT_ENV),
    runTests: async (_command, _signal, purpose) => {
      const broken = purpose !== 'baseline' && (await fs.readFile(path.join(repo, 'a.txt'), 'utf8')) === 'broke B\n';
      return suite(purpose !== 'baseline', broken);
    },
  };
  const result = await runSlice(deps);
  return { result, events: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('a recorded baseline the agent rewrote', () => {
  it('is not trusted by the next slice: the regression it would excuse is rejected, and the run says why', async () => {
    const dir = path.join(stateDir, BASELINES_DIR);
    // Slice 1: the agent rewrites the cycle's baseline to say B failed before any change.
    const first = await slice(() => {
      for (const name of readdirSync(dir))
        writeFileSync(
          path.join(dir, name),
          `${JSON.stringify({ exitCode: 1, tests: { 'suite::A': 'failed', 'suite::B': 'failed' }, groups: {}, messages: {}, reader: 'junit' })}\n`,
        );
      return working('bd-1');
    });
    expect(first.result.status).toBe('continuing');
    // Slice 2: it fixes A and breaks B, and says it is done.
    const second = await slice(() => {
      writeFileSync(path.join(repo, 'a.txt'), 'broke B\n');
      return done;
    });
    expect(second.result.issuesClosed).toEqual([]);
    expect(git('log', 'main', '--format=%s')).not.toMatch(/^Merge/m);
    expect(second.events.find((e) => e.event === 'tests.baseline')?.message).toMatch(
      /changed since this cycle recorded it/,
    );
  });
});
