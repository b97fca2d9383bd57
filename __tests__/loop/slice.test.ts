import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { readPhase } from '../../src/checkpoint/phase.js';
import type { Checkpoint } from '../../src/checkpoint/types.js';
import { runSlice, type SliceDeps, type SliceSettings, type TestOutcome } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import {
  ManualClock,
  MemorySource,
  ScriptedAgent,
  type Step,
  done,
  sliceSettings,
  fail,
  stuck,
  working,
} from '../../fakes/index.js';
import { POLICIES } from '../../src/failure/policy.js';
import type { ClaimProgress } from '../../src/issues/claims.js';
import type { LoopState } from '../../src/core/state.js';
import type { AgentResult } from '../../src/agents/types.js';
import { implementWorkflow, tddWorkflow } from '../../src/workflows/index.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'slice-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Runs the slice; its only issue, bd-1, is escalated at iteration `n`, which ends the run. */
async function onlyIssueEscalatedAt(h: Harness, n: number): Promise<void> {
  expect(await runSlice(h.deps)).toMatchObject({
    status: 'halted',
    haltReason: 'all_escalated',
    iterations: n,
    issuesEscalated: ['bd-1'],
  });
}

interface Harness {
  deps: SliceDeps;
  agent: ScriptedAgent;
  source: MemorySource;
  clock: ManualClock;
  lines: string[];
  events: () => Record<string, unknown>[];
  testRuns: string[];
}

function harness(opts: {
  steps: Step[];
  source?: MemorySource;
  settings?: Partial<SliceSettings>;
  tests?: (n: number) => boolean;
  failTail?: string;
  json?: boolean;
  clock?: ManualClock;
}): Harness {
  const clock = opts.clock ?? new ManualClock();
  const source = opts.source ?? MemorySource.of('bd-1');
  const agent = new ScriptedAgent(opts.steps);
  const lines: string[] = [];
  const testRuns: string[] = [];
  const logger = createLogger({
    json: opts.json ?? true,
    write: (s) => lines.push(s),
    clock,
    redact: createRedactor(['sekrit-token']),
  });
  const deps: SliceDeps = {
    settings: sliceSettings({ iterationDelaySeconds: 10, ...opts.settings }),
    workflow: implementWorkflow,
    cwd: dir,
    stateDir: dir,
    source,
    agent,
    clock,
    logger,
    store: new FileCheckpointStore(dir, { clock }),
    runTests: async (command, _signal, purpose): Promise<TestOutcome> => {
      // The baseline: a green suite read by its exit code (these scenarios are about the verify step).
      if (purpose === 'baseline') return { passed: true, exitCode: 0, durationMs: 500, tail: 'ok' };
      testRuns.push(command);
      const passed = opts.tests ? opts.tests(testRuns.length) : true;
      return {
        passed,
        exitCode: passed ? 0 : 1,
        durationMs: 500,
        tail: passed ? 'ok' : (opts.failTail ?? 'FAIL parser.test.ts: expected 3, got 4'),
      };
    },
  };
  return {
    deps,
    agent,
    source,
    clock,
    lines,
    testRuns,
    events: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** Writes a checkpoint file as versions for issues 15 to 40 did (the store now refuses their phase names). */
async function writeAsOlderVersion(dir: string, cp: Omit<Checkpoint, 'phase'> & { phase: string }): Promise<void> {
  await fs.writeFile(path.join(dir, `${cp.id}.json`), `${JSON.stringify(cp, null, 2)}\n`);
}

/** A checkpoint's seed 001 phase and the run's stage (issue 41). */
const stageOf = (cp: Checkpoint) => [cp.phase, readPhase(cp).stage];

describe('REQ_019 the autonomous implementation loop', () => {
  it('REQ_019.1.7 completes when the issue is closed and the tests pass, then closes it in the source', async () => {
    const h = harness({ steps: [done] });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({
      status: 'complete',
      iterations: 1,
      testsPassed: true,
      issuesClosed: ['bd-1'],
      completedIterations: [1],
    });
    expect(h.source.closedWith['bd-1']).toMatch(/accepted at iteration 1/);
  });

  it('REQ_019.1.1 the prompt names the issue, its body and the plan', async () => {
    const h = harness({ steps: [done], settings: { plan: 'RED then GREEN' } });
    await runSlice(h.deps);
    const prompt = h.agent.requests[0]?.prompt ?? '';
    expect(prompt).toContain('bd-1: Issue bd-1');
    expect(prompt).toContain('Do bd-1');
    expect(prompt).toContain('RED then GREEN');
    expect(await fs.readFile(h.agent.requests[0]!.promptFile, 'utf8')).toBe(prompt);
  });

  it('REQ_019.2.4 waits --iteration-delay between agent invocations, through the injected clock: not before the first, not after the last (issue 40)', async () => {
    const h = harness({ steps: [working('bd-1 part'), working('bd-1 rest'), done] });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'complete', iterations: 3 });
    expect(h.clock.sleeps).toEqual([10_000, 10_000]);
  });

  it('issue 40: the time since the last agent run ended (its tests, a rate-limit wait) counts toward --iteration-delay', async () => {
    const clock = new ManualClock();
    const h = harness({
      clock,
      // Each agent run takes 1 s (the scripted agent's durationMs), its tests 4 s: 6 s of the 10 are left.
      steps: [(): Partial<AgentResult> => (clock.advance(1000), done)],
      tests: (n) => (clock.advance(4000), n >= 2),
    });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'complete', iterations: 2 });
    expect(h.clock.sleeps).toEqual([6_000]);
    // A longer wait leaves nothing of it: the retry policy's 30 s rate-limit wait is the only sleep.
    const limited: Partial<AgentResult> = {
      ok: false,
      exitCode: 1,
      failure: { class: 'transient', reason: 'rate_limit', message: '429 Too Many Requests', retryAfterMs: 30_000 },
    };
    const waited = harness({ steps: [limited, done] });
    expect(await runSlice(waited.deps)).toMatchObject({ status: 'complete', iterations: 2 });
    expect(waited.clock.sleeps).toEqual([30_000]);
  });

  it('issue 40: one invocation (a command agent, the run done at once) waits for nothing', async () => {
    const h = harness({ steps: [done] });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'complete', iterations: 1 });
    expect(h.clock.sleeps).toEqual([]);
  });

  it('REQ_019.1.8 failing tests continue the loop with the failing output as context', async () => {
    const h = harness({ steps: [done], tests: (n) => n >= 2 });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'complete', iterations: 2, testFailures: 1, testsPassed: true });
    expect(h.agent.requests[1]?.prompt).toContain('FAIL parser.test.ts: expected 3, got 4');
    expect(r.history.map((x) => x.outcome)).toEqual(['tests_failed', 'complete']);
  });

  it('does not run the tests while work remains', async () => {
    const h = harness({ steps: [working('bd-1'), done] });
    await runSlice(h.deps);
    expect(h.testRuns).toHaveLength(1);
  });

  it('completes when the agent closed the issue itself, without a report', async () => {
    const source = MemorySource.of('bd-1');
    const h = harness({
      source,
      steps: [
        () => {
          source.issues[0]!.status = 'closed';
          return {};
        },
      ],
    });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'complete', issuesClosed: ['bd-1'] });
    expect(source.closedWith['bd-1']).toBeUndefined();
  });

  it('works one issue per cycle by default, all ready issues in one prompt with --batch', async () => {
    const one = harness({ source: MemorySource.of('bd-1', 'bd-2'), steps: [done] });
    await runSlice(one.deps);
    expect(one.agent.requests.map((r) => r.issueIds)).toEqual([['bd-1'], ['bd-2']]);

    const batch = harness({ source: MemorySource.of('bd-1', 'bd-2'), steps: [done], settings: { batch: true } });
    const r = await runSlice(batch.deps);
    expect(batch.agent.requests.map((x) => x.issueIds)).toEqual([['bd-1', 'bd-2']]);
    expect(batch.agent.requests[0]?.prompt).toMatch(/bd-1[\s\S]*bd-2/);
    expect(r.issuesClosed).toEqual(['bd-1', 'bd-2']);
  });

  it('with no ready issues the run is complete without invoking the agent', async () => {
    const h = harness({ source: MemorySource.of(), steps: [done] });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'complete', iterations: 0 });
    expect(h.agent.requests).toHaveLength(0);
  });
});

