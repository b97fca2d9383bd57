/**
 * The preflight's reads (src/publish/preflightReads.ts) through the action's Octokit against the
 * GitHub REST stand-in (e2e/support/githubServer.ts, GitHub's documented answers and refusals), then
 * the decision (src/publish/preflight.ts): which GETs each landing and token make, and what comes of
 * GitHub's answers.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { type GitHubServer, type GitHubServerOptions, startGitHubServer } from '../../e2e/support/githubServer.js';
import { createOctokit } from '../../src/issues/github/client.js';
import { type TokenKind, decidePreflight } from '../../src/publish/preflight.js';
import { getter, readLandingFacts } from '../../src/publish/preflightReads.js';
import { PREFLIGHT_RETRIES } from '../../src/action/preflightCheck.js';

const servers: GitHubServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function github(options: GitHubServerOptions = {}): Promise<GitHubServer> {
  const server = await startGitHubServer(options);
  servers.push(server);
  return server;
}

async function check(server: GitHubServer, landing: 'pull-request' | 'merge', token: TokenKind, retries?: number) {
  const octokit = createOctokit(server.token, {
    baseUrl: server.url,
    waitScaleMs: 0,
    writeSpacingMs: 0,
    ...(retries !== undefined ? { retries } : {}),
  });
  const before = server.requests.length;
  const facts = await readLandingFacts(
    { owner: server.owner, repo: server.repo, base: 'main', landing, token },
    getter(octokit, server.owner, server.repo),
  );
  const verdict = decidePreflight({ ...facts, landed: { pullRequests: 0, issuesClosed: 0 } });
  const reads = server.requests
    .slice(before)
    .map((r) => `${r.method} ${r.path.replace(/^\/repos\/[^/]+\/[^/]+/, '')} ${r.status}`);
  return { verdict, reads };
}

describe('pull requests', () => {
  it('the workflow token: one GET, of the setting, which GitHub refuses it: a note, no halt', async () => {
    const server = await github();
    const { verdict, reads } = await check(server, 'pull-request', 'workflow');
    expect(reads).toEqual(['GET /actions/permissions/workflow 403']);
    expect(verdict.halt).toBeUndefined();
    expect(verdict.notes.join('\n')).toContain('403 Resource not accessible by integration');
  });

  it('a workflow token that may read the setting, and the setting off: a halt', async () => {
    const server = await github({ access: { administration: true } });
    server.settings.actionsCanCreatePullRequests = false;
    const { verdict, reads } = await check(server, 'pull-request', 'workflow');
    expect(reads).toEqual(['GET /actions/permissions/workflow 200']);
    expect(verdict.halt?.message).toContain('Allow GitHub Actions to create and approve pull requests');
  });

  it("an App's token: nothing read (the setting does not govern it; GitHub reports no push permission for it)", async () => {
    const server = await github({ tokenKind: 'app' });
    server.settings.actionsCanCreatePullRequests = false;
    const { verdict, reads } = await check(server, 'pull-request', 'app');
    expect(reads).toEqual([]);
    expect(verdict.halt).toBeUndefined();
  });

  it("a person's token: GET /repos tells its account's push permission; false halts, true does not", async () => {
    const server = await github({ token: 'ghp_0123456789abcdef0123456789abcdef0123', tokenKind: 'user' });
    server.access.push = false;
    const refused = await check(server, 'pull-request', 'user');
    expect(refused.reads).toEqual(['GET  200']);
    expect(refused.verdict.halt?.message).toContain('may not push');
    server.access.push = true;
    expect((await check(server, 'pull-request', 'user')).verdict).toEqual({ notes: [] });
  });
});

describe('on-success merge', () => {
  it('a ruleset that requires a pull request: the rules, the ruleset, the branch; a halt unless this token may bypass it', async () => {
    const server = await github({ tokenKind: 'app' });
    const ruleset = server.addRuleset({ name: 'review', rules: [{ type: 'pull_request' }] });
    const refused = await check(server, 'merge', 'app');
    expect(refused.reads).toEqual([
      'GET /rules/branches/main 200',
      `GET /rulesets/${ruleset.id} 200`,
      'GET /branches/main 200',
    ]);
    expect(refused.verdict.halt?.message).toContain('current_user_can_bypass: never');
    ruleset.bypass.app = 'pull_request';
    expect((await check(server, 'merge', 'app')).verdict.halt?.message).toContain('pull_requests_only');
    ruleset.bypass.app = 'always';
    expect((await check(server, 'merge', 'app')).verdict.halt).toBeUndefined();
    // A ruleset that does not take main, or only evaluates: no rule, no halt.
    ruleset.bypass = {};
    ruleset.include = ['refs/heads/release/*'];
    expect((await check(server, 'merge', 'app')).reads).toEqual([
      'GET /rules/branches/main 200',
      'GET /branches/main 200',
    ]);
    ruleset.include = ['~ALL'];
    ruleset.enforcement = 'evaluate';
    expect((await check(server, 'merge', 'app')).verdict.halt).toBeUndefined();
  });

  it('classic protection: status checks of everyone halt from the branch alone; a pull request rule needs the protection, which needs Administration read', async () => {
    const server = await github({ tokenKind: 'app' });
    server.protections.set('main', { requiredStatusChecks: { contexts: ['ci'] }, enforceAdmins: true });
    const checks = await check(server, 'merge', 'app');
    expect(checks.reads).toEqual(['GET /rules/branches/main 200', 'GET /branches/main 200']);
    expect(checks.verdict.halt?.message).toContain('requires the status checks ci of everyone');

    server.protections.set('main', { requiredPullRequestReviews: {}, enforceAdmins: true });
    const unreadable = await check(server, 'merge', 'app');
    expect(unreadable.reads.at(-1)).toBe('GET /branches/main/protection 403');
    expect(unreadable.verdict.halt).toBeUndefined();
    expect(unreadable.verdict.notes.join('\n')).toContain('needs Administration read');

    server.access.administration = true;
    const read = await check(server, 'merge', 'app');
    expect(read.reads.at(-1)).toBe('GET /branches/main/protection 200');
    expect(read.verdict.halt?.message).toContain('requires a pull request, of administrators too');
  });
});

describe('a GitHub that fails (5xx, or not reachable)', () => {
  it('each read is retried once (PREFLIGHT_RETRIES), not three times: two 502s make the read "not checked"', async () => {
    const server = await github({ access: { administration: true } });
    server.failNext(2, 502);
    const { verdict, reads } = await check(server, 'pull-request', 'workflow', PREFLIGHT_RETRIES);
    expect(reads).toEqual(['GET /actions/permissions/workflow 502', 'GET /actions/permissions/workflow 502']);
    expect(verdict.halt).toBeUndefined();
    expect(verdict.notes.join('\n')).toContain('502');
  });

  it('one 502 is retried and the read goes through', async () => {
    const server = await github({ access: { administration: true } });
    server.settings.actionsCanCreatePullRequests = false;
    server.failNext(1, 502);
    const { verdict, reads } = await check(server, 'pull-request', 'workflow', PREFLIGHT_RETRIES);
    expect(reads).toEqual(['GET /actions/permissions/workflow 502', 'GET /actions/permissions/workflow 200']);
    expect(verdict.halt?.message).toContain('Allow GitHub Actions to create and approve pull requests');
  });
});
