/**
 * --fresh forgets the recorded baselines, on real git. A baseline is kept per commit and test command,
 * so a later run on the same base reuses it; one recorded while the environment was broken (a
 * service down) went on excusing that test's failure after every later agent's work, and starting
 * over with --fresh did not clear it.
 */
import { describe, expect, it } from '@jest/globals';
import { promises as fs, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { openGit } from '../../src/git/git.js';
import { runSlice, type SliceDeps, type TestOutcome, type TestPurpose } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import type { SuiteRun } from '../../src/verdict/results.js';
import { BASELINES_DIR, baselineStore } from '../../src/verdict/baseline.js';
import { stateFiles } from '../../src/persist/stateFiles.js';
import { implementWorkflow } from '../../src/workflows/index.js';
import { GIT_ENV, gitIn, useCommittedRepo } from '../git/repo.js';
import { ManualClock, MemorySource, ScriptedAgent, done, sliceSettings } from '../../fakes/index.js';

let repo: string;
let stateDir: string;
const git = gitIn(() => repo);
useCommittedRepo('agent-loop-fresh', 'A passes', (r, s) => ((repo = r), (stateDir = s)));

/** The suite: test A passes while its service is up. */
function suite(serviceUp: boolean): TestOutcome {
  const run: SuiteRun = {
    reader: 'junit',
    exitCode: serviceUp ? 0 : 1,
    tests: { 'suite::A': serviceUp ? 'passed' : 'failed', 'suite::B': 'passed' },
    groups: { suite: serviceUp ? 'passed' : 'failed' },
    messages: {},
  };
  return { passed: serviceUp, exitCode: run.exitCode, durationMs: 10, tail: JSON.stringify(run.tests), run };
}

async function slice(issue: string, fresh: boolean, serviceUp: boolean) {
  const clock = new ManualClock();
  const lines: string[] = [];
  const purposes: TestPurpose[] = [];
  const deps: SliceDeps = {
    settings: sliceSettings({ testCommand: 'the suite', fresh }),
    workflow: implementWorkflow,
    cwd: repo,
    stateDir,
    source: MemorySource.of(issue),
    agent: new ScriptedAgent([done]),
    clock,
    logger: createLogger({ json: true, write: (s) => lines.push(s), clock, redact: createRedactor([]) }),
    store: new FileCheckpointStore(stateDir, { clock }),
    git: await openGit(repo, GIT_ENV),
    runTests: async (_command, _signal, purpose) => {
      purposes.push(purpose ?? 'verify');
      return suite(serviceUp);
    },
  };
  const result = await runSlice(deps);
  return { result, purposes, events: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('--fresh and the recorded baselines', () => {
  it('a run on the same base reuses the baseline; a --fresh run forgets it and runs the suite again on the base', async () => {
    // The first run's baseline is recorded while the service is down: A "failing before any change".
    const first = await slice('bd-1', false, false);
    expect(first.purposes[0]).toBe('baseline');
    expect(readdirSync(path.join(stateDir, BASELINES_DIR))).toHaveLength(1);
    git('switch', '-q', 'main');
    const tip = git('rev-parse', 'HEAD');

    // The same base, not fresh: the recorded baseline stands (no suite run for it).
    git('reset', '-q', '--hard', tip);
    const again = await slice('bd-2', false, true);
    expect(again.purposes).not.toContain('baseline');

    // --fresh: forgotten, said so, and measured again on the base, with the service up this time.
    git('switch', '-q', 'main');
    const fresh = await slice('bd-3', true, true);
    expect(fresh.purposes[0]).toBe('baseline');
    expect(fresh.events.find((e) => e.event === 'tests.baseline')?.message).toMatch(
      /--fresh: \d+ recorded baselines? forgotten/,
    );
  });

  it('a --fresh run refused at its start (on a cycle branch of an earlier run) forgets nothing', async () => {
    await slice('bd-1', false, false);
    git('switch', '-q', '-c', 'agent-loop/bd-9', 'main');
    // The advice warns that the earlier run's uncommitted edits would go along to main with a checkout.
    await expect(slice('bd-2', true, true)).rejects.toThrow(
      /is a cycle branch of an earlier run.*git checkout main; edits that run left uncommitted here would go along/,
    );
    expect(readdirSync(path.join(stateDir, BASELINES_DIR))).toHaveLength(1);
  });
});

describe('forgetting the recorded baselines', () => {
  it('a baselines directory that is a symlink: the link goes, nothing it points at is removed', async () => {
    const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-fresh-elsewhere-'));
    try {
      writeFileSync(path.join(elsewhere, 'package.json'), '{"name":"not a baseline"}\n');
      symlinkSync(elsewhere, path.join(stateDir, BASELINES_DIR));
      await baselineStore(stateFiles(stateDir)).forget();
      expect(readdirSync(elsewhere)).toEqual(['package.json']);
      expect(readdirSync(stateDir)).not.toContain(BASELINES_DIR);
    } finally {
      await fs.rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('a directory among the baselines (named *.json) is left alone and does not stop the run', async () => {
    const dir = path.join(stateDir, BASELINES_DIR);
    mkdirSync(path.join(dir, 'made.json', 'inside'), { recursive: true });
    writeFileSync(path.join(dir, 'abc.json'), '{}\n');
    await expect(baselineStore(stateFiles(stateDir)).forget()).resolves.toBe(1);
    expect(readdirSync(dir)).toEqual(['made.json']);
  });
});
