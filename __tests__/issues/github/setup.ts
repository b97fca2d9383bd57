/** The GitHub issue source's tests' setup: a GitHub REST stand-in per test and a source over it, no waits. */
import { startGitHubServer, type GitHubServer, type GitHubServerOptions } from '../../../e2e/support/githubServer.js';
import { createOctokit, type CreateOctokitOptions, type RateLimitEvent } from '../../../src/issues/github/client.js';
import { GitHubIssueSource, type GitHubIssueSourceOptions } from '../../../src/issues/github/issueSource.js';

export const LABEL = 'agent-loop';

const closers: Array<() => Promise<void>> = [];
/** Stops the servers the test started (each test file's afterEach). */
export async function closeServers(): Promise<void> {
  while (closers.length > 0) await closers.pop()?.();
}

export interface Setup {
  server: GitHubServer;
  source: GitHubIssueSource;
  warnings: string[];
  events: RateLimitEvent[];
  /** A second source over the same server (a later run), with its own options. */
  another(options?: Partial<GitHubIssueSourceOptions>, token?: string): GitHubIssueSource;
}

export async function setup(
  options: {
    server?: GitHubServerOptions;
    source?: Partial<GitHubIssueSourceOptions>;
    octokit?: CreateOctokitOptions;
  } = {},
): Promise<Setup> {
  const server = await startGitHubServer(options.server);
  closers.push(() => server.close());
  const warnings: string[] = [];
  const events: RateLimitEvent[] = [];
  const make = (more: Partial<GitHubIssueSourceOptions> = {}, token = server.token) =>
    new GitHubIssueSource({
      // No waits: rate-limit and retry delays are scaled to 0 ms, writes are not spaced.
      octokit: createOctokit(token, {
        baseUrl: server.url,
        waitScaleMs: 0,
        writeSpacingMs: 0,
        onRateLimit: (e) => events.push(e),
        ...options.octokit,
      }),
      owner: server.owner,
      repo: server.repo,
      label: LABEL,
      onWarning: (w) => warnings.push(w),
      ...options.source,
      ...more,
    });
  return { server, source: make(), warnings, events, another: make };
}

export const ids = (issues: { id: string }[]) => issues.map((i) => i.id);
export const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
