/**
 * What GitHub's refusals of a finished cycle's push or pull request mean (src/publish/landingFailures.ts),
 * from the text GitHub sends: git's `[remote rejected]` reasons and `remote:` lines, and the REST
 * errors' messages.
 */
import { describe, expect, it } from '@jest/globals';
import { buildDiagnostic } from '../../src/core/diagnostic.js';
import { initialLoopState } from '../../src/core/state.js';
import { GitError } from '../../src/git/git.js';
import { GitHubSourceError } from '../../src/issues/github/errors.js';
import { classifyIssueFailure, classifyLandingFailure, pushFoundSecret } from '../../src/publish/landingFailures.js';

const ctx = { repository: 'octo-org/widgets', branch: 'agent-loop/issue-7', base: 'main' };
const pushError = (stderr: string) =>
  new GitError(['push', '--no-verify', 'origin', 'refs/heads/agent-loop/issue-7'], 1, stderr);
const push = (stderr: string) => classifyLandingFailure('push', pushError(stderr), ctx);

describe('a refused push', () => {
  it('a workflow file pushed with the workflow token (a GitHub App): refused, naming the file and a token that may push it', () => {
    const f = push(
      'To https://github.com/octo-org/widgets\n' +
        ' ! [remote rejected] agent-loop/issue-7 -> agent-loop/issue-7 (refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission)\n' +
        "error: failed to push some refs to 'https://github.com/octo-org/widgets'\n",
    );
    expect(f.class).toBe('refused');
    expect(f.message).toContain('the workflow file .github/workflows/ci.yml');
    expect(f.message).toContain('without `workflows` permission');
    expect(f.advice).toContain('Workflows: read and write');
    expect(f.advice).toContain('and start over with the input fresh: true');
    expect(f.advice).not.toContain('contents: write');
  });

  it('the same with an OAuth token: the `workflow` scope', () => {
    const f = push(
      ' ! [remote rejected] agent-loop/issue-7 -> agent-loop/issue-7 (refusing to allow an OAuth App to create or update workflow `.github/workflows/release.yml` without `workflow` scope)\n',
    );
    expect(f).toMatchObject({ class: 'refused' });
    expect(f.advice).toContain('`workflow` scope');
  });

  it('a protected branch or a ruleset: refused, naming the rule', () => {
    for (const stderr of [
      'remote: error: GH006: Protected branch update failed for refs/heads/agent-loop/issue-7.\nremote: error: Changes must be made through a pull request.\n ! [remote rejected] agent-loop/issue-7 -> agent-loop/issue-7 (protected branch hook declined)\n',
      'remote: error: GH013: Repository rule violations found for refs/heads/agent-loop/issue-7.\n ! [remote rejected] agent-loop/issue-7 -> agent-loop/issue-7 (push declined due to repository rule violations)\n',
    ]) {
      const f = push(stderr);
      expect(f.class).toBe('refused');
      expect(f.message).toContain('branch protection rule or ruleset');
      expect(f.advice).toContain('bypass list');
    }
  });

  it("GitHub's push protection (a secret in the commits): refused, naming the secret, not a ruleset", () => {
    const stderr =
      'remote: error: GH013: Repository rule violations found for refs/heads/agent-loop/issue-7.\n' +
      'remote: \nremote: - GITHUB PUSH PROTECTION\n' +
      'remote:   —————————————————————————————————————————\n' +
      'remote:     Resolve the following violations before pushing again\nremote: \n' +
      'remote:     - Push cannot contain secrets\n' +
      ' ! [remote rejected] agent-loop/issue-7 -> agent-loop/issue-7 (push declined due to repository rule violations)\n';
    const f = push(stderr);
    expect(f.class).toBe('refused');
    expect(f.message).toContain("GitHub's push protection found a secret");
    expect(f.advice).toContain('not kept for another runner');
    expect(pushFoundSecret(pushError(stderr))).toBe(true);
    expect(pushFoundSecret(pushError('remote: error: GH013: Repository rule violations found for refs/heads/x.'))).toBe(
      false,
    );
  });

  it('no write permission: refused, naming `contents: write`', () => {
    const f = push(
      'remote: Permission to octo-org/widgets.git denied to github-actions[bot].\n' +
        "fatal: unable to access 'https://github.com/octo-org/widgets/': The requested URL returned error: 403\n",
    );
    expect(f.class).toBe('refused');
    expect(f.advice).toContain('permissions: contents: write');
  });

  it('someone else pushed to the branch: refused, with what to look at', () => {
    const f = push(' ! [rejected]        agent-loop/issue-7 -> agent-loop/issue-7 (fetch first)\n');
    expect(f.class).toBe('refused');
    expect(f.message).toContain('has commits this run does not have');
  });

  it("a file over GitHub's 100 MB limit (GH001): refused, naming the file and what to do (before: transient, retried by every run for ever)", () => {
    const f = push(
      'remote: error: Trace: 6f4b3c2a1d0e9f8a7b6c5d4e3f2a1b0c\n' +
        'remote: error: See https://gh.io/lfs for more information.\n' +
        "remote: error: File data/big.bin is 120.00 MB; this exceeds GitHub's file size limit of 100.00 MB\n" +
        'remote: error: GH001: Large files detected. You may want to try Git Large File Storage - https://git-lfs.github.com.\n' +
        'To https://github.com/octo-org/widgets\n' +
        ' ! [remote rejected] agent-loop/issue-7 -> agent-loop/issue-7 (pre-receive hook declined)\n' +
        "error: failed to push some refs to 'https://github.com/octo-org/widgets'\n",
    );
    expect(f.class).toBe('refused');
    expect(f.message).toContain("a file over GitHub's file size limit (data/big.bin)");
    expect(f.advice).toContain('fresh: true');
  });

  it('a push over the 2 GB limit, or another pre-receive hook that declines it: refused with the hook’s own words', () => {
    expect(
      push('remote: fatal: pack exceeds maximum allowed size (2.00 GiB)\nfatal: the remote end hung up unexpectedly\n')
        .class,
    ).toBe('refused');
    const f = push(
      'remote: Commit messages must name a ticket (ABC-123).\n' +
        ' ! [remote rejected] agent-loop/issue-7 -> agent-loop/issue-7 (pre-receive hook declined)\n',
    );
    expect(f.class).toBe('refused');
    expect(f.message).toContain('Commit messages must name a ticket');
  });

  it('GitHub failing or the network: transient', () => {
    for (const stderr of [
      "fatal: unable to access 'https://github.com/octo-org/widgets/': The requested URL returned error: 502\n",
      "fatal: unable to access 'https://github.com/octo-org/widgets/': Could not resolve host: github.com\n",
      'error: RPC failed; HTTP 500 curl 22 The requested URL returned error: 500\nfatal: the remote end hung up unexpectedly\n',
    ])
      expect(push(stderr).class).toBe('transient');
  });
});

