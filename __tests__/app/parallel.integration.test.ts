/** `run --parallel N` (issue 16): its options, its refusals and each job's command line. */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { parseArgs } from '../../src/config/argv.js';
import { WAVE_COUNTS_ENV, jobArgs, jobPlace, waveJobCounts } from '../../src/app/parallelJob.js';
import { parallelProblems } from '../../src/app/parallel.js';
import { jobConfig } from '../../src/app/parallelOptions.js';
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

  it("gives every job the coordinator's configuration file, never one its agent could write in the job's worktree (issue 42)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-loop-jobconfig-'));
    try {
      const job = { issueId: 'bd-7', title: 'T', maxIterations: 10 };
      const place = { ...jobPlace('/state', 'wave-1', 'bd-7'), noConfig: '/state/parallel/wave-1/bd-7/no-config.yml' };
      // The checkout has none: the job reads an empty file of the coordinator's.
      const none = jobConfig(new Map(), {}, dir);
      expect(none.has('config')).toBe(false);
      expect(jobArgs(none, job, place, true).join(' ')).toContain(`--config ${place.noConfig}`);
      // The checkout's .agent-loop.yml, absolute; --config and AGENT_LOOP_CONFIG resolved where the user is.
      writeFileSync(path.join(dir, '.agent-loop.yml'), 'max-iterations: 3\n');
      expect(jobConfig(new Map(), {}, dir).get('config')).toBe(path.join(dir, '.agent-loop.yml'));
      expect(jobConfig(new Map([['config', 'c.yml']]), {}, dir).get('config')).toBe(path.join(dir, 'c.yml'));
      expect(jobConfig(new Map(), { AGENT_LOOP_CONFIG: 'e.yml' }, dir).get('config')).toBe(path.join(dir, 'e.yml'));
      const given = jobArgs(jobConfig(new Map(), {}, dir), job, place, true);
      expect(given).toContain(`--config=${path.join(dir, '.agent-loop.yml')}`);
      expect(given).not.toContain(place.noConfig);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the counts its coordinator gave it in AGENT_LOOP_WAVE_COUNTS; none, or unreadable ones, start the job's cycle from 0", () => {
    expect(waveJobCounts({ [WAVE_COUNTS_ENV]: '{"unfinishedRuns":4,"silentIterations":1}' })).toEqual({
      unfinishedRuns: 4,
      silentIterations: 1,
    });
    for (const text of [undefined, '', '{', '{"unfinishedRuns":-1,"silentIterations":0}', '[]'])
      expect(waveJobCounts({ [WAVE_COUNTS_ENV]: text })).toBeUndefined();
  });
});

describe('run --parallel --fresh', () => {
  it('forgets the recorded baselines of its state directory, as the serial --fresh does (a later run would reuse one)', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'agent-loop-parallel-fresh-'));
    try {
      const repo = path.join(root, 'repo');
      const stateDir = path.join(root, 'state');
      mkdirSync(path.join(repo, '.beads'), { recursive: true });
      writeFileSync(path.join(repo, '.beads', 'issues.jsonl'), '');
      writeFileSync(path.join(repo, 'a.txt'), 'ok\n');
      const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
      git('init', '-q', '-b', 'main');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'init');
      mkdirSync(path.join(stateDir, 'baselines'), { recursive: true });
      writeFileSync(path.join(stateDir, 'baselines', '0123456789abcdef01234567.json'), '{}\n');
      const out: string[] = [];
      const code = await main(
        ['run', '--parallel', '2', '--fresh', '--state-dir', stateDir, '--agent', 'command', '--agent-command', 'true'],
        {
          cwd: repo,
          env: { PATH: process.env.PATH, HOME: process.env.HOME },
          stdout: (t) => out.push(t),
          stderr: (t) => out.push(t),
        },
      );
      expect(code).toBe(0);
      expect(readdirSync(path.join(stateDir, 'baselines'))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
