/**
 * A stand-in for the GitHub REST API (issues, labels, comments) on 127.0.0.1 (ephemeral port).
 * Point Octokit at it with `baseUrl: server.url` and `server.token`. It follows GitHub's
 * documented behaviour (docs.github.com, github/docs content/rest/…):
 *
 * - Issues (rest/issues/issues): "GitHub's REST API considers every pull request an issue … You can
 *   identify pull requests by the `pull_request` key": pull requests share the number sequence and
 *   appear in `GET /repos/{owner}/{repo}/issues`. Query: `state` open|closed|all (default open),
 *   `labels` "a list of comma separated label names" (an issue must carry all of them; names match
 *   case-insensitively), `sort` created|updated|comments (default created), `direction` asc|desc
 *   (default desc), `since`, `per_page` (default 30, max 100: larger values are clamped), `page`.
 *   `GET …/issues/{n}`: 404 for an unknown number, 410 Gone for a deleted issue.
 *   `PATCH …/issues/{n}` (`closed_by` the token's user when it closes): `state` open|closed, `state_reason` completed|not_planned|duplicate|
 *   reopened, "ignored unless `state` is changed" (closing defaults to completed).
 * - Labels (rest/issues/labels): `POST …/issues/{n}/labels` with `{labels: [...]}` (or a bare array,
 *   names or `{name}` objects) adds to the existing labels, creating unknown repository labels, and
 *   answers the issue's labels; `DELETE …/issues/{n}/labels/{name}` answers the remaining labels,
 *   404 "Label does not exist" when the issue does not carry it.
 * - Comments (rest/issues/comments): `GET/POST …/issues/{n}/comments` (`since`, `per_page`, `page`);
 *   a body over 65536 characters is a 422 Validation Failed. Ids grow in creation order, and the
 *   list is in that order. `PATCH …/issues/comments/{id}` edits a comment in place (same id and
 *   place, updated_at moved on), `DELETE …/issues/comments/{id}` removes it (204); both 404 for an
 *   unknown id.
 * - Every answer carries a `date` header from the server's clock (`now`, which a test may move on).
 * - Pagination (rest/using-the-rest-api/using-pagination-in-the-rest-api): a `link` header with
 *   `prev`/`next`/`last`/`first` URLs, omitted when everything fits on one page; like GitHub the
 *   URLs use the repository id (`/repositories/{id}/issues?…&page=2`), and those paths are served.
 * - Conditional requests (rest/using-the-rest-api/best-practices-for-using-the-rest-api): GETs carry
 *   an `etag`; a matching `if-none-match` gets `304 Not Modified`, which "does not count against
 *   your primary rate limit". ETags are computed per token, as GitHub's are (GitHub support, in
 *   eclipse-csi/otterdog#201: "It's currently expected for ETags to be auth token specific").
 * - Rate limits (rest/using-the-rest-api/rate-limits-for-the-rest-api): every answer carries
 *   `x-ratelimit-limit/remaining/used/reset/resource`; when the primary limit is spent the answer
 *   is 403 (or 429) with `x-ratelimit-remaining: 0` and "API rate limit exceeded …"; a secondary
 *   limit is 403 or 429 with a message saying "You have exceeded a secondary rate limit" and,
 *   sometimes, `retry-after`. Both can be scripted (`rateLimitNext`); the primary limit also runs
 *   out for real after `rateLimit` counted requests, until the window (`x-ratelimit-reset`) passes
 *   on the server's clock.
 * - Authentication: `Authorization: token T` or `Bearer T`. A wrong token is 401 "Bad credentials";
 *   a missing one is 401 "Requires authentication" (this stand-in's repository is private-like and
 *   answers nothing anonymously, where GitHub would answer 404 for a private repository).
 *
 * - `POST …/issues` (rest/issues/issues#create-an-issue): `title` required (422 otherwise), `body`,
 *   `labels`; 201 with the issue, authored by the token's viewer.
 * - Pull requests (rest/pulls/pulls): `GET …/pulls` (`state` open|closed|all, default open; `head`
 *   "user:ref-name"; `base`; `sort`, `direction`, paginated), `GET …/pulls/{n}`, `POST …/pulls`
 *   (`title`, `head`, `base`, `body`, `draft`; 422 "Draft pull requests are not supported in this
 *   repository." for a draft where `settings.draftPullRequests` is off, as on a private repository
 *   of GitHub Free): 422 Validation Failed when `head` or `base` is not a
 *   branch of the repository, or with "A pull request already exists for owner:head." when an open
 *   one has the same head and base. A pull request is also an issue (it takes the next number and
 *   shows in the issues list with `pull_request`). Branches are those of a real git repository
 *   (`gitDir`, the bare repository the tests push to); without it every branch exists.
 * - Git references (rest/git/refs): `GET …/git/ref/heads/{branch}` (the branch's commit, 404 when
 *   there is none) and `GET …/git/matching-refs/heads/{prefix}`, read from `gitDir`.
 *
 * - The token (authentication/keeping-your-api-credentials-secure, and GitHub's token prefixes:
 *   `ghs_` an installation token, which the workflow token is too) is of a kind: `workflow` (the
 *   workflow's GITHUB_TOKEN, the default), `app` (a GitHub App's installation token) or `user` (a
 *   person's token), and may do what `access` says: push, and read the repository's Administration
 *   (its Actions settings, its branch protection), which GitHub never grants the workflow token (its
 *   `permissions:` have no such scope) and a person has with the admin role. A test may grant it all
 *   the same, to see what a reader does with a setting it can read.
 * - `GET /repos/{owner}/{repo}` (rest/repos/repos#get-a-repository): the repository; `permissions`
 *   (admin, maintain, push, triage, pull) for a person's token only (an installation token gets
 *   none: semantic-release/github#182).
 * - `GET …/actions/permissions/workflow` (rest/actions/permissions#get-default-workflow-permissions-for-a-repository):
 *   `default_workflow_permissions` and `can_approve_pull_request_reviews`, the setting "Allow GitHub
 *   Actions to create and approve pull requests" (`settings.actionsCanCreatePullRequests`); it needs
 *   Administration read: 403 "Resource not accessible by integration" for an installation token
 *   without it, 403 "Must have admin rights to Repository." for a person who is no admin. With the
 *   setting off, `POST …/pulls` with the workflow token is 403 "GitHub Actions is not permitted to
 *   create or approve pull requests." (it governs the workflow token only).
 * - Rulesets (rest/repos/rules): `GET …/rules/branches/{branch}` lists every rule of the active
 *   rulesets (`rulesets`, `addRuleset`) whose conditions take the branch ("Rules in rulesets with
 *   'evaluate' or 'disabled' enforcement statuses are not returned"), each with `ruleset_id`,
 *   `ruleset_source_type` and `ruleset_source`, readable with Metadata read (every token);
 *   `GET …/rulesets/{id}` the ruleset with `current_user_can_bypass` for the token (always,
 *   pull_requests_only, never), 404 for an unknown id.
 * - Branches (rest/branches/branches, rest/branches/branch-protection): `GET …/branches/{branch}`
 *   (`protected`, `protection.required_status_checks.enforcement_level`, 404 "Branch not found");
 *   `GET …/branches/{branch}/protection` (`protections`), which needs Administration read (403 as
 *   above), 404 "Branch not protected" when there is none.
 *
 * More endpoints go in as routes: `startGitHubServer({ routes })` or
 * `server.addRoute(...)`, with `:name` path parameters; they get authentication, scripted failures,
 * rate-limit accounting, ETags and the request log like the built-in ones.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const DOCS = 'https://docs.github.com/rest';
export const MAX_COMMENT_LENGTH = 65536;

export interface FakeComment {
  id: number;
  body: string;
  user: string;
  authorAssociation: string;
  createdAt: string;
  updatedAt: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  stateReason: string | null;
  /** Label names, in the casing of the repository's labels. */
  labels: string[];
  user: string;
  authorAssociation: string;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  /** Who closed it (GitHub's `closed_by`): the token's user for a PATCH, the person given to updateIssue. */
  closedBy: string | null;
  pullRequest: boolean;
  /** A pull request's branches (pull requests opened through `POST …/pulls`). */
  pull?: { head: string; base: string; draft: boolean; merged: boolean };
  comments: FakeComment[];
  /** A deleted issue answers 410 Gone. */
  deleted: boolean;
}

