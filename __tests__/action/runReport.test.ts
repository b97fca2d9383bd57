/**
 * The action step's verdict once the run returned (src/action/runReport.ts's stepFailure): which ends
 * fail the step, with what one error, and which stay green (issues 14, 16, 40).
 */
import { describe, expect, it } from '@jest/globals';
import { newOutcome, stepFailure } from '../../src/action/runReport.js';

describe('stepFailure', () => {
  it('fails a run that could not start with every problem and the input that installs a missing agent', () => {
    const outcome = {
      ...newOutcome(),
      problems: [{ code: 'agent_not_on_path' as const, message: 'claude is not on PATH' }],
    };
    expect(stepFailure(2, outcome, false)).toBe(
      'agent-loop: cannot start\n  - claude is not on PATH\nOn a hosted runner, set the input install-agent: true to have the action install the pinned CLI.',
    );
    expect(stepFailure(2, outcome, true)).toBe('agent-loop: cannot start\n  - claude is not on PATH');
  });

  it('fails a halt with its reason and message, and a stop without a result with what it said', () => {
    const halted = {
      ...newOutcome(),
      halted: { haltReason: 'budget' as const, error: 'the run spent $5.', resume: null },
    };
    expect(stepFailure(1, halted, false)).toBe(
      'agent-loop halted (budget): the run spent $5. The job summary holds the diagnostic.',
    );
    expect(stepFailure(1, { ...newOutcome(), stopped: 'the lock is held' }, false)).toBe(
      'agent-loop: the lock is held',
    );
  });

  it('keeps green a success, a halt that stands, a work job that ran out of its share, and a deferral', () => {
    expect(stepFailure(0, newOutcome(), false)).toBeUndefined();
    expect(stepFailure(1, { ...newOutcome(), standing: true }, false)).toBeUndefined();
    expect(stepFailure(1, { ...newOutcome(), jobLocal: true }, false)).toBeUndefined();
    expect(stepFailure(75, { ...newOutcome(), deferred: true }, false)).toBeUndefined();
  });
});
