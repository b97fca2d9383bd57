/** Fixtures of the wave tests (src/core/wavePlan.ts, waveReduce.ts, wave.ts). */
import { type IterationRecord, type LoopState, initialLoopState } from '../../src/core/state.js';
import { cycle } from './fixtures.js';

/** A job's final state: `n` iterations on `id`, each costing $0.5, ending as `end`. */
export function jobState(id: string, n: number, end: 'closed' | 'escalated' | 'no_change' | 'unfinished'): LoopState {
  const history: IterationRecord[] = Array.from({ length: n }, (_, k) => ({
    n: k + 1,
    issueIds: [id],
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, k)).toISOString(),
    durationMs: 30_000,
    outcome: k === n - 1 && end === 'closed' ? 'complete' : 'continuing',
    agent: { ok: true, exitCode: 0, signal: null, durationMs: 29_000, costUsd: 0.5 },
  }));
  const base = initialLoopState(n);
  return {
    ...base,
    iteration: n,
    successfulIterations: n - 1,
    failedIterations: 1,
    testFailures: 1,
    costUsd: 0.5 * n,
    tokens: { input: 10 * n, output: n },
    history,
    issuesClosed: end === 'closed' ? [id] : [],
    completedIterations: end === 'closed' ? [n] : [],
    issuesEscalated: end === 'escalated' ? [id] : [],
    totalEscalations: end === 'escalated' ? 1 : 0,
    consecutiveEscalations: end === 'escalated' ? 1 : 0,
    escalations:
      end === 'escalated'
        ? [{ issueIds: [id], titles: [id], iteration: n, steps: ['verify'], reason: 'tests', at: 'x', note: '' }]
        : [],
    issuesNoChange: end === 'no_change' ? [id] : [],
    pullRequests:
      end === 'closed'
        ? [{ issueIds: [id], number: Number(id), url: `https://github.test/pull/${id}`, reused: false, iteration: n }]
        : [],
    currentCycle: end === 'unfinished' ? cycle([id]) : undefined,
    halt: end === 'escalated' ? { reason: 'all_escalated', message: 'only escalated issues remain' } : undefined,
  };
}
