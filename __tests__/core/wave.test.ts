/** Fan-out (issue 16): the wave planner (src/core/wavePlan.ts) and the reduce (src/core/waveReduce.ts). */
import { describe, expect, it } from '@jest/globals';
import { type LoopState, type Wave, initialLoopState } from '../../src/core/state.js';
import { type WaveCandidate, planWave, shareOut } from '../../src/core/wavePlan.js';
import { type PartialState, reduceWave, standingHalt } from '../../src/core/waveReduce.js';
import { ESCALATED_LABEL } from '../../src/issues/types.js';
import { cycle } from './fixtures.js';
import { jobState } from './waveFixtures.js';
import { buildDiagnostic } from '../../src/core/diagnostic.js';
import { renderMarkdown } from '../../src/report/diagnostic.js';

const issue = (id: string, over: Partial<WaveCandidate> = {}): WaveCandidate => ({
  id,
  title: `Title ${id}`,
  labels: ['agent-loop'],
  ...over,
});
const ids = (n: number) => Array.from({ length: n }, (_, k) => issue(String(k + 1)));
const settings = { parallel: 4, maxIterations: 100, checkpointId: 'run-a' };

describe('planWave', () => {
  it('picks up to N ready issues in the source order, each job a share of the iterations left', () => {
    const plan = planWave(ids(12), initialLoopState(100), settings);
    expect(plan.jobs.map((j) => j.issueId)).toEqual(['1', '2', '3', '4']);
    expect(plan.jobs.map((j) => j.maxIterations)).toEqual([25, 25, 25, 25]);
    expect(plan.deferred).toHaveLength(8);
    expect(plan.deferred.every((d) => d.why === 'parallel')).toBe(true);
    expect(plan.stop).toBeUndefined();
  });

  it('the shares sum to what is left, never more: 10 left over 4 jobs is 3, 3, 2, 2', () => {
    const plan = planWave(ids(6), { ...initialLoopState(100), iteration: 90 }, settings);
    expect(plan.jobs.map((j) => j.maxIterations)).toEqual([3, 3, 2, 2]);
    expect(shareOut(10, 4).reduce((a, b) => a + b, 0)).toBe(10);
    expect(shareOut(7, 3)).toEqual([3, 2, 2]);
  });

  it('fewer iterations left than N: one job per iteration left, the rest deferred for iterations', () => {
    const plan = planWave(ids(6), { ...initialLoopState(100), iteration: 98 }, settings);
    expect(plan.jobs.map((j) => [j.issueId, j.maxIterations])).toEqual([
      ['1', 1],
      ['2', 1],
    ]);
    expect(plan.deferred[0]).toEqual({ issueId: '3', why: 'iterations' });
  });

  it('no iteration left with work ready halts max_iterations; no spend left halts budget', () => {
    expect(planWave(ids(2), { ...initialLoopState(100), iteration: 100 }, settings).stop).toMatchObject({
      kind: 'halted',
      reason: 'max_iterations',
    });
    const spent = { ...initialLoopState(100), costUsd: 5 };
    expect(planWave(ids(2), spent, { ...settings, maxCostUsd: 5 }).stop).toMatchObject({
      kind: 'halted',
      reason: 'budget',
    });
  });

  it('each job gets an equal part of the spend left under --max-cost-usd', () => {
    const plan = planWave(ids(4), { ...initialLoopState(100), costUsd: 2 }, { ...settings, maxCostUsd: 10 });
    expect(plan.jobs.map((j) => j.maxCostUsd)).toEqual([2, 2, 2, 2]);
  });

  it('never picks an issue another run holds a live claim on; its own checkpoint’s claims are its own', () => {
    const ready = [
      issue('1', { claimedBy: { run: 'r2', expires: '2099-01-01T00:00:00Z', checkpoint: 'run-b' } }),
      issue('2', { claimedBy: { run: 'r1', expires: '2099-01-01T00:00:00Z', checkpoint: 'run-a' } }),
      issue('3'),
    ];
    const plan = planWave(ready, initialLoopState(100), settings);
    expect(plan.jobs.map((j) => j.issueId)).toEqual(['2', '3']);
    expect(plan.claimedElsewhere).toEqual(['1']);
  });

  it('everything claimed elsewhere is idle, not a halt; nothing ready is complete', () => {
    const claimed = issue('1', { claimedBy: { run: 'r2', expires: '2099-01-01T00:00:00Z', checkpoint: 'run-b' } });
    expect(planWave([claimed], initialLoopState(100), settings).stop?.kind).toBe('idle');
    expect(planWave([], initialLoopState(100), settings).stop?.kind).toBe('complete');
  });

  it('escalated and done issues are not picked; only escalated ones left halts all_escalated', () => {
    const loop = { ...initialLoopState(100), issuesClosed: ['1'], issuesNoChange: ['2'] };
    const ready = [issue('1'), issue('2'), issue('3', { labels: ['agent-loop', ESCALATED_LABEL] }), issue('4')];
    const plan = planWave(ready, loop, settings);
    expect(plan.jobs.map((j) => j.issueId)).toEqual(['4']);
    expect(plan.escalated).toEqual(['3']);
    expect(planWave(ready.slice(0, 3), loop, settings).stop).toMatchObject({ reason: 'all_escalated' });
  });

  it('an issue escalated since the run started is not picked again, labelled or not (sliceStartIteration)', () => {
    const loop = {
      ...initialLoopState(100),
      iteration: 7,
      escalations: [
        { issueIds: ['2'], titles: ['2'], iteration: 6, steps: ['verify'], reason: 'r', at: 'x', note: '' },
      ],
    };
    expect(planWave(ids(3), loop, settings).jobs.map((j) => j.issueId)).toEqual(['1', '2', '3']);
    const plan = planWave(ids(3), loop, { ...settings, sliceStartIteration: 5 });
    expect(plan.jobs.map((j) => j.issueId)).toEqual(['1', '3']);
    expect(plan.escalated).toEqual(['2']);
    expect(planWave([issue('2')], loop, { ...settings, sliceStartIteration: 5 }).stop).toMatchObject({
      reason: 'all_escalated',
    });
  });

  it('two issues where one depends on the other are never in the same wave', () => {
    const ready = [issue('1'), issue('2', { dependsOn: ['1'] }), issue('3'), issue('4')];
    const plan = planWave(ready, initialLoopState(100), { ...settings, parallel: 3 });
    expect(plan.jobs.map((j) => j.issueId)).toEqual(['1', '3', '4']);
    expect(plan.deferred).toEqual([{ issueId: '2', why: 'dependency' }]);
  });

  it('a re-queued issue carries why it is worked again', () => {
    const loop = { ...initialLoopState(100), requeued: [{ issueId: '2', reason: 'merge conflict in a.txt' }] };
    const plan = planWave(ids(2), loop, settings);
    expect(plan.jobs[1]).toMatchObject({ issueId: '2', context: 'merge conflict in a.txt' });
  });

  it("an issue's job carries the counts its earlier jobs left (LoopState.issueCounts); the others carry none", () => {
    const loop = { ...initialLoopState(100), issueCounts: { '2': { unfinishedRuns: 7, silentIterations: 1 } } };
    const plan = planWave(ids(2), loop, settings);
    expect(plan.jobs[0]?.counts).toBeUndefined();
    expect(plan.jobs[1]).toMatchObject({ issueId: '2', counts: { unfinishedRuns: 7, silentIterations: 1 } });
  });
});