export interface NewIssue {
  title?: string;
  body?: string | null;
  labels?: string[];
  user?: string;
  /** OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, MANNEQUIN, NONE. Default OWNER. */
  authorAssociation?: string;
  createdAt?: string | Date;
  state?: 'open' | 'closed';
  pullRequest?: boolean;
  comments?: Array<string | { body: string; user?: string; authorAssociation?: string }>;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, as sent (`/repositories/{id}/…` stays as it was). */
  path: string;
  /** The query string without "?". */
  query: string;
  status: number;
  /** How the request authenticated. */
  auth: 'token' | 'bearer' | 'none' | 'bad';
  /** It carried `if-none-match`. */
  conditional: boolean;
  /** It counted against the primary rate limit (not a 304, not refused for the limit itself). */
  counted: boolean;
  /** The parsed JSON body, or the raw text when it was not JSON, undefined when empty. */
  body: unknown;
}

export interface RouteContext {
  method: string;
  /** `:name` parameters of the route, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: http.IncomingHttpHeaders;
  server: GitHubServer;
  /** A 200 list answer cut into pages by `per_page`/`page`, with GitHub's `link` header. */
  paginate(items: readonly unknown[]): RouteResult;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface GitHubRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** e.g. `/repos/:owner/:repo/pulls/:number`. `/repositories/:id/…` requests are matched as `/repos/:owner/:repo/…`. */
  path: string;
  handler(ctx: RouteContext): RouteResult;
}

/** What a token is: the workflow's GITHUB_TOKEN, a GitHub App's installation token, or a person's. */
export type FakeTokenKind = 'workflow' | 'app' | 'user';

export interface TokenAccess {
  /** It may push to the repository (contents write; for a person, the write role). */
  push: boolean;
  /** A person's token: the account has the admin role (it reads Administration, as `administration`). */
  admin: boolean;
  /** It may read the repository's Administration (an App's "Administration: read"; a person's admin role). */
  administration: boolean;
}

/** A ruleset on the repository's branches (rest/repos/rules). */
export interface FakeRuleset {
  id: number;
  name: string;
  enforcement: 'active' | 'evaluate' | 'disabled';
  /** Ref patterns the ruleset takes (`refs/heads/main`, `refs/heads/release/*`, `~DEFAULT_BRANCH`, `~ALL`). */
  include: string[];
  exclude: string[];
  rules: Array<{ type: string; parameters?: Record<string, unknown> }>;
  /** Who may bypass it, by token kind: always, or on pull requests only (`bypass_mode: pull_request`). */
  bypass: Partial<Record<FakeTokenKind, 'always' | 'pull_request'>>;
}

/** A classic branch protection rule (rest/branches/branch-protection). */
export interface FakeProtection {
  requiredStatusChecks?: { contexts: string[]; strict?: boolean };
  /** "Do not allow bypassing the above settings": the rules apply to administrators too. */
  enforceAdmins?: boolean;
  /** "Require a pull request before merging", with who may bypass it. */
  requiredPullRequestReviews?: { bypassUsers?: string[] };
  /** "Restrict who can push": the users named may. */
  restrictions?: { users: string[] };
  lockBranch?: boolean;
}

export type RateLimitScript = (
  | { kind: 'primary'; status?: 403 | 429; resetInSeconds?: number }
  | { kind: 'secondary'; status?: 403 | 429; retryAfterSeconds?: number }
) & {
  /** Only requests with this method are refused (e.g. POST: a content-creation limit). */
  method?: string;
};

export interface GitHubServerOptions {
  owner?: string;
  repo?: string;
  repositoryId?: number;
  /** The accepted token (default: a random `ghs_` installation-like token). */
  token?: string;
  /** More accepted tokens (a new workflow run has a new GITHUB_TOKEN: ETags differ per token). */
  otherTokens?: string[];
  /** Primary limit per window (GITHUB_TOKEN: 1000 per hour per repository). Default 5000. */
  rateLimit?: number;
  /** The server's clock, milliseconds. Default Date.now. */
  now?: () => number;
  /** Who the token acts as: the author of the comments it posts. */
  viewer?: { login: string; authorAssociation?: string };
  /** The repository's branches and commits: a (bare) git repository, e.g. the tests' `origin`. */
  gitDir?: string;
  routes?: GitHubRoute[];
  /** What the token is (default workflow: the workflow's GITHUB_TOKEN). */
  tokenKind?: FakeTokenKind;
  /** What it may do; by default it may push, and no more (no admin role, no Administration read). */
  access?: Partial<TokenAccess>;
}

export interface GitHubServer {
  /** Base URL for Octokit's `baseUrl`: http://127.0.0.1:PORT */
  readonly url: string;
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  readonly repositoryId: number;
  /** Every issue and pull request, by number order. */
  readonly issues: readonly FakeIssue[];
  /** The pull requests (issues with `pull`), by number order. */
  pulls(): FakeIssue[];
  /** Every request, whatever the answer. */
  readonly requests: RecordedRequest[];
  /** What the token is, and may do (a test changes them between runs). */
  tokenKind: FakeTokenKind;
  readonly access: TokenAccess;
  /** The repository's Actions settings (Settings → Actions → General → Workflow permissions). */
  readonly settings: {
    actionsCanCreatePullRequests: boolean;
    defaultWorkflowPermissions: 'read' | 'write';
    /**
     * The repository's plan has draft pull requests (public repositories, or GitHub Team and above);
     * false: a private repository on GitHub Free or Pro, where `POST …/pulls` with `draft: true` is 422.
     */
    draftPullRequests: boolean;
  };
  /** The repository's rulesets, and its classic branch protection rules by branch. */
  readonly rulesets: FakeRuleset[];
  readonly protections: Map<string, FakeProtection>;
  /** A ruleset (active, on `include`, no bypass unless given), with the next id. */
  addRuleset(spec: Partial<Omit<FakeRuleset, 'id'>> & Pick<FakeRuleset, 'rules'>): FakeRuleset;
  addIssue(spec?: NewIssue): FakeIssue;
  /** `count` issues; `spec(i)` (i from 0) describes each. Created one minute apart, oldest first. */
  addIssues(count: number, spec?: (i: number) => NewIssue): FakeIssue[];
  issue(number: number): FakeIssue | undefined;
  /** Changes an issue as a person on the web would (bumps updated_at, so its ETags change). */
  updateIssue(
    number: number,
    change: Partial<Pick<FakeIssue, 'title' | 'body' | 'state' | 'labels' | 'authorAssociation'>> & {
      /** Who closes it (default octocat, a person). */
      closedBy?: string;
    },
  ): FakeIssue;
  deleteIssue(number: number): void;
  /** The primary-limit window as the headers report it. */
  rateLimit(): { limit: number; remaining: number; used: number; reset: number };
  setRateLimit(change: { remaining?: number; resetAt?: number }): void;
  /** The next `n` requests (after authentication; with `script.method`, of that method) are refused for a rate limit. */
  rateLimitNext(n: number, script: RateLimitScript): void;
  /** The next `n` requests (of `method`, when given) get a 5xx. */
  failNext(n: number, status?: 500 | 502 | 503, method?: string): void;
  addRoute(route: GitHubRoute): void;
  /**
   * Calls `listener` with each authenticated request that reaches the routes, before it is answered
   * (a test kills the client there: the request is still performed, the client never sees it).
   */
  observe(listener: (request: { method: string; path: string }) => void): () => void;
  /**
   * Refuses every request of `method` to `path` (a route pattern) with `status` and GitHub's own
   * `message` (a repository setting, a missing permission; a 5xx: GitHub failing on that one
   * endpoint, every retry included) until the returned function lifts it.
   */
  refuse(rule: {
    method: string;
    path: string;
    status: 401 | 403 | 404 | 422 | 500 | 502 | 503;
    message: string;
    docs?: string;
  }): () => void;
  close(): Promise<void>;
}

