/**
 * The publisher's landing steps on real git (src/publish/pullRequest.ts): a failed push is thrown
 * as a classified LandingError and its work kept as a bundle for the next runner, which fetches it
 * from there; keeping it is best effort and never hides the push's failure.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Git, openGit } from '../../src/git/git.js';
import { LandingError } from '../../src/loop/publish.js';
import { createPullRequestPublisher } from '../../src/publish/pullRequest.js';

let dir: string;
let repo: string;
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};
const sh = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'publisher-'));
  repo = path.join(dir, 'repo');
  await fs.mkdir(repo);
  sh(repo, 'init', '-q', '-b', 'main');
  await fs.writeFile(path.join(repo, 'a.txt'), 'a\n');
  sh(repo, 'add', '.');
  sh(repo, 'commit', '-q', '-m', 'base');
  sh(repo, 'checkout', '-q', '-b', 'agent-loop/issue-7');
  await fs.writeFile(path.join(repo, 'a.txt'), 'fixed\n');
  sh(repo, 'commit', '-q', '-am', 'the work');
  sh(repo, 'checkout', '-q', 'main');
  // A remote that cannot be reached: every push fails.
  sh(repo, 'remote', 'add', 'origin', path.join(dir, 'no-such-remote.git'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const work = { issueIds: ['7'], titles: ['Fix a'], branch: 'agent-loop/issue-7', base: 'main', iteration: 1 };
const github = {
  openPullRequest: async () => ({ number: 1, url: 'u', reused: false }),
  addLabel: async () => undefined,
};

async function publisher(keepDir: string, warnings: string[] = [], withNotes = false) {
  const git = (await openGit(repo, env)) as Git;
  return createPullRequestPublisher({
    ...(withNotes ? { notes: { warn: (m: string) => warnings.push(m) } } : {}),
    git,
    github,
    repository: 'octo/widgets',
    draft: false,
    testCommand: 'true',
    redact: (t) => t,
    keepDir,
    warn: (m) => warnings.push(m),
  });
}

/** Makes the remote a reachable bare repository; `refuse` installs a pre-receive hook printing it and refusing. */
async function bareRemote(refuse?: string) {
  const bare = path.join(dir, 'no-such-remote.git');
  sh(dir, 'init', '-q', '--bare', '-b', 'main', bare);
  const hook = path.join(bare, 'hooks', 'pre-receive');
  if (refuse)
    await fs.writeFile(hook, `#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '${refuse}' >&2\nexit 1\n`, { mode: 0o755 });
  else await fs.rm(hook, { force: true });
  return bare;
}