const wave = (jobIds: string[]): Wave => ({
  id: 'w1',
  startedAt: '2026-01-01T00:00:00Z',
  jobs: jobIds.map((id) => ({ issueId: id, title: `Title ${id}`, maxIterations: 5 })),
});
const limits = { maxIterations: 100, maxConsecutiveEscalations: 2 };

describe('reduceWave', () => {
  it('sums every count exactly and numbers the jobs’ iterations on after the loop’s, job by job', () => {
    const main = { ...initialLoopState(100), iteration: 10, successfulIterations: 10, costUsd: 1 };
    const partials: PartialState[] = [
      { issueId: '1', loop: jobState('1', 3, 'closed') },
      { issueId: '2', loop: jobState('2', 2, 'no_change') },
      { issueId: '3', loop: jobState('3', 4, 'unfinished') },
    ];
    const { loop, rows, halt } = reduceWave(
      { ...main, wave: wave(['1', '2', '3']) },
      wave(['1', '2', '3']),
      partials,
      limits,
    );
    expect(halt).toBeUndefined();
    expect(loop.iteration).toBe(19);
    expect(loop.successfulIterations).toBe(10 + 2 + 1 + 3);
    expect(loop.failedIterations).toBe(3);
    expect(loop.testFailures).toBe(3);
    expect(loop.costUsd).toBeCloseTo(1 + 4.5);
    expect(loop.tokens).toEqual({ input: 90, output: 9 });
    expect(loop.history.map((r) => r.n)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(loop.completedIterations).toEqual([13]);
    expect(loop.issuesClosed).toEqual(['1']);
    expect(loop.issuesNoChange).toEqual(['2']);
    expect(loop.pullRequests).toEqual([expect.objectContaining({ url: 'https://github.test/pull/1', iteration: 13 })]);
    expect(loop.wave).toBeUndefined();
    expect(loop.waves).toBe(1);
    expect(rows.map((r) => [r.issueId, r.outcome, r.first, r.last])).toEqual([
      ['1', 'closed', 11, 13],
      ['2', 'no_change', 14, 15],
      ['3', 'unfinished', 16, 19],
    ]);
    expect(rows[0]).toMatchObject({ costUsd: 1.5, pullRequest: 'https://github.test/pull/1', durationMs: 150_000 });
  });

  it("an unfinished job's cycle counts are carried to the issue's next job; an issue that ends (closed, escalated) drops its own; a lost job's stay", () => {
    const unfinished = jobState('3', 4, 'unfinished');
    const partials: PartialState[] = [
      { issueId: '1', loop: jobState('1', 3, 'closed') },
      { issueId: '2', loop: jobState('2', 2, 'escalated') },
      {
        issueId: '3',
        loop: { ...unfinished, currentCycle: { ...cycle(['3']), unfinishedRuns: 9, silentIterations: 2 } },
      },
      { issueId: '4' },
    ];
    const carried = {
      '1': { unfinishedRuns: 3, silentIterations: 0 },
      '2': { unfinishedRuns: 5, silentIterations: 0 },
      '4': { unfinishedRuns: 6, silentIterations: 1 },
      '9': { unfinishedRuns: 1, silentIterations: 0 },
    };
    const { loop } = reduceWave(
      { ...initialLoopState(100), issueCounts: carried },
      wave(['1', '2', '3', '4']),
      partials,
      limits,
    );
    expect(loop.issueCounts).toEqual({
      '3': { unfinishedRuns: 9, silentIterations: 2 },
      '4': { unfinishedRuns: 6, silentIterations: 1 },
      '9': { unfinishedRuns: 1, silentIterations: 0 },
    });
    const none = reduceWave(initialLoopState(100), wave(['1']), [partials[0] as PartialState], limits);
    expect(none.loop.issueCounts).toBeUndefined();
  });

  it('issue 40: a job whose issue was closed as no change (its own targets pass) is a closed row; one left open a no_change row', () => {
    const closedNoChange = { ...jobState('1', 1, 'no_change'), issuesClosed: ['1'] };
    const { loop, rows } = reduceWave(
      initialLoopState(100),
      wave(['1', '2']),
      [
        { issueId: '1', loop: closedNoChange },
        { issueId: '2', loop: jobState('2', 1, 'no_change') },
      ],
      limits,
    );
    expect(rows.map((r) => [r.issueId, r.outcome])).toEqual([
      ['1', 'closed'],
      ['2', 'no_change'],
    ]);
    expect(loop.issuesNoChange).toEqual(['1', '2']);
    expect(loop.issuesClosed).toEqual(['1']);
  });

  it('issue 42: a job whose work was held for a person is a held row (its outbox entry still to land or not), never closed; the loop keeps it held', () => {
    const held = { id: '1', reason: 'tests-changed' as const };
    const landed = { ...jobState('1', 1, 'unfinished'), issuesHeld: [held] };
    const c = { ...cycle(['2']), branch: 'agent-loop/2' };
    const pending = {
      ...jobState('2', 1, 'unfinished'),
      issuesHeld: [{ id: '2', reason: 'unverified' as const }],
      outbox: [
        {
          kind: 'finishCycle' as const,
          cycle: c,
          noChange: false,
          iteration: 1,
          recordedAt: '2026-01-01T00:00:00Z',
          attempts: 0,
          held: { reason: 'unverified' as const, why: 'no evidence' },
        },
      ],
    };
    const { loop, rows } = reduceWave(
      initialLoopState(100),
      wave(['1', '2']),
      [
        { issueId: '1', loop: landed },
        { issueId: '2', loop: pending },
      ],
      limits,
    );
    expect(rows.map((r) => [r.issueId, r.outcome])).toEqual([
      ['1', 'held'],
      ['2', 'held'],
    ]);
    expect(loop.issuesHeld).toEqual([held, { id: '2', reason: 'unverified' }]);
    expect(loop.issuesClosed).toEqual([]);
  });

  it('a job that left no cycle of its issue (it could not start, it lost its claim) leaves the carried counts as they were', () => {
    const counts = { '5': { unfinishedRuns: 4, silentIterations: 2 } };
    const { loop, rows } = reduceWave(
      { ...initialLoopState(100), issueCounts: counts },
      wave(['5']),
      [{ issueId: '5', loop: initialLoopState(5) }],
      limits,
    );
    expect(rows[0]?.outcome).toBe('unfinished');
    expect(loop.issueCounts).toEqual(counts);
  });

  it('a job that saved nothing counts nothing and is reported lost', () => {
    const { loop, rows } = reduceWave(
      initialLoopState(100),
      wave(['1', '2']),
      [{ issueId: '1', loop: jobState('1', 2, 'closed') }, { issueId: '2' }],
      limits,
    );
    expect(loop.iteration).toBe(2);
    expect(rows[1]).toMatchObject({ issueId: '2', outcome: 'lost', iterations: 0 });
  });

  it('a job that saved nothing: what its claim comment recorded it ran is counted (never a lost count), up to its share', () => {
    const { loop, rows } = reduceWave(
      { ...initialLoopState(100), costUsd: 1 },
      wave(['1', '2']),
      [
        { issueId: '1', loop: jobState('1', 2, 'closed') },
        { issueId: '2', claimed: { iterations: 3, costUsd: 0.25 } },
      ],
      limits,
    );
    expect(loop.iteration).toBe(5);
    expect(loop.costUsd).toBeCloseTo(1 + 1 + 0.25);
    expect(rows[1]).toMatchObject({ outcome: 'lost', iterations: 3, costUsd: 0.25, countedFromClaim: true });
    expect(rows[1]?.first).toBeUndefined();
    // A claim that says more than the job's share cannot be the job's: capped at its share.
    const capped = reduceWave(
      initialLoopState(100),
      wave(['2']),
      [{ issueId: '2', claimed: { iterations: 999 } }],
      limits,
    );
    expect(capped.loop.iteration).toBe(wave(['2']).jobs[0]!.maxIterations);
  });

  it('a state that cannot be one fresh job’s (more iterations than its share, other issues) is not counted', () => {
    const resumed = { ...jobState('1', 7, 'closed') };
    const other = jobState('9', 2, 'closed');
    const { loop, rows } = reduceWave(
      initialLoopState(100),
      wave(['1', '2']),
      [
        { issueId: '1', loop: resumed },
        { issueId: '2', loop: other },
      ],
      limits,
    );
    expect(loop.iteration).toBe(0);
    expect(rows.map((r) => r.outcome)).toEqual(['lost', 'lost']);
    expect(rows[0]?.problem).toMatch(/more than the job's share of 5/);
    expect(rows[1]?.problem).toMatch(/other issues \(9\)/);
  });

  it('two escalations in one wave with no success halt failure_loop after the reduce', () => {
    const partials = ['1', '2'].map((id) => ({ issueId: id, loop: jobState(id, 4, 'escalated') }));
    const { loop, halt, rows } = reduceWave(initialLoopState(100), wave(['1', '2']), partials, limits);
    expect(loop.consecutiveEscalations).toBe(2);
    expect(loop.totalEscalations).toBe(2);
    expect(loop.escalations.map((e) => e.iteration)).toEqual([4, 8]);
    expect(halt).toMatchObject({ reason: 'failure_loop' });
    expect(halt?.message).toContain('1, 2');
    // A job's own all_escalated (its one issue escalated) is not the run's halt.
    expect(rows.map((r) => r.outcome)).toEqual(['escalated', 'escalated']);
  });

  it("the output kept is the last job's run's, whose record ends the history: another job's is never quoted under it", () => {
    const printed = { ...jobState('1', 4, 'escalated'), lastAgentOutput: 'the output of job 1' };
    // Job 2's agent printed nothing: its run, the history's last record, has no output.
    const quiet = { ...jobState('2', 4, 'escalated'), lastAgentOutput: '' };
    const partials = [
      { issueId: '1', loop: printed },
      { issueId: '2', loop: quiet },
    ];
    const { loop, halt } = reduceWave(initialLoopState(100), wave(['1', '2']), partials, limits);
    expect(halt).toMatchObject({ reason: 'failure_loop' });
    expect(loop.history.at(-1)).toMatchObject({ n: 8, issueIds: ['2'] });
    expect(loop.lastAgentOutput).toBe('');
    // As the action's reduce diagnoses the wave's halt (src/action/reduceJob.ts): from the merged state.
    const md = renderMarkdown(
      buildDiagnostic({
        reason: 'failure_loop',
        message: 'm',
        state: loop,
        checkpointId: 'c',
        maxConsecutiveEscalations: 2,
      }),
    );
    expect(md).toContain('- Last agent run: iteration 8 on #2\n');
    expect(md).not.toContain('the output of job 1');
    // A job that ran no agent changes neither.
    const idle = { ...initialLoopState(5), lastAgentOutput: '' };
    const after = reduceWave(loop, wave(['3']), [{ issueId: '3', loop: idle }], limits).loop;
    expect(after.history.at(-1)).toMatchObject({ n: 8, issueIds: ['2'] });
    expect(reduceWave(printed, wave(['3']), [{ issueId: '3', loop: idle }], limits).loop.lastAgentOutput).toBe(
      'the output of job 1',
    );
  });

  it('a success in the wave breaks the streak; an escalation alone adds to the one before', () => {
    const mixed = reduceWave(
      { ...initialLoopState(100), consecutiveEscalations: 1 },
      wave(['1', '2']),
      [
        { issueId: '1', loop: jobState('1', 2, 'escalated') },
        { issueId: '2', loop: jobState('2', 2, 'closed') },
      ],
      limits,
    );
    expect(mixed.halt).toBeUndefined();
    expect(mixed.loop.consecutiveEscalations).toBe(0);
    const alone = reduceWave(
      { ...initialLoopState(100), consecutiveEscalations: 1 },
      wave(['1']),
      [{ issueId: '1', loop: jobState('1', 2, 'escalated') }],
      limits,
    );
    expect(alone.halt).toMatchObject({ reason: 'failure_loop' });
  });

  it('a job’s halt about the run halts the loop; its share running out does not', () => {
    const unavailable = {
      ...jobState('1', 1, 'unfinished'),
      halt: { reason: 'agent_unavailable' as const, message: 'auth failed' },
    };
    const shareOut = { ...jobState('2', 5, 'unfinished'), halt: { reason: 'max_iterations' as const, message: 'x' } };
    const r = reduceWave(
      initialLoopState(100),
      wave(['1', '2']),
      [
        { issueId: '1', loop: unavailable },
        { issueId: '2', loop: shareOut },
      ],
      limits,
    );
    expect(r.halt).toEqual({ reason: 'agent_unavailable', message: '1: auth failed', issueId: '1' });
    expect(r.rows.map((x) => x.outcome)).toEqual(['halted', 'unfinished']);
  });

  it('the sums are checked against the run’s limits: unfinished work at --max-iterations halts', () => {
    const r = reduceWave(
      { ...initialLoopState(10), iteration: 6 },
      wave(['1', '2']),
      [
        { issueId: '1', loop: jobState('1', 2, 'unfinished') },
        { issueId: '2', loop: jobState('2', 2, 'unfinished') },
      ],
      { ...limits, maxIterations: 10 },
    );
    expect(r.loop.iteration).toBe(10);
    expect(r.halt).toMatchObject({ reason: 'max_iterations' });
    const budget = reduceWave(
      initialLoopState(100),
      wave(['1']),
      [{ issueId: '1', loop: jobState('1', 4, 'unfinished') }],
      { ...limits, maxCostUsd: 2 },
    );
    expect(budget.halt).toMatchObject({ reason: 'budget' });
  });

  it('unlanded work in a job’s outbox and its notices carry over, renumbered; its halt post does not', () => {
    const part = jobState('1', 2, 'unfinished');
    const withOutbox: LoopState = {
      ...part,
      currentCycle: undefined,
      outbox: [
        {
          kind: 'finishCycle',
          cycle: cycle(['1'], { startedAtIteration: 1 }),
          noChange: false,
          iteration: 2,
          recordedAt: 'x',
          attempts: 1,
        },
      ],
      notices: [
        { id: 'n1', what: { kind: 'markEscalated', issueIds: ['9'], note: 'x' }, recordedAt: 'x', attempts: 0 },
        { id: 'n2', what: { kind: 'notify', diagnostic: {} }, recordedAt: 'x', attempts: 0 },
      ],
    };
    const r = reduceWave(
      { ...initialLoopState(100), iteration: 5 },
      wave(['1']),
      [{ issueId: '1', loop: withOutbox }],
      limits,
    );
    expect(r.loop.outbox[0]).toMatchObject({ iteration: 7, cycle: { startedAtIteration: 6 } });
    expect(r.loop.notices.map((n) => n.id)).toEqual(['n1']);
    expect(r.rows[0]?.outcome).toBe('closed');
  });
});

describe('standingHalt: a halt another run recorded while a wave ran', () => {
  const wave = { startedAt: '2026-11-28T10:00:00.000Z' };
  const halt = (at?: string) => ({
    reason: 'publish_refused' as const,
    message: 'PUBLISH FAILING: 502',
    ...(at ? { at } : {}),
  });

  it('stands when it was recorded after the wave was planned: the wave’s reduce does not lift it', () => {
    const h = halt('2026-11-28T10:20:00.000Z');
    expect(standingHalt({ halt: h }, wave)).toEqual(h);
  });

  it('is lifted when the plan found it and went on (resumed, or its cause changed), or when it has no time', () => {
    expect(standingHalt({ halt: halt('2026-11-28T09:00:00.000Z') }, wave)).toBeUndefined();
    expect(standingHalt({ halt: halt() }, wave)).toBeUndefined();
    expect(standingHalt({}, wave)).toBeUndefined();
  });
});