describe('REQ_021 errors in the implementation loop', () => {
  it('REQ_021.1.1-4 agent failures do not end the loop and count toward max iterations', async () => {
    const h = harness({ steps: [fail('network reset'), fail('killed'), done] });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'complete', iterations: 3, failedIterations: 2, successfulIterations: 1 });
  });

  it('REQ_021.1.9 permanent failures also continue to the next iteration', async () => {
    const h = harness({ steps: [fail('invalid request', 'permanent'), done] });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'complete', failedIterations: 1 });
  });

  it('REQ_021.2 logs "<Agent> iteration N failed: <error>" with time, exit code, elapsed time and class; warn for transient, error for permanent', async () => {
    const h = harness({ steps: [fail('rate limited'), fail('bad key', 'permanent'), done] });
    await runSlice(h.deps);
    const failed = h.events().filter((e) => e.event === 'iteration.failed');
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({
      level: 'warn',
      iteration: 1,
      exitCode: 1,
      elapsedMs: 1000,
      class: 'transient',
      error: 'rate limited',
    });
    expect(failed[0]?.message).toMatch(/^Claude iteration 1 failed: rate limited/);
    // The first run's failure, logged as it ends: no --iteration-delay before a first run (issue 40).
    expect(failed[0]?.time).toBe('2026-11-21T10:00:00Z');
    expect(failed[1]).toMatchObject({ level: 'error', iteration: 2, class: 'permanent' });
  });

  it('REQ_021.2 text mode prints the same line, with the agent failure as context for the next prompt', async () => {
    const h = harness({ steps: [fail('socket hang up'), done], json: false });
    await runSlice(h.deps);
    expect(h.lines.join('')).toMatch(
      /WARN Claude iteration 1 failed: socket hang up \(exit code 1, 1\.0s, transient exit_code\)/,
    );
    expect(h.agent.requests[1]?.prompt).toContain('tail: socket hang up');
  });

  it('REQ_021.3 the result records each iteration with duration and outcome, agent failures apart from test failures', async () => {
    const h = harness({ steps: [fail('x'), done], tests: (n) => n >= 2 });
    const r = await runSlice(h.deps);
    expect(r.history.map((x) => [x.n, x.outcome, x.agent.ok, x.tests?.passed])).toEqual([
      [1, 'agent_failed', false, undefined],
      [2, 'tests_failed', true, false],
      [3, 'complete', true, true],
    ]);
    expect(r).toMatchObject({
      failedIterations: 1,
      successfulIterations: 2,
      testFailures: 1,
      completedIterations: [3],
    });
    expect(r.history.every((x) => typeof x.durationMs === 'number')).toBe(true);
  });

  it('REQ_021.4 max iterations: halted, "Max iterations (N) reached", partial progress kept, resumable', async () => {
    const source = MemorySource.of('bd-1', 'bd-2');
    const h = harness({
      source,
      steps: [done, working('bd-2'), working('bd-2 more')],
      settings: { maxIterations: 3 },
      tests: () => true,
    });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({
      status: 'halted',
      haltReason: 'max_iterations',
      error: 'Max iterations (3) reached',
      iterations: 3,
      testsPassed: true,
      issuesClosed: ['bd-1'],
    });
    const cp = await h.deps.store.load(r.checkpointId);
    expect([cp.phase, readPhase(cp).stage]).toEqual(['implementation-failed', 'halted']);
    expect(cp.errors).toEqual(['Max iterations (3) reached']);
    // Raising the limit resumes where it stopped.
    const again = harness({ source, steps: [done], settings: { maxIterations: 5 }, clock: h.clock });
    again.deps.store = h.deps.store;
    again.deps.stateDir = dir;
    const r2 = await runSlice(again.deps);
    // The result's own counts are this run's; the loop's totals are under `loop` (issue 40).
    expect(r2).toMatchObject({
      status: 'complete',
      iterations: 1,
      checkpointId: r.checkpointId,
      issuesClosed: ['bd-2'],
      loop: { iterations: 4, issuesClosed: ['bd-1', 'bd-2'] },
    });
  });
});

