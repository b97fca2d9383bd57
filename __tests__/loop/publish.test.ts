/**
 * Finished cycles as pull requests (onSuccess pull-request, the action): the slice asks the
 * publisher to push and open a pull request instead of merging and closing; escalated and
 * unfinished cycles' branches are pushed so that a later run on a fresh runner continues them.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import type { Git } from '../../src/git/git.js';
import type { CyclePublisher, CycleWork } from '../../src/loop/publish.js';
import { runSlice, type SliceDeps, type SliceSettings } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { ManualClock, MemorySource, ScriptedAgent, type Step, done, sliceSettings, working } from './fakes.js';
import { implementWorkflow } from '../../src/workflows/index.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'publish-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A git that records what the loop asks of it; `remote` holds the branches "pushed". */
function recordingGit(calls: string[], remote: Set<string>): Git {
  let current = 'main';
  const local = new Set(['main']);
  return {
    topLevel: dir,
    currentRef: async () => current,
    branchExists: async (b) => local.has(b),
    switchToBranch: async (b) => {
      local.add(b);
      current = b;
      calls.push(`switch ${b}`);
    },
    checkout: async (r) => {
      current = r;
      calls.push(`checkout ${r}`);
    },
    commitAll: async (m) => {
      calls.push(`commit ${m.split(':')[0]}`);
      return true;
    },
    merge: async (b) => {
      calls.push(`merge ${b}`);
    },
    deleteBranch: async (b) => {
      calls.push(`delete ${b}`);
    },
    hasWorkSince: async () => true,
    exclude: async () => undefined,
    fetchBranch: async (_r, b) => {
      calls.push(`fetch ${b}`);
      if (!remote.has(b)) return false;
      local.add(b);
      return true;
    },
    push: async (_r, b) => {
      calls.push(`push ${b}`);
      remote.add(b);
    },
    head: async () => '0'.repeat(40),
    resetHard: async () => undefined,
    changedFiles: async () => [],
    untracked: async () => [],
    tipOf: async () => '1'.repeat(40),
    laneState: async () => ({ head: current, baseTip: '1'.repeat(40) }),
  };
}

function recordingPublisher(git: Git, published: CycleWork[]): CyclePublisher {
  return {
    description: 'pull requests to test/repo',
    fetchBranch: (b) => git.fetchBranch('origin', b),
    keep: (b) => git.push('origin', b),
    async publish(work) {
      await git.push('origin', work.branch);
      published.push(work);
      return {
        number: 100 + published.length,
        url: `https://github.com/test/repo/pull/${100 + published.length}`,
        reused: false,
      };
    },
  };
}

function harness(
  steps: Step[],
  opts: { source?: MemorySource; settings?: Partial<SliceSettings>; tests?: () => boolean; remote?: Set<string> } = {},
) {
  const calls: string[] = [];
  const remote = opts.remote ?? new Set<string>();
  const git = recordingGit(calls, remote);
  const published: CycleWork[] = [];
  const clock = new ManualClock();
  const source = opts.source ?? MemorySource.of('7');
  const deps: SliceDeps = {
    settings: sliceSettings({ maxIterations: 20, onSuccess: 'pull-request', ...opts.settings }),
    workflow: implementWorkflow,
    cwd: dir,
    stateDir: dir,
    source,
    agent: new ScriptedAgent(steps),
    clock,
    git,
    publisher: recordingPublisher(git, published),
    logger: createLogger({ json: true, write: () => undefined, clock, redact: (t) => t }),
    store: new FileCheckpointStore(dir, { clock }),
    runTests: async (_command, _signal, purpose) => {
      if (purpose === 'baseline') return { passed: true, exitCode: 0, durationMs: 5, tail: 'ok' };
      const passed = opts.tests ? opts.tests() : true;
      return { passed, exitCode: passed ? 0 : 1, durationMs: 5, tail: passed ? 'ok' : 'FAIL' };
    },
  };
  return { deps, calls, published, source, remote };
}

describe('finished cycles as pull requests', () => {
  it('pushes the branch agent-loop/issue-<n> and opens a pull request instead of merging; the issue is not closed by the loop', async () => {
    const h = harness([done]);
    const r = await runSlice(h.deps);
    expect(r.status).toBe('complete');
    expect(h.published).toEqual([
      {
        issueIds: ['7'],
        titles: ['Issue 7'],
        branch: 'agent-loop/issue-7',
        base: 'main',
        iteration: 1,
        verdict: 'no test broken',
        preexisting: [],
      },
    ]);
    expect(h.calls).toContain('push agent-loop/issue-7');
    expect(h.calls.some((c) => c.startsWith('merge'))).toBe(false);
    expect(h.source.closedWith).toEqual({});
    expect(r.issuesClosed).toEqual(['7']);
    expect(r.pullRequests).toEqual([
      { issueIds: ['7'], number: 101, url: 'https://github.com/test/repo/pull/101', reused: false, iteration: 1 },
    ]);
  });

  it('a branch an earlier run pushed is fetched before the cycle starts and continued', async () => {
    const h = harness([done], { remote: new Set(['agent-loop/issue-7']) });
    await runSlice(h.deps);
    const fetched = h.calls.indexOf('fetch agent-loop/issue-7');
    expect(fetched).toBeGreaterThanOrEqual(0);
    expect(h.calls.indexOf('switch agent-loop/issue-7')).toBeGreaterThan(fetched);
    expect(h.calls).toContain('merge main'); // brought up to date with the base
  });

  it('an escalated cycle commits its work as wip: and pushes the branch', async () => {
    const h = harness([done], {
      source: MemorySource.of('7', '8'),
      tests: () => false,
      settings: { maxConsecutiveEscalations: 5 },
    });
    await runSlice(h.deps);
    expect(h.remote.has('agent-loop/issue-7')).toBe(true);
    const wip = h.calls.indexOf('commit wip');
    expect(wip).toBeGreaterThanOrEqual(0);
    expect(h.calls.indexOf('push agent-loop/issue-7')).toBeGreaterThan(wip);
    expect(h.published).toEqual([]);
  });

  it('a slice that ends mid-cycle pushes the cycle branch; the next slice (a fresh checkout) fetches it', async () => {
    const h = harness([working('more to do'), done], { settings: { sliceIterations: 1 } });
    const first = await runSlice(h.deps);
    expect(first.status).toBe('continuing');
    expect(h.remote.has('agent-loop/issue-7')).toBe(true);
    expect(h.calls.slice(-2)).toEqual(['commit wip', 'push agent-loop/issue-7']);

    // A new runner: no local branches, only what was pushed.
    const calls: string[] = [];
    const git = recordingGit(calls, h.remote);
    const published: CycleWork[] = [];
    const second = await runSlice({
      ...h.deps,
      git,
      publisher: recordingPublisher(git, published),
      settings: { ...h.deps.settings, sliceIterations: undefined },
    });
    expect(second.status).toBe('complete');
    expect(calls.indexOf('fetch agent-loop/issue-7')).toBeLessThan(calls.indexOf('switch agent-loop/issue-7'));
    expect(published.map((w) => w.branch)).toEqual(['agent-loop/issue-7']);
  });
});
