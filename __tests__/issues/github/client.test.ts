/**
 * The Octokit (src/issues/github/client.ts: retries, rate limits, write spacing) and the errors a
 * failed request becomes (errors.ts), through the GitHub issue source and the GitHub REST stand-in.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { explainHttpError, GitHubSourceError } from '../../../src/issues/github/errors.js';
import { ListingError } from '../../../src/issues/listing.js';
import { apiCallsOf } from '../../../src/issues/github/issueSource.js';
import { closeServers, ids, LABEL, setup } from './setup.js';

afterEach(closeServers);

/** What a failed listing's request threw: ready() says the listing failed (a ListingError), its cause says how. */
const requestError = (error: unknown) => {
  expect(error).toBeInstanceOf(ListingError);
  return (error as ListingError).cause;
};

describe('rate limits and errors', () => {
  it('retries a primary rate limit (403, remaining 0) once the reset time has come, without waiting in tests', async () => {
    const { server, source, events } = await setup();
    server.addIssue({ labels: [LABEL] });
    server.rateLimitNext(1, { kind: 'primary', resetInSeconds: 2 });

    expect(await source.ready()).toHaveLength(1);
    expect(server.requests.map((r) => r.status)).toEqual([403, 200]);
    expect(events).toEqual([expect.objectContaining({ kind: 'primary', retryCount: 0, willRetry: true })]);
    expect(events[0]!.retryAfterSeconds).toBeGreaterThanOrEqual(2);
    expect(events[0]!.retryAfterSeconds).toBeLessThanOrEqual(4);
    expect(source.rateLimit).toMatchObject({ limit: 5000, resource: 'core' });
  });

  it('retries a secondary limit (429 with retry-after, or 403 without) and then succeeds', async () => {
    const { server, source, events } = await setup();
    const issue = server.addIssue({ labels: [LABEL] });
    server.rateLimitNext(1, { kind: 'secondary', status: 429, retryAfterSeconds: 30 });
    server.rateLimitNext(1, { kind: 'secondary', status: 403 });

    expect(ids(await source.ready())).toEqual([String(issue.number)]);
    expect(server.requests.map((r) => r.status)).toEqual([429, 403, 200]);
    expect(events.map((e) => [e.kind, e.retryAfterSeconds, e.willRetry])).toEqual([
      ['secondary', 30, true],
      ['secondary', 60, true], // no retry-after: wait a minute, as GitHub asks
    ]);
  });

  it('retries writes too, and 5xx answers', async () => {
    const { server, source } = await setup();
    const issue = server.addIssue({ labels: [LABEL] });
    server.failNext(1, 502);
    await source.get(String(issue.number));
    server.rateLimitNext(1, { kind: 'secondary', retryAfterSeconds: 1, method: 'POST' });
    server.failNext(1, 500, 'PATCH');
    await source.close(String(issue.number), 'done');

    expect(server.requests.map((r) => `${r.method} ${r.status}`)).toEqual([
      'GET 502',
      'GET 200',
      'GET 304',
      'POST 403',
      'POST 201',
      'PATCH 500',
      'PATCH 200',
    ]);
    expect(issue.state).toBe('closed');
    expect(issue.comments).toHaveLength(1);
    expect(apiCallsOf(source)).toEqual({ requests: 4, notModified: 1, counted: 3 }); // retries are not new requests
  });

  it('gives up with a clear error when the limit persists or resets too late', async () => {
    const { server, source, events } = await setup({ octokit: { retries: 2 } });
    server.addIssue({ labels: [LABEL] });
    server.rateLimitNext(3, { kind: 'secondary', retryAfterSeconds: 5 });
    const error = requestError(await source.ready().catch((e: unknown) => e));
    expect(error).toBeInstanceOf(GitHubSourceError);
    expect(error).toMatchObject({ kind: 'rate-limit', status: 403 });
    expect((error as Error).message).toMatch(
      /^GitHub secondary rate limit exceeded while listing open issues labelled agent-loop in octo-org\/widgets \(403 You have exceeded a secondary rate limit/,
    );
    expect(server.requests).toHaveLength(3);
    expect(events.map((e) => e.willRetry)).toEqual([true, true, false]);

    server.rateLimitNext(1, { kind: 'primary', resetInSeconds: 3600 });
    const late = requestError(await source.ready().catch((e: unknown) => e)) as GitHubSourceError;
    expect(late.kind).toBe('rate-limit');
    expect(late.message).toContain('GitHub API rate limit exceeded while listing open issues');
    expect(late.message).toContain('API rate limit exceeded for installation ID');
    expect(late.resetAt).toBeGreaterThan(Date.now() / 1000 + 3000);
    expect(late.message).toContain(`GitHub asks to wait until ${new Date(late.resetAt! * 1000).toISOString()}`);
    expect(server.requests).toHaveLength(4); // not retried: the reset is beyond maxRateLimitWaitSeconds
  });

  it('stops when the primary limit is spent for real', async () => {
    const { server, source } = await setup({ server: { rateLimit: 2 } });
    server.addIssue({ labels: [LABEL] });
    server.setRateLimit({ remaining: 0, resetAt: Math.floor(Date.now() / 1000) + 1800 });
    expect(requestError(await source.ready().catch((e: unknown) => e))).toMatchObject({
      kind: 'rate-limit',
      status: 403,
    });
    expect(server.requests.every((r) => !r.counted)).toBe(true);
  });

  it('names the github-token input on 401, without retrying', async () => {
    const { server, another } = await setup({ server: { otherTokens: [] } });
    server.addIssue({ labels: [LABEL] });
    const wrong = another({}, 'ghp_wrongwrongwrongwrongwrongwrongwrong00');

    // A refused token is no deferral (src/issues/listing.ts): thrown as it is, so the run stops and says so.
    const error = (await wrong.ready().catch((e: unknown) => e)) as GitHubSourceError;

    expect(error).toBeInstanceOf(GitHubSourceError);
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(
      'GitHub rejected the token while listing open issues labelled agent-loop in octo-org/widgets (401 Bad credentials). ' +
        'Check the `github-token` input: it must be a valid token (the default ${{ github.token }}, or a personal access token) that has not expired or been revoked.',
    );
    expect(error.message).not.toContain('ghp_wrong');
    expect(server.requests.map((r) => [r.status, r.auth])).toEqual([[401, 'bad']]);
  });

  it('spaces writes by writeSpacingMs through the injected clock', async () => {
    const sleeps: number[] = [];
    let now = Date.parse('2026-11-27T10:00:00Z');
    const clock = {
      now: () => new Date(now), // time moves only by the sleeps: however slow the machine, the gap is the clock's
      sleep: async (ms: number) => void (sleeps.push(ms), (now += ms)),
    };
    const { server, source } = await setup({ octokit: { writeSpacingMs: 1000, clock } });
    const issue = server.addIssue({ labels: [LABEL] });

    await source.close(String(issue.number), 'done');

    expect(sleeps).toHaveLength(1); // before the PATCH; the comment was the first write
    expect(sleeps[0]).toBe(1000); // the whole gap: no time passed on the clock since the comment
  });
});

describe('explainHttpError', () => {
  it('410 says the thing is gone (deleted), 404 that it is not found or not visible to the token', () => {
    const gone = explainHttpError({ status: 410, message: 'Gone' }, 'closing issue #3', 'octo/repo');
    expect(gone.message).toBe(
      "Gone while closing issue #3 (410 Gone): it was deleted on GitHub (an issue, or the repository's issues turned off in octo/repo).",
    );
    expect(gone.message).not.toContain('github-token');
    const missing = explainHttpError({ status: 404, message: 'Not Found' }, 'closing issue #3', 'octo/repo');
    expect(missing.message).toContain('check that octo/repo exists and that the `github-token` input can read it');
  });
});