describe('seed 004 defensive validation in the loop', () => {
  const violating: Step = {
    report: { workRemaining: 'bd-1 tail', workRemainingEmpty: false, requiresContinuation: false, fields: {} },
  };

  it('overrides requires_continuation=false with work remaining and logs a validation_error to errors.jsonl', async () => {
    const h = harness({ steps: [violating, done] });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'complete', iterations: 2 });
    const entries = (await fs.readFile(path.join(dir, 'errors.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries).toEqual([
      expect.objectContaining({
        type: 'validation_error',
        iteration: 1,
        details: { work_remaining: 'bd-1 tail', requires_continuation: false, override: 'forced_true' },
      }),
    ]);
  });

  it('--strict halts on the violation instead', async () => {
    const h = harness({ steps: [violating], settings: { strict: true } });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'halted', haltReason: 'contract_violation', iterations: 1 });
  });

  it('stuck_detected: true escalates the cycle instead of halting (the only issue: then all_escalated)', async () => {
    const h = harness({
      steps: [stuck('bd-1')],
    });
    expect(await runSlice(h.deps)).toMatchObject({
      status: 'halted',
      haltReason: 'all_escalated',
      iterations: 1,
      issuesEscalated: ['bd-1'],
    });
    expect(h.source.escalatedWith['bd-1']).toMatch(/stuck: the agent reported stuck_detected: true/);
  });

  it('the same work_remaining twice in a row is stuck: the cycle escalates, the next issue is worked, then only the escalated one remains', async () => {
    const h = harness({
      source: MemorySource.of('bd-1', 'bd-2'),
      steps: [working('bd-1 parser'), working('bd-1 parser'), done],
    });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({
      status: 'halted',
      haltReason: 'all_escalated',
      iterations: 3,
      issuesEscalated: ['bd-1'],
      issuesClosed: ['bd-2'],
    });
    expect(r.history.map((x) => x.outcome)).toEqual(['continuing', 'stuck', 'complete']);
  });

  it("a fan-out job's cycle starts from what its issue's earlier jobs counted: 19 runs carried, limit 20, escalated at its first", async () => {
    const carried = { issueId: 'bd-1', unfinishedRuns: 19, silentIterations: 0 };
    const h = harness({
      steps: [working('bd-1 step 1'), working('bd-1 step 2')],
      settings: { carried, maxIterationsPerIssue: 20 },
    });
    await onlyIssueEscalatedAt(h, 1);
    expect(h.source.escalatedWith['bd-1']).toMatch(/20 agent runs on this cycle .*--max-iterations-per-issue 20/);
  });

  it('carried silent runs: 2 without a report in an earlier job, the third here is stuck', async () => {
    const h = harness({
      steps: [{}, working('never reached')],
      settings: { carried: { issueId: 'bd-1', unfinishedRuns: 2, silentIterations: 2 } },
    });
    await onlyIssueEscalatedAt(h, 1);
    expect(h.source.escalatedWith['bd-1']).toMatch(/3 iterations in a row without a report block/);
  });

  it("a serial run's cycle of an issue a wave left unfinished starts from the loop's issueCounts, which then leave the checkpoint", async () => {
    const h = harness({
      steps: [working('bd-1 step 1'), working('bd-1 step 2'), working('bd-1 step 3')],
      settings: { sliceIterations: 1, maxIterationsPerIssue: 20 },
    });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'continuing', iterations: 1 });
    const cp = (await h.deps.store.list()).checkpoints[0]!;
    const loop = cp.state.loop as LoopState;
    // As a wave's reduce leaves it: no cycle in flight, bd-1's counts kept for its next cycle.
    const reduced = {
      ...loop,
      currentCycle: undefined,
      issueCounts: { 'bd-1': { unfinishedRuns: 19, silentIterations: 0 } },
    };
    await h.deps.store.write({ ...cp, phase: readPhase(cp).phase, state: { ...cp.state, loop: reduced } });
    expect(await runSlice(h.deps)).toMatchObject({
      status: 'halted',
      haltReason: 'all_escalated',
      iterations: 1,
      loop: { iterations: 2 },
    });
    expect(h.source.escalatedWith['bd-1']).toMatch(/20 agent runs on this cycle/);
    const after = (await h.deps.store.list()).checkpoints[0]!.state.loop as LoopState;
    expect(after.issueCounts).toBeUndefined();
  });

  it("another issue's cycle does not take the counts carried for the job's issue", async () => {
    const h = harness({
      source: MemorySource.of('bd-2'),
      steps: [working('bd-2 a'), done],
      settings: { carried: { issueId: 'bd-1', unfinishedRuns: 19, silentIterations: 2 }, maxIterationsPerIssue: 20 },
    });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'complete', iterations: 2, issuesClosed: ['bd-2'] });
  });
});

