/** Idle runs cost nothing (issue 14, src/core/idle.ts): which runs have nothing to do before they start. */
import { describe, expect, it } from '@jest/globals';
import { idleness } from '../../src/core/idle.js';
import { type LoopState, initialLoopState } from '../../src/core/state.js';
import { ESCALATED_LABEL } from '../../src/issues/types.js';
import { cycle } from './fixtures.js';

const loop = (over: Partial<LoopState> = {}): LoopState => ({ ...initialLoopState(10), iteration: 3, ...over });
const issue = (id: string, labels: string[] = ['agent-loop']) => ({ id, title: id, labels });
const one = { batch: false };

describe('idleness (issue 14)', () => {
  it('idle: no ready issue, no cycle in flight, nothing in the outbox, no halt', () => {
    expect(idleness(loop(), [], one)).toEqual({ idle: true });
    expect(idleness(initialLoopState(10), [], { batch: true })).toEqual({ idle: true });
  });

  it('issues closed or found already satisfied in this run are not work, even when the source still lists them', () => {
    expect(idleness(loop({ issuesClosed: ['1'], issuesNoChange: ['2'] }), [issue('1'), issue('2')], one)).toEqual({
      idle: true,
    });
  });

  it('an issue ready is work; so is an escalated one alone (the core halts all_escalated over it)', () => {
    expect(idleness(loop(), [issue('4')], one)).toEqual({ idle: false, because: '4 is ready' });
    expect(idleness(loop(), [issue('5', ['agent-loop', ESCALATED_LABEL])], one)).toEqual({
      idle: false,
      because: 'only escalated issues are ready (5)',
    });
  });

  it('a cycle in flight, finished work in the outbox, a notice left unsent, a branch to park or a halt is work, whatever the issues say', () => {
    const entry = {
      kind: 'finishCycle' as const,
      cycle: cycle(['7']),
      noChange: false,
      iteration: 3,
      recordedAt: 'x',
      attempts: 0,
    };
    const cases: Array<[Partial<LoopState>, string]> = [
      [{ currentCycle: cycle(['6']) }, 'a cycle is in flight (6)'],
      [{ outbox: [entry] }, 'finished work waits in the outbox'],
      [
        {
          notices: [
            { id: 'n', what: { kind: 'markEscalated', issueIds: ['9'], note: 'x' }, recordedAt: 'x', attempts: 0 },
          ],
        },
        'notices wait to be sent',
      ],
      [{ parkedBranch: 'agent-loop/8' }, 'the branch agent-loop/8 waits to be parked'],
      [{ halt: { reason: 'failure_loop', message: 'x' } }, 'the checkpoint holds a halt'],
    ];
    for (const [over, because] of cases) expect(idleness(loop(over), [], one)).toEqual({ idle: false, because });
  });
});
