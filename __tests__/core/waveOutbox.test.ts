/** Fan-out (issue 16): finished work a wave could not land, landed by a wave's landing job (src/core/waveOutbox.ts). */
import { describe, expect, it } from '@jest/globals';
import { type LoopState, type Notice, type OutboxEntry, initialLoopState } from '../../src/core/state.js';
import { awaitingLanding, landingDue, noticesOwed, outboxKey, reduceLanding } from '../../src/core/waveOutbox.js';
import { planWave } from '../../src/core/wavePlan.js';
import { cycle } from './fixtures.js';

const entry = (id: string, over: Partial<OutboxEntry> = {}): OutboxEntry => ({
  kind: 'finishCycle',
  cycle: cycle([id], { branch: `agent-loop/issue-${id}`, startedAtIteration: 1 }),
  noChange: false,
  iteration: 3,
  recordedAt: `2026-11-27T10:0${id}:00Z`,
  attempts: 1,
  closes: [id],
  ...over,
});
const withOutbox = (...entries: OutboxEntry[]): LoopState => ({
  ...initialLoopState(100),
  iteration: 9,
  outbox: entries,
});
const NOW = Date.parse('2026-11-27T11:00:00Z');

describe('the wave plan and the outbox', () => {
  it('an issue whose finished work waits in the outbox is never planned again; the others are', () => {
    const plan = planWave(
      ['1', '2', '3'].map((id) => ({ id, title: id, labels: [] })),
      withOutbox(entry('2')),
      { parallel: 4, maxIterations: 100 },
    );
    expect(plan.jobs.map((j) => j.issueId)).toEqual(['1', '3']);
    expect([...awaitingLanding(withOutbox(entry('2')))]).toEqual(['2']);
  });

  it('with only such issues ready the wave is idle (work waits to land), not complete', () => {
    const plan = planWave([{ id: '2', title: '2', labels: [] }], withOutbox(entry('2')), {
      parallel: 4,
      maxIterations: 100,
    });
    expect(plan.jobs).toEqual([]);
    expect(plan.stop).toMatchObject({ kind: 'idle' });
    expect(plan.stop?.message).toContain('waits to land');
  });

  it('a landing job takes the whole outbox, unless its first entry waits out a backoff', () => {
    const a = entry('1');
    const b = entry('2');
    expect(landingDue(withOutbox(a, b), NOW)).toEqual([outboxKey(a), outboxKey(b)]);
    expect(landingDue(withOutbox(), NOW)).toEqual([]);
    expect(landingDue(withOutbox({ ...a, notBefore: '2026-11-27T11:05:00Z' }, b), NOW)).toEqual([]);
    expect(landingDue(withOutbox({ ...a, notBefore: '2026-11-27T10:55:00Z' }, b), NOW)).toHaveLength(2);
  });

  it('an entry keeps its key when a reduce renumbers its iterations', () => {
    const a = entry('1');
    expect(outboxKey({ ...a, iteration: 40, cycle: { ...a.cycle, startedAtIteration: 38 }, attempts: 3 })).toBe(
      outboxKey(a),
    );
    expect(outboxKey(entry('2'))).not.toBe(outboxKey(a));
  });
});