interface Scripted {
  kind: 'primary' | 'secondary' | 'server';
  /** Only a request with this method takes the entry. */
  method?: string;
  status: number;
  resetInSeconds?: number;
  retryAfterSeconds?: number;
}

interface CompiledRoute {
  route: GitHubRoute;
  pattern: RegExp;
  names: string[];
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export async function startGitHubServer(options: GitHubServerOptions = {}): Promise<GitHubServer> {
  const owner = options.owner ?? 'octo-org';
  const repo = options.repo ?? 'widgets';
  const repositoryId = options.repositoryId ?? 1_296_269;
  const token = options.token ?? `ghs_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
  const tokens = new Set([token, ...(options.otherTokens ?? [])]);
  const now = options.now ?? Date.now;
  const viewer = {
    login: options.viewer?.login ?? 'github-actions[bot]',
    authorAssociation: options.viewer?.authorAssociation ?? 'NONE',
  };
  const limit = options.rateLimit ?? 5000;
  const installationId = 40_000_000 + (repositoryId % 1_000_000);

  const issues: FakeIssue[] = [];
  const repoLabels = new Map<string, { id: number; name: string; color: string }>();
  const requests: RecordedRequest[] = [];
  const scripted: Scripted[] = [];
  const routes: CompiledRoute[] = [];
  const observers = new Set<(request: { method: string; path: string }) => void>();
  const refusals: Array<{ method: string; pattern: RegExp; status: number; message: string; docs?: string }> = [];
  const state = { kind: options.tokenKind ?? ('workflow' as FakeTokenKind) };
  const access: TokenAccess = { push: true, admin: false, administration: false, ...options.access };
  // GitHub starts a new personal repository with the setting off; the stand-in with it on, so that
  // a test that is not about it gets its pull requests.
  const settings = {
    actionsCanCreatePullRequests: true,
    defaultWorkflowPermissions: 'write' as 'read' | 'write',
    draftPullRequests: true,
  };
  const rulesets: FakeRuleset[] = [];
  const protections = new Map<string, FakeProtection>();
  let nextRulesetId = 4_200_001;
  let nextNumber = 1;
  let nextCommentId = 1_000_001;
  let nextLabelId = 208_045_946;
  let remaining = limit;
  let resetAt = Math.floor(now() / 1000) + 3600;
  let baseUrl = '';

  const label = (name: string) => {
    const key = name.toLowerCase();
    let found = repoLabels.get(key);
    if (!found) {
      found = { id: nextLabelId++, name, color: 'ededed' };
      repoLabels.set(key, found);
    }
    return found;
  };
  const labelObject = (name: string) => {
    const l = label(name);
    return {
      id: l.id,
      node_id: `LA_${Buffer.from(String(l.id)).toString('base64url')}`,
      url: `${baseUrl}/repos/${owner}/${repo}/labels/${encodeURIComponent(l.name)}`,
      name: l.name,
      color: l.color,
      default: false,
      description: null,
    };
  };
  const userObject = (login: string) => ({
    login,
    id: 1000 + [...login].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000_000, 7),
    type: login.endsWith('[bot]') ? 'Bot' : 'User',
    html_url: `https://github.com/${login}`,
  });
  const repoApi = () => `${baseUrl}/repos/${owner}/${repo}`;
  const issueJson = (issue: FakeIssue) => {
    const api = `${repoApi()}/issues/${issue.number}`;
    const html = `https://github.com/${owner}/${repo}/${issue.pullRequest ? 'pull' : 'issues'}/${issue.number}`;
    return {
      id: 1_000_000_000 + issue.number,
      node_id: `I_${Buffer.from(`${repositoryId}:${issue.number}`).toString('base64url')}`,
      url: api,
      repository_url: repoApi(),
      labels_url: `${api}/labels{/name}`,
      comments_url: `${api}/comments`,
      events_url: `${api}/events`,
      html_url: html,
      number: issue.number,
      state: issue.state,
      state_reason: issue.stateReason,
      closed_by: issue.state === 'closed' && issue.closedBy ? userObject(issue.closedBy) : null,
      title: issue.title,
      body: issue.body,
      user: userObject(issue.user),
      labels: issue.labels.map(labelObject),
      assignee: null,
      assignees: [],
      milestone: null,
      locked: false,
      comments: issue.comments.length,
      created_at: issue.createdAt,
      updated_at: issue.updatedAt,
      closed_at: issue.closedAt,
      author_association: issue.authorAssociation,
      ...(issue.pullRequest
        ? {
            draft: false,
            pull_request: {
              url: `${repoApi()}/pulls/${issue.number}`,
              html_url: html,
              diff_url: `${html}.diff`,
              patch_url: `${html}.patch`,
              merged_at: null,
            },
          }
        : {}),
    };
  };
  const commentJson = (issue: FakeIssue, c: FakeComment) => ({
    id: c.id,
    node_id: `IC_${Buffer.from(String(c.id)).toString('base64url')}`,
    url: `${repoApi()}/issues/comments/${c.id}`,
    html_url: `https://github.com/${owner}/${repo}/issues/${issue.number}#issuecomment-${c.id}`,
    issue_url: `${repoApi()}/issues/${issue.number}`,
    body: c.body,
    user: userObject(c.user),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    author_association: c.authorAssociation,
  });

  const touch = (issue: FakeIssue) => {
    // updated_at has one-second resolution on GitHub; keep it strictly increasing so every change
    // is visible in the JSON (and in the ETag) even within one second.
    const t = Math.max(now(), Date.parse(issue.updatedAt) + 1000);
    issue.updatedAt = iso(t);
  };

  const addIssue = (spec: NewIssue = {}): FakeIssue => {
    const number = nextNumber++;
    const created = spec.createdAt === undefined ? iso(now()) : iso(new Date(spec.createdAt).getTime());
    const state = spec.state ?? 'open';
    const issue: FakeIssue = {
      number,
      title: spec.title ?? `Issue ${number}`,
      body: spec.body === undefined ? `Body of ${number}` : spec.body,
      state,
      stateReason: state === 'closed' ? 'completed' : null,
      labels: (spec.labels ?? []).map((n) => label(n).name),
      user: spec.user ?? 'octocat',
      authorAssociation: spec.authorAssociation ?? 'OWNER',
      createdAt: created,
      updatedAt: created,
      closedAt: state === 'closed' ? created : null,
      closedBy: state === 'closed' ? (spec.user ?? 'octocat') : null,
      pullRequest: spec.pullRequest ?? false,
      comments: [],
      deleted: false,
    };
    for (const c of spec.comments ?? []) {
      const comment = typeof c === 'string' ? { body: c } : c;
      issue.comments.push({
        id: nextCommentId++,
        body: comment.body,
        user: comment.user ?? 'octocat',
        authorAssociation:
          'authorAssociation' in comment && comment.authorAssociation ? comment.authorAssociation : 'OWNER',
        createdAt: created,
        updatedAt: created,
      });
    }
    issues.push(issue);
    return issue;
  };

  const findIssue = (numberText: string | undefined): FakeIssue | RouteResult => {
    const number = Number(numberText);
    const issue = Number.isInteger(number) ? issues.find((i) => i.number === number) : undefined;
    if (!issue) return notFound();
    if (issue.deleted)
      return {
        status: 410,
        body: {
          message: 'This issue was deleted',
          documentation_url: `${DOCS}/issues/issues#get-an-issue`,
          status: '410',
        },
      };
    return issue;
  };
  const isResult = (v: FakeIssue | RouteResult): v is RouteResult => 'status' in v;

  // --- branches and pull requests ---------------------------------------------------------------

  /** The commit of a branch in `gitDir`; without a gitDir every branch exists (at a fixed sha). */
  const branchSha = (name: string): string | undefined => {
    if (!options.gitDir) return '0'.repeat(40);
    try {
      return (
        execFileSync(
          'git',
          ['--git-dir', options.gitDir, 'rev-parse', '--verify', '--quiet', `refs/heads/${name}^{commit}`],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
        ).trim() || undefined
      );
    } catch {
      return undefined;
    }
  };
  const branchNames = (prefix: string): string[] => {
    if (!options.gitDir) return [];
    const out = execFileSync(
      'git',
      ['--git-dir', options.gitDir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/'],
      { encoding: 'utf8' },
    );
    return out
      .split('\n')
      .filter((l) => l !== '')
      .filter((l) => l.startsWith(prefix));
  };
  const refJson = (name: string, sha: string) => ({
    ref: `refs/heads/${name}`,
    node_id: `REF_${Buffer.from(name).toString('base64url')}`,
    url: `${repoApi()}/git/refs/heads/${name}`,
    object: { sha, type: 'commit', url: `${repoApi()}/git/commits/${sha}` },
  });
  const branchJson = (name: string) => ({
    label: `${owner}:${name}`,
    ref: name,
    sha: branchSha(name) ?? '0'.repeat(40),
    user: userObject(owner),
    repo: { full_name: `${owner}/${repo}` },
  });
  const pullJson = (pr: FakeIssue) => {
    const pull = pr.pull as NonNullable<FakeIssue['pull']>;
    return {
      url: `${repoApi()}/pulls/${pr.number}`,
      id: 2_000_000_000 + pr.number,
      node_id: `PR_${Buffer.from(`${repositoryId}:${pr.number}`).toString('base64url')}`,
      html_url: `https://github.com/${owner}/${repo}/pull/${pr.number}`,
      issue_url: `${repoApi()}/issues/${pr.number}`,
      number: pr.number,
      state: pr.state,
      locked: false,
      title: pr.title,
      user: userObject(pr.user),
      body: pr.body,
      labels: pr.labels.map(labelObject),
      created_at: pr.createdAt,
      updated_at: pr.updatedAt,
      closed_at: pr.closedAt,
      merged_at: pull.merged ? pr.closedAt : null,
      draft: pull.draft,
      head: branchJson(pull.head),
      base: branchJson(pull.base),
      author_association: pr.authorAssociation,
    };
  };
  const pullFailed = (errors: Record<string, unknown>[]): RouteResult => ({
    status: 422,
    body: {
      message: 'Validation Failed',
      errors,
      documentation_url: `${DOCS}/pulls/pulls#create-a-pull-request`,
      status: '422',
    },
  });

  // --- the token's access, the repository's settings, rulesets and branch protection ------------

  /** Administration read: an App granted it, a person with the admin role (never the workflow token, unless a test grants it). */
  const readsAdministration = () =>
    state.kind === 'user' ? access.admin || access.administration : access.administration;
  /** The refusal of an endpoint that needs Administration read, as GitHub words it for this token. */
  const needsAdministration = (docs: string): RouteResult | undefined =>
    readsAdministration()
      ? undefined
      : {
          status: 403,
          body: {
            message:
              state.kind === 'user'
                ? 'Must have admin rights to Repository.'
                : 'Resource not accessible by integration',
            documentation_url: `${DOCS}/${docs}`,
            status: '403',
          },
        };
  const defaultBranch = (): string => {
    if (!options.gitDir) return 'main';
    try {
      return execFileSync('git', ['--git-dir', options.gitDir, 'symbolic-ref', '--short', 'HEAD'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      return 'main';
    }
  };
  /** A ruleset's ref pattern against `refs/heads/<branch>` (fnmatch: `*` within a segment, `**` across). */
  const takes = (pattern: string, ref: string): boolean => {
    if (pattern === '~ALL') return true;
    if (pattern === '~DEFAULT_BRANCH') return ref === `refs/heads/${defaultBranch()}`;
    const source = pattern
      .split('**')
      .map((part) =>
        part
          .split('*')
          .map((t) => t.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('.*');
    return new RegExp(`^${source}$`).test(ref);
  };
  const rulesetsOn = (branch: string) =>
    rulesets.filter(
      (r) =>
        r.enforcement === 'active' &&
        r.include.some((p) => takes(p, `refs/heads/${branch}`)) &&
        !r.exclude.some((p) => takes(p, `refs/heads/${branch}`)),
    );
  const bypassActor = (kind: FakeTokenKind, mode: 'always' | 'pull_request') =>
    kind === 'workflow'
      ? { actor_id: 15368, actor_type: 'Integration', bypass_mode: mode } // the GitHub Actions app
      : kind === 'app'
        ? { actor_id: 1_000_001, actor_type: 'Integration', bypass_mode: mode }
        : { actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: mode }; // admin
  const rulesetJson = (r: FakeRuleset) => {
    const mine = r.bypass[state.kind];
    return {
      id: r.id,
      name: r.name,
      target: 'branch',
      source_type: 'Repository',
      source: `${owner}/${repo}`,
      enforcement: r.enforcement,
      // "bypass_actors … is only returned if the user making the API request has write access to the ruleset."
      ...(readsAdministration()
        ? {
            bypass_actors: (Object.entries(r.bypass) as Array<[FakeTokenKind, 'always' | 'pull_request']>).map(
              ([kind, mode]) => bypassActor(kind, mode),
            ),
          }
        : {}),
      current_user_can_bypass: mine === 'always' ? 'always' : mine === 'pull_request' ? 'pull_requests_only' : 'never',
      node_id: `RRS_${Buffer.from(String(r.id)).toString('base64url')}`,
      _links: { self: { href: `${repoApi()}/rulesets/${r.id}` } },
      conditions: { ref_name: { include: r.include, exclude: r.exclude } },
      rules: r.rules,
    };
  };
  const statusChecksJson = (p: FakeProtection) =>
    p.requiredStatusChecks
      ? {
          strict: p.requiredStatusChecks.strict ?? false,
          contexts: p.requiredStatusChecks.contexts,
          checks: p.requiredStatusChecks.contexts.map((context) => ({ context, app_id: null })),
        }
      : undefined;
  const protectionJson = (branch: string, p: FakeProtection) => {
    const url = `${repoApi()}/branches/${encodeURIComponent(branch)}/protection`;
    const checks = statusChecksJson(p);
    return {
      url,
      ...(checks ? { required_status_checks: { url: `${url}/required_status_checks`, ...checks } } : {}),
      enforce_admins: { url: `${url}/enforce_admins`, enabled: p.enforceAdmins ?? false },
      ...(p.requiredPullRequestReviews
        ? {
            required_pull_request_reviews: {
              url: `${url}/required_pull_request_reviews`,
              dismiss_stale_reviews: false,
              require_code_owner_reviews: false,
              required_approving_review_count: 1,
              require_last_push_approval: false,
              bypass_pull_request_allowances: {
                users: (p.requiredPullRequestReviews.bypassUsers ?? []).map(userObject),
                teams: [],
                apps: [],
              },
            },
          }
        : {}),
      ...(p.restrictions
        ? {
            restrictions: {
              url: `${url}/restrictions`,
              users: p.restrictions.users.map(userObject),
              teams: [],
              apps: [],
            },
          }
        : {}),
      required_linear_history: { enabled: false },
      allow_force_pushes: { enabled: false },
      allow_deletions: { enabled: false },
      block_creations: { enabled: false },
      required_conversation_resolution: { enabled: false },
      lock_branch: { enabled: p.lockBranch ?? false },
      allow_fork_syncing: { enabled: false },
    };
  };

  // --- built-in routes ------------------------------------------------------------------------

  const builtIn: GitHubRoute[] = [
    {
      method: 'GET',
      path: '/repos/:owner/:repo/pulls',
      handler: (ctx) => {
        const state = ctx.query.get('state') ?? 'open';
        if (!['open', 'closed', 'all'].includes(state)) return validationFailed('state');
        const head = ctx.query.get('head');
        const base = ctx.query.get('base');
        const direction = ctx.query.get('direction') ?? 'desc';
        const list = issues
          .filter((i) => i.pull !== undefined && !i.deleted)
          .filter((i) => state === 'all' || i.state === state)
          // "Filter pulls by head user or head organization and branch name in the format of user:ref-name"
          .filter((i) => !head || `${owner}:${i.pull?.head}`.toLowerCase() === head.toLowerCase())
          .filter((i) => !base || i.pull?.base === base)
          .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.number - b.number);
        if (direction === 'desc') list.reverse();
        return ctx.paginate(list.map(pullJson));
      },
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/pulls/:number',
      handler: (ctx) => {
        const pr = findIssue(ctx.params.number);
        if (isResult(pr)) return pr;
        return pr.pull ? { status: 200, body: pullJson(pr) } : notFound();
      },
    },
    {
      method: 'POST',
      path: '/repos/:owner/:repo/pulls',
      handler: (ctx) => {
        // "Allow GitHub Actions to create and approve pull requests" governs the workflow token only.
        if (state.kind === 'workflow' && !settings.actionsCanCreatePullRequests)
          return {
            status: 403,
            body: {
              message: 'GitHub Actions is not permitted to create or approve pull requests.',
              documentation_url: `${DOCS}/pulls/pulls#create-a-pull-request`,
              status: '403',
            },
          };
        const body = isObject(ctx.body) ? ctx.body : {};
        const { title, head, base } = body;
        if (typeof title !== 'string' || title.trim() === '')
          return pullFailed([{ resource: 'PullRequest', field: 'title', code: 'missing_field' }]);
        if (typeof head !== 'string' || typeof base !== 'string')
          return pullFailed([
            { resource: 'PullRequest', field: typeof head !== 'string' ? 'head' : 'base', code: 'missing_field' },
          ]);
        const headBranch = head.includes(':') ? head.slice(head.indexOf(':') + 1) : head;
        if (branchSha(base) === undefined)
          return pullFailed([{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
        if (branchSha(headBranch) === undefined)
          return pullFailed([{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
        if (issues.some((i) => i.pull && i.state === 'open' && i.pull.head === headBranch && i.pull.base === base)) {
          return pullFailed([
            {
              resource: 'PullRequest',
              code: 'custom',
              message: `A pull request already exists for ${owner}:${headBranch}.`,
            },
          ]);
        }
        // Draft pull requests "are available in public repositories with GitHub Free and GitHub Free for
        // organizations, GitHub Pro, and legacy per-repository billing plans, and in public and private
        // repositories with GitHub Team and GitHub Enterprise Cloud" (rest/pulls/pulls#create-a-pull-request);
        // elsewhere GitHub answers 422 with this message and no `errors`.
        if (body.draft === true && !settings.draftPullRequests)
          return {
            status: 422,
            body: {
              message: 'Draft pull requests are not supported in this repository.',
              documentation_url: `${DOCS}/pulls/pulls#create-a-pull-request`,
              status: '422',
            },
          };
        if (options.gitDir && branchSha(headBranch) === branchSha(base)) {
          return pullFailed([
            { resource: 'PullRequest', code: 'custom', message: `No commits between ${base} and ${headBranch}` },
          ]);
        }
        const pr = addIssue({
          title,
          body: typeof body.body === 'string' ? body.body : null,
          user: viewer.login,
          authorAssociation: viewer.authorAssociation,
          pullRequest: true,
        });
        pr.pull = { head: headBranch, base, draft: body.draft === true, merged: false };
        const json = pullJson(pr);
        return { status: 201, body: json, headers: { location: json.url } };
      },
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo',
      handler: () => ({
        status: 200,
        body: {
          id: repositoryId,
          node_id: `R_${Buffer.from(String(repositoryId)).toString('base64url')}`,
          name: repo,
          full_name: `${owner}/${repo}`,
          private: true,
          owner: userObject(owner),
          html_url: `https://github.com/${owner}/${repo}`,
          url: repoApi(),
          default_branch: defaultBranch(),
          // A person's permissions; an installation token gets none (semantic-release/github#182).
          ...(state.kind === 'user'
            ? {
                permissions: {
                  admin: access.admin,
                  maintain: access.admin,
                  push: access.push || access.admin,
                  triage: true,
                  pull: true,
                },
              }
            : {}),
        },
      }),
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/actions/permissions/workflow',
      handler: () =>
        needsAdministration('actions/permissions#get-default-workflow-permissions-for-a-repository') ?? {
          status: 200,
          body: {
            default_workflow_permissions: settings.defaultWorkflowPermissions,
            can_approve_pull_request_reviews: settings.actionsCanCreatePullRequests,
          },
        },
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/rules/branches/:branch',
      handler: (ctx) =>
        ctx.paginate(
          rulesetsOn(ctx.params.branch ?? '').flatMap((r) =>
            r.rules.map((rule) => ({
              ...rule,
              ruleset_source_type: 'Repository',
              ruleset_source: `${owner}/${repo}`,
              ruleset_id: r.id,
            })),
          ),
        ),
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/rulesets/:id',
      handler: (ctx) => {
        const found = rulesets.find((r) => String(r.id) === ctx.params.id);
        return found ? { status: 200, body: rulesetJson(found) } : notFound();
      },
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/branches/:branch',
      handler: (ctx) => {
        const name = ctx.params.branch ?? '';
        const sha = branchSha(name);
        if (sha === undefined)
          return {
            status: 404,
            body: {
              message: 'Branch not found',
              documentation_url: `${DOCS}/branches/branches#get-a-branch`,
              status: '404',
            },
          };
        const p = protections.get(name);
        const checks = p ? statusChecksJson(p) : undefined;
        return {
          status: 200,
          body: {
            name,
            commit: { sha, url: `${repoApi()}/commits/${sha}` },
            _links: {
              self: `${repoApi()}/branches/${encodeURIComponent(name)}`,
              html: `https://github.com/${owner}/${repo}/tree/${name}`,
            },
            protected: p !== undefined,
            protection: {
              enabled: p !== undefined,
              required_status_checks: {
                enforcement_level: checks ? (p?.enforceAdmins ? 'everyone' : 'non_admins') : 'off',
                contexts: checks?.contexts ?? [],
                checks: checks?.checks ?? [],
              },
            },
            protection_url: `${repoApi()}/branches/${encodeURIComponent(name)}/protection`,
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/branches/:branch/protection',
      handler: (ctx) => {
        const refused = needsAdministration('branches/branch-protection#get-branch-protection');
        if (refused) return refused;
        const name = ctx.params.branch ?? '';
        const p = protections.get(name);
        return p
          ? { status: 200, body: protectionJson(name, p) }
          : {
              status: 404,
              body: {
                message: 'Branch not protected',
                documentation_url: `${DOCS}/branches/branch-protection#get-branch-protection`,
                status: '404',
              },
            };
      },
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/git/ref/heads/*branch',
      handler: (ctx) => {
        const name = ctx.params.branch ?? '';
        const sha = branchSha(name);
        return sha === undefined ? notFound() : { status: 200, body: refJson(name, sha) };
      },
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/git/matching-refs/heads/*prefix',
      handler: (ctx) => ({
        status: 200,
        body: branchNames(ctx.params.prefix ?? '').map((n) => refJson(n, branchSha(n) ?? '')),
      }),
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/issues',
      handler: (ctx) => {
        const state = ctx.query.get('state') ?? 'open';
        if (!['open', 'closed', 'all'].includes(state)) return validationFailed('state');
        const wanted = (ctx.query.get('labels') ?? '')
          .split(',')
          .map((l) => l.trim().toLowerCase())
          .filter((l) => l !== '');
        const since = ctx.query.get('since');
        const sinceMs = since ? Date.parse(since) : NaN;
        const sort = ctx.query.get('sort') ?? 'created';
        if (!['created', 'updated', 'comments'].includes(sort)) return validationFailed('sort');
        const direction = ctx.query.get('direction') ?? 'desc';
        if (!['asc', 'desc'].includes(direction)) return validationFailed('direction');
        const key = (i: FakeIssue) =>
          sort === 'comments' ? i.comments.length : Date.parse(sort === 'updated' ? i.updatedAt : i.createdAt);
        const list = issues
          .filter((i) => !i.deleted)
          .filter((i) => state === 'all' || i.state === state)
          .filter((i) => wanted.every((w) => i.labels.some((l) => l.toLowerCase() === w)))
          .filter((i) => Number.isNaN(sinceMs) || Date.parse(i.updatedAt) >= sinceMs)
          .sort((a, b) => key(a) - key(b) || a.number - b.number);
        if (direction === 'desc') list.reverse();
        return ctx.paginate(list.map(issueJson));
      },
    },
    {
      method: 'POST',
      path: '/repos/:owner/:repo/issues',
      handler: (ctx) => {
        // rest/issues/issues#create-an-issue: title required; body, labels (names) optional; 201 with the issue.
        const body = isObject(ctx.body) ? ctx.body : {};
        if (typeof body.title !== 'string' || body.title.trim() === '')
          return validationFailed('title', 'missing_field');
        const labels = Array.isArray(body.labels) ? body.labels.filter((l): l is string => typeof l === 'string') : [];
        const issue = addIssue({
          title: body.title,
          body: typeof body.body === 'string' ? body.body : null,
          labels,
          user: viewer.login,
          authorAssociation: viewer.authorAssociation,
        });
        const json = issueJson(issue);
        return { status: 201, body: json, headers: { location: json.url } };
      },
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/issues/:number',
      handler: (ctx) => {
        const issue = findIssue(ctx.params.number);
        return isResult(issue) ? issue : { status: 200, body: issueJson(issue) };
      },
    },
    {
      method: 'PATCH',
      path: '/repos/:owner/:repo/issues/:number',
      handler: (ctx) => {
        const issue = findIssue(ctx.params.number);
        if (isResult(issue)) return issue;
        const body = ctx.body;
        if (!isObject(body))
          return {
            status: 400,
            body: { message: 'Body should be a JSON object', documentation_url: DOCS, status: '400' },
          };
        if (body.state !== undefined && body.state !== 'open' && body.state !== 'closed')
          return validationFailed('state');
        const reasons = ['completed', 'not_planned', 'duplicate', 'reopened', null];
        if (body.state_reason !== undefined && !reasons.includes(body.state_reason as string | null))
          return validationFailed('state_reason');
        if (typeof body.title === 'string') issue.title = body.title;
        if (typeof body.body === 'string' || body.body === null) issue.body = body.body;
        if (Array.isArray(body.labels))
          issue.labels = body.labels.map(
            (l) => label(typeof l === 'string' ? l : String((l as { name?: unknown }).name)).name,
          );
        if (body.state !== undefined && body.state !== issue.state) {
          issue.state = body.state;
          if (issue.state === 'closed') {
            issue.stateReason = typeof body.state_reason === 'string' ? body.state_reason : 'completed';
            issue.closedAt = iso(now());
            issue.closedBy = viewer.login;
          } else {
            issue.stateReason = 'reopened';
            issue.closedAt = null;
            issue.closedBy = null;
          }
        }
        touch(issue);
        return { status: 200, body: issueJson(issue) };
      },
    },
    {
      method: 'POST',
      path: '/repos/:owner/:repo/issues/:number/labels',
      handler: (ctx) => {
        const issue = findIssue(ctx.params.number);
        if (isResult(issue)) return issue;
        const raw = Array.isArray(ctx.body) ? ctx.body : isObject(ctx.body) ? ctx.body.labels : undefined;
        if (!Array.isArray(raw)) return validationFailed('labels');
        const names: string[] = [];
        for (const l of raw) {
          const name = typeof l === 'string' ? l : isObject(l) && typeof l.name === 'string' ? l.name : undefined;
          if (name === undefined || name.trim() === '') return validationFailed('labels');
          names.push(name);
        }
        for (const name of names) {
          const canonical = label(name).name;
          if (!issue.labels.some((l) => l.toLowerCase() === canonical.toLowerCase())) issue.labels.push(canonical);
        }
        if (names.length > 0) touch(issue);
        return { status: 200, body: issue.labels.map(labelObject) };
      },
    },
    {
      method: 'DELETE',
      path: '/repos/:owner/:repo/issues/:number/labels/:name',
      handler: (ctx) => {
        const issue = findIssue(ctx.params.number);
        if (isResult(issue)) return issue;
        const name = (ctx.params.name ?? '').toLowerCase();
        const index = issue.labels.findIndex((l) => l.toLowerCase() === name);
        if (index === -1)
          return {
            status: 404,
            body: {
              message: 'Label does not exist',
              documentation_url: `${DOCS}/issues/labels#remove-a-label-from-an-issue`,
              status: '404',
            },
          };
        issue.labels.splice(index, 1);
        touch(issue);
        return { status: 200, body: issue.labels.map(labelObject) };
      },
    },
    {
      method: 'GET',
      path: '/repos/:owner/:repo/issues/:number/comments',
      handler: (ctx) => {
        const issue = findIssue(ctx.params.number);
        if (isResult(issue)) return issue;
        const since = ctx.query.get('since');
        const sinceMs = since ? Date.parse(since) : NaN;
        const list = issue.comments.filter((c) => Number.isNaN(sinceMs) || Date.parse(c.updatedAt) >= sinceMs);
        return ctx.paginate(list.map((c) => commentJson(issue, c)));
      },
    },
    {
      method: 'POST',
      path: '/repos/:owner/:repo/issues/:number/comments',
      handler: (ctx) => {
        const issue = findIssue(ctx.params.number);
        if (isResult(issue)) return issue;
        const body = isObject(ctx.body) ? ctx.body.body : undefined;
        if (typeof body !== 'string' || body === '') return validationFailed('body', 'missing_field');
        if (body.length > MAX_COMMENT_LENGTH) {
          return {
            status: 422,
            body: {
              message: 'Validation Failed',
              errors: [
                {
                  resource: 'IssueComment',
                  code: 'custom',
                  field: 'body',
                  message: `body is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`,
                },
              ],
              documentation_url: `${DOCS}/issues/comments#create-an-issue-comment`,
              status: '422',
            },
          };
        }
        const stamp = iso(now());
        const comment: FakeComment = {
          id: nextCommentId++,
          body,
          user: viewer.login,
          authorAssociation: viewer.authorAssociation,
          createdAt: stamp,
          updatedAt: stamp,
        };
        issue.comments.push(comment);
        touch(issue);
        const json = commentJson(issue, comment);
        return { status: 201, body: json, headers: { location: json.url } };
      },
    },
    {
      // rest/issues/comments#delete-an-issue-comment: 204; 404 for an unknown comment id.
      method: 'DELETE',
      path: '/repos/:owner/:repo/issues/comments/:id',
      handler: (ctx) => {
        const id = Number(ctx.params.id);
        const issue = issues.find((i) => i.comments.some((c) => c.id === id));
        if (!issue) return commentNotFound('delete-an-issue-comment');
        issue.comments = issue.comments.filter((c) => c.id !== id);
        touch(issue);
        return { status: 204 };
      },
    },
    {
      // rest/issues/comments#update-an-issue-comment: `body` required; 200 with the comment, its
      // updated_at moved on; 404 for an unknown comment id. The comment keeps its id and place.
      method: 'PATCH',
      path: '/repos/:owner/:repo/issues/comments/:id',
      handler: (ctx) => {
        const id = Number(ctx.params.id);
        const issue = issues.find((i) => i.comments.some((c) => c.id === id));
        const comment = issue?.comments.find((c) => c.id === id);
        if (!issue || !comment) return commentNotFound('update-an-issue-comment');
        const body = isObject(ctx.body) ? ctx.body.body : undefined;
        if (typeof body !== 'string' || body === '') return validationFailed('body', 'missing_field');
        if (body.length > MAX_COMMENT_LENGTH) return validationFailed('body');
        comment.body = body;
        comment.updatedAt = iso(Math.max(now(), Date.parse(comment.updatedAt)));
        touch(issue);
        return { status: 200, body: commentJson(issue, comment) };
      },
    },
  ];

  /** A route path's pattern and its parameters' names, in order. */
  const pathPattern = (routePath: string): { names: string[]; pattern: RegExp } => {
    const names: string[] = [];
    const source = routePath
      .split('/')
      .map((part) => {
        if (part.startsWith('*')) {
          names.push(part.slice(1));
          return '(.+)'; // the rest of the path, slashes included (a branch name)
        }
        if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(part.slice(1));
        return '([^/]+)';
      })
      .join('/');
    return { names, pattern: new RegExp(`^${source}/?$`) };
  };
  const compile = (route: GitHubRoute): CompiledRoute => ({ route, ...pathPattern(route.path) });
  for (const r of [...builtIn, ...(options.routes ?? [])]) routes.push(compile(r));

  // --- rate limit -----------------------------------------------------------------------------

  const rollWindow = () => {
    const seconds = Math.floor(now() / 1000);
    if (seconds >= resetAt) {
      remaining = limit;
      resetAt = seconds + 3600;
    }
  };
  const rateHeaders = (remainingShown = remaining, resetShown = resetAt): Record<string, string> => ({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, remainingShown)),
    'x-ratelimit-used': String(limit - Math.max(0, remaining)),
    'x-ratelimit-reset': String(resetShown),
    'x-ratelimit-resource': 'core',
  });

  // --- the server -----------------------------------------------------------------------------

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = (req.method ?? 'GET').toUpperCase();
      let body: unknown;
      let badJson = false;
      if (raw !== '') {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
          badJson = true;
        }
      }
      const authHeader = req.headers.authorization;
      const authMatch = /^(token|bearer)\s+(\S+)\s*$/i.exec(authHeader ?? '');
      const auth: RecordedRequest['auth'] =
        authHeader === undefined
          ? 'none'
          : authMatch && tokens.has(authMatch[2] ?? '')
            ? authMatch[1]?.toLowerCase() === 'token'
              ? 'token'
              : 'bearer'
            : 'bad';
      const presented = authMatch?.[2] ?? '';
      const conditional = req.headers['if-none-match'] !== undefined;

      const send = (status: number, payload: unknown, headers: Record<string, string>, counted: boolean) => {
        requests.push({
          method,
          path: url.pathname,
          query: url.search.replace(/^\?/, ''),
          status,
          auth,
          conditional,
          counted,
          body,
        });
        const common: Record<string, string> = {
          'x-github-request-id': randomBytes(8).toString('hex').toUpperCase(),
          'x-github-media-type': 'github.v3; format=json',
          'x-github-api-version-selected': '2022-11-28',
          // GitHub's own clock (the server's, which a test may move on): leases are judged by it.
          date: new Date(now()).toUTCString(),
        };
        if (payload === undefined) {
          res.writeHead(status, { ...common, ...headers });
          res.end();
        } else {
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...common, ...headers });
          res.end(JSON.stringify(payload));
        }
      };

      if (auth === 'none')
        return send(401, { message: 'Requires authentication', documentation_url: DOCS, status: '401' }, {}, false);
      if (auth === 'bad')
        return send(401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' }, {}, false);

      rollWindow();
      const scriptIndex = scripted.findIndex((s) => s.method === undefined || s.method.toUpperCase() === method);
      const script = scriptIndex === -1 ? undefined : scripted.splice(scriptIndex, 1)[0];
      if (script?.kind === 'server') {
        return send(script.status, { message: 'Server Error' }, rateHeaders(), true);
      }
      if (script?.kind === 'primary') {
        const reset = Math.floor(now() / 1000) + (script.resetInSeconds ?? 60);
        return send(script.status, primaryLimitBody(installationId, script.status), rateHeaders(0, reset), false);
      }
      if (script?.kind === 'secondary') {
        const headers = rateHeaders();
        if (script.retryAfterSeconds !== undefined) headers['retry-after'] = String(script.retryAfterSeconds);
        remaining--;
        return send(script.status, secondaryLimitBody(script.status), headers, true);
      }
      if (remaining <= 0) return send(403, primaryLimitBody(installationId, 403), rateHeaders(0), false);
      if (badJson) {
        remaining--;
        return send(
          400,
          { message: 'Problems parsing JSON', documentation_url: DOCS, status: '400' },
          rateHeaders(),
          true,
        );
      }

      // `/repositories/{id}/…` (the form of GitHub's link URLs) is `/repos/{owner}/{repo}/…`.
      let path = url.pathname;
      const byId = /^\/repositories\/(\d+)(\/.*)?$/.exec(path);
      if (byId) path = Number(byId[1]) === repositoryId ? `/repos/${owner}/${repo}${byId[2] ?? ''}` : '/-not-found-';

      const refusal = refusals.find((r) => r.method === method && r.pattern.exec(path));
      if (refusal) {
        remaining--;
        return send(
          refusal.status,
          { message: refusal.message, documentation_url: refusal.docs ?? DOCS, status: String(refusal.status) },
          rateHeaders(),
          true,
        );
      }

      for (const listener of observers) listener({ method, path });

      let result: RouteResult | undefined;
      let matchedAny = false;
      for (const { route, pattern, names } of routes) {
        const m = pattern.exec(path);
        if (!m) continue;
        matchedAny = true;
        if (route.method !== method) continue;
        const params: Record<string, string> = {};
        names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1] ?? '')));
        if (
          params.owner !== undefined &&
          params.repo !== undefined &&
          (params.owner.toLowerCase() !== owner.toLowerCase() || params.repo.toLowerCase() !== repo.toLowerCase())
        ) {
          result = notFound();
          break;
        }
        const ctx: RouteContext = {
          method,
          params,
          query: url.searchParams,
          body,
          headers: req.headers,
          server: api,
          paginate: (items) => paginate(items, url, path),
        };
        result = route.handler(ctx);
        break;
      }
      if (!result)
        result = matchedAny
          ? { status: 404, body: { message: 'Not Found', documentation_url: DOCS, status: '404' } }
          : notFound();

      const headers = { ...(result.headers ?? {}) };
      if (method === 'GET' && result.status === 200) {
        const etag = `W/"${createHash('sha256').update(presented).update('\0').update(JSON.stringify(result.body)).digest('hex').slice(0, 32)}"`;
        headers.etag = etag;
        headers['cache-control'] = 'private, max-age=60, s-maxage=60';
        headers.vary = 'Accept, Authorization, Cookie, X-GitHub-OTP';
        if (etagMatches(req.headers['if-none-match'], etag)) {
          // 304: no body, and not counted against the primary rate limit.
          const keep = Object.fromEntries(
            Object.entries(headers).filter(([k]) => ['etag', 'cache-control', 'vary', 'link'].includes(k)),
          );
          return send(304, undefined, { ...rateHeaders(), ...keep }, false);
        }
      }
      remaining--;
      return send(result.status, result.body, { ...rateHeaders(), ...headers }, true);
    });
  });

  const paginate = (items: readonly unknown[], url: URL, path: string): RouteResult => {
    const perPageRaw = Number(url.searchParams.get('per_page') ?? 30);
    const perPage = Math.min(100, Math.max(1, Number.isFinite(perPageRaw) ? Math.floor(perPageRaw) : 30));
    const pageRaw = Number(url.searchParams.get('page') ?? 1);
    const page = Math.max(1, Number.isFinite(pageRaw) ? Math.floor(pageRaw) : 1);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const rest = path.replace(/^\/repos\/[^/]+\/[^/]+/, '');
    const link = (p: number) => {
      const q = new URLSearchParams(url.searchParams);
      q.set('page', String(p));
      return `<${baseUrl}/repositories/${repositoryId}${rest}?${q.toString()}>`;
    };
    const rels: string[] = [];
    if (page > 1) rels.push(`${link(Math.min(page - 1, last))}; rel="prev"`);
    if (page < last) rels.push(`${link(page + 1)}; rel="next"`, `${link(last)}; rel="last"`);
    if (page > 1) rels.push(`${link(1)}; rel="first"`);
    return { status: 200, body: slice, headers: rels.length > 0 ? { link: rels.join(', ') } : {} };
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;

  const api: GitHubServer = {
    url: baseUrl,
    token,
    owner,
    repo,
    repositoryId,
    issues,
    requests,
    get tokenKind() {
      return state.kind;
    },
    set tokenKind(kind: FakeTokenKind) {
      state.kind = kind;
    },
    access,
    settings,
    rulesets,
    protections,
    addRuleset(spec) {
      const ruleset: FakeRuleset = {
        id: nextRulesetId++,
        name: spec.name ?? 'main',
        enforcement: spec.enforcement ?? 'active',
        include: spec.include ?? ['~DEFAULT_BRANCH'],
        exclude: spec.exclude ?? [],
        rules: spec.rules,
        bypass: spec.bypass ?? {},
      };
      rulesets.push(ruleset);
      return ruleset;
    },
    pulls: () => issues.filter((i) => i.pull !== undefined),
    addIssue,
    addIssues(count, spec = () => ({})) {
      const start = now() - count * 60_000;
      const out: FakeIssue[] = [];
      for (let i = 0; i < count; i++) out.push(addIssue({ createdAt: new Date(start + i * 60_000), ...spec(i) }));
      return out;
    },
    issue: (number) => issues.find((i) => i.number === number),
    updateIssue(number, change) {
      const issue = issues.find((i) => i.number === number);
      if (!issue) throw new Error(`fake GitHub: no issue #${number}`);
      if (change.title !== undefined) issue.title = change.title;
      if (change.body !== undefined) issue.body = change.body;
      if (change.authorAssociation !== undefined) issue.authorAssociation = change.authorAssociation;
      if (change.labels !== undefined) issue.labels = change.labels.map((n) => label(n).name);
      if (change.state !== undefined && change.state !== issue.state) {
        issue.state = change.state;
        issue.stateReason = change.state === 'closed' ? 'completed' : 'reopened';
        issue.closedAt = change.state === 'closed' ? iso(now()) : null;
        issue.closedBy = change.state === 'closed' ? (change.closedBy ?? 'octocat') : null;
      }
      touch(issue);
      return issue;
    },
    deleteIssue(number) {
      const issue = issues.find((i) => i.number === number);
      if (issue) issue.deleted = true;
    },
    rateLimit: () => {
      rollWindow();
      return { limit, remaining: Math.max(0, remaining), used: limit - Math.max(0, remaining), reset: resetAt };
    },
    setRateLimit(change) {
      if (change.remaining !== undefined) remaining = change.remaining;
      if (change.resetAt !== undefined) resetAt = change.resetAt;
    },
    rateLimitNext(n, script) {
      const only = script.method !== undefined ? { method: script.method } : {};
      for (let i = 0; i < n; i++) {
        scripted.push(
          script.kind === 'primary'
            ? {
                kind: 'primary',
                status: script.status ?? 403,
                ...only,
                ...(script.resetInSeconds !== undefined ? { resetInSeconds: script.resetInSeconds } : {}),
              }
            : {
                kind: 'secondary',
                status: script.status ?? 403,
                ...only,
                ...(script.retryAfterSeconds !== undefined ? { retryAfterSeconds: script.retryAfterSeconds } : {}),
              },
        );
      }
    },
    failNext(n, status = 502, method) {
      for (let i = 0; i < n; i++)
        scripted.push({ kind: 'server', status, ...(method !== undefined ? { method } : {}) });
    },
    observe(listener) {
      observers.add(listener);
      return () => observers.delete(listener);
    },
    addRoute(route) {
      routes.push(compile(route));
    },
    refuse(rule) {
      const { pattern } = pathPattern(rule.path);
      const entry = { ...rule, method: rule.method.toUpperCase(), pattern };
      refusals.push(entry);
      return () => void refusals.splice(refusals.indexOf(entry), 1);
    },
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
  return api;
}

function notFound(): RouteResult {
  return { status: 404, body: { message: 'Not Found', documentation_url: DOCS, status: '404' } };
}

/** GitHub's 404 for a comment id that is not there. */
function commentNotFound(anchor: string): RouteResult {
  return {
    status: 404,
    body: { message: 'Not Found', documentation_url: `${DOCS}/issues/comments#${anchor}`, status: '404' },
  };
}

function validationFailed(field: string, code = 'invalid'): RouteResult {
  return {
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [{ resource: 'Issue', field, code }],
      documentation_url: DOCS,
      status: '422',
    },
  };
}

function primaryLimitBody(installationId: number, status: number) {
  return {
    message: `API rate limit exceeded for installation ID ${installationId}. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000 and timestamp 2026-01-01 00:00:00 UTC. For more on scraping GitHub and how it may affect your rights, please review our Terms of Service (https://docs.github.com/en/site-policy/github-terms/github-terms-of-service)`,
    documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
    status: String(status),
  };
}

function secondaryLimitBody(status: number) {
  return {
    message:
      'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.',
    documentation_url:
      'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
    status: String(status),
  };
}

/** RFC 9110 If-None-Match: `*` or a list of entity tags, compared weakly (W/ ignored). */
function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  return value.split(',').some((t) => opaque(t) === opaque(etag));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
