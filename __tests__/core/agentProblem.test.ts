/** Issue 43: an agent that fails the same way on every issue is an agent problem (src/core/agentProblem.ts). */
import { describe, expect, it } from '@jest/globals';
import {
  agentProblemCall,
  agentWorkedSince,
  failureSignature,
  sameFailureThroughout,
  withoutWithheld,
} from '../../src/core/agentProblem.js';
import { type IterationRecord, type LoopState, initialLoopState } from '../../src/core/state.js';

function run(n: number, issue: string, exitCode: number | null, reason = 'exit_code'): IterationRecord {
  const ok = exitCode === 0;
  return {
    n,
    issueIds: [issue],
    startedAt: '2026-11-30T00:00:00Z',
    durationMs: 1,
    outcome: ok ? 'tests_failed' : 'agent_failed',
    agent: {
      ok,
      exitCode,
      signal: null,
      durationMs: 1,
      ...(ok ? {} : { failure: { class: 'transient' as const, reason, message: `exited with code ${exitCode}` } }),
    },
  };
}

const withheldOn = (issue: string, iteration: number, signature: string): LoopState['withheldEscalation'] => ({
  issueIds: [issue],
  iteration,
  signature,
  what: { kind: 'markEscalated', issueIds: [issue], note: 'escalated' },
});

describe('agent problem (issue 43)', () => {
  it('a failure signature is class, reason, exit code and signal; none for a run that worked', () => {
    expect(failureSignature(run(1, 'a', 1))).toBe('transient/exit_code/exit 1/');
    expect(failureSignature(run(1, 'a', 0))).toBeUndefined();
  });

  it("the same failure throughout: every run of the cycle (and only the cycle's) failed the same way", () => {
    const history = [run(1, 'a', 0), run(2, 'b', 1), run(3, 'b', 1)];
    expect(sameFailureThroughout(history, { issueIds: ['b'], startedAtIteration: 1 })?.signature).toBe(
      'transient/exit_code/exit 1/',
    );
    // One run that worked, or two different failures: not the same throughout.
    expect(sameFailureThroughout([...history, run(4, 'b', 0)], { issueIds: ['b'], startedAtIteration: 1 })).toBe(
      undefined,
    );
    expect(sameFailureThroughout([...history, run(4, 'b', 2)], { issueIds: ['b'], startedAtIteration: 1 })).toBe(
      undefined,
    );
    // No run in the cycle.
    expect(sameFailureThroughout(history, { issueIds: ['c'], startedAtIteration: 3 })).toBeUndefined();
  });

  it('the call: withhold the first, halt at the second issue failing the same way with no agent run working between', () => {
    const sig = 'transient/exit_code/exit 1/';
    const first = { ...initialLoopState(10), history: [run(1, 'a', 1), run(2, 'a', 1)] };
    expect(agentProblemCall(first, { issueIds: ['a'], startedAtIteration: 0 }, false).kind).toBe('withhold');
    const second = {
      ...first,
      history: [...first.history, run(3, 'b', 1), run(4, 'b', 1)],
      withheldEscalation: withheldOn('a', 2, sig),
    };
    expect(agentProblemCall(second, { issueIds: ['b'], startedAtIteration: 2 }, false).kind).toBe('halt');
    // A bounce loop is the workflow's; a different failure, or the agent working in between, is not the agent's.
    expect(agentProblemCall(second, { issueIds: ['b'], startedAtIteration: 2 }, true).kind).toBe('escalate');
    const otherWay = { ...second, history: [...first.history, run(3, 'b', 2)] };
    expect(agentProblemCall(otherWay, { issueIds: ['b'], startedAtIteration: 2 }, false).kind).toBe('withhold');
    const workedBetween = { ...second, history: [...first.history, run(3, 'c', 0), run(4, 'b', 1)] };
    expect(agentWorkedSince(workedBetween.history, 2)).toBe(true);
    expect(agentProblemCall(workedBetween, { issueIds: ['b'], startedAtIteration: 3 }, false).kind).toBe('withhold');
    // The same issue again is no second issue.
    const sameIssue = { ...second, withheldEscalation: withheldOn('b', 2, sig) };
    expect(agentProblemCall(sameIssue, { issueIds: ['b'], startedAtIteration: 2 }, false).kind).toBe('withhold');
  });

  it('the withheld escalation taken back: its issue no longer escalated, its record and counts undone', () => {
    const loop: LoopState = {
      ...initialLoopState(10),
      issuesEscalated: ['x', 'a'],
      consecutiveEscalations: 1,
      totalEscalations: 2,
      escalations: [
        { issueIds: ['x'], titles: [], iteration: 1, steps: [], reason: 'r', at: 't', note: '' },
        { issueIds: ['a'], titles: [], iteration: 5, steps: [], reason: 'r', at: 't', note: '' },
      ],
      withheldEscalation: withheldOn('a', 5, 's'),
    };
    const back = withoutWithheld(loop);
    expect(back).toMatchObject({ issuesEscalated: ['x'], consecutiveEscalations: 0, totalEscalations: 1 });
    expect(back.escalations.map((e) => e.issueIds)).toEqual([['x']]);
    expect(back.withheldEscalation).toBeUndefined();
    expect(withoutWithheld(initialLoopState(10))).toEqual(initialLoopState(10));
  });
});