describe('checkpoints and slices (REQ_018, REQ_019)', () => {
  it('writes the checkpoint at the start, when a cycle starts (before its first agent run) and after every iteration', async () => {
    const h = harness({ steps: [fail('a'), fail('b'), done] });
    const writes: Array<[number, string[] | undefined]> = [];
    const write = h.deps.store.write.bind(h.deps.store);
    h.deps.store.write = async (cp) => {
      const loop = cp.state.loop as { iteration: number; currentCycle?: { issueIds: string[] } };
      writes.push([loop.iteration, loop.currentCycle?.issueIds]);
      return write(cp);
    };
    await runSlice(h.deps);
    // Record before act: the second write holds the cycle, before iteration 1 ran; the third its baseline's key;
    // the sixth the finished cycle in the outbox, before it is merged.
    expect(writes).toEqual([
      [0, undefined],
      [0, ['bd-1']],
      [0, ['bd-1']],
      [1, ['bd-1']],
      [2, ['bd-1']],
      [3, undefined],
      [3, undefined],
      [3, undefined],
    ]);
  });

  it('a checkpoint a version before issue 15 wrote (beads_integration-complete, no stage) still resumes, and ends implementation-complete (issues 15, 41)', async () => {
    const source = MemorySource.of('bd-1');
    const first = harness({ source, steps: [fail('x')], settings: { sliceIterations: 1 } });
    const r1 = await runSlice(first.deps);
    const written = await first.deps.store.load(r1.checkpointId);
    // As an older version left it.
    const { stage: _stage, ...older } = written.state;
    await first.deps.store.write({ id: written.id, phase: 'beads_integration-complete', state: older });

    const second = harness({ source, steps: [done], clock: first.clock });
    second.deps.store = first.deps.store;
    const r2 = await runSlice(second.deps);
    expect(r2).toMatchObject({ status: 'complete', checkpointId: r1.checkpointId, loop: { iterations: 2 } });
    expect(stageOf(await first.deps.store.load(r1.checkpointId))).toEqual(['implementation-complete', 'complete']);
  });

  it.each(['working', 'red', 'green', 'refactor'])(
    "a checkpoint versions for issues 15 to 40 wrote as %s resumes as before, and is written again with seed 001's phase (issue 41)",
    async (older) => {
      const source = MemorySource.of('bd-1');
      const first = harness({ source, steps: [fail('x')], settings: { sliceIterations: 1 } });
      const r1 = await runSlice(first.deps);
      const { stage: _stage, ...state } = (await first.deps.store.load(r1.checkpointId)).state;
      await writeAsOlderVersion(first.deps.store.dir, {
        ...(await first.deps.store.load(r1.checkpointId)),
        phase: older,
        state,
      });
      expect(stageOf(await first.deps.store.load(r1.checkpointId))).toEqual([older, older]);

      const second = harness({ source, steps: [fail('y')], clock: first.clock, settings: { sliceIterations: 1 } });
      second.deps.store = first.deps.store;
      const r2 = await runSlice(second.deps);
      expect(r2).toMatchObject({ status: 'continuing', checkpointId: r1.checkpointId, loop: { iterations: 2 } });
      expect(stageOf(await first.deps.store.load(r1.checkpointId))).toEqual(['beads_integration-complete', 'working']);
    },
  );

  it('a checkpoint versions for issues 15 to 40 wrote as complete is not resumed, as before: a new run starts (issue 41)', async () => {
    const source = MemorySource.of('bd-1', 'bd-2');
    const first = harness({ source, steps: [fail('x')], settings: { sliceIterations: 1 } });
    const r1 = await runSlice(first.deps);
    const cp = await first.deps.store.load(r1.checkpointId);
    const { stage: _stage, ...state } = cp.state;
    await writeAsOlderVersion(first.deps.store.dir, { ...cp, phase: 'complete', state });

    const second = harness({ source, steps: [fail('y')], clock: first.clock, settings: { sliceIterations: 1 } });
    second.deps.store = first.deps.store;
    const r2 = await runSlice(second.deps);
    expect(r2.checkpointId).not.toBe(r1.checkpointId);
    expect(r2).toMatchObject({ loop: { iterations: 1 } });
    // The older file is left as it was.
    expect((await first.deps.store.load(r1.checkpointId)).phase).toBe('complete');
  });

  it('--slice-iterations ends the slice as continuing; the next slice resumes the same count and history', async () => {
    const source = MemorySource.of('bd-1');
    const first = harness({ source, steps: [fail('x')], settings: { sliceIterations: 1 } });
    const r1 = await runSlice(first.deps);
    expect(r1).toMatchObject({ status: 'continuing', iterations: 1, sliceIterations: 1 });
    expect(stageOf(await first.deps.store.load(r1.checkpointId))).toEqual(['beads_integration-complete', 'working']);

    const second = harness({ source, steps: [done], clock: first.clock });
    second.deps.store = first.deps.store;
    const r2 = await runSlice(second.deps);
    expect(r2).toMatchObject({
      status: 'complete',
      checkpointId: r1.checkpointId,
      iterations: 1,
      failedIterations: 0,
      sliceIterations: 1,
      loop: { iterations: 2, failedIterations: 1 },
    });
    expect(second.agent.requests[0]?.iteration).toBe(2);
    const stored = await first.deps.store.load(r1.checkpointId);
    expect((stored.state.loop as { history: unknown[] }).history).toHaveLength(2);
  });

  it('--slice-minutes ends the slice once the time is used', async () => {
    const clock = new ManualClock();
    const h = harness({
      clock,
      steps: [
        (req) => {
          clock.advance(4 * 60_000);
          return working(`step ${req.iteration}`);
        },
      ],
      settings: { sliceMinutes: 10, iterationDelaySeconds: 0 },
    });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'continuing', iterations: 3 });
  });

  it('--fresh ignores the existing checkpoint', async () => {
    const h = harness({ steps: [fail('x')], settings: { sliceIterations: 1 } });
    const r1 = await runSlice(h.deps);
    h.deps.settings = { ...h.deps.settings, fresh: true };
    const r2 = await runSlice(h.deps);
    expect(r2.checkpointId).not.toBe(r1.checkpointId);
    expect(r2.iterations).toBe(1);
  });

  it('an aborted run drops the in-flight iteration and keeps the recorded ones', async () => {
    const controller = new AbortController();
    const h = harness({
      steps: [
        fail('x'),
        () => {
          controller.abort();
          return fail('killed');
        },
      ],
    });
    h.deps.signal = controller.signal;
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'continuing', interrupted: true, iterations: 1 });
  });

  it('secrets never reach the log', async () => {
    const h = harness({ steps: [fail('auth failed for sekrit-token'), done] });
    await runSlice(h.deps);
    expect(h.lines.join('')).not.toContain('sekrit-token');
  });
});

