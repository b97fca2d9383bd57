/**
 * Fast tests of the GitHub REST API stand-in itself, with plain fetch.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGitHubServer, type GitHubServer, type GitHubServerOptions } from './githubServer.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

async function github(options?: GitHubServerOptions): Promise<GitHubServer> {
  const server = await startGitHubServer(options);
  closers.push(() => server.close());
  return server;
}

function call(
  server: GitHubServer,
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
) {
  const headers: Record<string, string> = { accept: 'application/vnd.github+json', ...init.headers };
  if (init.token !== null) headers.authorization = `token ${init.token ?? server.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${path.startsWith('http') ? '' : server.url}${path}`, {
    method,
    headers,
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
  });
}

const numbers = async (res: Response) => ((await res.json()) as { number: number }[]).map((i) => i.number);
const issuesPath = (s: GitHubServer) => `/repos/${s.owner}/${s.repo}/issues`;

describe('githubServer', () => {
  it('answers 401 without a token or with a wrong one, and takes token or Bearer', async () => {
    const server = await github();
    const none = await call(server, 'GET', issuesPath(server), { token: null });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ message: 'Requires authentication' });
    const wrong = await call(server, 'GET', issuesPath(server), { token: 'nope' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ message: 'Bad credentials' });
    const bearer = await fetch(`${server.url}${issuesPath(server)}`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(bearer.status).toBe(200);
    expect(server.requests.map((r) => [r.status, r.auth, r.counted])).toEqual([
      [401, 'none', false],
      [401, 'bad', false],
      [200, 'bearer', true],
    ]);
  });

  it('lists issues and pull requests: state, labels (all, any case), sort, direction', async () => {
    const server = await github();
    const a = server.addIssue({ labels: ['agent-loop', 'bug'], createdAt: '2026-01-01T00:00:00Z' });
    const pr = server.addIssue({ labels: ['agent-loop'], pullRequest: true, createdAt: '2026-01-02T00:00:00Z' });
    const c = server.addIssue({ labels: ['Agent-Loop'], createdAt: '2026-01-03T00:00:00Z', state: 'closed' });
    const d = server.addIssue({ labels: ['bug'], createdAt: '2026-01-04T00:00:00Z' });

    expect(await numbers(await call(server, 'GET', issuesPath(server)))).toEqual([d.number, pr.number, a.number]); // open, newest first
    expect(await numbers(await call(server, 'GET', `${issuesPath(server)}?labels=AGENT-LOOP&direction=asc`))).toEqual([
      a.number,
      pr.number,
    ]);
    expect(await numbers(await call(server, 'GET', `${issuesPath(server)}?labels=agent-loop,bug`))).toEqual([a.number]);
    expect(
      await numbers(
        await call(server, 'GET', `${issuesPath(server)}?state=all&labels=agent-loop&sort=created&direction=asc`),
      ),
    ).toEqual([a.number, pr.number, c.number]);
    expect((await call(server, 'GET', `${issuesPath(server)}?state=nope`)).status).toBe(422);

    const single = (await (await call(server, 'GET', `${issuesPath(server)}/${pr.number}`)).json()) as Record<
      string,
      unknown
    >;
    expect(single).toMatchObject({
      number: pr.number,
      state: 'open',
      user: { login: 'octocat' },
      author_association: 'OWNER',
      html_url: `https://github.com/${server.owner}/${server.repo}/pull/${pr.number}`,
      pull_request: { url: `${server.url}/repos/${server.owner}/${server.repo}/pulls/${pr.number}` },
      labels: [expect.objectContaining({ name: 'agent-loop' })],
    });
  });

  it('paginates with GitHub link headers (repository-id URLs), per_page clamped to 100', async () => {
    const server = await github();
    server.addIssues(250);
    const first = await call(server, 'GET', `${issuesPath(server)}?per_page=500&direction=asc`);
    expect(await first.json()).toHaveLength(100);
    const base = `${server.url}/repositories/${server.repositoryId}/issues?per_page=500&direction=asc`;
    expect(first.headers.get('link')).toBe(`<${base}&page=2>; rel="next", <${base}&page=3>; rel="last"`);

    const middle = await call(server, 'GET', `${base}&page=2`);
    expect(await numbers(middle)).toEqual(Array.from({ length: 100 }, (_, i) => 101 + i));
    expect(middle.headers.get('link')).toBe(
      `<${base}&page=1>; rel="prev", <${base}&page=3>; rel="next", <${base}&page=3>; rel="last", <${base}&page=1>; rel="first"`,
    );
    expect(await call(server, 'GET', `${issuesPath(server)}?per_page=100&page=3`).then((r) => r.json())).toHaveLength(
      50,
    );

    const small = await github();
    small.addIssues(3);
    const all = await call(small, 'GET', issuesPath(small));
    expect(all.headers.get('link')).toBeNull(); // everything on one page
    expect(await all.json()).toHaveLength(3);
    expect((await call(small, 'GET', issuesPath(small).replace(small.repo, 'other'))).status).toBe(404);
  });

  it('answers a matching If-None-Match with 304, not counted; ETags differ per token', async () => {
    const server = await github({ otherTokens: ['second-token-value'] });
    server.addIssues(2);
    const res = await call(server, 'GET', issuesPath(server));
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4999');
    expect(res.headers.get('x-ratelimit-used')).toBe('1');
    expect(res.headers.get('x-ratelimit-resource')).toBe('core');
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);

    const again = await call(server, 'GET', issuesPath(server), { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('4999');
    expect(server.requests.at(-1)).toMatchObject({ status: 304, conditional: true, counted: false });

    const otherToken = await call(server, 'GET', issuesPath(server), {
      token: 'second-token-value',
      headers: { 'if-none-match': etag! },
    });
    expect(otherToken.status).toBe(200);
    expect(otherToken.headers.get('etag')).not.toBe(etag);

    server.updateIssue(1, { title: 'changed' });
    expect((await call(server, 'GET', issuesPath(server), { headers: { 'if-none-match': etag! } })).status).toBe(200);
  });

  it('runs out of the primary limit, and the window resets on its clock', async () => {
    let now = Date.parse('2026-03-01T12:00:00Z');
    const server = await github({ rateLimit: 2, now: () => now });
    await call(server, 'GET', issuesPath(server));
    await call(server, 'GET', issuesPath(server));
    const refused = await call(server, 'GET', issuesPath(server));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^API rate limit exceeded for installation ID \d+\./,
    );
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(now / 1000 + 3600));

    now += 3600_000;
    const after = await call(server, 'GET', issuesPath(server));
    expect(after.status).toBe(200);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('scripts primary and secondary limits and 5xx answers, by method if asked', async () => {
    const server = await github();
    server.rateLimitNext(1, { kind: 'primary', status: 429, resetInSeconds: 10 });
    server.rateLimitNext(1, { kind: 'secondary', retryAfterSeconds: 7, method: 'POST' });
    server.rateLimitNext(1, { kind: 'secondary', status: 429 });
    server.failNext(1, 503);
    server.addIssue();

    const primary = await call(server, 'GET', issuesPath(server));
    expect(primary.status).toBe(429);
    expect(primary.headers.get('x-ratelimit-remaining')).toBe('0');
    const noRetryAfter = await call(server, 'GET', issuesPath(server));
    expect(noRetryAfter.status).toBe(429);
    expect(noRetryAfter.headers.get('retry-after')).toBeNull();
    expect(((await noRetryAfter.json()) as { message: string }).message).toMatch(
      /^You have exceeded a secondary rate limit/,
    );
    expect((await call(server, 'GET', issuesPath(server))).status).toBe(503);
    const post = await call(server, 'POST', `${issuesPath(server)}/1/comments`, { body: { body: 'hi' } });
    expect(post.status).toBe(403);
    expect(post.headers.get('retry-after')).toBe('7');
    expect(post.headers.get('x-ratelimit-remaining')).not.toBe('0');
    expect((await call(server, 'POST', `${issuesPath(server)}/1/comments`, { body: { body: 'hi' } })).status).toBe(201);
  });

  it("refuses a route with GitHub's own status and message until lifted (a repository setting)", async () => {
    const server = await github();
    const lift = server.refuse({
      method: 'POST',
      path: '/repos/:owner/:repo/pulls',
      status: 403,
      message: 'GitHub Actions is not permitted to create or approve pull requests.',
    });
    const pulls = `/repos/${server.owner}/${server.repo}/pulls`;
    const body = { body: { head: 'x', base: 'main', title: 't' } };
    const refused = await call(server, 'POST', pulls, body);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      message: 'GitHub Actions is not permitted to create or approve pull requests.',
      status: '403',
    });
    expect((await call(server, 'GET', pulls)).status).toBe(200); // other methods pass
    lift();
    expect((await call(server, 'POST', pulls, body)).status).not.toBe(403);
  });

  it("the token's kind and access (issue 40): a person's permissions on the repository, the Actions settings behind Administration read, the pull-request setting governing the workflow token only", async () => {
    const server = await github();
    const repoPath = `/repos/${server.owner}/${server.repo}`;
    // The workflow token: no `permissions` on the repository, the settings refused.
    expect(await (await call(server, 'GET', repoPath)).json()).not.toHaveProperty('permissions');
    const refused = await call(server, 'GET', `${repoPath}/actions/permissions/workflow`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: 'Resource not accessible by integration', status: '403' });
    // With the setting off, the workflow token's pull request is refused in GitHub's words; an App's is not.
    server.settings.actionsCanCreatePullRequests = false;
    const open = () =>
      call(server, 'POST', `${repoPath}/pulls`, { body: { title: 't', head: 'feature', base: 'main' } });
    expect(await (await open()).json()).toMatchObject({
      message: 'GitHub Actions is not permitted to create or approve pull requests.',
    });
    server.tokenKind = 'app';
    expect((await open()).status).not.toBe(403);
    server.access.administration = true;
    expect(await (await call(server, 'GET', `${repoPath}/actions/permissions/workflow`)).json()).toEqual({
      default_workflow_permissions: 'write',
      can_approve_pull_request_reviews: false,
    });
    // A person: the account's permissions; the settings need the admin role.
    server.tokenKind = 'user';
    server.access.administration = false;
    server.access.push = false;
    expect(await (await call(server, 'GET', repoPath)).json()).toMatchObject({
      permissions: { admin: false, push: false, pull: true },
    });
    expect(await (await call(server, 'GET', `${repoPath}/actions/permissions/workflow`)).json()).toMatchObject({
      message: 'Must have admin rights to Repository.',
    });
  });

  it("rulesets and branch protection (issue 40): the active rules on a branch, a ruleset with this token's bypass, a branch and its protection", async () => {
    const server = await github();
    const repoPath = `/repos/${server.owner}/${server.repo}`;
    const get = async (p: string) => {
      const res = await call(server, 'GET', `${repoPath}${p}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const ruleset = server.addRuleset({
      name: 'release',
      include: ['refs/heads/release/*'],
      rules: [{ type: 'update' }],
      bypass: { workflow: 'pull_request' },
    });
    server.addRuleset({ name: 'trial', enforcement: 'evaluate', include: ['~ALL'], rules: [{ type: 'pull_request' }] });
    expect((await get('/rules/branches/main')).body).toEqual([]);
    expect((await get(`/rules/branches/${encodeURIComponent('release/1')}`)).body).toEqual([
      {
        type: 'update',
        ruleset_source_type: 'Repository',
        ruleset_source: `${server.owner}/${server.repo}`,
        ruleset_id: ruleset.id,
      },
    ]);
    const read = await get(`/rulesets/${ruleset.id}`);
    expect(read.body).toMatchObject({ name: 'release', current_user_can_bypass: 'pull_requests_only' });
    expect(read.body).not.toHaveProperty('bypass_actors');
    expect((await get('/rulesets/1')).status).toBe(404);

    expect((await get('/branches/main')).body).toMatchObject({ name: 'main', protected: false });
    expect(await get('/branches/main/protection')).toMatchObject({ status: 403 });
    server.access.administration = true;
    expect(await get('/branches/main/protection')).toMatchObject({
      status: 404,
      body: { message: 'Branch not protected' },
    });
    server.protections.set('main', { requiredStatusChecks: { contexts: ['ci'] } });
    expect((await get('/branches/main')).body).toMatchObject({
      protected: true,
      protection: { enabled: true, required_status_checks: { enforcement_level: 'non_admins', contexts: ['ci'] } },
    });
    expect((await get('/branches/main/protection')).body).toMatchObject({
      required_status_checks: { contexts: ['ci'] },
      enforce_admins: { enabled: false },
    });
  });

  it('gets, patches, deletes: 404, 410, state_reason, validation', async () => {
    const server = await github();
    const issue = server.addIssue({ labels: ['agent-loop'] });
    server.addIssue();
    server.deleteIssue(2);
    expect((await call(server, 'GET', `${issuesPath(server)}/99`)).status).toBe(404);
    expect((await call(server, 'GET', `${issuesPath(server)}/2`)).status).toBe(410);
    expect((await call(server, 'PATCH', `${issuesPath(server)}/1`, { body: { state: 'shut' } })).status).toBe(422);
    expect((await call(server, 'PATCH', `${issuesPath(server)}/1`, { body: '{nope' })).status).toBe(400);

    const closed = await call(server, 'PATCH', `${issuesPath(server)}/1`, {
      body: { state: 'closed', state_reason: 'not_planned' },
    });
    expect(await closed.json()).toMatchObject({
      state: 'closed',
      state_reason: 'not_planned',
      closed_at: expect.any(String),
    });
    // state_reason is ignored unless state changes
    await call(server, 'PATCH', `${issuesPath(server)}/1`, { body: { state_reason: 'completed' } });
    expect(issue.stateReason).toBe('not_planned');
    const reopened = await call(server, 'PATCH', `${issuesPath(server)}/1`, { body: { state: 'open' } });
    expect(await reopened.json()).toMatchObject({ state: 'open', state_reason: 'reopened', closed_at: null });
  });

  it('adds and removes labels', async () => {
    const server = await github();
    const issue = server.addIssue({ labels: ['agent-loop'] });
    const added = await call(server, 'POST', `${issuesPath(server)}/1/labels`, {
      body: { labels: ['agent-loop:escalated', { name: 'AGENT-LOOP' }] },
    });
    expect(added.status).toBe(200);
    expect(((await added.json()) as { name: string }[]).map((l) => l.name)).toEqual([
      'agent-loop',
      'agent-loop:escalated',
    ]);
    await call(server, 'POST', `${issuesPath(server)}/1/labels`, { body: ['bug'] });
    expect(issue.labels).toEqual(['agent-loop', 'agent-loop:escalated', 'bug']);
    expect((await call(server, 'POST', `${issuesPath(server)}/1/labels`, { body: { labels: 'bug' } })).status).toBe(
      422,
    );

    const removed = await call(
      server,
      'DELETE',
      `${issuesPath(server)}/1/labels/${encodeURIComponent('agent-loop:escalated')}`,
    );
    expect(((await removed.json()) as { name: string }[]).map((l) => l.name)).toEqual(['agent-loop', 'bug']);
    const missing = await call(server, 'DELETE', `${issuesPath(server)}/1/labels/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ message: 'Label does not exist' });
  });

  it('lists and posts comments, paginated; refuses empty and over-long bodies', async () => {
    const server = await github({ viewer: { login: 'agent-loop[bot]' } });
    const issue = server.addIssue({ comments: Array.from({ length: 35 }, (_, i) => `c${i}`) });
    const page1 = await call(server, 'GET', `${issuesPath(server)}/1/comments`);
    expect(await page1.json()).toHaveLength(30);
    const next = /<([^>]+)>; rel="next"/.exec(page1.headers.get('link') ?? '')?.[1];
    expect(next).toBe(`${server.url}/repositories/${server.repositoryId}/issues/1/comments?page=2`);
    expect(((await (await call(server, 'GET', next!)).json()) as { body: string }[]).map((c) => c.body)).toEqual([
      'c30',
      'c31',
      'c32',
      'c33',
      'c34',
    ]);

    const posted = await call(server, 'POST', `${issuesPath(server)}/1/comments`, { body: { body: 'hello' } });
    expect(posted.status).toBe(201);
    expect(await posted.json()).toMatchObject({
      body: 'hello',
      user: { login: 'agent-loop[bot]', type: 'Bot' },
      author_association: 'NONE',
    });
    expect(posted.headers.get('location')).toMatch(/\/issues\/comments\/\d+$/);
    expect((await call(server, 'POST', `${issuesPath(server)}/1/comments`, { body: {} })).status).toBe(422);
    const long = await call(server, 'POST', `${issuesPath(server)}/1/comments`, { body: { body: 'x'.repeat(65537) } });
    expect(long.status).toBe(422);
    expect(JSON.stringify(await long.json())).toContain('body is too long (maximum is 65536 characters)');
    expect(issue.comments).toHaveLength(36);
    const issueJson = (await (await call(server, 'GET', `${issuesPath(server)}/1`)).json()) as { comments: number };
    expect(issueJson.comments).toBe(36);
  });

  it('edits a comment in place (same id and place, updated_at moved on) and deletes one, 404 for an unknown id; dates answers by its clock (issue 14)', async () => {
    let clock = Date.parse('2026-11-25T10:00:00Z');
    const server = await github({ now: () => clock });
    server.addIssue({ comments: ['first', 'second'] });
    const [first, second] = server.issues[0]!.comments;
    expect(second!.id).toBeGreaterThan(first!.id); // ids in creation order
    clock += 60_000;
    const edited = await call(server, 'PATCH', `/repos/${server.owner}/${server.repo}/issues/comments/${first!.id}`, {
      body: { body: 'first, edited' },
    });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({
      id: first!.id,
      body: 'first, edited',
      updated_at: '2026-11-25T10:01:00Z',
    });
    expect(edited.headers.get('date')).toBe(new Date(clock).toUTCString());
    const listed = (await (await call(server, 'GET', `${issuesPath(server)}/1/comments`)).json()) as { body: string }[];
    expect(listed.map((c) => c.body)).toEqual(['first, edited', 'second']);
    const missing = await call(server, 'PATCH', `/repos/${server.owner}/${server.repo}/issues/comments/99`, {
      body: { body: 'x' },
    });
    expect(missing.status).toBe(404);
    const empty = await call(server, 'PATCH', `/repos/${server.owner}/${server.repo}/issues/comments/${first!.id}`, {
      body: {},
    });
    expect(empty.status).toBe(422);
    const deleted = await call(server, 'DELETE', `/repos/${server.owner}/${server.repo}/issues/comments/${first!.id}`);
    expect(deleted.status).toBe(204);
    expect(server.issues[0]!.comments.map((c) => c.body)).toEqual(['second']);
    expect(
      (await call(server, 'DELETE', `/repos/${server.owner}/${server.repo}/issues/comments/${first!.id}`)).status,
    ).toBe(404);
  });

  it('serves added routes with the same authentication, accounting and ETags', async () => {
    const server = await github({
      routes: [
        {
          method: 'GET',
          path: '/repos/:owner/:repo/tags/:tag',
          handler: (ctx) => ({ status: 200, body: { name: ctx.params.tag } }),
        },
      ],
    });
    server.addRoute({
      method: 'POST',
      path: '/repos/:owner/:repo/releases',
      handler: () => ({ status: 201, body: { id: 7 } }),
    });

    const tag = await call(server, 'GET', `/repos/${server.owner}/${server.repo}/tags/v1`);
    expect(await tag.json()).toEqual({ name: 'v1' });
    expect(tag.headers.get('etag')).toBeTruthy();
    expect((await call(server, 'POST', `/repos/${server.owner}/${server.repo}/releases`, { body: {} })).status).toBe(
      201,
    );
    expect(
      (await call(server, 'POST', `/repos/${server.owner}/${server.repo}/releases`, { token: null, body: {} })).status,
    ).toBe(401);
    expect((await call(server, 'GET', `/repos/${server.owner}/${server.repo}/releases`)).status).toBe(404);
    expect(server.rateLimit().used).toBe(3);
  });

  it('pull requests: branches from a real repository, 422 for a missing head or a duplicate, listed as issues too; refs', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'gh-fake-git-'));
    try {
      const gitDir = path.join(root, 'origin.git');
      const sh = (...args: string[]) =>
        execFileSync('git', args, { cwd: root, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
      sh('init', '-q', '--bare', '-b', 'main', gitDir);
      sh('init', '-q', '-b', 'main', 'work');
      const work = (...args: string[]) =>
        execFileSync('git', [
          '-C',
          path.join(root, 'work'),
          '-c',
          'user.name=t',
          '-c',
          'user.email=t@example.invalid',
          ...args,
        ]);
      work('commit', '-q', '--allow-empty', '-m', 'base');
      work('push', '-q', gitDir, 'main');
      const server = await github({ gitDir });
      const repoPath = `/repos/${server.owner}/${server.repo}`;
      const open = (head: string) =>
        call(server, 'POST', `${repoPath}/pulls`, {
          body: { title: 'Fix', head, base: 'main', body: 'Closes #1', draft: true },
        });

      const missing = await open('feature');
      expect(missing.status).toBe(422);
      expect(await missing.json()).toMatchObject({
        message: 'Validation Failed',
        errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }],
      });
      const same = await (work('push', '-q', gitDir, 'main:feature'), open('feature'));
      expect(await same.json()).toMatchObject({ errors: [{ message: 'No commits between main and feature' }] });

      work('commit', '-q', '--allow-empty', '-m', 'work');
      work('push', '-q', '-f', gitDir, 'HEAD:feature');
      const created = await open('feature');
      expect(created.status).toBe(201);
      const pr = (await created.json()) as {
        number: number;
        draft: boolean;
        head: { ref: string };
        base: { ref: string };
      };
      expect(pr).toMatchObject({ draft: true, head: { ref: 'feature' }, base: { ref: 'main' } });
      expect(await (await open(`${server.owner}:feature`)).json()).toMatchObject({
        errors: [{ message: `A pull request already exists for ${server.owner}:feature.` }],
      });

      expect(
        await (await call(server, 'GET', `${repoPath}/pulls?head=${server.owner}:feature&state=open`)).json(),
      ).toEqual([expect.objectContaining({ number: pr.number })]);
      expect(await (await call(server, 'GET', `${repoPath}/pulls?head=${server.owner}:other`)).json()).toEqual([]);
      expect(await (await call(server, 'GET', `${repoPath}/issues`)).json()).toEqual([
        expect.objectContaining({ number: pr.number, pull_request: expect.anything() }),
      ]);

      const ref = await call(server, 'GET', `${repoPath}/git/ref/heads/feature`);
      expect(await ref.json()).toMatchObject({
        ref: 'refs/heads/feature',
        object: { type: 'commit', sha: expect.stringMatching(/^[0-9a-f]{40}$/) },
      });
      expect((await call(server, 'GET', `${repoPath}/git/ref/heads/nope`)).status).toBe(404);
      expect(
        ((await (await call(server, 'GET', `${repoPath}/git/matching-refs/heads/fea`)).json()) as unknown[]).length,
      ).toBe(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
