/** Issue 42: a cycle branch is continued only at a commit agent-loop left it at (src/core/cycleTips.ts). */
import { describe, expect, it } from '@jest/globals';
import {
  CYCLE_TIPS_KEPT,
  adoptable,
  asideName,
  foreignBranchMessage,
  recordTips,
  tipsOf,
} from '../../src/core/cycleTips.js';
import { initialLoopState } from '../../src/core/state.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('cycle tips (issue 42: only agent-loop’s own branches are continued)', () => {
  it('a branch is adoptable only at the tip recorded for it', () => {
    const loop = recordTips(initialLoopState(10), { 'agent-loop/bd-1': A });
    expect(adoptable(loop.cycleTips, 'agent-loop/bd-1', A)).toBe(true);
    expect(adoptable(loop.cycleTips, 'agent-loop/bd-1', B)).toBe(false);
    expect(adoptable(loop.cycleTips, 'agent-loop/bd-2', A)).toBe(false);
    expect(adoptable(undefined, 'agent-loop/bd-1', A)).toBe(false);
    expect(adoptable(loop.cycleTips, 'agent-loop/bd-1', undefined)).toBe(false);
  });

  it('recording a branch again keeps its newest tip, last; the oldest are forgotten past the bound', () => {
    let loop = recordTips(initialLoopState(10), { 'agent-loop/bd-1': A, 'agent-loop/bd-2': A });
    loop = recordTips(loop, { 'agent-loop/bd-1': B });
    expect(loop.cycleTips).toEqual({ 'agent-loop/bd-2': A, 'agent-loop/bd-1': B });
    expect(Object.keys(loop.cycleTips ?? {})).toEqual(['agent-loop/bd-2', 'agent-loop/bd-1']);
    for (let i = 0; i < CYCLE_TIPS_KEPT; i++) loop = recordTips(loop, { [`agent-loop/x-${i}`]: A });
    expect(Object.keys(loop.cycleTips ?? {})).toHaveLength(CYCLE_TIPS_KEPT);
    expect(loop.cycleTips?.['agent-loop/bd-1']).toBeUndefined();
    expect(recordTips(loop, {})).toBe(loop);
  });

  it('a foreign branch is moved aside outside agent-loop/, named for its branch and tip, and said so', () => {
    expect(asideName('agent-loop/bd-2', A)).toBe('agent-loop-untrusted/bd-2-aaaaaaaaaaaa');
    expect(foreignBranchMessage('agent-loop/bd-2', A, asideName('agent-loop/bd-2', A), 'main')).toBe(
      'agent-loop/bd-2 existed at aaaaaaaaaaaa, a commit agent-loop did not leave it at (an agent, or a person, made ' +
        "it): not continued, so nothing on it is landed as the issue's work. Moved aside to " +
        'agent-loop-untrusted/bd-2-aaaaaaaaaaaa (nothing lost); the cycle starts on a new agent-loop/bd-2 from main. ' +
        'To have that work landed, merge agent-loop-untrusted/bd-2-aaaaaaaaaaaa yourself, or delete it.',
    );
  });

  it('tipsOf: a new checkpoint starts with the tips recorded in the others, the newest record of a branch winning, at most CYCLE_TIPS_KEPT', () => {
    expect(tipsOf([])).toEqual({});
    expect(
      tipsOf([{ cycleTips: { 'agent-loop/a': '1', 'agent-loop/b': '2' } }, {}, { cycleTips: { 'agent-loop/a': '3' } }]),
    ).toEqual({ 'agent-loop/b': '2', 'agent-loop/a': '3' });
    const many = Object.fromEntries(Array.from({ length: CYCLE_TIPS_KEPT + 5 }, (_, i) => [`agent-loop/${i}`, `${i}`]));
    const kept = tipsOf([{ cycleTips: many }]);
    expect(Object.keys(kept)).toHaveLength(CYCLE_TIPS_KEPT);
    expect(kept['agent-loop/0']).toBeUndefined();
  });
});
