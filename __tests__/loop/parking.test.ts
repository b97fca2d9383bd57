/**
 * Parking what a halt left checked out (src/loop/parking.ts, issue 40): the issues a person changed
 * on the branch after the halt are told from what the agent changed before it, and the loop a
 * `--fresh` start parks is the newest one that left the branch.
 */
import { describe, expect, it } from '@jest/globals';
import type { Checkpoint } from '../../src/checkpoint/types.js';
import { initialLoopState } from '../../src/core/state.js';
import type { OpenRecord } from '../../src/issues/types.js';
import { branchLeft, changedSinceHalt, issueDigests, loopLeftOn } from '../../src/loop/parking.js';
import { cycle } from '../core/fixtures.js';

const open = (records: Record<string, Record<string, unknown>>): Map<string, OpenRecord> =>
  new Map(Object.entries(records).map(([id, record]) => [id, { standing: 'open', record }]));

describe('changedSinceHalt', () => {
  const atHalt = open({
    'bd-1': { id: 'bd-1', labels: ['agent-loop:escalated'], notes: 'escalated' },
    'bd-2': { id: 'bd-2', description: 'as the agent left it' },
  });
  const digests = issueDigests(atHalt);

  it('nothing when the file is as the halt left it (what the agent changed before the halt is in the digests)', () => {
    expect(changedSinceHalt(digests, atHalt)).toEqual([]);
  });

  it("the issues a person changed, reopened or filed since, in the source's order", () => {
    const now = open({
      'bd-1': { id: 'bd-1', labels: [], notes: 'escalated' },
      'bd-2': { id: 'bd-2', description: 'as the agent left it' },
      'bd-3': { id: 'bd-3', title: 'new' },
    });
    expect(changedSinceHalt(digests, now).map(([id]) => id)).toEqual(['bd-1', 'bd-3']);
    expect(changedSinceHalt(digests, now)[0]?.[1].record).toEqual({ id: 'bd-1', labels: [], notes: 'escalated' });
  });

  it('nothing without digests (a halt recorded before agent-loop kept them): as before, nothing is carried', () => {
    expect(changedSinceHalt(undefined, open({ 'bd-1': { id: 'bd-1' } }))).toEqual([]);
  });
});

describe('loopLeftOn', () => {
  const checkpoint = (id: string, timestamp: string, sequence: number, loop: Record<string, unknown>): Checkpoint => ({
    id,
    phase: 'halted',
    timestamp,
    sequence,
    state: { loop: { ...initialLoopState(10), ...loop } },
  });
  const store = (...checkpoints: Checkpoint[]) => ({ list: async () => ({ checkpoints, invalid: [] }) });

  it('the newest loop that left the branch checked out (its escalated cycle parked there, or its cycle in flight), with its base branch', async () => {
    const older = checkpoint('a', '2026-11-25T01:00:00Z', 1, { baseBranch: 'main', parkedBranch: 'agent-loop/1' });
    const newer = checkpoint('b', '2026-11-25T02:00:00Z', 2, {
      baseBranch: 'trunk',
      currentCycle: cycle(['1'], { branch: 'agent-loop/1' }),
    });
    const other = checkpoint('c', '2026-11-25T03:00:00Z', 3, { baseBranch: 'main', parkedBranch: 'agent-loop/2' });
    const found = await loopLeftOn(store(older, newer, other), 'agent-loop/1');
    expect(found?.baseBranch).toBe('trunk');
    expect(found && branchLeft(found)).toBe('agent-loop/1');
  });

  it('none for a branch no loop left, or one whose loop has no base branch: starting over there is still refused', async () => {
    const noBase = checkpoint('a', '2026-11-25T01:00:00Z', 1, { parkedBranch: 'agent-loop/1' });
    expect(await loopLeftOn(store(noBase), 'agent-loop/1')).toBeUndefined();
    expect(await loopLeftOn(store(), 'agent-loop/1')).toBeUndefined();
  });
});
