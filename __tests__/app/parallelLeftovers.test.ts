/** Issue 43: the worktrees of a killed --parallel run, found for a serial run to recover (src/app/parallelLeftovers.ts). */
import { describe, expect, it } from '@jest/globals';
import { jobLockOf, jobTrees } from '../../src/app/parallelLeftovers.js';

describe('--parallel leftovers (issue 43)', () => {
  it("only the jobs' worktrees under the state directory's parallel/ are the run's", () => {
    const listed = [
      '/s/parallel/wave-1/bd-1/tree-bd-1',
      '/s/parallel-other/tree-x',
      '/home/me/another-worktree',
      '/s/parallel/wave-2/bd-2/tree-bd-2',
    ];
    expect(jobTrees(listed, '/s/parallel')).toEqual([
      '/s/parallel/wave-1/bd-1/tree-bd-1',
      '/s/parallel/wave-2/bd-2/tree-bd-2',
    ]);
    expect(jobTrees(listed, '/s/parallel/')).toHaveLength(2);
  });

  it("a job's lock is in its state directory, beside its worktree", () => {
    expect(jobLockOf('/s/parallel/wave-1/bd-1/tree-bd-1')).toBe('/s/parallel/wave-1/bd-1/state/run/lock.json');
  });
});