describe('budget, cost and sessions', () => {
  const costing = (usd: number, extra: Partial<import('../../src/agents/types.js').AgentResult> = {}) => ({
    ...working(`w${usd}`),
    costUsd: usd,
    turns: 3,
    sessionId: `s-${usd}`,
    ...extra,
  });

  it('halts with haltReason budget when the next iteration would start at or over --max-cost-usd, counted across slices', async () => {
    const first = harness({ steps: [costing(0.3), costing(0.31)], settings: { maxCostUsd: 1, sliceIterations: 2 } });
    expect(await runSlice(first.deps)).toMatchObject({ status: 'continuing', costUsd: 0.61 });
    const second = harness({ steps: [costing(0.5)], settings: { maxCostUsd: 1 }, clock: first.clock });
    second.deps.store = first.deps.store;
    const r = await runSlice(second.deps);
    expect(r).toMatchObject({ status: 'halted', haltReason: 'budget', iterations: 1, loop: { iterations: 3 } });
    expect(r.costUsd).toBeCloseTo(0.5);
    expect(r.loop.costUsd).toBeCloseTo(1.11);
    expect(r.error).toMatch(/^Budget reached: \$1\.1100 spent of the \$1 cap/);
  });

  it('reports cost per iteration and in total in the NDJSON events and the history', async () => {
    const h = harness({ steps: [costing(0.25), { ...done, costUsd: 0.5, turns: 2 }] });
    const r = await runSlice(h.deps);
    const usage = h.events().filter((e) => e.event === 'agent.usage');
    expect(usage.map((e) => [e.costUsd, e.totalCostUsd])).toEqual([
      [0.25, 0.25],
      [0.5, 0.75],
    ]);
    expect(r.history.map((x) => x.agent.costUsd)).toEqual([0.25, 0.5]);
    expect(r.costUsd).toBe(0.75);
  });

  it('records tokens for agents that report tokens, not dollars', async () => {
    const h = harness({ steps: [{ ...done, tokens: { input: 100, output: 20 } }] });
    expect(await runSlice(h.deps)).toMatchObject({ costUsd: 0, tokens: { input: 100, output: 20 } });
  });

  it('--agent-session continue resumes the previous session of the same cycle; after a transient failure the last good session (the policy row: freshSession false), and a new cycle starts fresh', async () => {
    const h = harness({
      source: MemorySource.of('bd-1', 'bd-2'),
      steps: [
        costing(0, { sessionId: 'A' }),
        costing(0.1, { sessionId: 'B' }),
        { ...fail('x'), sessionId: 'C' },
        { ...done, sessionId: 'D' },
        { ...done, sessionId: 'E' },
      ],
      settings: { agentSession: 'continue' },
    });
    await runSlice(h.deps);
    expect(h.agent.requests.map((r) => r.resumeSessionId)).toEqual([undefined, 'A', 'B', 'B', undefined]);
  });

  it('--agent-session continue starts fresh after a failure whose policy row says freshSession (tied to the issue, e.g. max turns)', async () => {
    expect(POLICIES.permanent_issue.freshSession).toBe(true);
    const h = harness({
      steps: [costing(0, { sessionId: 'A' }), { ...fail('max turns', 'permanent'), sessionId: 'B' }, done],
      settings: { agentSession: 'continue' },
    });
    await runSlice(h.deps);
    expect(h.agent.requests.map((r) => r.resumeSessionId)).toEqual([undefined, 'A', undefined]);
  });

  it('--agent-session fresh (the default) never resumes', async () => {
    const h = harness({ steps: [costing(0, { sessionId: 'A' }), done] });
    await runSlice(h.deps);
    expect(h.agent.requests.map((r) => r.resumeSessionId)).toEqual([undefined, undefined]);
  });

  it("keeps each iteration's agent output under <state-dir>/logs/iteration-N (the adapter adds .ndjson or .log)", async () => {
    const h = harness({ steps: [working('a'), done] });
    await runSlice(h.deps);
    expect(h.agent.requests.map((r) => path.relative(dir, r.logBase ?? ''))).toEqual([
      'logs/iteration-1',
      'logs/iteration-2',
    ]);
  });
});

