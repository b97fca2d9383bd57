/**
 * Issue 4: the retry policy table, the cycle step machine and failure-loop detection (seed 002
 * AC1–AC5, FR1–FR6; seed 003's rate-limit and timeout rows), on the slice runner with scripted
 * agents and an injected clock. Counters live in the checkpoint, so a loop spread over slices is
 * caught as if it were one run.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentFailure, AgentResult } from '../../src/agents/types.js';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { POLICIES, backoffMs, decideFailure, failureKind } from '../../src/failure/policy.js';
import { initialProgress, transition } from '../../src/core/cycle.js';
import { runSlice, type SliceDeps, type SliceSettings } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import type { HaltDiagnostic } from '../../src/report/diagnostic.js';
import { readSuiteOutput } from '../../src/verdict/readers/index.js';
import { createRedactor } from '../../src/secrets/redact.js';
import { maskOutput } from '../../src/agents/maskOutput.js';
import { runTestCommand } from '../../src/loop/testGate.js';
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

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'policies-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const failure = (
  reason: string,
  cls: 'transient' | 'permanent' = 'transient',
  extra: Partial<AgentFailure> = {},
): Partial<AgentResult> => ({
  ok: false,
  exitCode: 1,
  failure: { class: cls, reason, message: `${reason} happened`, ...extra },
  outputTail: `agent output: ${reason}`,
});

function harness(opts: {
  steps: Step[];
  source?: MemorySource;
  settings?: Partial<SliceSettings>;
  tests?: (n: number) => boolean;
  clock?: ManualClock;
  store?: FileCheckpointStore;
}) {
  const clock = opts.clock ?? new ManualClock();
  const source = opts.source ?? MemorySource.of('10', '11', '12');
  const agent = new ScriptedAgent(opts.steps);
  const lines: string[] = [];
  const notified: HaltDiagnostic[] = [];
  let testRuns = 0;
  const deps: SliceDeps = {
    settings: sliceSettings(opts.settings),
    workflow: implementWorkflow,
    cwd: dir,
    stateDir: dir,
    source,
    // Its output masked where it enters the engine, as the run builds it (src/app/run.ts).
    agent: maskOutput(agent, createRedactor(['sekrit-token'])),
    clock,
    logger: createLogger({ json: true, write: (s) => lines.push(s), clock, redact: createRedactor(['sekrit-token']) }),
    store: opts.store ?? new FileCheckpointStore(dir, { clock }),
    runTests: async (_command, _signal, purpose) => {
      if (purpose === 'baseline') return { passed: true, exitCode: 0, durationMs: 10, tail: 'ok' };
      testRuns++;
      const passed = opts.tests ? opts.tests(testRuns) : true;
      return { passed, exitCode: passed ? 0 : 1, durationMs: 10, tail: passed ? 'ok' : 'FAIL' };
    },
    notify: async (d) => {
      notified.push(d);
    },
    redact: createRedactor(['sekrit-token']),
  };
  return {
    deps,
    agent,
    source,
    clock,
    notified,
    events: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('retry policy as data', () => {
  it('classifies each failure into one policy', () => {
    expect(failureKind({ class: 'transient', reason: 'rate_limit' })).toBe('rate_limit');
    expect(failureKind({ class: 'transient', reason: 'timeout' })).toBe('timeout');
    expect(failureKind({ class: 'transient', reason: 'network' })).toBe('timeout');
    expect(failureKind({ class: 'transient', reason: 'overloaded' })).toBe('transient');
    expect(failureKind({ class: 'permanent', reason: 'max_turns' })).toBe('permanent_issue');
    expect(failureKind({ class: 'permanent', reason: 'invalid_request' })).toBe('permanent_issue');
    expect(failureKind({ class: 'permanent', reason: 'auth' })).toBe('permanent_environment');
    expect(failureKind({ class: 'permanent', reason: 'billing' })).toBe('permanent_environment');
  });

  it('seed 003: rate limits back off 1, 2, 4, 8, 16, 32 s, honouring retry-after', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(POLICIES.rate_limit, a))).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000,
    ]);
    expect(backoffMs(POLICIES.rate_limit, 1, 90_000)).toBe(90_000);
    expect(backoffMs(POLICIES.rate_limit, 20)).toBe(POLICIES.rate_limit.maximumIntervalMs);
  });

  it('one executor (issue 13): decideFailure applies the row — its counter, wait, attempts and onExhausted — for every workflow', () => {
    const zero = { rateLimitAttempts: 0, timeoutRetries: 0, environmentFailures: 1 };
    expect(decideFailure({ class: 'transient', reason: 'rate_limit', retryAfterMs: 5000 }, zero)).toMatchObject({
      kind: 'rate_limit',
      attempts: 1,
      waitMs: 5000,
      counters: { rateLimitAttempts: 1, environmentFailures: 1 },
      countsTowardStep: false,
    });
    expect(decideFailure({ class: 'transient', reason: 'timeout' }, { ...zero, timeoutRetries: 3 })).toMatchObject({
      kind: 'timeout',
      attempts: 4,
      exhausted: 'escalate',
    });
    expect(decideFailure({ class: 'transient', reason: 'timeout' }, zero).exhausted).toBeUndefined();
    expect(decideFailure({ class: 'permanent', reason: 'auth' }, zero)).toMatchObject({
      kind: 'permanent_environment',
      attempts: 2,
      exhausted: 'halt',
      counters: { environmentFailures: 2 },
    });
    // A failure of the step's own ends a run of environment failures.
    expect(decideFailure({ class: 'permanent', reason: 'max_turns' }, zero)).toMatchObject({
      kind: 'permanent_issue',
      attempts: 0,
      countsTowardStep: true,
      freshSession: true,
      counters: { environmentFailures: 0 },
    });
    // The table, not the code, decides: a row changed changes the answer.
    const stricter: typeof POLICIES = {
      ...POLICIES,
      timeout: { ...POLICIES.timeout, maximumAttempts: 1, onExhausted: 'halt' },
    };
    expect(decideFailure({ class: 'transient', reason: 'network' }, zero, stricter)).toMatchObject({
      attempts: 1,
      exhausted: 'halt',
    });
  });
});

describe('cycle step machine', () => {
  const wf = ['implement', 'verify'];
  it('retries a failing step up to --max-retries-per-step, then escalates', () => {
    let p = initialProgress();
    for (let i = 1; i <= 3; i++) {
      const t = transition(wf, p, { type: 'failed', reason: 'x' }, 3);
      expect(t.decision).toEqual({ kind: 'run', step: 'implement' });
      p = t.progress;
    }
    expect(transition(wf, p, { type: 'failed', reason: 'x' }, 3).decision).toMatchObject({
      kind: 'escalate',
      bounceLoop: false,
    });
  });

  it('steps back on a failed precondition and escalates as a bounce loop after more than the limit', () => {
    let p = { ...initialProgress(), index: 1 };
    for (let i = 1; i <= 3; i++) {
      const t = transition(wf, p, { type: 'precondition_failed', reason: 'nothing to verify' }, 3);
      expect(t.decision).toEqual({ kind: 'run', step: 'implement' });
      p = { ...t.progress, index: 1 };
    }
    const t = transition(wf, p, { type: 'precondition_failed', reason: 'nothing to verify' }, 3);
    expect(t.decision).toMatchObject({
      kind: 'escalate',
      bounceLoop: true,
      reason: expect.stringMatching(/^4 step-back transitions/),
    });
  });

  it('succeeds step by step to done', () => {
    const a = transition(wf, initialProgress(), { type: 'succeeded' }, 3);
    expect(a.decision).toEqual({ kind: 'run', step: 'verify' });
    expect(transition(wf, a.progress, { type: 'succeeded' }, 3).decision).toEqual({ kind: 'done' });
  });
});

describe('seed 002 failure-loop detection on the slice runner', () => {
  it('AC1: 2 consecutive escalations halt with FAILURE LOOP DETECTED naming both issues; state is not reset (AC5)', async () => {
    const h = harness({ steps: [done], tests: () => false });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({
      status: 'halted',
      haltReason: 'failure_loop',
      issuesEscalated: ['10', '11'],
      iterations: 8,
    });
    expect(r.error).toMatch(/^FAILURE LOOP DETECTED: 2 consecutive escalations \(issues #10, #11\)/);
    const cp = await h.deps.store.load(r.checkpointId);
    expect([cp.phase, cp.state.stage]).toEqual(['implementation-failed', 'halted']);
    expect((cp.state.loop as { consecutiveEscalations: number }).consecutiveEscalations).toBe(2);
    expect(h.source.issues.filter((i) => i.labels.includes('agent-loop:escalated')).map((i) => i.id)).toEqual([
      '10',
      '11',
    ]);
  });

  it('FR1/FR6: a successful cycle between escalations resets the count', async () => {
    // Issue 10 fails its tests 4 times (escalated), 11 passes, 12 fails 4 times (escalated): no halt.
    const h = harness({ steps: [done], tests: (n) => n === 5 });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({
      status: 'halted',
      haltReason: 'all_escalated',
      issuesEscalated: ['10', '12'],
      issuesClosed: ['11'],
    });
  });

  it('AC2: an escalated issue is skipped; when only escalated issues remain the run halts all_escalated', async () => {
    const source = MemorySource.of('10', '11');
    source.issues[0]!.labels = ['agent-loop:escalated']; // escalated by an earlier run
    const h = harness({ source, steps: [done] });
    const r = await runSlice(h.deps);
    expect(h.agent.requests.map((x) => x.issueIds)).toEqual([['11']]);
    expect(r).toMatchObject({ status: 'halted', haltReason: 'all_escalated', issuesClosed: ['11'] });
    expect(r.error).toBe('ALL ISSUES ESCALATED: only escalated issues remain (#10)');
  });

  it('AC3: more than --max-retries-per-step step-back transitions halt with BOUNCE LOOP DETECTED', async () => {
    // A real step back: verify cannot run at all (the test command is not found, exit 127).
    const h = harness({ source: MemorySource.of('10'), steps: [done] });
    h.deps.runTests = async (_command, _signal, purpose) =>
      purpose === 'baseline'
        ? { passed: true, exitCode: 0, durationMs: 1, tail: 'ok' }
        : {
            passed: false,
            exitCode: 127,
            durationMs: 1,
            tail: 'sh: 1: npm: not found',
            run: readSuiteOutput('sh: 1: npm: not found', 127),
          };
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'halted', haltReason: 'bounce_loop', iterations: 4, issuesEscalated: ['10'] });
    expect(r.error).toMatch(/^BOUNCE LOOP DETECTED: 4 step-back transitions in cycle for issue #10/);
    expect(r.history.map((x) => x.outcome)).toEqual(['bounced', 'bounced', 'bounced', 'bounced']);
  });

  it('"done" without any change, nothing broken: already satisfied, closed with the agent\'s report; never a bounce', async () => {
    const h = harness({ source: MemorySource.of('10'), steps: [done] });
    h.deps.git = fakeGit();
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({
      status: 'complete',
      haltReason: null,
      iterations: 1,
      issuesClosed: ['10'],
      issuesEscalated: [],
    });
    expect(r.history.map((x) => x.outcome)).toEqual(['no_change']);
    expect(h.source.closedWith['10']).toMatch(/^agent-loop: no change was needed: the agent reports `/);
  });

  it('AC4: the diagnostic has the loop type, issues, steps, escalation counts and the last 500 characters of output, redacted, in halt.md, the result and the notifier', async () => {
    const long = `${'x'.repeat(600)} sekrit-token END`;
    const h = harness({ steps: [{ ...done, outputTail: long }], tests: () => false });
    const r = await runSlice(h.deps);
    expect(r.diagnostic).toContain('Loop type: consecutive escalations');
    expect(r.diagnostic).toContain('Issues: #10 "Issue 10", #11 "Issue 11"');
    expect(r.diagnostic).toContain('Steps involved: verify');
    expect(r.diagnostic).toContain('Escalations: 2 consecutive (limit 2), 2 in the loop so far');
    expect(r.diagnostic).toContain('*** END');
    expect(r.diagnostic).toContain('Last failure (the test gate): `npm test` exited with code 1');
    expect(r.diagnostic).not.toContain('sekrit-token');
    expect(await fs.readFile(path.join(dir, 'halt.md'), 'utf8')).toBe(r.diagnostic);
    expect(h.notified).toHaveLength(1);
    expect(h.notified[0]?.lastOutput.length).toBe(500);
  });

  it("the prompt handed to the agent is redacted too (it carries the previous failure's output)", async () => {
    const h = harness({
      source: MemorySource.of('10'),
      steps: [{ ...done, outputTail: 'leaked sekrit-token' }],
      tests: (n) => n > 1,
    });
    // The test command runs for real, its output masked where it enters the engine (as src/app/run.ts runs it).
    h.deps.runTests = async (_command, _signal, purpose) =>
      runTestCommand(
        purpose === 'baseline' || h.agent.requests.length > 1
          ? 'echo ok'
          : 'echo "FAIL: token sekrit-token rejected"; exit 1',
        {
          cwd: dir,
          env: process.env,
          timeoutMs: 30_000,
          onLine: () => undefined,
          mask: createRedactor(['sekrit-token']),
        },
      );
    await runSlice(h.deps);
    expect(h.agent.requests[1]?.prompt).toContain('FAIL: token *** rejected');
    expect(await fs.readFile(path.join(dir, 'prompt.md'), 'utf8')).not.toContain('sekrit-token');
  });

  it('is deterministic: the same scripted failure pattern gives the same halt (timestamps aside)', async () => {
    const run = async () => {
      const sub = await fs.mkdtemp(path.join(dir, 'run-'));
      const h = harness({
        steps: [failure('overloaded'), done, failure('max_turns', 'permanent')],
        tests: (n) => n % 3 === 0,
      });
      h.deps.stateDir = sub;
      h.deps.store = new FileCheckpointStore(sub, { clock: h.clock });
      const r = await runSlice(h.deps);
      return {
        ...r,
        checkpointId: 'x',
        durationMs: 0,
        diagnostic: r.diagnostic?.replace(/checkpoint \S+/, 'checkpoint x'),
        history: r.history.map((x) => ({ ...x, startedAt: '' })),
      };
    };
    expect(await run()).toEqual(await run());
  });

  it('a failure loop spread over slices is caught as if it were one run', async () => {
    const clock = new ManualClock();
    const store = new FileCheckpointStore(dir, { clock });
    const source = MemorySource.of('10', '11', '12');
    const results = [];
    for (let slice = 0; slice < 20; slice++) {
      const h = harness({ source, clock, store, steps: [done], tests: () => false, settings: { sliceIterations: 1 } });
      const r = await runSlice(h.deps);
      results.push(r.status);
      if (r.status !== 'continuing') {
        // The last slice escalated 11; the loop's totals hold both (issue 40).
        expect(r).toMatchObject({
          haltReason: 'failure_loop',
          issuesEscalated: ['11'],
          iterations: 1,
          loop: { issuesEscalated: ['10', '11'], iterations: 8 },
        });
        break;
      }
    }
    expect(results).toEqual([...Array(7).fill('continuing'), 'halted']);
  });
});

describe('failure policies on the slice runner', () => {
  it('seed 003: rate limits wait 1, 2, 4 s (through the clock), do not count toward the step, then succeed', async () => {
    const h = harness({
      source: MemorySource.of('10'),
      steps: [failure('rate_limit'), failure('rate_limit'), failure('rate_limit'), done],
    });
    const r = await runSlice(h.deps);
    expect(h.clock.sleeps).toEqual([1000, 2000, 4000]);
    expect(r).toMatchObject({ status: 'complete', failedIterations: 3 });
  });

  it('a rate-limit wait past the slice end ends the slice continuing with rateLimitedUntil; the next run exits at once, then waits', async () => {
    const clock = new ManualClock();
    const store = new FileCheckpointStore(dir, { clock });
    const source = MemorySource.of('10');
    const first = harness({
      source,
      clock,
      store,
      steps: [failure('rate_limit', 'transient', { retryAfterMs: 20 * 60_000 })],
      settings: { sliceMinutes: 10 },
    });
    const r1 = await runSlice(first.deps);
    expect(r1).toMatchObject({ status: 'continuing', iterations: 1 });
    const until = ((await store.load(r1.checkpointId)).state.loop as { rateLimitedUntil: string }).rateLimitedUntil;
    expect(Date.parse(until) - Date.parse('2026-11-21T10:00:00Z')).toBe(20 * 60_000);

    const second = harness({ source, clock, store, steps: [done], settings: { sliceMinutes: 10 } });
    expect(await runSlice(second.deps)).toMatchObject({ status: 'continuing', iterations: 0, loop: { iterations: 1 } });
    expect(second.agent.requests).toHaveLength(0);
    expect(
      second
        .events()
        .some((e) => e.event === 'rate.limited' && String(e.message).startsWith(`Rate limited until ${until}`)),
    ).toBe(true);

    clock.advance(15 * 60_000);
    const third = harness({ source, clock, store, steps: [done] });
    expect(await runSlice(third.deps)).toMatchObject({ status: 'complete', iterations: 1, loop: { iterations: 2 } });
    expect(third.clock.sleeps.at(-1)).toBe(5 * 60_000);
  });

  it('seed 003: timeouts retry 3 times with the same timeout, then escalate the cycle', async () => {
    const h = harness({
      source: MemorySource.of('10', '11'),
      steps: [failure('timeout'), failure('timeout'), failure('timeout'), failure('timeout'), done],
    });
    const r = await runSlice(h.deps);
    expect(h.agent.requests.map((x) => [x.issueIds[0], x.timeoutMs])).toEqual([
      ['10', 1_800_000],
      ['10', 1_800_000],
      ['10', 1_800_000],
      ['10', 1_800_000],
      ['11', 1_800_000],
    ]);
    expect(r).toMatchObject({ issuesEscalated: ['10'], issuesClosed: ['11'], haltReason: 'all_escalated' });
  });

  it('permanent failures tied to the issue continue with a fresh session and count toward the step', async () => {
    const h = harness({
      source: MemorySource.of('10'),
      steps: [{ ...working('a'), sessionId: 'S' }, failure('max_turns', 'permanent'), done],
      settings: { agentSession: 'continue' },
    });
    const r = await runSlice(h.deps);
    expect(h.agent.requests.map((x) => x.resumeSessionId)).toEqual([undefined, 'S', undefined]);
    expect(r).toMatchObject({ status: 'complete', failedIterations: 1 });
  });

  it('environment failures (auth) escalate nothing and halt agent_unavailable after 2 in a row, saying what to fix', async () => {
    const h = harness({ steps: [failure('auth', 'permanent')] });
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'halted', haltReason: 'agent_unavailable', iterations: 2, issuesEscalated: [] });
    expect(r.error).toMatch(/^AGENT UNAVAILABLE: 2 environment failures in a row \(auth\)/);
    expect(r.diagnostic).toContain('check ANTHROPIC_API_KEY');
    expect(h.source.issues.every((i) => i.labels.length === 0)).toBe(true);
  });

  it('other transient failures count toward the step and escalate when exhausted', async () => {
    const h = harness({
      source: MemorySource.of('10', '11'),
      steps: [failure('overloaded'), failure('overloaded'), failure('overloaded'), failure('overloaded'), done],
    });
    expect(await runSlice(h.deps)).toMatchObject({
      issuesEscalated: ['10'],
      issuesClosed: ['11'],
      status: 'halted',
      haltReason: 'all_escalated',
    });
  });
});

/** A git that never sees any work: every "done" claim fails verify's precondition. */
function fakeGit() {
  const calls: string[] = [];
  return {
    topLevel: dir,
    calls,
    putBackStaging: async () => undefined,
    currentRef: async () => 'main',
    branchExists: async () => true,
    holds: async () => true,
    switchToBranch: async (b: string) => {
      calls.push(`switch ${b}`);
    },
    checkout: async (r: string) => {
      calls.push(`checkout ${r}`);
    },
    commitAll: async (m: string) => {
      calls.push(`commit ${m}`);
      return true;
    },
    merge: async () => undefined,
    deleteBranch: async () => undefined,
    renameBranch: async () => undefined,
    exclude: async () => undefined,
    hasWorkSince: async () => false,
    subjectsSince: async () => [],
    fetchBranch: async () => false,
    push: async (_remote: string, b: string) => {
      calls.push(`push ${b}`);
    },
    head: async () => '0'.repeat(40),
    resetHard: async () => undefined,
    changedFiles: async () => [],
    untracked: async () => [],
    refSecrets: async () => [],
    tipOf: async () => '1'.repeat(40),
    laneState: async () => ({ head: 'main', baseTip: '1'.repeat(40) }),
  };
}
