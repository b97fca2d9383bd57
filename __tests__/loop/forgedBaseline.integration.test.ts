/**
 * A recorded baseline the agent rewrote is not trusted. The baseline of a cycle is read again from
 * the state directory by the next slice (or the run after a crash), and by the next cycle on the
 * same base tip (after an escalation); an agent that rewrote it there (it has a shell, and the state
 * directory is in .git) to say a test was failing before had that test's breakage excused as
 * "failing before, not targeted", and its regression was merged. The run keeps each baseline's
 * digest in its checkpoint; the slice that finds one changed writes it back, or removes it.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { openGit } from '../../src/git/git.js';
import { runSlice, type SliceDeps, type TestOutcome } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import type { SuiteRun } from '../../src/verdict/results.js';
import { BASELINES_DIR } from '../../src/verdict/baseline.js';
import { implementWorkflow } from '../../src/workflows/index.js';
import type { AgentResult } from '../../src/agents/types.js';
import { GIT_ENV, gitIn } from '../git/repo.js';
import {
  ManualClock,
  MemorySource,
  ScriptedAgent,
  done,
  sliceSettings,
  stuck,
  working,
  type Step,
} from '../../fakes/index.js';

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
  return sliceOf([step], MemorySource.of('bd-1'));
}

async function sliceOf(steps: Step[], source: MemorySource) {
  const clock = new ManualClock();
  const lines: string[] = [];
  const deps: SliceDeps = {
    settings: sliceSettings({ testCommand: 'the suite', sliceIterations: steps.length }),
    workflow: implementWorkflow,
    cwd: repo,
    stateDir,
    source,
    agent: new ScriptedAgent(steps),
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
    // The slice that saw it changed writes it back as it was recorded, and says so.
    expect(first.events.filter((e) => e.event === 'tests.baseline').map((e) => e.message)).toContainEqual(
      expect.stringMatching(/changed or removed during this slice.*written back as this run recorded it/),
    );
  });

  it('is not trusted when it changed after the slice ended (a run killed before it could write it back)', async () => {
    const dir = path.join(stateDir, BASELINES_DIR);
    const first = await slice(() => working('bd-1'));
    expect(first.result.status).toBe('continuing');
    // Rewritten between the slices, as by an agent whose run was killed before the slice's end.
    for (const name of readdirSync(dir))
      writeFileSync(
        path.join(dir, name),
        `${JSON.stringify({ exitCode: 1, tests: { 'suite::A': 'failed', 'suite::B': 'failed' }, groups: {}, messages: {}, reader: 'junit' })}\n`,
      );
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

  it("is not trusted by the next cycle on the same tree: one cycle's agent cannot excuse what the next one breaks", async () => {
    const dir = path.join(stateDir, BASELINES_DIR);
    const source = MemorySource.of('bd-1', 'bd-2');
    const { result, events } = await sliceOf(
      [
        // bd-1's agent rewrites the baseline to say B failed before, and gives up: bd-1 escalates
        // unmerged, so bd-2's cycle starts on the same base tip, under the same baseline key.
        () => {
          for (const name of readdirSync(dir))
            writeFileSync(
              path.join(dir, name),
              `${JSON.stringify({ exitCode: 1, tests: { 'suite::A': 'failed', 'suite::B': 'failed' }, groups: {}, messages: {}, reader: 'junit' })}\n`,
            );
          return stuck('bd-1');
        },
        // bd-2's agent fixes A, breaks B, and says it is done.
        () => {
          writeFileSync(path.join(repo, 'a.txt'), 'broke B\n');
          return done;
        },
      ],
      source,
    );
    expect(result.issuesEscalated).toEqual(['bd-1']);
    expect(result.issuesClosed).toEqual([]);
    expect(git('log', 'main', '--format=%s')).not.toMatch(/^Merge/m);
    expect(events.filter((e) => e.event === 'tests.baseline').map((e) => e.message)).toContainEqual(
      expect.stringMatching(/changed since this run recorded it/),
    );
  });
});