describe('one agent turn for every workflow (issue 13): what the two iteration functions did differently', () => {
  it("--workflow tdd honours --agent-session continue: each phase of the cycle resumes the previous phase's session (it was ignored)", async () => {
    // RED: the new test fails (run 1); GREEN and REFACTOR: the tests pass.
    const h = harness({
      steps: [
        { ...done, sessionId: 'A' },
        { ...done, sessionId: 'B' },
        { ...done, sessionId: 'C' },
      ],
      settings: { agentSession: 'continue', plan: '- [ ] one test' },
      tests: (n) => n > 1,
      failTail: 'FAILED tests/test_one.py::test_one - assert 0 == 1',
    });
    const r = await runSlice({ ...h.deps, workflow: tddWorkflow() });
    expect(r.history.map((x) => x.tdd?.decision)).toEqual(['commit', 'commit', 'commit']);
    expect(h.agent.requests.map((x) => x.resumeSessionId)).toEqual([undefined, 'A', 'B']);
  });

  it("--workflow tdd: a run's checkpoint names the step the cycle goes on with (red, green, refactor) as its stage, then complete (issues 15, 41)", async () => {
    const h = harness({
      steps: [done, done, done],
      settings: { plan: '- [ ] one test', sliceIterations: 1 },
      tests: (n) => n > 1,
      failTail: 'FAILED tests/test_one.py::test_one - assert 0 == 1',
    });
    const phases: string[] = [];
    const stages: string[] = [];
    for (let slice = 0; slice < 4; slice++) {
      const r = await runSlice({ ...h.deps, workflow: tddWorkflow() });
      const cp = await h.deps.store.load(r.checkpointId);
      phases.push(cp.phase);
      stages.push(cp.state.stage as string);
      if (r.status !== 'continuing') break;
    }
    // Seed 001's phase on disk; TDD's step is the state's stage.
    expect(phases).toEqual(['beads_integration-complete', 'beads_integration-complete', 'implementation-complete']);
    expect(stages).toEqual(['green', 'refactor', 'complete']);
  });

  it("--workflow tdd ticks each item's box in the issue as its test is done; a tick that fails stays recorded and the next slice sends it (issue 15)", async () => {
    const source = MemorySource.of('bd-1');
    source.issues[0]!.body = '- [ ] one test\n- [ ] two test';
    source.tickFailures = 1;
    const failTail = 'FAILED tests/test_one.py::test_one - assert 0 == 1';
    // Per test: RED (its test fails: tests run 1, 4), GREEN and REFACTOR (they pass).
    const tests = (n: number) => n !== 1 && n !== 4;
    const first = harness({ source, steps: [done], settings: { sliceIterations: 3 }, tests, failTail });
    const r1 = await runSlice({ ...first.deps, workflow: tddWorkflow() });
    expect(r1.status).toBe('continuing');
    expect(source.issues[0]!.body).toBe('- [ ] one test\n- [ ] two test');
    const kept = (await first.deps.store.load(r1.checkpointId)).state.loop as LoopState;
    expect(kept.notices.map((n) => [n.what, n.attempts, n.lastError])).toEqual([
      [{ kind: 'tick', id: 'bd-1', item: 'one test' }, 1, expect.stringContaining('502 Bad Gateway')],
    ]);

    const second = harness({ source, steps: [done], clock: first.clock, tests: (n) => n !== 1, failTail });
    second.deps.store = first.deps.store;
    const r2 = await runSlice({ ...second.deps, workflow: tddWorkflow() });
    expect(r2.status).toBe('complete');
    // Sent first by the next slice; the last test's tick went with the finished work, before the close.
    expect(source.ticks).toEqual(['bd-1: one test', 'bd-1: two test']);
    expect(source.issues[0]).toMatchObject({ body: '- [x] one test\n- [x] two test', status: 'closed' });
    expect(((await first.deps.store.load(r2.checkpointId)).state.loop as LoopState).notices).toEqual([]);
  });

  it('--workflow tdd prunes the iteration logs like the implement workflow (they were never pruned)', async () => {
    const logs = path.join(dir, 'logs');
    await fs.mkdir(logs);
    for (let n = 1; n <= 60; n++) await fs.writeFile(path.join(logs, `iteration-${n}.ndjson`), '{}\n');
    const h = harness({
      steps: [done],
      settings: { plan: '- [ ] one test', sliceIterations: 1 },
      tests: () => false,
    });
    await runSlice({ ...h.deps, workflow: tddWorkflow() });
    const left = await fs.readdir(logs);
    expect(left).toHaveLength(49); // 50 kept, counting the one this iteration writes
    expect(left).not.toContain('iteration-1.ndjson');
    expect(left).toContain('iteration-60.ndjson');
  });
});

