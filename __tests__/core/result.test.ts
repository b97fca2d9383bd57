/**
 * The run result (src/core/result.ts, issue 40): its counts and lists are this run's, the loop's
 * totals are under `loop`; the exit code and the closing lines say which is which.
 */
import { describe, expect, it } from '@jest/globals';
import { buildResult, exitCodeFor, runPart, summaryLine } from '../../src/core/result.js';
import { type LoopState, initialLoopState } from '../../src/core/state.js';
import { pullRequest as pr } from './fixtures.js';

/** The loop after three issues landed as pull requests, one iteration each, $0.30 spent. */
const landed: LoopState = {
  ...initialLoopState(100),
  iteration: 3,
  successfulIterations: 3,
  costUsd: 0.3,
  testsPassed: true,
  issuesClosed: ['1', '2', '3'],
  pullRequests: [pr(4, '1', 1), pr(5, '2', 2), pr(6, '3', 3)],
  completedIterations: [1, 2, 3],
  preexistingFailures: ['t > flaky'],
};

describe('the run result: this run apart from the loop', () => {
  it('a run that did nothing over a loop that landed three issues has empty lists and zero counts; the loop keeps its totals', () => {
    const r = buildResult({
      status: 'complete',
      state: landed,
      start: landed,
      checkpointId: 'cp',
      durationMs: 5,
      interrupted: false,
      idle: true,
    });
    expect(r).toMatchObject({
      iterations: 0,
      sliceIterations: 0,
      failedIterations: 0,
      successfulIterations: 0,
      testsPassed: null,
      issuesClosed: [],
      issuesEscalated: [],
      issuesNoChange: [],
      preexistingFailures: [],
      pullRequests: [],
      completedIterations: [],
      costUsd: 0,
      history: [],
      unchanged: true,
      loop: { iterations: 3, issuesClosed: ['1', '2', '3'], costUsd: 0.3, testsPassed: true },
    });
    expect(r.loop.pullRequests.map((p) => p.number)).toEqual([4, 5, 6]);
    expect(summaryLine(r).split('\n')).toEqual([
      'COMPLETE: nothing to do (no ready issue, no cycle in flight); nothing was written',
      '  this run: 0 iterations (0 agent ok, 0 agent failed, 0 test failures); tests passed: not run',
      '  closed in this run: none',
      '  the loop so far: iterations 3/100; 3 issues closed, 0 escalated, 3 pull requests; spend $0.3000',
      '  checkpoint cp',
    ]);
  });

  it("a run's own part: the counters' differences, the issues and pull requests new in the loop's lists (a landing from an earlier run's outbox included), its escalations", () => {
    const after: LoopState = {
      ...landed,
      iteration: 5,
      successfulIterations: 4,
      failedIterations: 1,
      testFailures: 1,
      costUsd: 0.45,
      // 7's work landed from the outbox (finished by an earlier run); 8 finished in this run.
      issuesClosed: ['1', '2', '3', '7', '8'],
      // 2 was escalated before; edited since, it was tried again in this run and escalated again.
      issuesEscalated: ['2'],
      escalations: [
        { issueIds: ['2'], titles: [], iteration: 1, steps: [], reason: 'r', at: '', note: '' },
        { issueIds: ['2'], titles: [], iteration: 4, steps: [], reason: 'r', at: '', note: '' },
      ],
      // Pull request 4 updated again (same number, a later iteration): this run's as well.
      pullRequests: [...landed.pullRequests, pr(9, '7', 2), pr(4, '8', 5)],
      completedIterations: [1, 2, 3, 5],
      history: [4, 5].map((n) => ({
        n,
        issueIds: ['8'],
        startedAt: '2026-11-27T08:00:00Z',
        durationMs: 1,
        outcome: 'complete' as const,
        agent: { ok: true, exitCode: 0, signal: null, durationMs: 1 },
        tests: { passed: true, exitCode: 0, durationMs: 1 },
        verdict: { kind: 'accepted' as const, summary: 'ok' },
      })),
    };
    const part = runPart(landed, after);
    expect(part).toMatchObject({
      iterations: 2,
      successfulIterations: 1,
      failedIterations: 1,
      testFailures: 1,
      testsPassed: true,
      issuesClosed: ['7', '8'],
      issuesEscalated: ['2'],
      completedIterations: [5],
      preexistingFailures: ['t > flaky'],
    });
    expect(part.costUsd).toBe(0.15);
    expect(part.pullRequests.map((p) => p.number)).toEqual([9, 4]);
    expect(part.history.map((h) => h.n)).toEqual([4, 5]);
  });

  it('exit codes: 0 complete or continuing, 1 halted, 75 deferred (EX_TEMPFAIL)', () => {
    expect(exitCodeFor({ status: 'complete' })).toBe(0);
    expect(exitCodeFor({ status: 'continuing' })).toBe(0);
    expect(exitCodeFor({ status: 'halted' })).toBe(1);
    expect(exitCodeFor({ status: 'deferred' })).toBe(75);
  });

  it('a deferred run heads its closing lines with DEFERRED, what failed (status and GitHub’s message), and that nothing was lost', () => {
    const r = buildResult({
      status: 'deferred',
      state: landed,
      start: landed,
      checkpointId: 'cp',
      durationMs: 5,
      interrupted: false,
      deferred: {
        what: 'listing the open issues labelled agent-loop in o/r',
        status: 502,
        message:
          'GitHub failed while listing open issues labelled agent-loop in o/r (502 Server Error), also on retrying.',
      },
      unchanged: true,
    });
    expect(summaryLine(r).split('\n')[0]).toBe(
      'DEFERRED: GitHub failed while listing open issues labelled agent-loop in o/r (502 Server Error), also on retrying. Nothing was lost, and no issue was started on an incomplete list: the issues are as they were, the checkpoint keeps what this run did, and the next run lists them again.',
    );
    expect(r).toMatchObject({ status: 'deferred', issuesClosed: [], loop: { issuesClosed: ['1', '2', '3'] } });
  });
});

