/**
 * Issue 42: a judge tree a killed run left (a worktree registered in the repository, in the state
 * directory's run/judge/) is removed as the next slice prepares the repository, and said once.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { execGit } from '../../src/git/exec.js';
import { openGit } from '../../src/git/git.js';
import { judgeScratch, judgeTrees } from '../../src/judge/judgeTree.js';
import { runSlice } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import { implementWorkflow } from '../../src/workflows/index.js';
import { GIT_ENV, gitIn, useCommittedRepo } from '../git/repo.js';
import { ManualClock, MemorySource, ScriptedAgent, sliceSettings } from '../../fakes/index.js';

let repo = '';
let stateDir = '';
const git = gitIn(() => repo);
useCommittedRepo('agent-loop-leftover', 'base', (r, s) => {
  repo = r;
  stateDir = s;
});

describe('a killed run’s judge tree (issue 42)', () => {
  it('is removed as the next slice prepares the repository: the worktree, git’s record of it and its directory', async () => {
    const left = path.join(judgeScratch(stateDir, stateDir), '999999-killed', 'tree');
    await fs.mkdir(path.dirname(left), { recursive: true });
    git('worktree', 'add', '-q', '--detach', left, 'HEAD');
    expect(git('worktree', 'list', '--porcelain')).toContain(left);

    const clock = new ManualClock();
    const lines: string[] = [];
    const logger = createLogger({ json: true, write: (line) => lines.push(line), clock, redact: createRedactor([]) });
    await runSlice({
      settings: sliceSettings({ testCommand: 'the suite' }),
      workflow: implementWorkflow,
      ...{ cwd: repo, stateDir, clock, logger },
      source: MemorySource.of(),
      agent: new ScriptedAgent([]),
      store: new FileCheckpointStore(stateDir, { clock }),
      git: await openGit(repo, GIT_ENV),
      runTests: () => Promise.reject(new Error('no test run expected')),
      judgeTrees: judgeTrees({ git: execGit, env: GIT_ENV, repo, scratch: judgeScratch(stateDir, stateDir) }),
    });

    expect(git('worktree', 'list', '--porcelain')).not.toContain(left);
    expect(existsSync(path.dirname(left))).toBe(false);
    const said = lines
      .map((l) => JSON.parse(l) as { event: string; message: string })
      .filter((e) => e.event === 'judge.leftovers');
    expect(said).toHaveLength(1);
    expect(said[0]?.message).toBe(
      `Removed 1 judge tree(s) an earlier run left when it was killed: ${path.dirname(left)}.`,
    );
  });
  it('a record git locked while the killed run was inside `git worktree add` (no directory yet) is unlocked and pruned', async () => {
    const trees = judgeTrees({ git: execGit, env: GIT_ENV, repo, scratch: judgeScratch(stateDir, stateDir) });
    const left = path.join(judgeScratch(stateDir, stateDir), '999998-killed', 'tree');
    git('worktree', 'add', '-q', '--detach', left, 'HEAD');
    git('worktree', 'lock', '--reason', 'initializing', left);
    await fs.rm(left, { recursive: true, force: true });
    git('worktree', 'prune');
    // Before the fix: git keeps a locked record whatever prune is asked, and `worktree list` shows it for ever.
    expect(git('worktree', 'list', '--porcelain')).toContain(left);

    expect(await trees.clear()).toEqual([path.dirname(left)]);
    expect(git('worktree', 'list', '--porcelain')).not.toContain(left);
  });

  it('the scratch directory goes with the last judge tree closed: none piles up in the temporary directory', async () => {
    const scratch = judgeScratch(stateDir, stateDir);
    const trees = judgeTrees({ git: execGit, env: GIT_ENV, repo, scratch });
    const tree = await trees.open({ base: 'HEAD', work: 'working-tree', restore: [], drop: [] });
    expect(existsSync(scratch)).toBe(true);
    await tree.close();
    expect(existsSync(scratch)).toBe(false);
    expect(git('worktree', 'list', '--porcelain')).not.toContain(scratch);
  });
});