/** The newest checkpoint's loop state. */
const checkpoint = async (h: Harness) => {
  const { checkpoints } = await h.deps.store.list();
  return checkpoints[0]!.state.loop as { outbox: { issueActions?: unknown[] }[]; notices: unknown[] };
};

describe('issue 14: the issues’ effects through the outbox', () => {
  it('a close that fails stays with the finished work in the outbox; the next slice closes it without running the agent', async () => {
    const h = harness({ steps: [done] });
    const close = h.source.close.bind(h.source);
    let failures = 1;
    h.source.close = async (id, reason) => {
      if (failures-- > 0) throw new Error('GitHub failed while closing issue (502 Bad Gateway), also on retrying.');
      return close(id, reason);
    };
    expect(await runSlice(h.deps)).toMatchObject({ status: 'continuing' });
    expect((await checkpoint(h)).outbox).toMatchObject([{ issueActions: [{ kind: 'close', id: 'bd-1' }] }]);
    expect(h.source.issues[0]!.status).toBe('open');

    h.clock.advance(60_000);
    expect(await runSlice(h.deps)).toMatchObject({ status: 'complete' });
    expect(h.source.issues[0]!.status).toBe('closed');
    expect(h.agent.requests).toHaveLength(1);
    expect((await checkpoint(h)).outbox).toEqual([]);
  });

  it('an issue gone (deleted or transferred) is warned about and its effect dropped: the work lands and later runs do not halt', async () => {
    const h = harness({ steps: [done] });
    h.source.close = async () => {
      throw new Error('410 This issue was deleted');
    };
    h.deps.classifyIssueFailure = (_error, issue, what) => ({
      class: 'gone',
      message: `Could not ${what} issue ${issue}: it was deleted or transferred`,
    });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'complete', issuesClosed: ['bd-1'] });
    expect(h.events().find((e) => e.event === 'issue.gone')?.message).toMatch(
      /Could not close issue bd-1: it was deleted or transferred: dropped/,
    );
    expect((await checkpoint(h)).outbox).toEqual([]);
  });

  it('a refusal of the close (a permission) halts publish_refused, the work kept; once lifted the next slice does only that', async () => {
    const h = harness({ steps: [done] });
    const close = h.source.close.bind(h.source);
    let refused = true;
    h.source.close = async (id, reason) => {
      if (refused) throw new Error('403 Resource not accessible by integration');
      return close(id, reason);
    };
    h.deps.classifyIssueFailure = (_error, issue, what) => ({
      class: 'refused',
      message: `GitHub refused to ${what} issue ${issue}`,
      advice: 'Give the workflow issues: write.',
    });
    expect(await runSlice(h.deps)).toMatchObject({ status: 'halted', haltReason: 'publish_refused' });
    refused = false;
    expect(await runSlice(h.deps)).toMatchObject({ status: 'complete' });
    expect(h.source.issues[0]!.status).toBe('closed');
    expect(h.agent.requests).toHaveLength(1);
  });

  it('an escalation whose label fails stays recorded as a notice; the next slice labels the issue first', async () => {
    const h = harness({ steps: [stuck('bd-1'), done], source: MemorySource.of('bd-1', 'bd-2') });
    const mark = h.source.markEscalated.bind(h.source);
    let failures = 1;
    h.source.markEscalated = async (id, note) => {
      if (failures-- > 0) throw new Error('502 Bad Gateway');
      return mark(id, note);
    };
    expect(await runSlice({ ...h.deps, settings: { ...h.deps.settings, sliceIterations: 1 } })).toMatchObject({
      status: 'continuing',
    });
    expect((await checkpoint(h)).notices).toMatchObject([
      { what: { kind: 'markEscalated', issueIds: ['bd-1'] }, attempts: 1, lastError: expect.stringContaining('502') },
    ]);
    expect(h.source.issues[0]!.labels).toEqual([]);

    // bd-2 is worked, then only the escalated bd-1 is left (labelled now).
    expect(await runSlice(h.deps)).toMatchObject({
      status: 'halted',
      haltReason: 'all_escalated',
      issuesClosed: ['bd-2'],
    });
    expect(h.source.issues[0]!.labels).toEqual(['agent-loop:escalated']);
    expect((await checkpoint(h)).notices).toEqual([]);
    expect(h.agent.requests).toHaveLength(2);
  });
});

