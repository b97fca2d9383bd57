/** The run result's closing line (src/core/result.ts summaryLine): its words say what happened. */
import { describe, expect, it } from '@jest/globals';
import { buildResult, summaryLine } from '../../src/core/result.js';
import { type LoopState, initialLoopState } from '../../src/core/state.js';

const resultOf = (over: Partial<LoopState>) =>
  buildResult({
    status: 'complete',
    state: { ...initialLoopState(100), iteration: 1, successfulIterations: 1, ...over },
    checkpointId: 'c0ffee00-0000-4000-8000-000000000000',
    sliceStartIteration: 0,
    durationMs: 1000,
    interrupted: false,
  });
const lineOf = (text: string, start: string) => text.split('\n').find((l) => l.startsWith(start));

describe('summaryLine', () => {
  it('issue 40: accepted work with a failure from before the cycle says "tests passed: true", the failure named beside', () => {
    const text = summaryLine(
      resultOf({ testsPassed: true, issuesClosed: ['bd-1'], preexistingFailures: ['legacy works'] }),
    );
    expect(lineOf(text, '  tests passed')).toBe(
      '  tests passed: true, except 1 failing before (listed below); closed: bd-1',
    );
    expect(lineOf(text, '  failing before')).toBe('  failing before and still failing, not targeted (1): legacy works');
  });

  it('passed, failed and not run, as they are', () => {
    expect(lineOf(summaryLine(resultOf({ testsPassed: true })), '  tests passed')).toBe(
      '  tests passed: true; closed: none',
    );
    expect(lineOf(summaryLine(resultOf({ testsPassed: false, preexistingFailures: ['x'] })), '  tests passed')).toBe(
      '  tests passed: false; closed: none',
    );
    expect(lineOf(summaryLine(resultOf({ testsPassed: null })), '  tests passed')).toBe(
      '  tests passed: not run; closed: none',
    );
  });
});