describe('a push that ran out of time (issue 43)', () => {
  it('is a transient landing failure whose message is the timeout line (the remote, the command, the timeout, what to do), even when the remote printed lines first', () => {
    const line =
      'agent-loop ended `git push` to origin: it ran 120 s without finishing (2 attempts, each ended with all its ' +
      'processes; the remote did not answer in time). A later run tries again; if the remote is only slow, raise ' +
      'the input git-timeout-seconds.';
    const f = push(`remote: checking your commits...\nremote: GH006: Protected branch update failed\n${line}`);
    expect(f).toEqual({
      class: 'transient',
      message: `could not push agent-loop/issue-7 to octo-org/widgets: ${line}`,
    });
  });
});

describe('a refused pull request or label', () => {
  const rest = (kind: GitHubSourceError['kind'], status: number, message: string) =>
    new GitHubSourceError(message, kind, status);

  it('"GitHub Actions is not permitted to create or approve pull requests": refused, naming the setting, not a permission', () => {
    const f = classifyLandingFailure(
      'pull_request',
      rest(
        'permission',
        403,
        'The token may not do this while opening a pull request from agent-loop/issue-7 into main (403 GitHub Actions is not permitted to create or approve pull requests.).',
      ),
      ctx,
    );
    expect(f.class).toBe('refused');
    expect(f.message).toContain('the branch agent-loop/issue-7 is pushed');
    expect(f.advice).toContain('Allow GitHub Actions to create and approve pull requests');
    expect(f.advice).toContain("organisation's Settings");
    // How to go on is the halt's to say (issue 40): no scheduled run lifts it, resume: true does.
    expect(f.advice).not.toMatch(/scheduled run|run the workflow again/);
    const d = buildDiagnostic({
      reason: 'publish_refused',
      message: `PUBLISH REFUSED: ${f.message}`,
      state: initialLoopState(10),
      checkpointId: '3b241101-e2bb-4255-8caf-4136c566a962',
      maxConsecutiveEscalations: 2,
      advice: f.advice!,
      terms: 'action',
    });
    expect(d.advice).toContain(
      `${f.advice} Later runs stay halted until it is resumed: once the cause is fixed, run the workflow by hand (workflow_dispatch) with the input resume: true;`,
    );
    expect(d.resume).toEqual(['explicit', 'fresh']);
  });

  it('"Resource not accessible by integration": refused, naming pull-requests: write', () => {
    const f = classifyLandingFailure(
      'label',
      rest(
        'permission',
        403,
        'The token may not do this while labelling issue #7 (403 Resource not accessible by integration).',
      ),
      { ...ctx, issue: '7' },
    );
    expect(f.class).toBe('refused');
    expect(f.message).toContain('label issue #7');
    expect(f.advice).toContain('pull-requests: write');
  });

  it('a validation failure (422) is refused; a 5xx, a rate limit or a network error is transient', () => {
    expect(
      classifyLandingFailure(
        'pull_request',
        rest(
          'other',
          422,
          'GitHub refused the request (422 Validation Failed: No commits between main and agent-loop/issue-7).',
        ),
        ctx,
      ).class,
    ).toBe('refused');
    expect(
      classifyLandingFailure('pull_request', rest('server', 502, 'GitHub failed (502 Bad Gateway)'), ctx).class,
    ).toBe('transient');
    expect(
      classifyLandingFailure('pull_request', rest('rate-limit', 403, 'You have exceeded a secondary rate limit'), ctx)
        .class,
    ).toBe('transient');
    expect(classifyLandingFailure('label', new Error('socket hang up'), ctx).class).toBe('transient');
  });
});

describe('a failed issue effect (issue 14)', () => {
  const where = 'GitHub issues of octo/widgets labelled agent-loop';
  it.each([410, 404, 301])('%i: the issue is gone (deleted or transferred), named', (status) => {
    const failure = classifyIssueFailure(new GitHubSourceError('x', 'not-found', status), '7', 'close', where);
    expect(failure).toMatchObject({ class: 'gone', message: expect.stringContaining('Could not close issue #7') });
  });
  it('a permission refusal is refused with its fix; a 5xx is transient', () => {
    const refused = classifyIssueFailure(new GitHubSourceError('403 no', 'permission', 403), '7', 'close', where);
    expect(refused).toMatchObject({ class: 'refused', advice: expect.stringContaining('issues: write') });
    const failed = classifyIssueFailure(new GitHubSourceError('502', 'server', 502), '7', 'close', where);
    expect(failed.class).toBe('transient');
  });
});
