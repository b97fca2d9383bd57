/**
 * run --parallel: the base branch moved behind the coordinator (src/app/waveLanding.ts: baseMoved,
 * landWave), and what a job that halted the run leaves (src/app/haltedJob.ts), on real git.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitRunner } from '../../src/git/git.js';
import { worktrees } from '../../src/git/worktree.js';
import { baseMoved, landWave } from '../../src/app/waveLanding.js';
import { haltedDiagnosticFile, keepHaltedJob } from '../../src/app/haltedJob.js';
import { initialLoopState } from '../../src/core/state.js';
import type { Wave } from '../../src/core/state.js';
import type { Logger } from '../../src/report/logger.js';
import { GIT_ENV, gitIn } from '../git/repo.js';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);

describe('baseMoved (pure)', () => {
  const input = { base: 'main', expected: OLD, waveNumber: 2, jobs: ['bd-1', 'bd-2'], merged: [] as string[] };

  it('is nothing when the base is where the coordinator left it', () => {
    expect(baseMoved({ ...input, found: OLD })).toBeUndefined();
  });

  it("halts repository_moved naming both tips, the wave's jobs, how to inspect, and that nothing was reset", () => {
    const moved = baseMoved({ ...input, found: NEW, merged: ['bd-1'] });
    expect(moved).toMatchObject({ reason: 'repository_moved', was: OLD, now: NEW });
    expect(moved?.message).toContain(`was at ${OLD.slice(0, 12)} and is now at ${NEW.slice(0, 12)}`);
    expect(moved?.message).toMatch(/wave 2's jobs \(bd-1, bd-2/);
    expect(moved?.message).toMatch(/Merged before it was seen: bd-1; nothing more was merged/);
    expect(moved?.message).toMatch(/moved under your checkout: .*git status shows the difference/);
    expect(moved?.message).toContain(`git reset --keep ${OLD.slice(0, 12)}`);
    expect(moved?.message).toMatch(/agent-loop reset nothing/);
  });

  it('says when the base branch is gone', () => {
    expect(baseMoved({ ...input, found: undefined })?.message).toMatch(/is now at nothing \(the branch is gone\)/);
  });
});

describe('on real git', () => {
  let dir: string;
  const git = gitIn(() => dir);
  beforeEach(async () => {
    dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-landing-')));
    git('init', '-q', '-b', 'main');
    await fs.writeFile(path.join(dir, 'a.txt'), 'a\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });
  const silent = { info() {}, warn() {}, error() {}, debug() {}, event() {}, result() {} } as unknown as Logger;

  it('landWave merges nothing once the base moved behind it (a job agent from its worktree), and says so', async () => {
    const runner = gitRunner(dir, GIT_ENV);
    const trees = worktrees(dir, runner);
    const start = git('rev-parse', 'main');
    const tree = path.join(dir, '.git', 'jobs', 'bd-1');
    await trees.add(tree, 'agent-loop-wave/bd-1', 'main');
    const inTree = gitIn(() => tree);
    await fs.writeFile(path.join(tree, 'b.txt'), 'b\n');
    inTree('add', '-A');
    inTree('commit', '-q', '-m', 'work bd-1');
    // The agent moves main from the job's worktree.
    inTree('update-ref', 'refs/heads/main', inTree('commit-tree', 'main^{tree}', '-p', 'main', '-m', 'rogue'));
    const rogue = git('rev-parse', 'main');
    const wave: Wave = {
      id: 'wave-1',
      startedAt: '2026-11-01T00:00:00Z',
      jobs: [{ issueId: 'bd-1', title: 'One', maxIterations: 1 }],
    };
    const loop = { ...initialLoopState(1), issuesClosed: ['bd-1'] };
    const landed = await landWave(
      { trees, runner, logger: silent, base: 'main', issuesFile: '.beads/issues.jsonl', waveNumber: 1, baseTip: start },
      wave,
      [{ loop, finished: true, exitCode: 0, stderrTail: '' }],
    );
    // Before the fix: merged onto the rogue commit.
    expect(landed.moved?.message).toContain(`was at ${start.slice(0, 12)} and is now at ${rogue.slice(0, 12)}`);
    expect(git('rev-parse', 'main')).toBe(rogue);
    expect(landed.partials).toEqual([]);
  });

  it("keepHaltedJob commits a halted job's changes as wip: on a branch of its own and keeps its halt.md", async () => {
    const runner = gitRunner(dir, GIT_ENV);
    const start = git('rev-parse', 'main');
    const tree = path.join(dir, '.git', 'jobs', 'bd-2');
    await worktrees(dir, runner).add(tree, 'agent-loop-wave/bd-2', 'main');
    await fs.writeFile(path.join(tree, 'b.txt'), 'half done\n');
    const jobState = path.join(dir, '.git', 'jobs', 'state');
    await fs.mkdir(jobState, { recursive: true });
    await fs.writeFile(path.join(jobState, 'halt.md'), '# HALT bd-2\n');
    const stateDir = path.join(dir, '.git', 'agent-loop');
    const kept = await keepHaltedJob({
      runner: gitRunner(tree, GIT_ENV),
      issueId: 'bd-2',
      waveId: 'wave-1',
      reason: 'stuck',
      jobStateDir: jobState,
      stateDir,
      baseTip: start,
    });
    expect(kept.branch).toBe('agent-loop-halted/bd-2-wave-1');
    expect(git('show', 'agent-loop-halted/bd-2-wave-1:b.txt')).toBe('half done');
    expect(git('log', '-1', '--format=%s', 'agent-loop-halted/bd-2-wave-1')).toMatch(/^wip: bd-2 halted \(stuck\)/);
    expect(await fs.readFile(haltedDiagnosticFile(stateDir, 'wave-1', 'bd-2'), 'utf8')).toBe('# HALT bd-2\n');
    expect(kept.note).toMatch(/kept on agent-loop-halted\/bd-2-wave-1 .*wip: commit.*diagnostic is kept in/);
  });

  it('keepHaltedJob never commits a change that holds a secret: discarded, and says so', async () => {
    const runner = gitRunner(dir, GIT_ENV);
    const tree = path.join(dir, '.git', 'jobs', 'bd-3');
    await worktrees(dir, runner).add(tree, 'agent-loop-wave/bd-3', 'main');
    await fs.writeFile(path.join(tree, 'b.txt'), 'tok-secret\n');
    const kept = await keepHaltedJob({
      runner: gitRunner(tree, GIT_ENV),
      issueId: 'bd-3',
      waveId: 'wave-1',
      reason: 'secret_in_change',
      jobStateDir: path.join(dir, 'none'),
      stateDir: path.join(dir, '.git', 'agent-loop'),
      baseTip: git('rev-parse', 'main'),
    });
    expect(kept.branch).toBeUndefined();
    expect(kept.note).toMatch(/not committed and was discarded/);
    expect(git('branch', '--list', 'agent-loop-halted/*')).toBe('');
    expect(git('log', '--all', '--format=%s')).not.toMatch(/wip:/);
    expect(existsSync(path.join(dir, '.git', 'agent-loop', 'parallel', 'halts'))).toBe(false);
  });
});
