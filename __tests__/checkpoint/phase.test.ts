import { describe, expect, it } from '@jest/globals';
import {
  isHaltedCheckpoint,
  isSeedPhase,
  readPhase,
  runCheckpointPhase,
  type ReadPhase,
  type SliceEnd,
} from '../../src/checkpoint/phase.js';
import { isResumable, resumePoint } from '../../src/checkpoint/resume.js';
import { SEED_PHASES } from '../../src/checkpoint/schema.js';
import type { Checkpoint, RunStage, SeedPhase, TddStage } from '../../src/checkpoint/types.js';

/** Seed 001 REQ_018.2.2, .5, .6: `{phase-name}-{status}`, one of the six phases, complete or failed. */
const SEED_FORMAT =
  /^(research|decomposition|planning|phase_decomposition|beads_integration|implementation)-(complete|failed)$/;

describe('issue 41: which seed 001 phase a run writes (runCheckpointPhase)', () => {
  const table: [SliceEnd, TddStage | undefined, SeedPhase, RunStage][] = [
    ['continuing', undefined, 'beads_integration-complete', 'working'],
    ['deferred', undefined, 'beads_integration-complete', 'working'],
    ['continuing', 'red', 'beads_integration-complete', 'red'],
    ['continuing', 'green', 'beads_integration-complete', 'green'],
    ['deferred', 'refactor', 'beads_integration-complete', 'refactor'],
    ['complete', undefined, 'implementation-complete', 'complete'],
    ['complete', 'green', 'implementation-complete', 'complete'],
    ['halted', undefined, 'implementation-failed', 'halted'],
    ['halted', 'red', 'implementation-failed', 'halted'],
  ];
  it.each(table)('a slice that ends %s (workflow stage %s) writes %s, stage %s', (end, step, phase, stage) => {
    expect(runCheckpointPhase(end, step)).toEqual({ phase, stage });
  });

  it('REQ_018.2.5 REQ_018.2.6 every phase a run writes is in seed 001 format, and resumes as its stage says', () => {
    for (const [end, step] of table) {
      const { phase } = runCheckpointPhase(end, step);
      expect(phase).toMatch(SEED_FORMAT);
      expect(isSeedPhase(phase)).toBe(true);
      expect([end, isResumable({ phase })]).toEqual([end, end !== 'complete']);
    }
  });

  it('the seed phases are exactly the six phases times complete and failed', () => {
    expect(SEED_PHASES).toHaveLength(12);
    for (const phase of SEED_PHASES) expect(phase).toMatch(SEED_FORMAT);
    expect(
      ['working', 'halted', 'implementation-in_progress', 'testing-complete', 'implementation', '-complete'].filter(
        isSeedPhase,
      ),
    ).toEqual([]);
  });
});

describe('issue 41: a checkpoint read, whichever version wrote it (readPhase)', () => {
  const loop = { iteration: 3 };
  const table: [string, Checkpoint['state'], ReadPhase][] = [
    // This version: seed 001's phase, the stage in the state.
    [
      'beads_integration-complete',
      { stage: 'working', loop },
      { phase: 'beads_integration-complete', stage: 'working', writtenAs: null },
    ],
    [
      'beads_integration-complete',
      { stage: 'green', loop },
      { phase: 'beads_integration-complete', stage: 'green', writtenAs: null },
    ],
    [
      'implementation-complete',
      { stage: 'complete', loop },
      { phase: 'implementation-complete', stage: 'complete', writtenAs: null },
    ],
    [
      'implementation-failed',
      { stage: 'halted', loop },
      { phase: 'implementation-failed', stage: 'halted', writtenAs: null },
    ],
    // Issues 15 to 40: the run's stage as the phase.
    ['working', { loop }, { phase: 'beads_integration-complete', stage: 'working', writtenAs: 'working' }],
    ['red', { loop }, { phase: 'beads_integration-complete', stage: 'red', writtenAs: 'red' }],
    ['green', { loop }, { phase: 'beads_integration-complete', stage: 'green', writtenAs: 'green' }],
    ['refactor', { loop }, { phase: 'beads_integration-complete', stage: 'refactor', writtenAs: 'refactor' }],
    ['complete', { loop }, { phase: 'implementation-complete', stage: 'complete', writtenAs: 'complete' }],
    ['halted', { loop }, { phase: 'implementation-failed', stage: 'halted', writtenAs: 'halted' }],
    // Before issue 15 (and a plan's loop): seed 001's phase, no stage recorded.
    [
      'beads_integration-complete',
      { loop },
      { phase: 'beads_integration-complete', stage: 'working', writtenAs: null },
    ],
    ['implementation-complete', { loop }, { phase: 'implementation-complete', stage: 'complete', writtenAs: null }],
    ['implementation-failed', { loop }, { phase: 'implementation-failed', stage: 'halted', writtenAs: null }],
    // A plan's checkpoint before its loop: only the pipeline's phase says.
    [
      'beads_integration-complete',
      { pipeline: { goal: 'g' } },
      { phase: 'beads_integration-complete', stage: null, writtenAs: null },
    ],
    ['research-failed', { pipeline: { goal: 'g' } }, { phase: 'research-failed', stage: null, writtenAs: null }],
    // A run's checkpoint before issue 15 with an empty state: still a run's.
    ['beads_integration-complete', {}, { phase: 'beads_integration-complete', stage: 'working', writtenAs: null }],
    // A stage of another shape is not trusted.
    [
      'beads_integration-complete',
      { stage: 'sleeping', loop },
      { phase: 'beads_integration-complete', stage: 'working', writtenAs: null },
    ],
  ];
  it.each(table)('%s with state %j reads as %j', (phase, state, expected) => {
    expect(readPhase({ phase: phase as Checkpoint['phase'], state })).toEqual(expected);
  });

  it('a halt is told by the phase, whichever version wrote it', () => {
    const halted = (phase: string, state: Checkpoint['state'] = { loop }) =>
      isHaltedCheckpoint({ phase: phase as Checkpoint['phase'], state });
    expect(['halted', 'implementation-failed'].map((p) => halted(p))).toEqual([true, true]);
    expect(
      ['working', 'red', 'complete', 'beads_integration-complete', 'implementation-complete'].map((p) => halted(p)),
    ).toEqual([false, false, false, false, false]);
    expect(halted('research-failed', { pipeline: { goal: 'g' } })).toBe(false);
  });
});

describe('issue 41: the names older versions wrote resume exactly as before', () => {
  // What resumePoint answered for them before issue 41 (src/checkpoint/resume.ts at issue 40).
  const before: [string, boolean, string | undefined][] = [
    ['working', true, 'implementation'],
    ['red', true, 'implementation'],
    ['green', true, 'implementation'],
    ['refactor', true, 'implementation'],
    ['halted', true, 'implementation'],
    ['complete', false, undefined],
    ['beads_integration-complete', true, 'implementation'],
    ['implementation-failed', true, 'implementation'],
    ['implementation-complete', false, undefined],
  ];
  it.each(before)('%s: resumable %s, at %s', (phase, resumable, at) => {
    const cp = { phase: phase as Checkpoint['phase'] };
    expect([isResumable(cp), resumePoint(cp)]).toEqual([resumable, at]);
  });
});
