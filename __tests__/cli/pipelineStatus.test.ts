import { describe, expect, it } from '@jest/globals';
import { readPipelineProgress } from '../../src/cli/status.js';

describe('status: the planning pipeline phase by phase', () => {
  const state = {
    pipeline: { goal: 'Add login' },
    research_output: 'x'.repeat(300),
    decomposition_result: { goal: 'g', components: [{}, {}] },
  };

  it('marks the phases before the checkpoint complete, the failed one failed, the rest pending, with what each produced', () => {
    expect(readPipelineProgress({ phase: 'planning-failed', state })).toEqual({
      goal: 'Add login',
      phases: [
        { phase: 'research', status: 'complete', detail: 'research.md, 300 characters' },
        { phase: 'decomposition', status: 'complete', detail: '2 component(s)' },
        { phase: 'planning', status: 'failed', detail: null },
        { phase: 'phase_decomposition', status: 'pending', detail: null },
        { phase: 'beads_integration', status: 'pending', detail: null },
        { phase: 'implementation', status: 'pending', detail: null },
      ],
    });
  });

  it("shows the created issues and the loop's progress in implementation", () => {
    const done = {
      ...state,
      planning_output: 'p',
      phase_files: [{}, {}],
      beads_data: { planned: ['plan-1-p01', 'plan-1-p02'] },
      loop: { issuesClosed: ['plan-1-p01'] },
    };
    const p = readPipelineProgress({ phase: 'beads_integration-complete', state: done });
    expect(p?.phases.map((x) => [x.phase, x.status, x.detail])).toEqual([
      ['research', 'complete', 'research.md, 300 characters'],
      ['decomposition', 'complete', '2 component(s)'],
      ['planning', 'complete', 'plan.md, 1 characters'],
      ['phase_decomposition', 'complete', '2 phase file(s)'],
      ['beads_integration', 'complete', 'issues plan-1-p01, plan-1-p02'],
      ['implementation', 'pending', '1 issue(s) closed'],
    ]);
    expect(
      readPipelineProgress({ phase: 'implementation-complete', state: done })?.phases.every(
        (x) => x.status === 'complete',
      ),
    ).toBe(true);
  });

  it('is undefined for a checkpoint of `run`', () => {
    expect(readPipelineProgress({ phase: 'beads_integration-complete', state: { loop: {} } })).toBeUndefined();
  });
});
