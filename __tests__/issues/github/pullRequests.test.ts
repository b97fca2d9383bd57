/**
 * The pull requests the GitHub issue source opens (src/issues/github/pullRequests.ts) and its
 * pr-open label, against the GitHub REST stand-in (the describe also keeps the exportState/importState
 * test it held in github.test.ts).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createOctokit } from '../../../src/issues/github/client.js';
import { GitHubIssueSource } from '../../../src/issues/github/issueSource.js';
import { listOpenPullRequests } from '../../../src/issues/github/pullRequests.js';
import { GitHubRequests } from '../../../src/issues/github/requests.js';
import { ListingError } from '../../../src/issues/listing.js';
import { GitHubSourceError } from '../../../src/issues/github/errors.js';
import { PR_OPEN_LABEL } from '../../../src/issues/types.js';
import { closeServers, ids, LABEL, minutesAgo, setup } from './setup.js';

afterEach(closeServers);

describe('GitHubIssueSource pull requests', () => {
  it('opens a pull request from the branch (draft when asked), and reuses the open one on the next call', async () => {
    const { server, source } = await setup();
    server.addIssue({ title: 'Fix it', labels: [LABEL] });
    const first = await source.openPullRequest({
      head: 'agent-loop/issue-1',
      base: 'main',
      title: 'Fix it',
      body: 'Closes #1',
      draft: true,
    });
    expect(first).toEqual({
      number: 2,
      url: `https://github.com/${server.owner}/${server.repo}/pull/2`,
      reused: false,
    });
    expect(server.pulls()).toHaveLength(1);
    expect(server.pulls()[0]).toMatchObject({
      title: 'Fix it',
      body: 'Closes #1',
      pull: { head: 'agent-loop/issue-1', base: 'main', draft: true },
    });
    const again = await source.openPullRequest({
      head: 'agent-loop/issue-1',
      base: 'main',
      title: 'Fix it',
      body: 'Closes #1',
      draft: true,
    });
    expect(again).toEqual({ ...first, reused: true });
    expect(server.pulls()).toHaveLength(1);
  });

  it("issue 15: the title and body are redacted as posted (the body quotes the agent's own summary)", async () => {
    const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const { server } = await setup();
    const source = new GitHubIssueSource({
      octokit: createOctokit(server.token, { baseUrl: server.url, waitScaleMs: 0, writeSpacingMs: 0 }),
      owner: server.owner,
      repo: server.repo,
      label: LABEL,
      redact: (t) => t.split(secret).join('***'),
    });
    server.addIssue({ title: 'Fix it', labels: [LABEL] });
    await source.openPullRequest({
      head: 'agent-loop/issue-1',
      base: 'main',
      title: `Fix ${secret}`,
      body: `Closes #1\n\n> the agent used ${secret}`,
      draft: false,
    });
    expect(server.pulls()[0]).toMatchObject({ title: 'Fix ***', body: 'Closes #1\n\n> the agent used ***' });
  });

  it('a 422 "already exists" (another run opened it meanwhile) finds that pull request instead of failing', async () => {
    const { server } = await setup();
    const octokit = createOctokit(server.token, { baseUrl: server.url, waitScaleMs: 0, writeSpacingMs: 0 });
    // Another run opens the pull request between this run's GET (none yet) and its POST.
    octokit.hook.before('request', (options) => {
      if (options.method === 'POST' && String(options.url).endsWith('/pulls') && server.pulls().length === 0) {
        server.addIssue({ title: 'Other run', pullRequest: true }).pull = {
          head: 'agent-loop/issue-9',
          base: 'main',
          draft: false,
          merged: false,
        };
      }
    });
    const source = new GitHubIssueSource({ octokit, owner: server.owner, repo: server.repo, label: LABEL });
    const pr = await source.openPullRequest({
      head: 'agent-loop/issue-9',
      base: 'main',
      title: 't',
      body: 'b',
      draft: false,
    });
    expect(pr).toMatchObject({ number: 1, reused: true });
    expect(server.requests.filter((r) => r.path.endsWith('/pulls')).map((r) => `${r.method} ${r.status}`)).toEqual([
      'GET 200',
      'POST 422',
      'GET 200',
    ]);
    expect(server.pulls()).toHaveLength(1);
  });

  it('refuses a head branch the repository does not have, naming the request', async () => {
    const { server, source } = await setup({ server: { gitDir: '/nonexistent-git-dir' } });
    server.addIssue({ title: 'x', labels: [LABEL] });
    await expect(
      source.openPullRequest({ head: 'agent-loop/issue-1', base: 'main', title: 'x', body: 'b', draft: false }),
    ).rejects.toThrow(/opening a pull request from agent-loop\/issue-1 into main \(422 Validation Failed\)/);
  });

  it('ready() leaves out issues labelled agent-loop:pr-open until the label is removed', async () => {
    const { server, source } = await setup();
    const a = server.addIssue({ title: 'A', labels: [LABEL], createdAt: minutesAgo(5) });
    server.addIssue({ title: 'B', labels: [LABEL], createdAt: minutesAgo(4) });
    await source.addLabel(String(a.number), PR_OPEN_LABEL);
    expect(server.issue(a.number)?.labels).toContain(PR_OPEN_LABEL);
    expect(ids(await source.ready())).toEqual(['2']);
    expect(source.lastListing).toMatchObject({ prOpen: 1, ready: 1 });
    server.updateIssue(a.number, { labels: [LABEL] });
    expect(ids(await source.ready())).toEqual(['1', '2']);
  });

  it('exportState/importState carry the ETag cache through the checkpoint', async () => {
    const { server, source, another } = await setup();
    server.addIssue({ title: 'A', labels: [LABEL] });
    await source.ready();
    const later = another();
    later.importState(JSON.parse(JSON.stringify(source.exportState())));
    expect(ids(await later.ready())).toEqual(['1']);
    expect(later.apiCalls).toMatchObject({ requests: 1, notModified: 1, counted: 0 });
  });
});

describe('listing the open pull requests (issue 40)', () => {
  const requests = async () => {
    const { server } = await setup();
    const octokit = createOctokit(server.token, { baseUrl: server.url, waitScaleMs: 0, writeSpacingMs: 0 });
    return { server, api: new GitHubRequests(octokit, server.owner, server.repo) };
  };

  it("a listing GitHub fails (502, after the retries) or does not find (404) is a ListingError with the status and GitHub's message, never an empty list", async () => {
    const { server, api } = await requests();
    const what = `listing the open pull requests of ${server.owner}/${server.repo}`;
    const lift = server.refuse({
      method: 'GET',
      path: '/repos/:owner/:repo/pulls',
      status: 502,
      message: 'Server Error',
    });
    const failed = await listOpenPullRequests(api, 'agent-loop/').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ListingError);
    expect(failed).toMatchObject({
      what,
      status: 502,
      message: 'GitHub failed while listing the open pull requests (502 Server Error), also on retrying.',
    });
    expect(server.requests.map((r) => r.status)).toEqual([502, 502, 502, 502]); // 3 retries first
    lift();

    server.refuse({ method: 'GET', path: '/repos/:owner/:repo/pulls', status: 404, message: 'Not Found' });
    const missing = await listOpenPullRequests(api, 'agent-loop/').catch((e: unknown) => e);
    expect(missing).toMatchObject({ what, status: 404 });
    expect((missing as Error).message).toMatch(/^Not found while listing the open pull requests \(404 Not Found\)/);
    expect(server.requests.slice(4).map((r) => r.status)).toEqual([404]);
  });

  it('issues GitHub does not list (404) are a ListingError too, never "no issues"', async () => {
    const { server, source } = await setup();
    server.addIssue({ labels: [LABEL] });
    server.refuse({ method: 'GET', path: '/repos/:owner/:repo/issues', status: 404, message: 'Not Found' });
    const failed = await source.ready().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ListingError);
    expect(failed).toMatchObject({
      what: `listing the open issues labelled ${LABEL} in ${server.owner}/${server.repo}`,
      status: 404,
    });
  });
  it('a token GitHub refuses (401 Bad credentials) is no deferral: the error is thrown as it is, so the run stops and says so', async () => {
    const { server, source } = await setup();
    server.addIssue({ labels: [LABEL] });
    server.refuse({ method: 'GET', path: '/repos/:owner/:repo/issues', status: 401, message: 'Bad credentials' });
    const failed = await source.ready().catch((e: unknown) => e);
    expect(failed).not.toBeInstanceOf(ListingError);
    expect(failed).toBeInstanceOf(GitHubSourceError);
    expect(failed).toMatchObject({ kind: 'auth', status: 401 });
  });
});