describe('issue 14: the halt’s Discord post through the outbox', () => {
  it('is saved with the halt, posted once, and gone from the checkpoint after; a post a killed run left is posted by the next slice first', async () => {
    const h = harness({ steps: [stuck('bd-1')], settings: { maxConsecutiveEscalations: 1 } });
    const posted: string[] = [];
    h.deps.notify = async (d) => {
      posted.push(d.reason);
    };
    expect(await runSlice(h.deps)).toMatchObject({ status: 'halted', haltReason: 'failure_loop' });
    expect(posted).toEqual(['failure_loop']);
    const { checkpoints } = await h.deps.store.list();
    const loop = checkpoints[0]!.state.loop as { notices: unknown[]; halt: { reason: string } };
    expect(loop).toMatchObject({ notices: [], halt: { reason: 'failure_loop' } });

    // As if the runner died between the post and the save after it: the notice is still recorded.
    const cp = checkpoints[0]!;
    const notice = {
      id: 'notify-1-x-0',
      what: { kind: 'notify', diagnostic: { reason: 'failure_loop' } },
      recordedAt: '2026-11-21T10:00:00Z',
      attempts: 0,
    };
    await h.deps.store.write({
      ...cp,
      phase: readPhase(cp).phase,
      state: { ...cp.state, loop: { ...loop, notices: [notice] } },
    });
    // Resumed: the left post goes first (at least once: posted again), then this slice's own halt.
    expect(await runSlice(h.deps)).toMatchObject({ status: 'halted', haltReason: 'all_escalated' });
    expect(posted).toEqual(['failure_loop', 'failure_loop', 'all_escalated']);
  });
});

describe('issue 14: claims, performed through the source', () => {
  /** A memory source that claims: every call recorded; `holder` makes a claim lose to that run. */
  /** Issue 15: what the claim comment is told (state, iterations). */
  const told = (p?: ClaimProgress) => (p ? ` (${p.state}, ${p.iterations ?? '?'} iterations)` : '');
  class ClaimingSource extends MemorySource {
    calls: string[] = [];
    holder: string | undefined;
    async claim(
      id: string,
      me: { run: string; checkpoint: string },
      expires: string,
      resuming: boolean,
      progress?: ClaimProgress,
    ) {
      this.calls.push(`claim ${id} ${me.run} ${expires}${resuming ? ' resuming' : ''}${told(progress)}`);
      return this.holder
        ? { won: false as const, holder: { run: this.holder, checkpoint: 'other', expires } }
        : { won: true as const, adopted: [] };
    }
    async renewClaim(id: string, _me: unknown, expires: string, progress?: ClaimProgress) {
      this.calls.push(`renew ${id} ${expires}${told(progress)}`);
    }
    async releaseClaim(id: string, _me: unknown, _at: string, progress?: ClaimProgress) {
      this.calls.push(`release ${id}${told(progress)}`);
    }
  }

  it('claims the issue before its first agent run for a lease of 2 × agent-timeout-minutes + 5, renews it each later iteration, releases it when the cycle lands; each tells the claim comment how the work goes (issue 15)', async () => {
    const source = new ClaimingSource(MemorySource.of('bd-1').issues);
    const h = harness({ source, steps: [working('bd-1'), done], settings: { agentTimeoutMinutes: 30 } });
    h.deps.runId = 'github-5-1';
    const r = await runSlice(h.deps);
    expect(r.status).toBe('complete');
    expect(source.calls).toEqual([
      'claim bd-1 github-5-1 2026-11-21T11:05:00Z (working, 0 iterations)',
      // Renewed as iteration 2 begins, before its --iteration-delay pause (issue 40: none after a run).
      'renew bd-1 2026-11-21T11:05:00Z (working, 1 iterations)',
      'release bd-1 (done, 2 iterations)',
    ]);
    expect(h.agent.requests).toHaveLength(2);
  });

  it('an escalated cycle’s claim is released after its label, with the notice: a release that fails is sent again by the next slice', async () => {
    const source = new ClaimingSource(MemorySource.of('bd-1', 'bd-2').issues);
    let failures = 1;
    const release = source.releaseClaim.bind(source);
    source.releaseClaim = async (id: string, me: unknown, at: string, progress?: ClaimProgress) => {
      if (failures-- > 0) throw new Error('502 Bad Gateway');
      return release(id, me, at, progress);
    };
    const h = harness({ source, steps: [stuck('bd-1'), done] });
    expect(await runSlice({ ...h.deps, settings: { ...h.deps.settings, sliceIterations: 1 } })).toMatchObject({
      status: 'continuing',
    });
    expect(source.issues[0]!.labels).toEqual(['agent-loop:escalated']);
    expect((await checkpoint(h)).notices).toMatchObject([
      {
        what: { kind: 'markEscalated', issueIds: ['bd-1'], releaseClaims: true },
        attempts: 1,
        lastError: expect.stringContaining('releasing the claim on bd-1: 502'),
      },
    ]);
    // The next slice sends the notice again first (the label is there already), and the release goes.
    await runSlice(h.deps);
    expect(source.calls.filter((c) => c.startsWith('release'))).toEqual([
      'release bd-1 (escalated, 1 iterations)',
      'release bd-2 (done, 1 iterations)',
    ]);
    expect((await checkpoint(h)).notices).toEqual([]);
  });

  it('an issue whose claim is lost to another run is not worked; the result lists it', async () => {
    const source = new ClaimingSource(MemorySource.of('bd-1').issues);
    source.holder = 'github-4-1';
    const h = harness({ source, steps: [done] });
    const r = await runSlice(h.deps);
    expect(h.agent.requests).toHaveLength(0);
    expect(r).toMatchObject({ status: 'complete', issuesClaimedElsewhere: ['bd-1'] });
    expect(h.events().some((e) => e.event === 'claim.lost')).toBe(true);
  });
});
