/**
 * Issue 11, "work is never lost": the repository's preconditions are checked before any agent
 * runs (zero agent cost). Each refusal exits 2, names the files or state and the command that
 * fixes it, and the agent was never started (it would leave a marker outside the repository).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import {
  commit,
  type Sandbox,
  DONE_REPORT,
  createSandbox,
  explain,
  expectExit,
  git,
  issue,
  lastResult,
  runArgs,
  runCli,
  writeAgent,
} from './helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

async function setup(): Promise<{ sandbox: Sandbox; agent: string; marker: string }> {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  const marker = path.join(sandbox.root, 'agent-ran');
  const agent = await writeAgent(sandbox, 'agent', `touch "$NOTES/agent-ran"\necho good > value.txt\n${DONE_REPORT}`);
  return { sandbox, agent, marker };
}

describe('preconditions (issue 11): refused before any agent run, exit 2 with what to do', () => {
  it('refuses a dirty working tree, naming the files; a .env with a key is never committed', async () => {
    const { sandbox, agent, marker } = await setup();
    await fs.writeFile(path.join(sandbox.repo, '.env'), 'API_KEY=sk-live-0123456789abcdef0123456789abcdef\n');
    await fs.writeFile(path.join(sandbox.repo, 'value.txt'), 'half-done edit\n');
    const r = await runCli(sandbox, runArgs(agent));
    expectExit(r, 2);
    expect(r.stderr).toContain('uncommitted changes or untracked files');
    expect(r.stderr).toContain('.env');
    expect(r.stderr).toContain('value.txt');
    expect(r.stderr).toContain('git stash --include-untracked');
    expect(existsSync(marker)).toBe(false);
    expect(git(sandbox, 'log', '--all', '--name-only', '--format=')).not.toContain('.env');
    expect(git(sandbox, 'status', '--porcelain')).toContain('.env');
  });

  it('refuses a detached HEAD, naming the commit and git switch', async () => {
    const { sandbox, agent, marker } = await setup();
    const head = git(sandbox, 'rev-parse', 'HEAD');
    git(sandbox, 'checkout', '-q', '--detach');
    const r = await runCli(sandbox, runArgs(agent));
    expectExit(r, 2);
    expect(r.stderr).toContain(`HEAD is detached at ${head.slice(0, 12)}`);
    expect(r.stderr).toContain('git switch');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a repository without commits', async () => {
    const { sandbox, agent, marker } = await setup();
    await fs.rm(path.join(sandbox.repo, '.git'), { recursive: true, force: true });
    git(sandbox, 'init', '-q', '-b', 'main');
    const r = await runCli(sandbox, runArgs(agent));
    expectExit(r, 2);
    expect(r.stderr).toContain('has no commits yet');
    expect(r.stderr).toContain('git commit');
    expect(existsSync(marker)).toBe(false);
  });

  it.each([
    ['merge', 'MERGE_HEAD', 'git merge --abort'],
    ['rebase', 'rebase-merge', 'git rebase --abort'],
    ['cherry-pick', 'CHERRY_PICK_HEAD', 'git cherry-pick --abort'],
    ['revert', 'REVERT_HEAD', 'git revert --abort'],
  ])('refuses a %s in progress', async (operation, marker, fix) => {
    const { sandbox, agent, marker: ran } = await setup();
    const file = path.join(sandbox.repo, '.git', marker);
    if (marker === 'rebase-merge') await fs.mkdir(file);
    else await fs.writeFile(file, `${git(sandbox, 'rev-parse', 'HEAD')}\n`);
    const r = await runCli(sandbox, runArgs(agent));
    expectExit(r, 2);
    expect(r.stderr).toContain(`a ${operation} is in progress`);
    expect(r.stderr).toContain(fix);
    expect(existsSync(ran)).toBe(false);
  });

  it('refuses a .git/index.lock, naming the whole path of the file', async () => {
    const { sandbox, agent, marker } = await setup();
    const lock = path.join(sandbox.repo, '.git', 'index.lock');
    await fs.writeFile(lock, '');
    const r = await runCli(sandbox, runArgs(agent));
    expectExit(r, 2);
    expect(r.stderr).toContain(`${lock} exists`);
    expect(r.stderr).toContain(`rm '${lock}'`);
    expect(existsSync(marker)).toBe(false);
  });

  it.each([['HEAD.lock'], ['packed-refs.lock'], ['refs/heads/main.lock']])(
    'refuses a stale git ref lock %s before any agent runs (issue 43): which lock, since when, the command that removes it',
    async (lock) => {
      const { sandbox, agent, marker } = await setup();
      const file = path.join(sandbox.repo, '.git', lock);
      await fs.writeFile(file, '');
      const since = new Date('2026-11-29T08:00:00Z');
      await fs.utimes(file, since, since);
      const r = await runCli(sandbox, runArgs(agent));
      expectExit(r, 2);
      expect(r.stderr).toContain(`a ref lock exists: ${file} (since 2026-11-29T08:00:00.000Z)`);
      expect(r.stderr).toContain(
        `If no git process is running in this repository, remove it (rm '${file}') and run again.`,
      );
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(file)).toBe(true);
    },
  );

  it('refuses to run inside a repository when git is not on PATH', async () => {
    const { sandbox, agent, marker } = await setup();
    // A PATH with sh and node but no git.
    const bin = path.join(sandbox.root, 'bin');
    await fs.mkdir(bin);
    for (const tool of ['sh', 'cat', 'touch', 'echo']) {
      const found = ['/bin', '/usr/bin'].map((d) => path.join(d, tool)).find((p) => existsSync(p));
      if (found) await fs.symlink(found, path.join(bin, tool));
    }
    const r = await runCli(sandbox, runArgs(agent), { env: { PATH: bin } });
    expectExit(r, 2);
    expect(r.stderr).toContain('inside a git repository');
    expect(r.stderr).toContain('git cannot be run');
    expect(existsSync(marker)).toBe(false);
  });

  it('reports every problem at once (a dirty tree and an index.lock)', async () => {
    const { sandbox, agent } = await setup();
    await fs.writeFile(path.join(sandbox.repo, 'notes.txt'), 'mine\n');
    await fs.writeFile(path.join(sandbox.repo, '.git', 'index.lock'), '');
    const r = await runCli(sandbox, runArgs(agent));
    expectExit(r, 2);
    expect(r.stderr).toContain('index.lock exists');
    expect(r.stderr).toContain('notes.txt');
  });

  it('plan is refused on a dirty tree as run is', async () => {
    const { sandbox, agent, marker } = await setup();
    await fs.writeFile(path.join(sandbox.repo, 'scratch.md'), 'mine\n');
    const r = await runCli(sandbox, [
      'plan',
      '--goal',
      'anything',
      '--agent',
      'command',
      '--agent-command',
      agent,
      '--test-command',
      'true',
    ]);
    expectExit(r, 2);
    expect(r.stderr).toContain('scratch.md');
    expect(existsSync(marker)).toBe(false);
  });

  it('ignored files and an in-tree --state-dir do not count as dirty', async () => {
    const { sandbox, agent, marker } = await setup();
    await fs.writeFile(path.join(sandbox.repo, '.gitignore'), 'build/\n');
    git(sandbox, 'add', '.gitignore');
    commit(sandbox, 'ignore build');
    await fs.mkdir(path.join(sandbox.repo, 'build'));
    await fs.writeFile(path.join(sandbox.repo, 'build', 'out.txt'), 'x');
    await fs.mkdir(path.join(sandbox.repo, 'my-state', 'checkpoints'), { recursive: true });
    const r = await runCli(sandbox, runArgs(agent, '--state-dir', 'my-state'));
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(explain(r)).toContain('"status":"complete"');
  });

  it("--state-dir . (issue 43): the state directory's own files are no dirt and never committed; a file of yours still is", async () => {
    const { sandbox, agent, marker } = await setup();
    const first = await runCli(sandbox, runArgs(agent, '--state-dir', '.'));
    expectExit(first, 0);
    expect(existsSync(marker)).toBe(true);
    expect(lastResult(first.stdout).status).toBe('complete');
    // Its lock, log and checkpoint lie at the top of the work tree: none of them was committed.
    for (const own of ['checkpoints', 'logs']) expect(existsSync(path.join(sandbox.repo, own))).toBe(true);
    expect(git(sandbox, 'log', '--all', '--name-only', '--format=')).not.toMatch(/^(checkpoints|logs|run)\//m);
    // A later run on the same state directory starts (was refused: 'uncommitted changes … logs/run.log, run/lock.json').
    const again = await runCli(sandbox, runArgs(agent, '--state-dir', '.'));
    expectExit(again, 0);
    expect(again.stderr).not.toContain('uncommitted changes');
    // A file of the user's beside them is still dirt (with an issue to work: an idle run checks nothing).
    await fs.appendFile(
      path.join(sandbox.repo, '.beads', 'issues.jsonl'),
      `${JSON.stringify(issue('bd-2', 'More'))}\n`,
    );
    commit(sandbox, 'a second issue', { tracked: true });
    await fs.writeFile(path.join(sandbox.repo, 'notes.txt'), 'mine\n');
    const dirty = await runCli(sandbox, runArgs(agent, '--state-dir', '.'));
    expectExit(dirty, 2);
    expect(dirty.stderr).toContain('uncommitted changes or untracked files: notes.txt.');
  });
});
