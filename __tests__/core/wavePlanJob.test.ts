/**
 * The wave machine (src/core/wave.ts) as the action's plan job drives it (src/core/wavePlanJob.ts),
 * stepped with no I/O: the halt weighed, the deferral when the issues could not be listed, the
 * wave planned, claimed round by round and handed on, or no wave with its status. Then a property:
 * whatever another run takes meanwhile, the plan ends once, hands on only issues it holds, and lets
 * go of every issue it holds but no longer plans.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { type LoopState, type OutboxEntry, initialLoopState } from '../../src/core/state.js';
import { cycle } from './fixtures.js';
import { type WaveEffect, type WaveEvent, type WaveModel, initialWaveModel, step } from '../../src/core/wave.js';
import type { WaveCandidate } from '../../src/core/wavePlan.js';

const NOW = '2026-01-01T00:00:00.000Z';
const ready = (...ids: string[]): WaveCandidate[] => ids.map((id) => ({ id, title: `Title ${id}`, labels: [] }));
const kinds = (effects: readonly WaveEffect[]) => effects.map((e) => e.kind);
const of = <K extends WaveEffect['kind']>(effects: readonly WaveEffect[], kind: K) =>
  effects.find((e): e is Extract<WaveEffect, { kind: K }> => e.kind === kind);

function planner(parallel: number, loop: LoopState = initialLoopState(20), resumeHalted = false): WaveModel {
  const settings = { parallel, maxIterations: 20, maxConsecutiveEscalations: 3, checkpointId: 'run-a', base: '' };
  return { ...initialWaveModel(loop, settings), planning: { resumeHalted, won: [], lost: [], round: 0 } };
}

function walk(model: WaveModel, events: WaveEvent[]) {
  let m = model;
  let last: readonly WaveEffect[] = [];
  for (const event of events) ({ model: m, effects: last } = step(m, event));
  return { model: m, effects: last };
}

const read = (...ids: string[]): WaveEvent => ({ type: 'readyRead', ready: ready(...ids), now: NOW });

describe('the wave machine: the plan job', () => {
  it('reads the ready issues first, then claims the planned ones before any wave goes out', () => {
    expect(step(planner(2), { type: 'started' }).effects).toEqual([{ kind: 'readReady' }]);
    const { effects } = walk(planner(2), [{ type: 'started' }, read('1', '2', '3')]);
    expect(effects).toEqual([{ kind: 'claimJobs', issueIds: ['1', '2'], held: [], since: NOW }]);
  });

  it('hands on the wave it holds, with the issues left for later, when every claim is won', () => {
    const { effects } = walk(planner(2), [read('1', '2', '3'), { type: 'claimed', won: ['1', '2'], lost: [] }]);
    const handed = of(effects, 'handWave')!;
    expect(kinds(effects)).toEqual(['handWave']);
    expect(handed.startedAt).toBe(NOW);
    expect(handed.jobs.map((j) => j.issueId)).toEqual(['1', '2']);
    expect(handed.deferred).toEqual([{ issueId: '3', why: 'parallel' }]);
    expect(handed.landing).toBeUndefined();
  });

  it('plans again without an issue another run claimed meanwhile, claiming only the new one', () => {
    const lost = walk(planner(2), [read('1', '2', '3'), { type: 'claimed', won: ['1'], lost: ['2'] }]);
    expect(lost.effects).toEqual([{ kind: 'claimJobs', issueIds: ['3'], held: ['1'], since: NOW }]);
    const { effects } = step(lost.model, { type: 'claimed', won: ['3'], lost: [] });
    expect(of(effects, 'handWave')!.jobs.map((j) => j.issueId)).toEqual(['1', '3']);
  });

  it('lets go of an issue it won in an earlier round that the wave planned last no longer holds', () => {
    // 2 depends on 1 and 3 on 2: with 1 lost to another run, 2 takes its place and 3 must wait.
    const chain: WaveCandidate[] = [
      { id: '1', title: 'One', labels: [] },
      { id: '2', title: 'Two', labels: [], dependsOn: ['1'] },
      { id: '3', title: 'Three', labels: [], dependsOn: ['2'] },
    ];
    const first = step(planner(2), { type: 'readyRead', ready: chain, now: NOW });
    expect(first.effects).toEqual([{ kind: 'claimJobs', issueIds: ['1', '3'], held: [], since: NOW }]);
    const again = step(first.model, { type: 'claimed', won: ['3'], lost: ['1'] });
    expect(again.effects).toEqual([{ kind: 'claimJobs', issueIds: ['2'], held: ['3'], since: NOW }]);
    const won = step(again.model, { type: 'claimed', won: ['2'], lost: [] });
    expect(won.effects).toEqual([{ kind: 'releaseClaims', issueIds: ['3'] }]);
    const { effects } = step(won.model, { type: 'claimsReleased' });
    expect(of(effects, 'handWave')!.jobs.map((j) => j.issueId)).toEqual(['2']);
  });

  it('stops planning again after `parallel` rounds: the wave is what it holds', () => {
    const { effects } = walk(planner(1), [
      read('1', '2', '3'),
      { type: 'claimed', won: [], lost: ['1'] },
      { type: 'claimed', won: [], lost: ['2'] },
    ]);
    expect(kinds(effects)).toEqual(['handWave']);
    expect(of(effects, 'handWave')!.jobs).toEqual([]);
  });

  it('a halt that stands holds the wave back (said, with its reason as the status), before any claim', () => {
    const halt = { reason: 'repository_moved' as const, message: 'The agent moved the repository' };
    const loop = { ...initialLoopState(20), halt };
    const { effects } = walk(planner(2, loop), [read('1')]);
    expect(kinds(effects)).toEqual(['note', 'noWave']);
    expect(of(effects, 'note')!.note).toMatchObject({ kind: 'haltStands', halt });
    expect(of(effects, 'noWave')).toEqual({
      kind: 'noWave',
      status: 'halted',
      why: 'the halt stands (repository_moved)',
      haltReason: 'repository_moved',
    });
    // --resume-halted: the halt is not weighed, the wave is planned.
    expect(kinds(walk(planner(2, loop, true), [read('1')]).effects)).toEqual(['claimJobs']);
  });

  it('issues that could not be listed defer the wave: never "complete"', () => {
    const unlisted = { message: 'GitHub failed.', what: 'listing open issues' };
    const { effects } = step(planner(2), { type: 'readyRead', ready: [], now: NOW, unlisted });
    expect(effects).toEqual([
      { kind: 'note', note: { kind: 'unlisted', message: 'GitHub failed.' } },
      { kind: 'noWave', status: 'deferred', why: 'listing open issues failed' },
    ]);
  });

  it('no issue to work ends the plan complete, or continuing while earlier work waits to land', () => {
    expect(step(planner(2), read()).effects).toEqual([{ kind: 'noWave', status: 'complete', why: expect.any(String) }]);
    const entry: OutboxEntry = {
      kind: 'finishCycle',
      cycle: cycle(['4'], { branch: 'agent-loop/issue-4' }),
      noChange: false,
      iteration: 3,
      recordedAt: NOW,
      attempts: 1,
      notBefore: '2027-01-01T00:00:00.000Z',
    };
    const waiting: LoopState = { ...initialLoopState(20), outbox: [entry] };
    const { effects } = step(planner(2, waiting), read());
    expect(kinds(effects)).toEqual(['note', 'noWave']);
    expect(of(effects, 'note')!.note).toEqual({
      kind: 'outbox',
      count: 1,
      notBefore: '2027-01-01T00:00:00.000Z',
      lastError: undefined,
    });
    expect(of(effects, 'noWave')!.status).toBe('continuing');
  });
});

describe('the wave machine: the plan job, whatever other runs claim', () => {
  it('ends once, hands on only the issues it holds and lets go of those it holds but no longer plans', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        (parallel, n, wins, chained) => {
          // Each issue may depend on the one before it: a claim lost can push an issue won out of the wave.
          const candidates = ready(...Array.from({ length: n }, (_, k) => String(k + 1))).map((c, k) =>
            chained[k] && k > 0 ? { ...c, dependsOn: [String(k)] } : c,
          );
          let stepped = step(planner(parallel), { type: 'readyRead', ready: candidates, now: NOW });
          const held = new Set<string>();
          const released = new Set<string>();
          let turn = 0;
          for (let rounds = 0; ; rounds++) {
            expect(rounds).toBeLessThanOrEqual(parallel + 2);
            const ask = stepped.effects.find((e) => e.kind === 'claimJobs' || e.kind === 'releaseClaims');
            if (!ask) break;
            if (ask.kind === 'releaseClaims') {
              for (const id of ask.issueIds) released.add(id);
              stepped = step(stepped.model, { type: 'claimsReleased' });
              continue;
            }
            expect(ask.held).toEqual([...held]);
            expect(ask.issueIds.some((id) => held.has(id))).toBe(false);
            const won = ask.issueIds.filter(() => wins[turn++ % wins.length]);
            for (const id of won) held.add(id);
            const lost = ask.issueIds.filter((id) => !won.includes(id));
            stepped = step(stepped.model, { type: 'claimed', won, lost });
          }
          const ends = stepped.effects.filter((e) => e.kind === 'handWave' || e.kind === 'noWave');
          expect(ends).toHaveLength(1);
          const end = ends[0]!;
          const jobs = end.kind === 'handWave' ? end.jobs.map((j) => j.issueId) : [];
          for (const id of jobs) expect(held.has(id)).toBe(true);
          for (const id of held) expect(jobs.includes(id) || released.has(id)).toBe(true);
        },
      ),
    );
  });
});
