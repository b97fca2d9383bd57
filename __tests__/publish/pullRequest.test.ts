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

async function publisher(keepDir: string) {
  const git = (await openGit(repo, env)) as Git;
  return createPullRequestPublisher({
    git,
    github,
    repository: 'octo/widgets',
    draft: false,
    testCommand: 'true',
    redact: (t) => t,
    keepDir,
  });
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
    const error = await (await publisher(path.join(notADir, 'outbox'))).publish(work).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LandingError);
  });
});