describe('reduceLanding', () => {
  const a = entry('1');
  const b = entry('2');
  const c = entry('3');

  it('entries landed leave the outbox, their issues closed and pull requests kept; one still failing is updated', () => {
    const loop = withOutbox(a, b, c);
    const stillFailing = { ...b, attempts: 2, lastError: 'HTTP 502', notBefore: '2026-11-27T11:10:00Z' };
    const part: LoopState = {
      ...initialLoopState(1),
      outbox: [stillFailing],
      issuesClosed: ['1'],
      pullRequests: [{ number: 7, url: 'https://x/pull/7', reused: false, issueIds: ['1'], iteration: 3 }],
    };
    // The job took a and b only (c was recorded after its plan): c stays as it was.
    const r = reduceLanding(loop, { took: [outboxKey(a), outboxKey(b)], loop: part });
    expect(r.loop.outbox).toEqual([stillFailing, c]);
    expect(r.loop.issuesClosed).toEqual(['1']);
    expect(r.loop.pullRequests.map((p) => p.number)).toEqual([7]);
    expect(r.loop.iteration).toBe(9);
    expect(r).toMatchObject({ landed: 1, left: 2 });
    expect(r.halt).toBeUndefined();
  });

  it("the loop's notices it took and sent leave the loop; one still failing is updated; others stay; its own new ones join", () => {
    const notice = (id: string, issue: string): Notice => ({
      id,
      what: { kind: 'markEscalated', issueIds: [issue], note: 'n' },
      recordedAt: '2026-11-27T10:00:00Z',
      attempts: 1,
    });
    const notify: Notice = { id: 'd', what: { kind: 'notify', diagnostic: {} }, recordedAt: 'x', attempts: 0 };
    const [sent, failing, later] = [notice('m1', '1'), notice('m2', '2'), notice('m3', '3')];
    const loop = { ...withOutbox(), notices: [sent, failing, later] };
    expect(noticesOwed({ notices: [...loop.notices, notify] })).toEqual(['m1', 'm2', 'm3']);
    const stillFailing = { ...failing, attempts: 2, lastError: 'HTTP 403' };
    const own = notice('m4', '4');
    const r = reduceLanding(loop, {
      took: ['m1', 'm2'],
      loop: { ...initialLoopState(1), notices: [stillFailing, own, notify] },
    });
    expect(r.loop.notices).toEqual([stillFailing, later, own]);
  });

  it('a landing job that left no state changes nothing: its entries are landed by a later wave', () => {
    const loop = withOutbox(a);
    const r = reduceLanding(loop, undefined);
    expect(r.loop).toBe(loop);
    expect(r).toMatchObject({ landed: 0, left: 1 });
    expect(r.problem).toContain('no state');
  });

  it('a state that ran the agent is not a landing job’s: not counted, nothing dropped', () => {
    const loop = withOutbox(a);
    const r = reduceLanding(loop, { took: [outboxKey(a)], loop: { ...initialLoopState(1), iteration: 1 } });
    expect(r.loop.outbox).toEqual([a]);
    expect(r.problem).toContain('1 iteration');
  });

  it('a landing job that took nothing (its restore found no outbox) drops nothing', () => {
    const r = reduceLanding(withOutbox(a), { took: [], loop: initialLoopState(1) });
    expect(r.loop.outbox).toEqual([a]);
    expect(r).toMatchObject({ landed: 0, left: 1 });
  });

  it('two overlapping runs landed the same entry: the second reduce adds its pull request once, counts no landing', () => {
    // Run B planned while run A's wave was in flight: both landing jobs took a (the pull request is
    // reused: one on GitHub). A's reduce dropped it; B's finds it gone and must not record it twice.
    const pr = { number: 7, url: 'https://x/pull/7', reused: false, issueIds: ['1'], iteration: 3 };
    const landedByA = { ...withOutbox(), issuesClosed: ['1'], pullRequests: [pr] };
    const partB: LoopState = {
      ...initialLoopState(1),
      issuesClosed: ['1'],
      pullRequests: [{ ...pr, reused: true }],
    };
    const r = reduceLanding(landedByA, { took: [outboxKey(a)], loop: partB });
    expect(r.loop.pullRequests).toEqual([pr]);
    expect(r.loop.issuesClosed).toEqual(['1']);
    expect(r).toMatchObject({ landed: 0, left: 0 });
  });

  it('a refused landing is the run’s halt; the job’s own halt post is not carried', () => {
    const part: LoopState = {
      ...initialLoopState(1),
      outbox: [{ ...a, attempts: 2 }],
      halt: { reason: 'publish_refused', message: 'PUBLISH REFUSED: 403' },
      notices: [{ id: 'n', what: { kind: 'notify', diagnostic: {} }, recordedAt: 'x', attempts: 0 }],
    };
    const r = reduceLanding(withOutbox(a), { took: [outboxKey(a)], loop: part });
    expect(r.halt).toEqual({ reason: 'publish_refused', message: 'landing earlier work: PUBLISH REFUSED: 403' });
    expect(r.loop.outbox[0]?.attempts).toBe(2);
    expect(r.loop.notices).toEqual([]);
  });

  it('the landing halt keeps the fix it names, for the reduce’s diagnostic and Discord post', () => {
    const part: LoopState = {
      ...initialLoopState(1),
      outbox: [{ ...a, attempts: 30 }],
      halt: { reason: 'publish_refused', message: 'PUBLISH FAILING: 502', advice: 'Check the remote, then resume.' },
    };
    const r = reduceLanding(withOutbox(a), { took: [outboxKey(a)], loop: part });
    expect(r.halt).toEqual({
      reason: 'publish_refused',
      message: 'landing earlier work: PUBLISH FAILING: 502',
      advice: 'Check the remote, then resume.',
    });
  });
});
