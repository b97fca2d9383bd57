import { describe, expect, it } from '@jest/globals';
import type { ReportBlock } from '../../src/agents/types.js';
import { SILENT_ITERATIONS_LIMIT, decideContinuation, isCycleComplete } from '../../src/core/continuation.js';

const report = (r: Partial<ReportBlock>): ReportBlock => ({
  workRemainingEmpty: r.workRemaining === undefined || r.workRemaining.trim() === '' || r.workRemaining === '0',
  fields: {},
  ...r,
});
const fresh = { sameCount: 0 };

describe('defensive validation of the report block (seed 004)', () => {
  it('test case 1: work remains and the agent agrees: no override, continue', () => {
    const d = decideContinuation(
      report({ workRemaining: 'Phase_4 Phase_5 Phase_6', requiresContinuation: true }),
      fresh,
    );
    expect(d.contractViolation).toBeUndefined();
    expect(d.reportSaysDone).toBe(false);
  });

  it('test case 2: work remains but requires_continuation is false: overridden, a violation is reported', () => {
    const d = decideContinuation(
      report({ workRemaining: 'Phase_4 Phase_5 Phase_6', requiresContinuation: false }),
      fresh,
    );
    expect(d.contractViolation).toEqual({ workRemaining: 'Phase_4 Phase_5 Phase_6', requiresContinuation: false });
    expect(d.reportSaysDone).toBe(false);
  });

  it.each([['0'], [''], ['   ']])(
    'test cases 3-5: work_remaining %j with requires_continuation false means done',
    (w) => {
      const d = decideContinuation(
        report({ workRemaining: w, requiresContinuation: false, workRemainingEmpty: true }),
        fresh,
      );
      expect(d.contractViolation).toBeUndefined();
      expect(d.reportSaysDone).toBe(true);
    },
  );

  it('empty work_remaining but requires_continuation true is not done', () => {
    expect(
      decideContinuation(report({ workRemaining: '0', workRemainingEmpty: true, requiresContinuation: true }), fresh)
        .reportSaysDone,
    ).toBe(false);
  });

  it('stuck_detected: true ends the cycle as stuck', () => {
    expect(
      decideContinuation(report({ workRemaining: 'a', requiresContinuation: true, stuckDetected: true }), fresh).stuck,
    ).toMatch(/stuck_detected/);
  });

  it('the same non-empty work_remaining for 2 consecutive iterations counts as stuck', () => {
    const first = decideContinuation(report({ workRemaining: 'bd-1 bd-2', requiresContinuation: true }), fresh);
    expect(first.stuck).toBeUndefined();
    const second = decideContinuation(report({ workRemaining: 'bd-1 bd-2', requiresContinuation: true }), {
      workRemaining: first.workRemaining,
      sameCount: first.sameWorkRemainingCount,
    });
    expect(second.stuck).toMatch(/unchanged for 2 consecutive iterations/);
  });

  it('changing work_remaining is progress, not stuck', () => {
    const d = decideContinuation(report({ workRemaining: 'bd-2', requiresContinuation: true }), {
      workRemaining: 'bd-1 bd-2',
      sameCount: 1,
    });
    expect(d.stuck).toBeUndefined();
    expect(d.sameWorkRemainingCount).toBe(1);
  });

  it('no report: nothing is trusted, not done, the stuck count carries over, the silent count goes up', () => {
    expect(decideContinuation(undefined, { workRemaining: 'x', sameCount: 1 })).toEqual({
      reportSaysDone: false,
      workRemaining: 'x',
      sameWorkRemainingCount: 1,
      silentIterations: 1,
    });
  });

  it(`no report ${SILENT_ITERATIONS_LIMIT} iterations in a row: stuck for want of reports (decided after the completion check)`, () => {
    let previous = { sameCount: 0, silentCount: 0 };
    const said: Array<string | undefined> = [];
    for (let i = 0; i < SILENT_ITERATIONS_LIMIT; i++) {
      const d = decideContinuation(undefined, previous);
      said.push(d.silent);
      previous = { sameCount: d.sameWorkRemainingCount, silentCount: d.silentIterations };
    }
    expect(said.slice(0, -1)).toEqual(Array(SILENT_ITERATIONS_LIMIT - 1).fill(undefined));
    expect(said.at(-1)).toMatch(
      new RegExp(
        `ended ${SILENT_ITERATIONS_LIMIT} iterations in a row without a report block .*: nothing says the work moves on`,
      ),
    );
    expect(SILENT_ITERATIONS_LIMIT).toBe(3);
  });

  it('a report between silent iterations starts the silent count again', () => {
    const d = decideContinuation(report({ workRemaining: 'bd-1', requiresContinuation: true }), {
      sameCount: 0,
      silentCount: SILENT_ITERATIONS_LIMIT - 1,
    });
    expect(d.silentIterations).toBe(0);
    expect(decideContinuation(undefined, { sameCount: 1, silentCount: d.silentIterations }).silent).toBeUndefined();
  });
});

describe('completion check (REQ_019.1.5)', () => {
  it('is complete when every target is closed in the source', () => {
    expect(isCycleComplete([true, true], false)).toBe(true);
    expect(isCycleComplete([true, false], false)).toBe(false);
  });
  it('is complete when the report says no work remains', () => {
    expect(isCycleComplete([false], true)).toBe(true);
  });
});