describe('summaryLine: the words of "tests passed"', () => {
  /** A result of this run with the given fields (summaryLine is pure over the result). */
  const resultOf = (over: Partial<ReturnType<typeof buildResult>>) => ({
    ...buildResult({
      status: 'complete',
      state: initialLoopState(100),
      start: initialLoopState(100),
      checkpointId: 'c0ffee00-0000-4000-8000-000000000000',
      durationMs: 1000,
      interrupted: false,
    }),
    iterations: 1,
    successfulIterations: 1,
    ...over,
  });
  const lineOf = (text: string, start: string) => text.split('\n').find((l) => l.startsWith(start));

  it('issue 40: accepted work with a failure from before the cycle says "tests passed: true", the failure named beside', () => {
    const text = summaryLine(
      resultOf({ testsPassed: true, issuesClosed: ['bd-1'], preexistingFailures: ['legacy works'] }),
    );
    expect(lineOf(text, '  this run')).toMatch(/; tests passed: true, except 1 failing before \(listed below\)$/);
    expect(lineOf(text, '  closed in this run')).toBe('  closed in this run: bd-1');
    expect(lineOf(text, '  failing before')).toBe('  failing before and still failing, not targeted (1): legacy works');
  });

  it('passed, failed and not run, as they are', () => {
    expect(lineOf(summaryLine(resultOf({ testsPassed: true })), '  this run')).toMatch(/; tests passed: true$/);
    expect(lineOf(summaryLine(resultOf({ testsPassed: false, preexistingFailures: ['x'] })), '  this run')).toMatch(
      /; tests passed: false$/,
    );
    expect(lineOf(summaryLine(resultOf({ testsPassed: null })), '  this run')).toMatch(/; tests passed: not run$/);
  });
});

describe('issue 42: work held for a person in the result', () => {
  it("this run's held issues with why, in the JSON and the closing lines; the loop's count; an older start without the list", () => {
    const start = { ...landed, issuesHeld: [{ id: '1', reason: 'unverified' as const }] };
    const state: LoopState = {
      ...start,
      iteration: 5,
      issuesHeld: [
        { id: '1', reason: 'unverified' },
        { id: '7', reason: 'tests-changed' },
        { id: '8', reason: 'unverified' },
      ],
    };
    const r = buildResult({ status: 'complete', state, start, checkpointId: 'cp', durationMs: 5, interrupted: false });
    expect(r.issuesHeld).toEqual([
      { id: '7', reason: 'tests-changed' },
      { id: '8', reason: 'unverified' },
    ]);
    expect(r.loop.issuesHeld).toHaveLength(3);
    const lines = summaryLine(r).split('\n');
    expect(lines).toContain(
      '  held for a person (never merged, left open): 7 (agent-loop:tests-changed), 8 (agent-loop:unverified)',
    );
    expect(lines.find((l) => l.startsWith('  the loop so far'))).toContain('0 escalated, 3 held for a person');
    const { issuesHeld: _none, ...older } = start;
    expect(runPart(older as unknown as LoopState, state).issuesHeld).toHaveLength(3);
  });
});
