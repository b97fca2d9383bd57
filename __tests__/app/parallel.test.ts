/** `run --parallel N` (issue 16): its options, its refusals and each job's command line. */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { parseArgs } from '../../src/config/argv.js';
import { jobArgs, jobPlace } from '../../src/app/parallelJob.js';
import { parallelProblems } from '../../src/app/parallel.js';
import { load, problemsOf } from '../config/support.js';

describe('--parallel and --issue options', () => {
  it('defaults to 1 (the serial loop) and no --issue', () => {
    const { options } = load(['run']);
    expect(options.parallel).toBe(1);
    expect(options.issue).toBeUndefined();
  });

  it('reads --parallel N and --issue as a comma-separated list, from flags or the environment', () => {
    expect(load(['run', '--parallel', '4', '--issue', 'bd-1, bd-2']).options).toMatchObject({
      parallel: 4,
      issue: ['bd-1', 'bd-2'],
    });
    expect(load(['run'], { AGENT_LOOP_PARALLEL: '3', AGENT_LOOP_ISSUE: '' }).options).toMatchObject({ parallel: 3 });
    expect(load(['run'], { AGENT_LOOP_ISSUE: '' }).options.issue).toBeUndefined();
  });

  it("refuses a --parallel out of 1..256 (the action's bound), naming what is expected; run refuses more than 32 below", () => {
    expect(problemsOf(() => load(['run', '--parallel', '0'])).join('\n')).toMatch(
      /--parallel.*1 to 256 \(32 for run\)/,
    );
    expect(problemsOf(() => load(['run', '--parallel', '257'])).join('\n')).toMatch(/--parallel.*1 to 256/);
  });

  it('refuses combinations it cannot run in parallel, each with what to do instead', () => {
    const { options } = load(['run', '--parallel', '2', '--batch', '--workflow', 'tdd', '--on-success', 'branch']);
    const problems = parallelProblems(options);
    expect(problems).toEqual([
      expect.stringMatching(/--batch: .*use one or the other/),
      expect.stringMatching(/--workflow tdd: only the implement workflow/),
      expect.stringMatching(/--on-success branch: .*use --on-success merge/),
    ]);
    expect(parallelProblems(load(['run', '--parallel', '2']).options)).toEqual([]);
    // One option for the CLI and the action: the action's bound is the matrix's 256, one machine's 32.
    expect(parallelProblems(load(['run', '--parallel', '33']).options)).toEqual([
      expect.stringMatching(/^--parallel 33: at most 32 on one machine/),
    ]);
  });
});

describe("a job's place and command line", () => {
  const place = jobPlace('/repo/.git/agent-loop', 'wave-3', 'bd/7');

  it('works under the state directory (outside the user tree), its state outside its worktree', () => {
    expect(place.tree).toBe(path.join('/repo/.git/agent-loop/parallel/wave-3/bd_7/tree-bd_7'));
    expect(place.stateDir).toBe(path.join('/repo/.git/agent-loop/parallel/wave-3/bd_7/state'));
  });

  it("passes the user's flags on, but sets its own issue, share, state, landing and freshness", () => {
    const flags = parseArgs([
      'run',
      '--parallel',
      '4',
      '--agent',
      'command',
      '--agent-command',
      'sh agent.sh',
      '--max-iterations',
      '40',
      '--discord-webhook',
      'https://example.invalid/hook',
      '--strict',
      '--fresh',
    ]).values;
    const args = jobArgs(flags, { issueId: 'bd-7', title: 'T', maxIterations: 10, maxCostUsd: 2.5 }, place, true);
    expect(args).toEqual([
      'run',
      '--agent=command',
      '--agent-command=sh agent.sh',
      '--strict',
      '--json',
      '--parallel',
      '1',
      '--issue',
      'bd-7',
      '--max-iterations',
      '10',
      '--state-dir',
      place.stateDir,
      '--on-success',
      'merge',
      '--max-cost-usd',
      '2.5',
      '--fresh',
    ]);
    // Resumed after a crash: no --fresh, so the job continues its own checkpoint.
    expect(jobArgs(flags, { issueId: 'bd-7', title: 'T', maxIterations: 10 }, place, false)).not.toContain('--fresh');
  });
});
