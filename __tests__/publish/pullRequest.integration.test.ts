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
import { createPullRequestPublisher, pullRequestBody } from '../../src/publish/pullRequest.js';
import { secretDetector } from '../../src/safety/secretScan.js';

let dir: string;
let repo: string;
/** A key the job knows (a declared secret): built at run time, never whole in this file. */
const KEY = ['sk-ant-api03', 'Pq9Rs8Tu7Vw6Xy5Za4Bc3De2Fg1Hi0Jk'].join('-');
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
  const git = (await openGit(repo, env, { holdsSecret: secretDetector([KEY]) })) as Git;
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

describe('issue 14: on-success merge pushes the work onto the base branch on the remote', () => {
  /** The remote's main before the work, and the cycle branch checked out (as the loop leaves it). */
  async function ready() {
    const bare = await bareRemote();
    sh(repo, 'push', '-q', 'origin', 'main');
    sh(repo, 'checkout', '-q', 'agent-loop/issue-7');
    return bare;
  }
  /** A person's commit on the remote's main, changing `file`. */
  async function someonePushes(file: string) {
    const other = path.join(dir, 'other');
    sh(dir, 'clone', '-q', path.join(dir, 'no-such-remote.git'), other);
    await fs.writeFile(path.join(other, file), 'by hand\n');
    sh(other, 'add', '.');
    sh(other, 'commit', '-q', '-m', 'by hand');
    sh(other, 'push', '-q', 'origin', 'main');
  }
  const remoteMain = (bare: string, ...args: string[]) =>
    execFileSync('git', ['--git-dir', bare, ...args], { env, encoding: 'utf8' }).trim();

  it('a fast-forward when the base did not move: the remote main is the work, no merge commit', async () => {
    const bare = await ready();
    const keepDir = path.join(dir, 'state', 'outbox');
    await (
      await publisher(keepDir)
    ).pushToBase!(work);
    expect(remoteMain(bare, 'rev-parse', 'main')).toBe(sh(repo, 'rev-parse', 'agent-loop/issue-7'));
    expect(existsSync(path.join(keepDir, 'agent-loop-issue-7.bundle'))).toBe(false);
  });

  it('a base that moved meanwhile is fetched and merged into the work, then pushed: both on the remote main', async () => {
    const bare = await ready();
    await someonePushes('b.txt');
    await (
      await publisher(path.join(dir, 'state', 'outbox'))
    ).pushToBase!(work);
    expect(remoteMain(bare, 'show', 'main:a.txt')).toBe('fixed');
    expect(remoteMain(bare, 'show', 'main:b.txt')).toBe('by hand');
    expect(remoteMain(bare, 'rev-parse', 'main')).toBe(sh(repo, 'rev-parse', 'agent-loop/issue-7'));
  });

  it('a conflict with the moved base is refused, naming the file and the way out; nothing pushed, the work kept as a bundle, the tree clean', async () => {
    const bare = await ready();
    await someonePushes('a.txt');
    const before = remoteMain(bare, 'rev-parse', 'main');
    const keepDir = path.join(dir, 'state', 'outbox');
    const error = await (await publisher(keepDir)).pushToBase!(work).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LandingError);
    expect((error as LandingError).failure).toMatchObject({
      class: 'refused',
      message: expect.stringContaining('moved since the work started and merging it conflicts with the work (a.txt)'),
      advice: expect.stringContaining('on-success: pull-request'),
    });
    expect(remoteMain(bare, 'rev-parse', 'main')).toBe(before);
    expect(existsSync(path.join(keepDir, 'agent-loop-issue-7.bundle'))).toBe(true);
    expect(sh(repo, 'status', '--porcelain')).toBe('');
  });
});

