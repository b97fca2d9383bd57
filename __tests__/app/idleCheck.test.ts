/** Before a run prepares anything (issue 14, src/app/idleCheck.ts): what it reads to decide, and what it hands on. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkIdle } from '../../src/app/idleCheck.js';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { type LoopState, initialLoopState } from '../../src/core/state.js';
import type { Issue, IssueSource } from '../../src/issues/types.js';
import { cycle } from '../core/fixtures.js';
import { ManualClock } from '../../fakes/index.js';

const ID = '3b241101-e2bb-4255-8caf-4136c566a962';
const options = { fresh: false, maxIterations: 10, batch: false };
const issue: Issue = { id: 'bd-1', title: 'Fix', body: '', status: 'open', labels: [], dependencies: [] };

let dir: string;
let reads: number;
const source = (ready: Issue[]): IssueSource => ({
  description: 'a fake',
  ready: async () => (reads++, ready),
  get: async () => undefined,
  close: async () => {},
  markEscalated: async () => {},
});
const clock = new ManualClock();
const checkpoint = (loop: Partial<LoopState>, phase: 'beads_integration-complete' | 'implementation-complete') =>
  new FileCheckpointStore(dir, { clock }).write({
    id: ID,
    phase,
    state: { loop: { ...initialLoopState(10), ...loop } },
  });

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-idle-'));
  reads = 0;
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('checkIdle (issue 14)', () => {
  it('a cycle in flight is work: the issues are not read (the run reads them when the cycle ends)', async () => {
    await checkpoint({ currentCycle: cycle(['bd-1']) }, 'beads_integration-complete');
    expect(await checkIdle(options, { stateDir: dir, clock, source: source([issue]) })).toEqual({ kind: 'work' });
    expect(reads).toBe(0);
  });

  it('a ready issue is work, and the issues read are handed on as the run’s first read', async () => {
    expect(await checkIdle(options, { stateDir: dir, clock, source: source([issue]) })).toEqual({
      kind: 'work',
      ready: [issue],
    });
    expect(reads).toBe(1);
  });

  it('not handed on when the run first waits out a rate limit (they would be stale)', async () => {
    await checkpoint({ rateLimitedUntil: '2026-11-21T11:00:00Z' }, 'beads_integration-complete');
    expect(await checkIdle(options, { stateDir: dir, clock, source: source([issue]) })).toEqual({ kind: 'work' });
  });

  it('nothing ready: idle, reporting the newest checkpoint even when it is finished; fresh is always work', async () => {
    await checkpoint({ iteration: 4 }, 'implementation-complete');
    const idle = await checkIdle(options, { stateDir: dir, clock, source: source([]) });
    expect(idle).toMatchObject({ kind: 'idle', checkpointId: ID, loop: { iteration: 4 } });
    expect(await checkIdle({ ...options, fresh: true }, { stateDir: dir, clock, source: source([]) })).toEqual({
      kind: 'work',
    });
  });

  it('issue 43: no issue read from a source with malformed lines is work (the run refuses it), not idle', async () => {
    const broken = { ...source([]), health: async () => ({ valid: 0, unreadable: 2 }) };
    expect(await checkIdle(options, { stateDir: dir, clock, source: broken })).toEqual({ kind: 'work' });
    const empty = { ...source([]), health: async () => ({ valid: 0, unreadable: 0 }) };
    expect(await checkIdle(options, { stateDir: dir, clock, source: empty })).toMatchObject({ kind: 'idle' });
  });
});
