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
import { type CyclePublisher, type CycleWork, LandingError } from '../../src/loop/publish.js';
import type { LandingFailure } from '../../src/core/events.js';
import { runSlice, type SliceDeps, type SliceSettings } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import {
  ManualClock,
  MemorySource,
  ScriptedAgent,
  type Step,
  done,
  sliceSettings,
  working,
} from '../../fakes/index.js';
import { implementWorkflow } from '../../src/workflows/index.js';
import { ListingError } from '../../src/issues/listing.js';
import { exitCodeFor, summaryLine } from '../../src/core/result.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'publish-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Branch → its commits, oldest first (what `holds` reads). */
type Histories = Map<string, string[]>;
let commits = 0;

/** A git that records what the loop asks of it; `remote` holds the branches "pushed", with their commits. */
function recordingGit(calls: string[], remote: Histories): Git {
  let current = 'main';
  const local: Histories = new Map([['main', ['c0']]]);
  return {
    topLevel: dir,
    putBackStaging: async () => undefined,
    currentRef: async () => current,
    branchExists: async (b) => local.has(b),
    holds: async (b, commit) => local.get(b)?.includes(commit) ?? false,
    switchToBranch: async (b) => {
      if (!local.has(b)) local.set(b, [...(local.get('main') ?? [])]);
      current = b;
      calls.push(`switch ${b}`);
    },
    checkout: async (r) => {
      current = r;
      calls.push(`checkout ${r}`);
    },
    commitAll: async (m) => {
      calls.push(`commit ${m.split(':')[0]}`);
      local.set(current, [...(local.get(current) ?? []), `c${++commits}`]);
      return true;
    },
    merge: async (b) => {
      calls.push(`merge ${b}`);
    },
    deleteBranch: async (b) => {
      calls.push(`delete ${b}`);
    },
    hasWorkSince: async () => true,
    subjectsSince: async () => [],
    exclude: async () => undefined,
    fetchBranch: async (_r, b) => {
      calls.push(`fetch ${b}`);
      const pushed = remote.get(b);
      if (!pushed) return false;
      local.set(b, [...pushed]);
      return true;
    },
    push: async (_r, b) => {
      calls.push(`push ${b}`);
      remote.set(b, [...(local.get(b) ?? [])]);
    },
    head: async () => '0'.repeat(40),
    resetHard: async () => undefined,
    changedFiles: async () => [],
    untracked: async () => [],
    refSecrets: async () => [],
    tipOf: async (b) => local.get(b)?.at(-1),
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

/** What goes wrong in publish: a LandingError after the push, or a crash after or before it. */
type Fault = { failure?: LandingFailure; crash?: Error; beforePush?: Error };

/** A publisher that pushes, then fails the pull request with `failure` (a LandingError) or `crash` (anything else) while set. */
function failingPublisher(git: Git, published: CycleWork[], fault: Fault) {
  const real = recordingPublisher(git, published);
  return {
    ...real,
    async publish(work: CycleWork) {
      if (fault.beforePush) throw fault.beforePush;
      await git.push('origin', work.branch);
      if (fault.failure) throw new LandingError(fault.failure);
      if (fault.crash) throw fault.crash;
      return real.publish(work);
    },
  };
}

function harness(
  steps: Step[],
  opts: {
    source?: MemorySource;
    settings?: Partial<SliceSettings>;
    tests?: () => boolean;
    remote?: Histories;
    fault?: Fault;
    clock?: ManualClock;
  } = {},
) {
  const calls: string[] = [];
  const remote: Histories = opts.remote ?? new Map();
  const git = recordingGit(calls, remote);
  const published: CycleWork[] = [];
  const clock = opts.clock ?? new ManualClock();
  const source = opts.source ?? MemorySource.of('7');
  const lines: string[] = [];
  const deps: SliceDeps = {
    settings: sliceSettings({ maxIterations: 20, onSuccess: 'pull-request', ...opts.settings }),
    workflow: implementWorkflow,
    cwd: dir,
    stateDir: dir,
    source,
    agent: new ScriptedAgent(steps),
    clock,
    git,
    publisher: opts.fault ? failingPublisher(git, published, opts.fault) : recordingPublisher(git, published),
    logger: createLogger({ json: true, write: (line) => void lines.push(line), clock, redact: (t) => t }),
    store: new FileCheckpointStore(dir, { clock }),
    runTests: async (_command, _signal, purpose) => {
      if (purpose === 'baseline') return { passed: true, exitCode: 0, durationMs: 5, tail: 'ok' };
      const passed = opts.tests ? opts.tests() : true;
      return { passed, exitCode: passed ? 0 : 1, durationMs: 5, tail: passed ? 'ok' : 'FAIL' };
    },
  };
  return { deps, calls, published, source, remote, clock, lines, agent: deps.agent as ScriptedAgent };
}

/** A fresh runner for the next scheduled run: the same remote, checkpoints and issues, no local branch. */
function nextRun(h: ReturnType<typeof harness>, steps: Step[] = [done], fault?: Fault) {
  const next = harness(steps, { source: h.source, remote: h.remote, clock: h.clock, ...(fault ? { fault } : {}) });
  next.deps.store = h.deps.store;
  return next;
}

const PR_REFUSED: LandingFailure = {
  class: 'refused',
  message: 'GitHub does not let GitHub Actions open pull requests in test/repo',
  advice: 'Allow it: Settings → Actions → General → "Allow GitHub Actions to create and approve pull requests"',
};

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
        iterations: 1,
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
    const h = harness([done], { remote: new Map([['agent-loop/issue-7', ['c0', 'wip']]]) });
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

  it("an escalation that halts keeps the base tip as its label's commit left it: read again for the save after the notices", async () => {
    const h = harness([done], { tests: () => false, settings: { maxConsecutiveEscalations: 1 } });
    const before = await h.deps.git!.tipOf('main');
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'halted', haltReason: 'failure_loop' });
    // The label is committed on the base after the halt's first save.
    expect(h.calls.slice(h.calls.indexOf('checkout main'))).toContain('commit agent-loop');
    const tip = await h.deps.git!.tipOf('main');
    expect(tip).not.toBe(before);
    const saved = (await h.deps.store.load(r.checkpointId)).state.loop as { halt: { baseTip?: string }; notices: [] };
    expect(saved.notices).toEqual([]);
    expect(saved.halt.baseTip).toBe(tip);
  });

  it('a notice an earlier run left, resent as the slice starts and halts at once: told done after the halt’s save, whose tip is read after the label', async () => {
    const source = MemorySource.of('7');
    const label = source.markEscalated.bind(source);
    let down = true;
    source.markEscalated = async (id, note) => {
      if (down) throw new Error('GitHub answered 502');
      return label(id, note);
    };
    const h = harness([done], { source, tests: () => false, settings: { maxConsecutiveEscalations: 5 } });
    const first = await runSlice(h.deps);
    const left = (await h.deps.store.load(first.checkpointId)).state.loop as { notices: unknown[] };
    expect(left.notices).toHaveLength(1);

    down = false;
    const refusal = { message: 'GitHub does not let GitHub Actions open pull requests', advice: 'Allow it' };
    const next = harness([done], {
      source,
      remote: h.remote,
      clock: h.clock,
      settings: { refusedBeforehand: refusal },
    });
    next.deps.store = h.deps.store;
    const r = await runSlice(next.deps);
    expect(r).toMatchObject({ status: 'halted', haltReason: 'publish_refused', checkpointId: first.checkpointId });
    expect(source.escalatedWith).toHaveProperty('7');
    const saved = (await h.deps.store.load(r.checkpointId)).state.loop as { halt: { baseTip?: string }; notices: [] };
    expect(saved.notices).toEqual([]);
    expect(saved.halt.baseTip).toBe(await next.deps.git!.tipOf('main'));
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

describe('a finished cycle GitHub does not take (the outbox)', () => {
  it('a refused pull request halts publish_refused after one agent run, with the fix; the iteration and the work are recorded', async () => {
    const h = harness([done], { fault: { failure: PR_REFUSED } });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'halted', haltReason: 'publish_refused', iterations: 1 });
    expect(r.error).toContain('PUBLISH REFUSED: GitHub does not let GitHub Actions open pull requests');
    expect(r.diagnostic).toContain('Allow GitHub Actions to create and approve pull requests');
    expect(h.agent.requests).toHaveLength(1);
    const saved = (await h.deps.store.load(r.checkpointId)).state.loop as {
      iteration: number;
      currentCycle?: unknown;
      outbox: Array<{ cycle: { branch: string }; attempts: number; lastError: string }>;
    };
    expect(saved.iteration).toBe(1);
    expect(saved.currentCycle).toBeUndefined();
    expect(saved.outbox).toMatchObject([{ cycle: { branch: 'agent-loop/issue-7' }, attempts: 1 }]);
    expect(saved.outbox[0]?.lastError).toContain('GitHub does not let');
  });

  it('once allowed, the next run (a fresh runner) opens the pull request from the pushed branch without running the agent', async () => {
    const h = harness([done], { fault: { failure: PR_REFUSED } });
    await runSlice(h.deps);
    const next = nextRun(h);
    const r = await runSlice(next.deps);
    expect(next.agent.requests).toHaveLength(0);
    expect(next.calls.indexOf('fetch agent-loop/issue-7')).toBeLessThan(
      next.calls.indexOf('checkout agent-loop/issue-7'),
    );
    expect(next.published.map((w) => w.branch)).toEqual(['agent-loop/issue-7']);
    // The landing is this run's (issue 40): its issue and pull request, though no agent ran in it.
    expect(r).toMatchObject({ status: 'complete', iterations: 0, issuesClosed: ['7'], loop: { iterations: 1 } });
    expect(r.pullRequests).toMatchObject([{ issueIds: ['7'], number: 101 }]);
    const saved = (await h.deps.store.load(r.checkpointId)).state.loop as { outbox: unknown[] };
    expect(saved.outbox).toEqual([]);
    expect(next.lines.some((l) => l.includes('"cycle.landing"'))).toBe(true);
  });

  it('a transient failure ends the slice as continuing; later runs retry only the landing, after a backoff', async () => {
    const transient: LandingFailure = { class: 'transient', message: 'could not open the pull request: 502' };
    const h = harness([done], { fault: { failure: transient } });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'continuing', iterations: 1 });
    expect(h.lines.some((l) => l.includes('"cycle.landing_failed"') && l.includes('2026-11-21T10:01:00Z'))).toBe(true);

    // Still failing, before the backoff ends: nothing runs, nothing is published.
    const early = nextRun(h, [done], { failure: transient });
    expect(await runSlice(early.deps)).toMatchObject({ status: 'continuing', iterations: 0, loop: { iterations: 1 } });
    expect(early.agent.requests).toHaveLength(0);
    expect(early.calls.filter((c) => c.startsWith('push'))).toEqual([]);

    // After it: tried again, fails again, the wait doubles.
    h.clock.advance(60_000);
    const again = nextRun(h, [done], { failure: transient });
    await runSlice(again.deps);
    expect(again.calls).toContain('push agent-loop/issue-7');
    const saved = (await h.deps.store.load(r.checkpointId)).state.loop as {
      outbox: Array<{ attempts: number; notBefore: string }>;
    };
    expect(saved.outbox).toMatchObject([{ attempts: 2, notBefore: '2026-11-21T10:03:00Z' }]);

    h.clock.advance(120_000);
    const ok = nextRun(h);
    expect(await runSlice(ok.deps)).toMatchObject({ status: 'complete', iterations: 0, loop: { iterations: 1 } });
    expect(ok.agent.requests).toHaveLength(0);
    expect(ok.published).toHaveLength(1);
  });

  it('a transient failure that goes on for about a day (30 attempts) halts publish_refused; once resumed, the landing is tried again', async () => {
    const transient: LandingFailure = { class: 'transient', message: 'could not open the pull request: 502' };
    const h = harness([done], { fault: { failure: transient } });
    const first = await runSlice(h.deps);
    expect(first.status).toBe('continuing');
    const statuses: string[] = [];
    let last: Awaited<ReturnType<typeof runSlice>> = first;
    // Each later scheduled run comes after the backoff (at most an hour), tries the landing, and fails.
    for (let attempt = 2; attempt <= 30; attempt++) {
      h.clock.advance(61 * 60_000);
      const later = nextRun(h, [done], { failure: transient });
      last = await runSlice(later.deps);
      statuses.push(last.status);
      expect(later.agent.requests).toHaveLength(0);
    }
    expect(statuses.slice(0, -1).every((s) => s === 'continuing')).toBe(true);
    expect(last).toMatchObject({ status: 'halted', haltReason: 'publish_refused' });
    expect(last.error).toMatch(/PUBLISH FAILING: .* failed 30 times in a row, .*could not open the pull request: 502/);
    // The cause fixed, the resumed run lands it at once, without the agent.
    const resumed = nextRun(h);
    expect(await runSlice(resumed.deps)).toMatchObject({ status: 'complete', iterations: 0, loop: { iterations: 1 } });
    expect(resumed.agent.requests).toHaveLength(0);
    expect(resumed.published).toHaveLength(1);
  });

  it('a run that dies while landing (after the push) leaves the work recorded; the next run lands it, the agent never runs again', async () => {
    const h = harness([done], { fault: { crash: new Error('runner lost its connection') } });
    await expect(runSlice(h.deps)).rejects.toThrow('runner lost its connection');
    const next = nextRun(h);
    const r = await runSlice(next.deps);
    expect(next.agent.requests).toHaveLength(0);
    expect(next.published).toHaveLength(1);
    expect(r).toMatchObject({
      status: 'complete',
      iterations: 0,
      pullRequests: [{ number: 101 }],
      loop: { iterations: 1 },
    });
  });

  it('a remote that cannot be reached while landing ends the slice as continuing (retried later), never a crash', async () => {
    const h = harness([done], { fault: { crash: new Error('killed') } });
    await expect(runSlice(h.deps)).rejects.toThrow('killed');
    const next = nextRun(h);
    next.deps.git = {
      ...(next.deps.git as Git),
      fetchBranch: async () => {
        throw new Error('Could not resolve host: github.com');
      },
    };
    next.deps.publisher = {
      ...(next.deps.publisher as CyclePublisher),
      fetchBranch: (b) => next.deps.git!.fetchBranch('origin', b),
    };
    const r = await runSlice(next.deps);
    expect(r).toMatchObject({ status: 'continuing', iterations: 0, loop: { iterations: 1 } });
    expect(next.agent.requests).toHaveLength(0);
    expect(next.lines.some((l) => l.includes('"cycle.landing_failed"') && l.includes('Could not resolve host'))).toBe(
      true,
    );
  });

  it('work whose branch never reached the remote (the runner died before the push) is lost: logged, and the issue is worked again', async () => {
    const h = harness([done], { fault: { crash: new Error('killed') } });
    await expect(runSlice(h.deps)).rejects.toThrow('killed');
    h.remote.clear();
    const next = nextRun(h);
    const r = await runSlice(next.deps);
    expect(next.lines.some((l) => l.includes('"cycle.lost"'))).toBe(true);
    expect(next.agent.requests).toHaveLength(1);
    expect(r).toMatchObject({ status: 'complete', iterations: 1, loop: { iterations: 2 } });
    expect(next.published).toHaveLength(1);
  });

  it('a run killed between the final commit and the push: the next run finds only the older wip: on the remote, which is never landed as the work; the issue is worked again', async () => {
    // Slice 1 ends mid-cycle: its wip: is pushed. Slice 2 finishes the cycle, commits it, and dies before the push.
    const h = harness([working('more to do'), done], {
      settings: { sliceIterations: 1 },
      fault: { beforePush: new Error('runner lost') },
    });
    expect((await runSlice(h.deps)).status).toBe('continuing');
    const wip = h.remote.get('agent-loop/issue-7');
    const second = nextRun(h, [done], { beforePush: new Error('runner lost') });
    second.deps.settings = { ...second.deps.settings, sliceIterations: undefined };
    await expect(runSlice(second.deps)).rejects.toThrow('runner lost');
    expect(h.remote.get('agent-loop/issue-7')).toEqual(wip); // the final commit never left the runner
    const cp = (await h.deps.store.list()).checkpoints[0]!;
    const recorded = (cp.state.loop as { outbox: Array<{ tip?: string }> }).outbox[0];
    expect(recorded?.tip).toMatch(/^c\d+$/);
    expect(wip).not.toContain(recorded?.tip);

    const third = nextRun(h, [done]);
    third.deps.settings = { ...third.deps.settings, sliceIterations: undefined };
    const r = await runSlice(third.deps);
    const lost = third.lines.find((l) => l.includes('"cycle.lost"'));
    expect(lost).toContain(`does not hold its commit ${recorded?.tip}`);
    expect(third.agent.requests).toHaveLength(1); // worked again, on top of the wip:
    expect(third.published).toHaveLength(1);
    expect(r).toMatchObject({ status: 'complete', iterations: 1, loop: { iterations: 3 } });
  });
});