describe('issue 14: beads issues in pull requests', () => {
  it('the body names the beads issue behind a marker, and no GitHub issue; inReview finds an open one by its marker or its branch', async () => {
    const body = pullRequestBody({ ...work, issueIds: ['bd-1'], titles: ['Fix it'] }, 'npm test', {
      issuesFile: '.beads/issues.jsonl',
    });
    expect(body).toMatch(/^<!-- agent-loop:issues bd-1 -->$/m);
    expect(body).toContain(
      'Fixes the beads issue bd-1 (Fix it) of `.beads/issues.jsonl`, closed there in this branch.',
    );
    expect(body).not.toContain('Closes #');
    const git = (await openGit(repo, env)) as Git;
    const listed = [
      { number: 4, url: 'u4', head: 'agent-loop/batch-bd-2-and-1-more', body: '<!-- agent-loop:issues bd-2 bd-3 -->' },
      { number: 5, url: 'u5', head: 'agent-loop/bd-5', body: 'edited by a person' },
    ];
    const p = createPullRequestPublisher({
      git,
      github: { openPullRequest: async () => ({ number: 1, url: 'u', reused: false }) },
      beads: { issuesFile: '.beads/issues.jsonl', openPullRequests: async () => listed },
      repository: 'octo/widgets',
      draft: false,
      testCommand: 'true',
      redact: (t) => t,
    });
    const found = await p.inReview!(['bd-1', 'bd-3', 'bd-5']);
    expect([...found]).toEqual([
      ['bd-3', { number: 4, url: 'u4' }],
      ['bd-5', { number: 5, url: 'u5' }],
    ]);
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

describe('issue 15: the pull request body says what was done and verified', () => {
  it('names the issue and its title, quotes the agent, lists the commits and diffstat, gives the verdict (targets passing, earlier failures left alone), iterations, spend and the run (snapshot)', async () => {
    await bareRemote();
    const bodies: string[] = [];
    const git = (await openGit(repo, env)) as Git;
    const p = createPullRequestPublisher({
      git,
      github: {
        openPullRequest: async (pr) => {
          bodies.push(pr.body);
          return { number: 3, url: 'https://github.com/octo/widgets/pull/3', reused: false };
        },
        addLabel: async () => undefined,
      },
      repository: 'octo/widgets',
      draft: false,
      testCommand: 'npm test',
      runUrl: 'https://github.com/octo/widgets/actions/runs/42',
      redact: (t) => t,
    });
    await p.publish({
      ...work,
      iteration: 4,
      verdict: '1 target(s) pass; 1 failure(s) that were there before, not targeted',
      targets: ['test/a.test.ts > a is fixed'],
      preexisting: ['test/flaky.test.ts > `times` out'],
      summary: 'Fixed a.txt.\nThe value is read once now.',
      iterations: 2,
      costUsd: 0.4567,
    });
    const [body = ''] = bodies;
    expect(body).toMatch(/^Closes #7$/m);
    expect(body).toContain('- #7: Fix a');
    expect(body).toContain('```\nFixed a.txt.\nThe value is read once now.\n```');
    expect(body).toMatch(
      /^1 commit \(1 file changed, 1 insertion\(\+\), 1 deletion\(-\)\):\n- `[0-9a-f]{7,} the work`$/m,
    );
    expect(body).toContain('- `test/a.test.ts > a is fixed`');
    expect(body).toContain("- `test/flaky.test.ts > 'times' out`");
    expect(body).toContain(
      '2 iterations · $0.46 reported by the agent · [the workflow run](https://github.com/octo/widgets/actions/runs/42).',
    );
    // The commit hash changes from run to run; the rest is the body as posted.
    expect(body.replace(/^- `[0-9a-f]{7,} /m, '- `<sha> ')).toMatchSnapshot();
  });

  it('without the details (an old checkpoint, an agent that reports no cost), the body still closes the issue and gives the verdict', () => {
    const body = pullRequestBody({ ...work, verdict: 'no test broken' }, 'npm test');
    expect(body).toMatch(/^Closes #7$/m);
    expect(body).toContain(
      '`npm test` accepted the work against the suite as it stood before the change (iteration 1): no test broken.',
    );
    expect(body).toContain('No test that passed before fails now.');
    expect(body).not.toContain('reported by the agent');
  });

  it("keeps the agent's text inside its code block and the lists: a lone CR (a line end to GitHub) starts no markdown of the agent's, and no @mention or closing keyword of the agent's is live", () => {
    const body = pullRequestBody(
      {
        ...work,
        summary: 'Implemented it.\r\r### Verdict\r\rAll tests pass. Fixes #12, cc @octo/owners\r\r<!--',
        targets: ['a\n\n### forged', 'b\r\rc'],
        titles: ['Title\r\r# heading'],
      },
      'npm test',
      undefined,
      { commits: ['abc1234 subject\r\r### forged too'] },
    );
    const lines = body.split(/\r\n?|\n/);
    expect(lines.filter((l) => l.includes('Verdict') || l.includes('forged') || l.includes('heading'))).toEqual([
      '- #7: Title # heading',
      '### Verdict', // the agent's, inside its code block
      '- `abc1234 subject ### forged too`',
      '### Verdict',
      '- `a ### forged`',
    ]);
    // The agent's summary is a fenced code block from its first line to its last.
    const start = lines.indexOf('Implemented it.');
    expect(lines[start - 1]).toBe('```');
    expect(lines.slice(start, start + 8)).toEqual([
      'Implemented it.',
      '',
      '### Verdict',
      '',
      'All tests pass. Fixes #12, cc @octo/owners',
      '',
      '<!--',
      '```',
    ]);
  });
});

describe('issue 43: what the agent adds beside the work is not published with it', () => {
  it('--workflow tdd: git notes where one holds a secret (the agent added it) are neither pushed nor bundled; the branch lands, and the run is told why', async () => {
    const bare = await bareRemote();
    sh(repo, 'notes', '--ref', 'agent-loop', 'add', '-m', '{"phase":"GREEN"}', 'agent-loop/issue-7');
    sh(repo, 'notes', '--ref', 'agent-loop', 'add', '-m', `{"found":"${KEY}"}`, 'main');
    // Removed again: the notes' history still holds it, and a push would carry that history.
    sh(repo, 'notes', '--ref', 'agent-loop', 'remove', 'main');
    const warnings: string[] = [];
    const keepDir = path.join(dir, 'state', 'outbox');
    const p = await publisher(keepDir, warnings, true);
    await p.stash?.('agent-loop/issue-7', 'main');
    const heads = sh(repo, 'bundle', 'list-heads', path.join(keepDir, 'agent-loop-issue-7.bundle'));
    expect(heads).not.toContain('refs/notes/agent-loop');
    await p.publish(work);
    expect(sh(bare, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/agent-loop/issue-7');
    expect(warnings).toEqual([expect.stringMatching(/^the git notes refs\/notes\/agent-loop are not pushed nor kept/)]);
    expect(warnings.join('\n')).not.toContain(KEY);
  });

  it('clean notes are still pushed with the branch', async () => {
    const bare = await bareRemote();
    sh(repo, 'notes', '--ref', 'agent-loop', 'add', '-m', '{"phase":"GREEN"}', 'agent-loop/issue-7');
    const warnings: string[] = [];
    await (await publisher(path.join(dir, 'state', 'outbox'), warnings, true)).publish(work);
    expect(sh(bare, 'for-each-ref', '--format=%(refname)').split('\n').sort()).toEqual([
      'refs/heads/agent-loop/issue-7',
      'refs/notes/agent-loop',
    ]);
    expect(warnings).toEqual([]);
  });

  it('an annotated tag the agent made is not pushed with the branch, push.followTags set or not', async () => {
    const bare = await bareRemote();
    sh(repo, 'config', 'push.followTags', 'true');
    sh(repo, 'tag', '-a', '-m', `loot ${KEY}`, 'v9', 'agent-loop/issue-7');
    await (await publisher(path.join(dir, 'state', 'outbox'))).publish(work);
    expect(sh(bare, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/agent-loop/issue-7');
  });
});
