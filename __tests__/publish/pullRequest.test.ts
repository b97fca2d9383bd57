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
import { explainHttpError } from '../../src/issues/github/errors.js';
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

async function publisher(keepDir: string, warnings: string[] = []) {
  const git = (await openGit(repo, env)) as Git;
  return createPullRequestPublisher({
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
    const p = await publisher(keepDir);
    await p.stash?.('agent-loop/issue-7', 'main'); // kept before the push (issue 14) ...
    expect(existsSync(path.join(keepDir, 'agent-loop-issue-7.bundle'))).toBe(true);
    const error = await p.publish(work).catch((e: unknown) => e);
    expect((error as LandingError).failure).toMatchObject({ class: 'refused' });
    expect(existsSync(path.join(keepDir, 'agent-loop-issue-7.bundle'))).toBe(false); // ... and dropped
  });

  it('issue 14: the work stashed before the push is fetched by the next runner when the push never happened (a runner killed during it)', async () => {
    const keepDir = path.join(dir, 'state', 'outbox');
    await (await publisher(keepDir)).stash?.('agent-loop/issue-7', 'main');
    sh(repo, 'branch', '-q', '-D', 'agent-loop/issue-7');
    await bareRemote(); // reachable, without the branch
    expect(await (await publisher(keepDir)).fetchBranch('agent-loop/issue-7')).toBe(true);
    expect(sh(repo, 'show', 'agent-loop/issue-7:a.txt')).toBe('fixed');
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

describe('the publisher when the issue is gone (issue 14)', () => {
  const answered = (status: number, message: string) =>
    explainHttpError({ status, message }, 'labelling issue #7 agent-loop:pr-open', 'octo/widgets');
  const publishing = async (labelError: unknown, warnings: string[]) => {
    await bareRemote();
    const git = (await openGit(repo, env)) as Git;
    return createPullRequestPublisher({
      git,
      github: {
        ...github,
        addLabel: async () => {
          throw labelError;
        },
      },
      repository: 'octo/widgets',
      draft: false,
      testCommand: 'true',
      redact: (t) => t,
      warn: (m) => warnings.push(m),
    }).publish(work);
  };

  it.each([
    [410, 'This issue was deleted'],
    [404, 'Not Found'],
  ])(
    'an issue deleted or transferred after its pull request opened (%i) is not labelled: a warning naming it, and the work is landed (it halted publish_refused on every run)',
    async (status, message) => {
      const warnings: string[] = [];
      await expect(publishing(answered(status, message), warnings)).resolves.toMatchObject({ number: 1 });
      expect(warnings).toEqual([expect.stringContaining('issue #7 of octo/widgets is gone (deleted or transferred)')]);
    },
  );

  it('a permission refusal of the label still refuses the landing', async () => {
    const error = await publishing(answered(403, 'Resource not accessible by integration'), []).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LandingError);
    expect((error as LandingError).failure).toMatchObject({ class: 'refused' });
  });
});