describe('the publisher when the push fails', () => {
  it('throws a classified LandingError and keeps the work as a bundle, which a fresh checkout fetches', async () => {
    const keepDir = path.join(dir, 'state', 'outbox');
    const error = await (await publisher(keepDir)).publish(work).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LandingError);
    expect((error as LandingError).failure.class).toBe('transient');
    expect(existsSync(path.join(keepDir, 'agent-loop-issue-7.bundle'))).toBe(true);

    // The next runner: the branch is not in its checkout, nor on the remote; the bundle has it.
    sh(repo, 'branch', '-q', '-D', 'agent-loop/issue-7');
    sh(dir, 'init', '-q', '--bare', '-b', 'main', 'no-such-remote.git'); // reachable now, without the branch
    expect(await (await publisher(keepDir)).fetchBranch('agent-loop/issue-7')).toBe(true);
    expect(sh(repo, 'show', 'agent-loop/issue-7:a.txt')).toBe('fixed');
  });

  it('a bundle that cannot be kept does not hide the push failure', async () => {
    const notADir = path.join(dir, 'a-file');
    await fs.writeFile(notADir, '');
    const warnings: string[] = [];
    const error = await (
      await publisher(path.join(notADir, 'outbox'), warnings)
    )
      .publish(work)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LandingError);
    expect(warnings).toEqual([expect.stringContaining('could not keep agent-loop/issue-7 as a bundle')]);
  });

  it("a push GitHub's push protection refused keeps no bundle: the commits hold a secret and the state directory is published", async () => {
    await bareRemote('remote: - GITHUB PUSH PROTECTION ... Push cannot contain secrets');
    const keepDir = path.join(dir, 'state', 'outbox');
    const error = await (await publisher(keepDir)).publish(work).catch((e: unknown) => e);
    expect((error as LandingError).failure).toMatchObject({ class: 'refused' });
    expect(existsSync(path.join(keepDir, 'agent-loop-issue-7.bundle'))).toBe(false);
  });

  it('--workflow tdd: the bundle carries the git notes, and a fresh runner that lands from it has the phase notes back (merged with the remote’s)', async () => {
    const bare = await bareRemote();
    // The remote holds a note of another cycle (pushed by an earlier run); this cycle's note is local only.
    sh(repo, 'notes', '--ref', 'agent-loop', 'add', '-m', '{"other":true}', 'main');
    sh(repo, 'push', '-q', 'origin', 'main', 'refs/notes/agent-loop');
    sh(repo, 'notes', '--ref', 'agent-loop', 'add', '-m', '{"phase":"GREEN"}', 'agent-loop/issue-7');
    await bareRemote('refused');
    const keepDir = path.join(dir, 'state', 'outbox');
    const error = await (await publisher(keepDir, [], true)).publish(work).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LandingError);
    const heads = sh(repo, 'bundle', 'list-heads', path.join(keepDir, 'agent-loop-issue-7.bundle'));
    expect(heads).toContain('refs/notes/agent-loop');

    // A fresh runner: neither the branch nor the notes in its checkout; the remote has main and its note.
    sh(repo, 'branch', '-q', '-D', 'agent-loop/issue-7');
    sh(repo, 'update-ref', '-d', 'refs/notes/agent-loop');
    await bareRemote();
    expect(await (await publisher(keepDir, [], true)).fetchBranch('agent-loop/issue-7')).toBe(true);
    expect(sh(repo, 'notes', '--ref', 'agent-loop', 'show', 'agent-loop/issue-7')).toBe('{"phase":"GREEN"}');
    expect(sh(repo, 'notes', '--ref', 'agent-loop', 'show', 'main')).toBe('{"other":true}');
    expect(sh(repo, 'for-each-ref', '--format=%(refname)', 'refs/notes/')).toBe('refs/notes/agent-loop');
    expect(bare).toContain('no-such-remote');
  });

  it('the bundle wins over an older wip: of the branch on the remote; the remote wins when the bundle is not ahead of it', async () => {
    const bare = await bareRemote();
    // An earlier slice pushed the cycle's wip: ...
    sh(repo, 'push', '-q', 'origin', 'agent-loop/issue-7');
    // ... then the cycle finished with one more commit, whose push was refused.
    sh(repo, 'checkout', '-q', 'agent-loop/issue-7');
    await fs.writeFile(path.join(repo, 'b.txt'), 'finished\n');
    sh(repo, 'add', '.');
    sh(repo, 'commit', '-q', '-m', 'the finished work');
    sh(repo, 'checkout', '-q', 'main');
    await bareRemote('refused');
    const keepDir = path.join(dir, 'state', 'outbox');
    await (await publisher(keepDir)).publish(work).catch(() => undefined);
    const finished = sh(repo, 'rev-parse', 'agent-loop/issue-7');

    sh(repo, 'branch', '-q', '-D', 'agent-loop/issue-7');
    expect(await (await publisher(keepDir)).fetchBranch('agent-loop/issue-7')).toBe(true);
    expect(sh(repo, 'rev-parse', 'agent-loop/issue-7')).toBe(finished);

    // Someone pushed on top of the finished work since: the remote is ahead, and it stays.
    sh(repo, 'checkout', '-q', 'agent-loop/issue-7');
    sh(repo, 'commit', '-q', '--allow-empty', '-m', 'a reviewer');
    await bareRemote();
    sh(repo, 'push', '-q', 'origin', 'agent-loop/issue-7');
    const ahead = sh(repo, 'rev-parse', 'HEAD');
    sh(repo, 'checkout', '-q', 'main');
    sh(repo, 'branch', '-q', '-D', 'agent-loop/issue-7');
    expect(await (await publisher(keepDir)).fetchBranch('agent-loop/issue-7')).toBe(true);
    expect(sh(repo, 'rev-parse', 'agent-loop/issue-7')).toBe(ahead);
    expect(bare).toContain('no-such-remote');
  });
});