describe('issue 14: beads issues in the action', () => {
  it('an issue whose pull request is open is not worked again (said once); the others are', async () => {
    const h = harness([done], { source: MemorySource.of('bd-1', 'bd-2') });
    const asked: string[][] = [];
    h.deps.publisher = {
      ...h.deps.publisher!,
      inReview: async (ids) => {
        asked.push([...ids]);
        return new Map([['bd-1', { number: 9, url: 'https://github.com/test/repo/pull/9' }]]);
      },
    };
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'complete', issuesClosed: ['bd-2'] });
    expect(h.agent.requests).toHaveLength(1);
    expect(h.published.map((w) => w.issueIds)).toEqual([['bd-2']]);
    expect(asked[0]).toEqual(['bd-1', 'bd-2']);
    const told = h.lines.filter((l) => l.includes('"issue.in_review"'));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('Skipping bd-1: its pull request #9 (https://github.com/test/repo/pull/9) is open.');
  });

  it('issue 40: open pull requests that cannot be listed (GitHub answered 502): deferred, never complete; no issue started, the checkpoint resumable and unchanged; the next run works the issue', async () => {
    const down = harness([done], { source: MemorySource.of('bd-3') });
    down.deps.publisher = {
      ...down.deps.publisher!,
      inReview: async () => {
        throw new ListingError(
          'listing the open pull requests of test/repo',
          502,
          'GitHub failed while listing the open pull requests (502 Server Error), also on retrying.',
        );
      },
    };
    const r = await runSlice(down.deps);
    expect(r).toMatchObject({
      status: 'deferred',
      deferred: {
        what: 'listing the open pull requests of test/repo',
        status: 502,
        message: 'GitHub failed while listing the open pull requests (502 Server Error), also on retrying.',
      },
      unchanged: true,
      iterations: 0,
      issuesClosed: [],
    });
    expect(exitCodeFor(r)).toBe(75);
    expect(summaryLine(r).split('\n')[0]).toBe(
      'DEFERRED: GitHub failed while listing the open pull requests (502 Server Error), also on retrying. Nothing was lost, and no issue was started on an incomplete list: the issues are as they were, the checkpoint keeps what this run did, and the next run lists them again.',
    );
    expect(down.agent.requests).toHaveLength(0);
    expect(down.lines.join('\n')).not.toContain('No ready issues left');
    expect(down.source.closedWith).toEqual({});
    // The checkpoint stays one the next run resumes (not `complete`, which the next run would start over from).
    const cp = await down.deps.store.load(r.checkpointId);
    expect([cp.phase, cp.state.stage]).toEqual(['beads_integration-complete', 'working']);

    // GitHub answers again: the next run resumes the same checkpoint and works the issue.
    const next = harness([done], { source: down.source, remote: down.remote, clock: down.clock });
    next.deps.store = down.deps.store;
    next.deps.publisher = { ...next.deps.publisher!, inReview: async () => new Map() };
    const r2 = await runSlice(next.deps);
    expect(r2).toMatchObject({ status: 'complete', checkpointId: r.checkpointId, issuesClosed: ['bd-3'] });
    expect(next.agent.requests).toHaveLength(1);
  });

  it('issue 40: any failure to list the open pull requests defers the run, said with its message', async () => {
    const down = harness([done], { source: MemorySource.of('bd-3') });
    down.deps.publisher = {
      ...down.deps.publisher!,
      inReview: async () => {
        throw new Error('socket hang up');
      },
    };
    const r = await runSlice(down.deps);
    expect(r.status).toBe('deferred');
    expect(r.deferred?.message).toBe(
      'listing the open pull requests (pull requests to test/repo) failed: socket hang up',
    );
    expect(down.agent.requests).toHaveLength(0);
  });

  it('on-success merge: the finished work is pushed onto the base, the local base fast-forwarded to it and the branch deleted; the issue is closed with the work', async () => {
    const h = harness([done], { settings: { onSuccess: 'merge', closeOnBranch: true } });
    const pushed: CycleWork[] = [];
    h.deps.publisher = {
      ...h.deps.publisher!,
      pushToBase: async (work) => {
        h.calls.push(`pushToBase ${work.branch} onto ${work.base}`);
        pushed.push(work);
      },
    };
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'complete', issuesClosed: ['7'], pullRequests: [] });
    expect(h.source.closedWith).toHaveProperty('7');
    expect(h.published).toEqual([]);
    const from = h.calls.indexOf('pushToBase agent-loop/issue-7 onto main');
    expect(h.calls.slice(from)).toEqual([
      'pushToBase agent-loop/issue-7 onto main',
      'checkout main',
      'merge agent-loop/issue-7',
      'delete agent-loop/issue-7',
    ]);
    expect(h.lines.join('\n')).toContain('Pushed the work on 7 from agent-loop/issue-7 onto main');
  });
});

describe('issue 14: a beads issue that needed no change', () => {
  it('its closing in the issues file lands like any finished work (a pull request), not as a dropped branch', async () => {
    const h = harness([done], { settings: { closeOnBranch: true } });
    h.deps.git = { ...h.deps.git!, hasWorkSince: async () => false };
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'complete', issuesClosed: ['7'] });
    expect(h.source.closedWith).toHaveProperty('7');
    expect(h.published.map((w) => w.branch)).toEqual(['agent-loop/issue-7']);
    expect(h.lines.join('\n')).not.toContain('git.no_change');
  });
});
