/**
 * The engine's git runs no hook of the repository's: an agent can write .git/hooks, and a hook
 * git runs inside agent-loop's own checkout, commit or merge (post-checkout, post-commit,
 * pre-merge-commit, post-merge…) is not the agent's run any more: what it does there (a commit on
 * the base branch) would be taken as agent-loop's own move and merged unverified.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openGit } from '../../src/git/git.js';
import { gatherRepoFacts } from '../../src/safety/preconditions.js';
import { GIT_ENV, gitIn } from './repo.js';

let dir: string;
const git = gitIn(() => dir);
beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-hooks-')));
  git('init', '-q', '-b', 'main');
  await fs.writeFile(path.join(dir, 'a.txt'), 'a\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'one');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const HOOKS = ['post-checkout', 'post-commit', 'pre-merge-commit', 'post-merge', 'prepare-commit-msg', 'commit-msg'];

describe("the engine's git runs no hook", () => {
  it('a hook an agent wrote runs in none of its checkouts, commits and merges (one that commits on main went unseen)', async () => {
    for (const hook of HOOKS) {
      const file = path.join(dir, '.git', 'hooks', hook);
      await fs.writeFile(file, `#!/bin/sh\necho ran >> "${path.join(dir, '.git', `ran-${hook}`)}"\nexit 1\n`, {
        mode: 0o755,
      });
    }
    const repo = (await openGit(dir, GIT_ENV, { author: 'Agent Loop <loop@example.invalid>' }))!;
    await repo.switchToBranch('agent-loop/x', 'main');
    await fs.writeFile(path.join(dir, 'b.txt'), 'b\n');
    expect(await repo.commitAll('the work')).toBe(true);
    await repo.checkout('main');
    await repo.merge('agent-loop/x', 'Merge agent-loop/x');
    expect(git('log', '-1', '--format=%s')).toBe('Merge agent-loop/x');
    for (const hook of HOOKS) expect(existsSync(path.join(dir, '.git', `ran-${hook}`))).toBe(false);
  });

  it('nor does a core.fsmonitor command an agent set in .git/config (git runs it on every status and add)', async () => {
    const monitor = path.join(dir, '.git', 'monitor.sh');
    await fs.writeFile(monitor, `#!/bin/sh\necho ran >> "${path.join(dir, '.git', 'ran-fsmonitor')}"\nexit 1\n`, {
      mode: 0o755,
    });
    git('config', 'core.fsmonitor', monitor);
    const repo = (await openGit(dir, GIT_ENV, { author: 'Agent Loop <loop@example.invalid>' }))!;
    await fs.writeFile(path.join(dir, 'a.txt'), 'changed\n');
    expect(await repo.hasWorkSince(await repo.head())).toBe(true);
    expect(await repo.commitAll('the work')).toBe(true);
    expect(existsSync(path.join(dir, '.git', 'ran-fsmonitor'))).toBe(false);
  });

  it("nor does the preconditions' look at the repository (git status before any agent runs) run that fsmonitor (issue 41: one runner)", async () => {
    const monitor = path.join(dir, '.git', 'monitor.sh');
    await fs.writeFile(monitor, `#!/bin/sh\necho ran >> "${path.join(dir, '.git', 'ran-fsmonitor')}"\nexit 1\n`, {
      mode: 0o755,
    });
    git('config', 'core.fsmonitor', monitor);
    await fs.writeFile(path.join(dir, 'a.txt'), 'changed\n');
    const facts = await gatherRepoFacts(dir, GIT_ENV, { paths: [] });
    expect(facts.dirty).toEqual(['a.txt']);
    expect(existsSync(path.join(dir, '.git', 'ran-fsmonitor'))).toBe(false);
  });
});
