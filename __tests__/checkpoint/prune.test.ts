/** Pruning before publishing (issue 14, src/checkpoint/cleanup.ts planPrune and src/action/prune.ts). */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { KEPT_CHECKPOINTS, pruneCheckpoints, pruneLogs, stillNeeded } from '../../src/action/prune.js';
import { planPrune } from '../../src/checkpoint/cleanup.js';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import type { Checkpoint } from '../../src/checkpoint/types.js';
import { initialLoopState } from '../../src/core/state.js';
import { cycle } from '../core/fixtures.js';
import { FakeClock, checkpoint, removeDir, tempStateDir } from './fixtures.js';

/** Checkpoint n of a series, one hour apart (n = 0 the oldest); finished unless told. */
const nth = (n: number, over: Partial<Checkpoint> = {}): Checkpoint =>
  checkpoint({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    phase: 'implementation-complete',
    timestamp: new Date(Date.UTC(2026, 10, 1, n)).toISOString().replace('.000Z', 'Z'),
    sequence: n,
    state: { loop: initialLoopState(10) },
    ...over,
  });
const ids = (cps: Checkpoint[]) => cps.map((cp) => Number(cp.id.slice(-12)));
const none = () => false;

describe('planPrune (issue 14)', () => {
  it('keeps the newest N, newest first, and removes the rest', () => {
    const all = [0, 1, 2, 3, 4, 5].map((n) => nth(n));
    const plan = planPrune(all, { keep: 3, needed: none });
    expect(ids(plan.keep)).toEqual([5, 4, 3]);
    expect(ids(plan.remove)).toEqual([2, 1, 0]);
  });

  it('never removes the one in use, the newest resumable one, or one still needed, however old', () => {
    const all = [nth(0), nth(1, { phase: 'beads_integration-complete' }), nth(2), nth(3), nth(4), nth(5)];
    const plan = planPrune(all, { keep: 2, inUse: nth(2).id, needed: (cp) => cp.id === nth(0).id });
    expect(ids(plan.keep)).toEqual([5, 4, 2, 1, 0]);
    expect(ids(plan.remove)).toEqual([3]);
  });

  it('rejects a count below one', () => {
    expect(() => planPrune([nth(0)], { keep: 0, needed: none })).toThrow(RangeError);
  });
});

describe('stillNeeded', () => {
  it('a checkpoint whose loop holds a halt or finished work in its outbox; not a finished or unreadable one', () => {
    const loop = initialLoopState(10);
    const entry = {
      kind: 'finishCycle',
      cycle: cycle(['7']),
      noChange: false,
      iteration: 3,
      recordedAt: 'x',
      attempts: 0,
    };
    expect(stillNeeded(nth(0, { state: { loop: { ...loop, halt: { reason: 'failure_loop', message: 'x' } } } }))).toBe(
      true,
    );
    expect(stillNeeded(nth(0, { state: { loop: { ...loop, outbox: [entry] } } }))).toBe(true);
    expect(stillNeeded(nth(0))).toBe(false);
    expect(stillNeeded(nth(0, { state: { plan: {} } }))).toBe(false);
  });
});

describe('pruneCheckpoints', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempStateDir();
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it(`removes from the state directory all but the newest ${KEPT_CHECKPOINTS} and the one in use, and says which`, async () => {
    const clock = new FakeClock(new Date('2026-11-01T00:00:00Z'));
    const store = new FileCheckpointStore(dir, { clock });
    const written: string[] = [];
    for (let n = 0; n < KEPT_CHECKPOINTS + 3; n++) {
      const id = nth(n).id;
      await store.write({ id, phase: 'implementation-complete', state: { loop: initialLoopState(10) } });
      written.push(id);
      clock.advance(60_000);
    }
    const said: string[] = [];
    const removed = await pruneCheckpoints(dir, {
      inUse: written[0],
      log: { info: (m) => said.push(m), warning: (m) => said.push(`warning: ${m}`) },
    });
    expect(removed).toEqual([written[2], written[1]]);
    const left = (await fs.readdir(store.dir)).sort();
    expect(left).toEqual([written[0], ...written.slice(3)].map((id) => `${id}.json`).sort());
    expect(said).toEqual([expect.stringMatching(/^Pruned 2 older checkpoint\(s\) before publishing/)]);
    // Once another checkpoint is in use, the old one goes too.
    const quiet = { info: () => {}, warning: () => {} };
    expect(await pruneCheckpoints(dir, { inUse: written.at(-1), log: quiet })).toEqual([written[0]]);
  });
});

describe('pruneLogs', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempStateDir();
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('publishes the newest iteration logs up to the budget, always the newest one, other files untouched', async () => {
    const logs = path.join(dir, 'logs');
    await fs.mkdir(logs, { recursive: true });
    for (const n of [1, 2, 3, 9, 10]) await fs.writeFile(path.join(logs, `iteration-${n}.log`), 'x'.repeat(400));
    await fs.writeFile(path.join(logs, 'notes.txt'), 'y'.repeat(5000));
    const said: string[] = [];
    const log = { info: (m: string) => said.push(m), warning: (m: string) => said.push(`warning: ${m}`) };
    const removed = await pruneLogs(dir, { budget: 1000, log });
    expect(removed.sort()).toEqual(['iteration-1.log', 'iteration-2.log', 'iteration-3.log']);
    expect((await fs.readdir(logs)).sort()).toEqual(['iteration-10.log', 'iteration-9.log', 'notes.txt']);
    expect(said).toEqual([expect.stringMatching(/^Left 3 older iteration log\(s\) out of the published state/)]);
    // One log over the budget alone is still published; no logs directory is nothing to do.
    expect(await pruneLogs(dir, { budget: 10, log })).toEqual(['iteration-9.log']);
    expect(await pruneLogs(path.join(dir, 'none'), { log })).toEqual([]);
  });
});
