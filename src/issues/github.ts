/**
 * GitHub issues as the issue source (the action): open issues carrying a label, pull requests
 * excluded, most urgent first. Only issues whose author association is allowed are worked on; the
 * others are skipped and listed (`skippedOutsiders`) so that an outsider cannot make the agent run
 * their text. Escalation adds ESCALATED_LABEL and one comment; later runs skip the issue until a
 * person removes the label.
 *
 * API budget (what a slice costs, whatever the backlog size):
 * - `ready()`: one `GET …/issues?per_page=100` page, more only while fewer than `maxIssues`
 *   workable issues were found, never more than `maxPages` (default 3) pages. Each page is a
 *   conditional request (`If-None-Match` with the page's stored ETag); a 304 reuses the cached page
 *   and does not count against the primary rate limit.
 * - `get(id)`: 1 conditional `GET …/issues/{n}`.
 * - `close(id, reason)`: 1 conditional GET, then a comment and a PATCH (3; 1 when already closed).
 * - `markEscalated(id, note)`: 1 conditional GET, the label, the comment (3); when the issue
 *   already carries the label, up to 2 comment pages are read to find an earlier comment for the
 *   same note (at most 5).
 * Retries (5xx, network errors, rate limits, see `createOctokit`) come on top, at most `retries`
 * per request.
 *
 * ETags are specific to the token that got them (GitHub support, eclipse-csi/otterdog#201), and a
 * workflow run gets a new GITHUB_TOKEN: a state restored in a later run costs an ordinary 200 on
 * its first request, then saves again within the run.
 */
import { createHash } from 'node:crypto';
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { z } from 'zod';
import { systemClock, type Clock } from '../util/clock.js';
import { sortIssues } from './ready.js';
import {
  ESCALATED_LABEL,
  NO_CHANGE_LABEL,
  PR_OPEN_LABEL,
  type Issue,
  type IssueSource,
  type SourceWarning,
} from './types.js';

/** The Octokit `createOctokit` (or `@actions/github`'s `getOctokit`) returns. */
export type GitHubClient = ReturnType<typeof getOctokit>;

export const DEFAULT_ALLOWED_AUTHORS: readonly string[] = ['OWNER', 'MEMBER', 'COLLABORATOR'];
/** Hidden first line of every escalation comment. */
export const ESCALATION_MARKER = '<!-- agent-loop:escalation -->';
/** GitHub refuses comment bodies over 65536 characters; the note is cut well before. */
export const MAX_NOTE_LENGTH = 60_000;
const PER_PAGE = 100;
const PRIORITY_LABEL = /^priority:\s*(\d+)$/i;
const MAX_CACHED_ISSUES = 50;
const COMMENT_PAGES_SEARCHED = 2;

// --- the Octokit ---------------------------------------------------------------------------------

export interface RateLimitEvent {
  /** primary: `x-ratelimit-remaining: 0`; secondary: "You have exceeded a secondary rate limit". */
  kind: 'primary' | 'secondary';
  /** How long GitHub asks to wait (`retry-after`, or until `x-ratelimit-reset` plus one second). */
  retryAfterSeconds: number;
  method: string;
  url: string;
  /** Retries of this request so far. */
  retryCount: number;
  /** false: out of retries, or the wait is longer than `maxRateLimitWaitSeconds`; the request fails. */
  willRetry: boolean;
}

export interface CreateOctokitOptions {
  /** API root; default `GITHUB_API_URL` or https://api.github.com (what `@actions/github` uses). */
  baseUrl?: string;
  /** Retries of one request after a 5xx, a network error or a rate limit. Default 3. */
  retries?: number;
  /** A rate limit asking for a longer wait fails the request instead of waiting. Default 300 s. */
  maxRateLimitWaitSeconds?: number;
  /**
   * Milliseconds each second of a computed wait lasts (rate-limit waits, the retry plugin's 1, 4,
   * 9 s backoff). Default 1000; 0 makes every retry immediate (tests).
   */
  waitScaleMs?: number;
  /**
   * Gap kept between mutating requests (POST/PATCH/PUT/DELETE). GitHub: "If you are making a large
   * number of POST, PATCH, PUT, or DELETE requests …, wait at least one second between each
   * request." Default 1000; 0 in tests.
   */
  writeSpacingMs?: number;
  /**
   * Gap kept between requests that notify people (comments, new issues: the throttling plugin's
   * list), against GitHub's content-creation limit (80 a minute, 500 an hour). Default
   * 3 × writeSpacingMs (3000, the plugin's own).
   */
  notificationSpacingMs?: number;
  /** Sleeps the write spacing. Default the system clock. */
  clock?: Pick<Clock, 'sleep'>;
  /** Told of every rate-limit answer, before the retry (for the log). */
  onRateLimit?: (event: RateLimitEvent) => void;
  userAgent?: string;
}

/**
 * Octokit from `@actions/github` with `@octokit/plugin-retry` and `@octokit/plugin-throttling`:
 * rate-limit answers wait as GitHub asks (`retry-after`, else `x-ratelimit-reset`) and are retried
 * up to `retries` times when the wait is at most `maxRateLimitWaitSeconds`; 5xx and network errors
 * are retried by the retry plugin. 429 is left to the throttling plugin (the retry plugin would
 * retry it after 1, 4, 9 s, before `retry-after`).
 */
export function createOctokit(token: string, options: CreateOctokitOptions = {}): GitHubClient {
  const retries = options.retries ?? 3;
  const maxWait = options.maxRateLimitWaitSeconds ?? 300;
  const scale = options.waitScaleMs ?? 1000;
  const writeGap = options.writeSpacingMs ?? 1000;
  const clock = options.clock ?? systemClock;
  const decide =
    (kind: RateLimitEvent['kind']) =>
    (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number): boolean => {
      const willRetry = retryCount < retries && retryAfter <= maxWait;
      options.onRateLimit?.({
        kind,
        retryAfterSeconds: retryAfter,
        method: request.method,
        url: request.url,
        retryCount,
        willRetry,
      });
      return willRetry;
    };
  return getOctokit(
    token,
    {
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
      ...(options.userAgent !== undefined ? { userAgent: options.userAgent } : {}),
      retry: { retries, retryAfterBaseValue: scale, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
      throttle: {
        retryAfterBaseValue: scale,
        fallbackSecondaryRateRetryAfter: 60,
        onRateLimit: decide('primary'),
        onSecondaryRateLimit: decide('secondary'),
        // The plugin's own write and notification limiters are process-wide Bottleneck groups with
        // fixed 1 s and 3 s gaps; these are per client, with the gaps and the sleep injectable.
        write: spacingGroup(writeGap, clock),
        notifications: spacingGroup(options.notificationSpacingMs ?? 3 * writeGap, clock),
      },
    },
    retry,
    throttling,
  );
}

/** What the throttling plugin uses of a Bottleneck group: `key(id).schedule(options, fn, ...args)`. */
function spacingGroup(gapMs: number, clock: Pick<Clock, 'sleep'>): never {
  let last = -Infinity;
  let chain: Promise<unknown> = Promise.resolve();
  const limiter = {
    schedule(...args: unknown[]): Promise<unknown> {
      const [fn, ...rest] = (typeof args[0] === 'function' ? args : args.slice(1)) as [
        (...a: unknown[]) => unknown,
        ...unknown[],
      ];
      const run = chain.then(async () => {
        const wait = last + gapMs - Date.now();
        if (wait > 0) await clock.sleep(wait);
        last = Date.now();
        return fn(...rest);
      });
      chain = run.catch(() => undefined);
      return run;
    },
  };
  return { key: () => limiter } as never;
}

// --- the state kept in the checkpoint ------------------------------------------------------------

const cachedIssueSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string(),
  state: z.string(),
  labels: z.array(z.string()),
  createdAt: z.string().optional(),
  url: z.string().optional(),
  author: z.string().optional(),
  authorAssociation: z.string().optional(),
  pullRequest: z.boolean().optional(),
  comments: z.number().int().nonnegative().optional(),
});

/** The fields of a GitHub issue this source uses. */
export type CachedIssue = z.infer<typeof cachedIssueSchema>;

export const gitHubSourceStateSchema = z.object({
  version: z.literal(1),
  /** `owner/repo label`: a state saved for another repository or label is not used. */
  query: z.string(),
  /** Listing pages of the last `ready()`, by request URL. */
  pages: z.record(
    z.string(),
    z.object({ etag: z.string(), next: z.string().optional(), items: z.array(cachedIssueSchema) }),
  ),
  /** Issues read one by one, by number. */
  issues: z.record(z.string(), z.object({ etag: z.string(), item: cachedIssueSchema })),
});

/** Serialisable: save it in the checkpoint (`source.state`) and pass it back as the `state` option. */
export type GitHubSourceState = z.infer<typeof gitHubSourceStateSchema>;

// --- the source ----------------------------------------------------------------------------------

export interface SkippedOutsider {
  id: string;
  title: string;
  /** The author's login. */
  author: string;
  /** GitHub's author_association: CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, NONE, … */
  association: string;
  url?: string;
}

export interface ListingSummary {
  /** Listing pages requested by the last ready(). */
  pages: number;
  /** Of which answered 304 (served from the cache, not counted against the rate limit). */
  notModified: number;
  /** Items looked at, pull requests included. */
  scanned: number;
  pullRequests: number;
  escalated: number;
  /** Issues whose work waits in an open pull request (PR_OPEN_LABEL). */
  prOpen: number;
  /** Issues whose body says "Blocked by #N" while #N is still open in the listing. */
  blocked: number;
  outsiders: number;
  /** Workable issues returned. */
  ready: number;
  /** More pages were left unread (the bound was reached): older issues come first, newer wait. */
  truncated: boolean;
}

export interface ApiCalls {
  /** Requests this source made (each retry of one is not counted again). */
  requests: number;
  /** Of which answered 304 Not Modified: they do not count against the primary rate limit. */
  notModified: number;
  /** requests − notModified: what the source cost of the primary rate limit. */
  counted: number;
}

export interface RateLimitStatus {
  limit: number;
  remaining: number;
  used: number;
  /** UTC epoch seconds. */
  reset: number;
  resource: string;
}

export interface GitHubIssueSourceOptions {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  /** Only open issues carrying this label are listed. */
  label: string;
  /** author_association values whose issues are worked on. Default OWNER, MEMBER, COLLABORATOR. */
  allowedAuthors?: readonly string[];
  /** Non-fatal findings: skipped outsiders, a discarded state, a truncated listing. */
  onWarning?: SourceWarning;
  /** The state saved from an earlier source (`source.state`, kept in the checkpoint). Invalid or foreign states are ignored. */
  state?: unknown;
  /** ready() returns at most this many issues and stops paging once it has them. Default 100. */
  maxIssues?: number;
  /** ready() requests at most this many listing pages of 100. Default 3. */
  maxPages?: number;
  /** Applied to every comment this source posts (close reasons, escalation notes). */
  redact?: (text: string) => string;
}

/** The error of a failed GitHub request, with the cause named and what to do about it. */
export class GitHubSourceError extends Error {
  constructor(
    message: string,
    /** auth and permission are permanent; rate-limit passes at `resetAt`; server is transient. */
    readonly kind: 'auth' | 'permission' | 'not-found' | 'rate-limit' | 'server' | 'other',
    readonly status?: number,
    /** For rate limits: when GitHub said to come back (UTC epoch seconds), if it said. */
    readonly resetAt?: number,
  ) {
    super(message);
    this.name = 'GitHubSourceError';
  }
}

type LooseResponse = { status: number; headers: Record<string, string | number | undefined>; data: unknown };
type LooseRequest = (route: string, parameters?: Record<string, unknown>) => Promise<LooseResponse>;

interface HttpError {
  status: number;
  message: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

export class GitHubIssueSource implements IssueSource {
  readonly description: string;
  /** Outsiders' issues the last ready() skipped, for the summary. */
  skippedOutsiders: SkippedOutsider[] = [];
  /** What the last ready() looked at. */
  lastListing: ListingSummary | undefined;
  /** The rate limit as the last answer reported it. */
  rateLimit: RateLimitStatus | undefined;

  private readonly request: LooseRequest;
  private readonly owner: string;
  private readonly repo: string;
  private readonly label: string;
  private readonly allowed: Set<string>;
  private readonly onWarning: SourceWarning;
  private readonly maxIssues: number;
  private readonly maxPages: number;
  private readonly redact: (text: string) => string;
  private readonly query: string;
  private readonly warned = new Set<string>();
  private pages: GitHubSourceState['pages'] = {};
  private issues = new Map<number, { etag: string; item: CachedIssue }>();
  private readonly calls = { requests: 0, notModified: 0 };
  private readonly trusted = new Set<string>();

  constructor(options: GitHubIssueSourceOptions) {
    this.request = options.octokit.request as unknown as LooseRequest;
    this.owner = options.owner;
    this.repo = options.repo;
    this.label = options.label;
    this.allowed = new Set(
      (options.allowedAuthors ?? DEFAULT_ALLOWED_AUTHORS).map((a) => a.trim().toUpperCase()).filter((a) => a !== ''),
    );
    this.onWarning = options.onWarning ?? (() => {});
    this.maxIssues = Math.max(1, Math.floor(options.maxIssues ?? 100));
    this.maxPages = Math.max(1, Math.floor(options.maxPages ?? 3));
    this.redact = options.redact ?? ((t) => t);
    this.query = `${this.owner.toLowerCase()}/${this.repo.toLowerCase()} ${this.label}`;
    this.description = `GitHub issues of ${this.owner}/${this.repo} labelled ${this.label}`;
    if (options.state !== undefined) this.restore(options.state);
  }

  /** The cache to keep in the checkpoint: the last listing's pages and recently read issues, with their ETags. */
  get state(): GitHubSourceState {
    return {
      version: 1,
      query: this.query,
      pages: structuredClone(this.pages),
      issues: Object.fromEntries([...this.issues].map(([n, entry]) => [String(n), structuredClone(entry)])),
    };
  }

  /** Every stored ETag by request (listing pages by URL, issues as `issue #N`). */
  get etags(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [url, page] of Object.entries(this.pages)) out[url] = page.etag;
    for (const [n, entry] of this.issues) out[`issue #${n}`] = entry.etag;
    return out;
  }

  trust(ids: readonly string[]): void {
    for (const id of ids) this.trusted.add(String(issueNumber(id) ?? id));
  }

  exportState(): GitHubSourceState {
    return this.state;
  }

  importState(state: unknown): void {
    this.restore(state);
  }

  get apiCalls(): ApiCalls {
    return { ...this.calls, counted: this.calls.requests - this.calls.notModified };
  }

  async ready(): Promise<Issue[]> {
    const listed: Issue[] = [];
    const outsiders: SkippedOutsider[] = [];
    const summary: ListingSummary = {
      pages: 0,
      notModified: 0,
      scanned: 0,
      pullRequests: 0,
      escalated: 0,
      prOpen: 0,
      blocked: 0,
      outsiders: 0,
      ready: 0,
      truncated: false,
    };
    const pages: GitHubSourceState['pages'] = {};
    let url: string | undefined = this.firstPageUrl();
    while (url !== undefined) {
      if (summary.pages >= this.maxPages || listed.length >= this.maxIssues) {
        summary.truncated = true;
        break;
      }
      const page = await this.listingPage(url, summary);
      pages[url] = page;
      for (const item of page.items) {
        summary.scanned++;
        if (item.pullRequest) {
          summary.pullRequests++;
          continue;
        }
        if (item.state !== 'open') continue;
        if (item.labels.some((l) => l.toLowerCase() === ESCALATED_LABEL)) {
          summary.escalated++;
          continue;
        }
        if (item.labels.some((l) => l.toLowerCase() === PR_OPEN_LABEL || l.toLowerCase() === NO_CHANGE_LABEL)) {
          summary.prOpen++;
          continue;
        }
        const association = (item.authorAssociation ?? 'NONE').toUpperCase();
        if (!this.allowed.has(association) && !this.trusted.has(String(item.number))) {
          summary.outsiders++;
          const outsider: SkippedOutsider = {
            id: String(item.number),
            title: item.title,
            author: item.author ?? '',
            association,
          };
          if (item.url !== undefined) outsider.url = item.url;
          outsiders.push(outsider);
          this.warnOnce(
            `issue #${item.number} by ${item.author ? `@${item.author}` : 'an unknown author'} (${association}) skipped: ` +
              `only issues by ${[...this.allowed].join(', ')} are worked on (allowed-authors)`,
          );
          continue;
        }
        listed.push(toIssue(item));
      }
      url = page.next;
    }
    this.pages = pages;
    this.skippedOutsiders = outsiders;
    // "Blocked by #N" (the planning pipeline's phase N+1): not ready while #N is open in the listing.
    const open = new Set(
      Object.values(pages)
        .flatMap((p) => p.items)
        .filter((i) => i.state === 'open' && !i.pullRequest)
        .map((i) => String(i.number)),
    );
    const unblocked = listed.filter((issue) => {
      const blocker = blockedBy(issue.body).find((n) => open.has(n));
      if (blocker !== undefined) summary.blocked++;
      return blocker === undefined;
    });
    const ready = sortIssues(unblocked).slice(0, this.maxIssues);
    summary.ready = ready.length;
    this.lastListing = summary;
    if (summary.truncated && ready.length < this.maxIssues) {
      this.warnOnce(
        `${this.description}: only the oldest ${summary.scanned} of the labelled items were looked at (${this.maxPages} pages of ${PER_PAGE}); ` +
          `newer issues, and priority labels on them, are seen once older ones are closed or escalated`,
      );
    }
    return ready;
  }

  async get(id: string): Promise<Issue | undefined> {
    const number = issueNumber(id);
    if (number === undefined) return undefined;
    const item = await this.fetchIssue(number, `reading issue #${number}`);
    return item && !item.pullRequest ? toIssue(item) : undefined;
  }

  /** A comment with the reason, then `state: closed, state_reason: completed`. A closed issue is left as it is. */
  async close(id: string, reason: string): Promise<void> {
    const number = this.requireNumber(id, 'close');
    const item = await this.fetchIssue(number, `reading issue #${number} before closing it`);
    if (!item || item.pullRequest) throw this.unknownIssue(number, 'close');
    if (item.state === 'closed') return;
    const text = this.commentText(reason);
    if (text.trim() !== '') {
      await this.send(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { issue_number: number, body: text },
        `commenting on issue #${number} before closing it`,
      );
    }
    await this.send(
      'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
      { issue_number: number, state: 'closed', state_reason: 'completed' },
      `closing issue #${number}`,
    );
    this.issues.delete(number);
  }

  /**
   * Adds ESCALATED_LABEL and posts one comment: a hidden marker, the note's hash, the (redacted)
   * note. Called again for the same note while the issue still carries the label, it finds that
   * comment and posts nothing. Once a person has removed the label, a new escalation comments anew.
   */
  async markEscalated(id: string, note: string): Promise<void> {
    const number = this.requireNumber(id, 'escalate');
    const item = await this.fetchIssue(number, `reading issue #${number} before escalating it`);
    if (!item || item.pullRequest) throw this.unknownIssue(number, 'escalate');
    const text = this.commentText(note);
    const hashLine = `<!-- agent-loop:escalation-note sha256=${sha256(text).slice(0, 16)} -->`;
    const body = `${ESCALATION_MARKER}\n${hashLine}\n\n${text}`;
    const labelled = item.labels.some((l) => l.toLowerCase() === ESCALATED_LABEL);
    let commented = false;
    if (labelled) {
      commented = await this.hasComment(
        number,
        item.comments ?? 0,
        (b) => b.includes(ESCALATION_MARKER) && b.includes(hashLine),
      );
    } else {
      await this.send(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
        { issue_number: number, labels: [ESCALATED_LABEL] },
        `labelling issue #${number} ${ESCALATED_LABEL}`,
      );
    }
    if (!commented) {
      await this.send(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { issue_number: number, body },
        `commenting on escalated issue #${number}`,
      );
    }
    this.issues.delete(number);
  }

  /**
   * An issue found already satisfied: NO_CHANGE_LABEL and one comment with the evidence (label,
   * comment: 2 calls after the read), then closed when `close` (the issue's own named tests or
   * `verify:` pass: 1 more call), else left open for a person to close. Called again, it labels
   * and comments nothing twice.
   */
  async markNoChange(id: string, note: string, close: boolean): Promise<void> {
    const number = this.requireNumber(id, 'label');
    const item = await this.fetchIssue(number, `reading issue #${number} before labelling it ${NO_CHANGE_LABEL}`);
    if (!item || item.pullRequest) throw this.unknownIssue(number, 'label');
    if (item.state === 'closed') return;
    if (!item.labels.some((l) => l.toLowerCase() === NO_CHANGE_LABEL)) {
      await this.send(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
        { issue_number: number, labels: [NO_CHANGE_LABEL] },
        `labelling issue #${number} ${NO_CHANGE_LABEL}`,
      );
      const next = close
        ? `Nothing was changed or merged: the issue's own tests pass, so it is closed. Reopen it and remove the ${NO_CHANGE_LABEL} label to have agent-loop try it again.`
        : `Nothing was changed or merged. Close this issue if that is right; remove the ${NO_CHANGE_LABEL} label to have agent-loop try it again.`;
      await this.send(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { issue_number: number, body: this.commentText(`${note}\n\n${next}`) },
        `commenting on issue #${number}`,
      );
    }
    if (close) {
      await this.send(
        'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
        { issue_number: number, state: 'closed', state_reason: 'completed' },
        `closing issue #${number}`,
      );
    }
    this.issues.delete(number);
  }

  /**
   * The open pull request from `head` (a branch of this repository), or a new one: 1 GET, plus 1
   * POST when there is none. A 422 "already exists" (another run won the race) reads it again.
   */
  async openPullRequest(pr: {
    head: string;
    base: string;
    title: string;
    body: string;
    draft: boolean;
  }): Promise<{ number: number; url: string; reused: boolean }> {
    const find = async () => {
      const answer = await this.send(
        'GET /repos/{owner}/{repo}/pulls',
        { head: `${this.owner}:${pr.head}`, base: pr.base, state: 'open', per_page: 1 },
        `looking for an open pull request from ${pr.head}`,
      );
      const first = Array.isArray(answer.data) ? answer.data[0] : undefined;
      return isObject(first) && typeof first.number === 'number'
        ? { number: first.number, url: typeof first.html_url === 'string' ? first.html_url : '', reused: true }
        : undefined;
    };
    const existing = await find();
    if (existing) return existing;
    try {
      const answer = await this.send(
        'POST /repos/{owner}/{repo}/pulls',
        {
          head: pr.head,
          base: pr.base,
          title: truncate(this.redact(pr.title), 250),
          body: this.commentText(pr.body),
          draft: pr.draft,
        },
        `opening a pull request from ${pr.head} into ${pr.base}`,
      );
      const data = isObject(answer.data) ? answer.data : {};
      if (typeof data.number !== 'number')
        throw new GitHubSourceError(
          `Unexpected answer opening a pull request from ${pr.head}: no number`,
          'other',
          answer.status,
        );
      return { number: data.number, url: typeof data.html_url === 'string' ? data.html_url : '', reused: false };
    } catch (error) {
      if (error instanceof GitHubSourceError && error.status === 422 && /already exists/i.test(error.message)) {
        const raced = await find();
        if (raced) return raced;
      }
      if (error instanceof GitHubSourceError && error.kind === 'permission') {
        throw new GitHubSourceError(
          `${error.message} Opening pull requests needs \`permissions: pull-requests: write\` (and, for the default token, the repository setting "Allow GitHub Actions to create and approve pull requests").`,
          'permission',
          error.status,
        );
      }
      throw error;
    }
  }

  /** Opens an issue carrying this source's label (1 request); its number. */
  async createIssue(issue: { title: string; body: string }): Promise<number> {
    const answer = await this.send(
      'POST /repos/{owner}/{repo}/issues',
      { title: truncate(this.redact(issue.title), 250), body: this.commentText(issue.body), labels: [this.label] },
      `opening an issue "${issue.title.slice(0, 60)}"`,
    );
    const number = isObject(answer.data) ? answer.data.number : undefined;
    if (typeof number !== 'number')
      throw new GitHubSourceError(
        `Unexpected answer opening an issue in ${this.owner}/${this.repo}: no number`,
        'other',
        answer.status,
      );
    return number;
  }

  /**
   * The issues (open or closed) carrying this source's label whose body contains each marker: at
   * most `maxPages` pages of 100, newest first (where a re-run's own issues are).
   */
  async findByMarkers(markers: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    const q = new URLSearchParams({
      state: 'all',
      labels: this.label,
      sort: 'created',
      direction: 'desc',
      per_page: String(PER_PAGE),
    });
    let url: string | undefined =
      `/repos/${encodeURIComponent(this.owner)}/${encodeURIComponent(this.repo)}/issues?${q.toString()}`;
    for (let page = 0; url !== undefined && page < this.maxPages && found.size < markers.length; page++) {
      const answer = await this.send(`GET ${url}`, {}, `looking for issues an earlier run opened (${this.label})`);
      for (const raw of Array.isArray(answer.data) ? answer.data : []) {
        if (!isObject(raw) || typeof raw.number !== 'number' || typeof raw.body !== 'string' || raw.pull_request)
          continue;
        for (const marker of markers)
          if (!found.has(marker) && raw.body.includes(marker)) found.set(marker, raw.number);
      }
      url = nextLink(answer.headers.link);
    }
    return found;
  }

  /** Adds a label to an issue (1 request; GitHub creates a missing repository label). */
  async addLabel(id: string, label: string): Promise<void> {
    const number = this.requireNumber(id, 'label');
    await this.send(
      'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
      { issue_number: number, labels: [label] },
      `labelling issue #${number} ${label}`,
    );
    this.issues.delete(number);
  }

  // --- requests ----------------------------------------------------------------------------------

  private firstPageUrl(): string {
    const q = new URLSearchParams({
      state: 'open',
      labels: this.label,
      sort: 'created',
      direction: 'asc',
      per_page: String(PER_PAGE),
    });
    return `/repos/${encodeURIComponent(this.owner)}/${encodeURIComponent(this.repo)}/issues?${q.toString()}`;
  }

  private async listingPage(url: string, summary: ListingSummary): Promise<GitHubSourceState['pages'][string]> {
    const cached = this.pages[url];
    summary.pages++;
    const answer = await this.conditionalGet(
      `GET ${url}`,
      {},
      cached?.etag,
      `listing open issues labelled ${this.label} in ${this.owner}/${this.repo}`,
    );
    if (answer === 'not-modified' && cached) {
      summary.notModified++;
      return cached;
    }
    if (answer === 'not-modified')
      throw new GitHubSourceError(`GitHub answered 304 for ${url} without a cached page`, 'other', 304);
    if (!Array.isArray(answer.data)) {
      throw new GitHubSourceError(
        `Unexpected answer listing issues of ${this.owner}/${this.repo}: not a JSON array. Is the API URL right?`,
        'other',
        answer.status,
      );
    }
    const items = answer.data.map(toCached).filter((i): i is CachedIssue => i !== undefined);
    const page: GitHubSourceState['pages'][string] = { etag: answer.etag ?? '', items };
    const next = nextLink(answer.headers.link);
    if (next !== undefined) page.next = next;
    return page;
  }

  private async fetchIssue(number: number, what: string): Promise<CachedIssue | undefined> {
    const cached = this.issues.get(number);
    let answer: Awaited<ReturnType<GitHubIssueSource['conditionalGet']>>;
    try {
      answer = await this.conditionalGet(
        'GET /repos/{owner}/{repo}/issues/{issue_number}',
        { issue_number: number },
        cached?.etag,
        what,
      );
    } catch (error) {
      if (error instanceof GitHubSourceError && (error.status === 404 || error.status === 410)) {
        this.issues.delete(number);
        return undefined;
      }
      throw error;
    }
    if (answer === 'not-modified') {
      if (!cached)
        throw new GitHubSourceError(`GitHub answered 304 for issue #${number} without a cached copy`, 'other', 304);
      this.issues.delete(number); // re-insert: most recently used last
      this.issues.set(number, cached);
      return cached.item;
    }
    const item = toCached(answer.data);
    if (!item)
      throw new GitHubSourceError(
        `Unexpected answer reading issue #${number} of ${this.owner}/${this.repo}: not an issue`,
        'other',
        answer.status,
      );
    this.issues.delete(number);
    if (answer.etag) this.issues.set(number, { etag: answer.etag, item });
    while (this.issues.size > MAX_CACHED_ISSUES) this.issues.delete(this.issues.keys().next().value as number);
    return item;
  }

  /** Looks through the newest comments (the last pages) for one that `matches`. */
  private async hasComment(number: number, count: number, matches: (body: string) => boolean): Promise<boolean> {
    const lastPage = Math.ceil(count / PER_PAGE);
    for (let page = lastPage; page >= 1 && page > lastPage - COMMENT_PAGES_SEARCHED; page--) {
      const answer = await this.send(
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { issue_number: number, per_page: PER_PAGE, page },
        `reading the comments of issue #${number}`,
      );
      const comments = Array.isArray(answer.data) ? answer.data : [];
      if (comments.some((c) => isObject(c) && typeof c.body === 'string' && matches(c.body))) return true;
    }
    return false;
  }

  private async conditionalGet(
    route: string,
    params: Record<string, unknown>,
    etag: string | undefined,
    what: string,
  ): Promise<'not-modified' | (LooseResponse & { etag?: string })> {
    try {
      const answer = await this.send(
        route,
        { ...params, ...(etag ? { headers: { 'if-none-match': etag } } : {}) },
        what,
      );
      const tag = answer.headers.etag;
      return typeof tag === 'string' ? { ...answer, etag: tag } : answer;
    } catch (error) {
      if (error instanceof GitHubSourceError && error.status === 304) {
        this.calls.notModified++;
        return 'not-modified';
      }
      throw error;
    }
  }

  private async send(route: string, params: Record<string, unknown>, what: string): Promise<LooseResponse> {
    this.calls.requests++;
    try {
      // Only templated routes get owner/repo: Octokit would append unused parameters to a URL's query.
      const where = route.includes('{owner}') ? { owner: this.owner, repo: this.repo } : {};
      const answer = await this.request(route, { ...where, ...params });
      this.noteRateLimit(answer.headers);
      return answer;
    } catch (error) {
      const http = asHttpError(error);
      if (!http)
        throw new GitHubSourceError(
          `GitHub request failed while ${what}: ${(error as Error)?.message ?? String(error)}`,
          'other',
        );
      if (http.response?.headers) this.noteRateLimit(http.response.headers);
      throw this.explain(http, what);
    }
  }

  private explain(error: HttpError, what: string): GitHubSourceError {
    const { status } = error;
    const headers = error.response?.headers ?? {};
    const message = apiMessage(error);
    const where = `${this.owner}/${this.repo}`;
    if (status === 304) return new GitHubSourceError('Not modified', 'other', 304);
    if (status === 401) {
      return new GitHubSourceError(
        `GitHub rejected the token while ${what} (401 ${message}). Check the \`github-token\` input: ` +
          `it must be a valid token (the default \${{ github.token }}, or a personal access token) that has not expired or been revoked.`,
        'auth',
        401,
      );
    }
    const remaining = headers['x-ratelimit-remaining'];
    const resetHeader = Number(headers['x-ratelimit-reset']);
    const primary = (status === 403 || status === 429) && String(remaining) === '0';
    const secondary = (status === 403 || status === 429) && /secondary rate limit/i.test(message);
    if (primary || secondary) {
      const retryAfter = Number(headers['retry-after']);
      const resetAt =
        primary && Number.isFinite(resetHeader)
          ? resetHeader
          : Number.isFinite(retryAfter)
            ? Math.floor(Date.now() / 1000) + retryAfter
            : undefined;
      const when = resetAt !== undefined ? ` GitHub asks to wait until ${new Date(resetAt * 1000).toISOString()}.` : '';
      return new GitHubSourceError(
        `GitHub ${primary ? 'API rate limit' : 'secondary rate limit'} exceeded while ${what} (${status} ${message}).${when} ` +
          `The request was retried as long as the wait allowed; the next run resumes from the checkpoint.`,
        'rate-limit',
        status,
        resetAt,
      );
    }
    if (status === 403) {
      return new GitHubSourceError(
        `The token may not do this while ${what} (403 ${message}). Give the workflow \`permissions: issues: write\`, ` +
          `or pass a \`github-token\` with read and write access to the issues of ${where}.`,
        'permission',
        403,
      );
    }
    if (status === 404 || status === 410) {
      return new GitHubSourceError(
        `Not found while ${what} (${status} ${message}): check that ${where} exists and that the \`github-token\` input can read it ` +
          `(GitHub answers 404 for a private repository the token cannot see).`,
        'not-found',
        status,
      );
    }
    if (status >= 500)
      return new GitHubSourceError(
        `GitHub failed while ${what} (${status} ${message}), also on retrying.`,
        'server',
        status,
      );
    return new GitHubSourceError(`GitHub refused the request while ${what} (${status} ${message}).`, 'other', status);
  }

  private noteRateLimit(headers: Record<string, string | number | undefined>): void {
    const limit = Number(headers['x-ratelimit-limit']);
    const remaining = Number(headers['x-ratelimit-remaining']);
    if (!Number.isFinite(limit) || !Number.isFinite(remaining)) return;
    this.rateLimit = {
      limit,
      remaining,
      used: Number(headers['x-ratelimit-used'] ?? limit - remaining),
      reset: Number(headers['x-ratelimit-reset'] ?? 0),
      resource: String(headers['x-ratelimit-resource'] ?? 'core'),
    };
  }

  // --- helpers -----------------------------------------------------------------------------------

  private restore(value: unknown): void {
    const parsed = gitHubSourceStateSchema.safeParse(value);
    if (!parsed.success) {
      this.warnOnce(
        `${this.description}: the saved GitHub cache is not valid and is ignored (${parsed.error.issues[0]?.message ?? 'invalid'}); the first requests are ordinary ones`,
      );
      return;
    }
    if (parsed.data.query !== this.query) return; // another repository or label: nothing to reuse
    this.pages = parsed.data.pages;
    for (const [n, entry] of Object.entries(parsed.data.issues)) {
      const number = Number(n);
      if (Number.isInteger(number) && number > 0) this.issues.set(number, entry);
    }
  }

  private commentText(text: string): string {
    return truncate(this.redact(text), MAX_NOTE_LENGTH);
  }

  private requireNumber(id: string, action: string): number {
    const number = issueNumber(id);
    if (number === undefined) {
      throw new GitHubSourceError(
        `Cannot ${action} issue ${JSON.stringify(id)} in ${this.owner}/${this.repo}: a GitHub issue id is its number, e.g. "42".`,
        'other',
      );
    }
    return number;
  }

  private unknownIssue(number: number, action: string): GitHubSourceError {
    return new GitHubSourceError(
      `Cannot ${action} issue #${number} in ${this.owner}/${this.repo}: there is no such issue (deleted, transferred, or a pull request).`,
      'not-found',
      404,
    );
  }

  private warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.onWarning(message);
  }
}

/** Requests the source made so far (for tests and the summary). */
export function apiCallsOf(source: GitHubIssueSource): ApiCalls {
  return source.apiCalls;
}

/** The issue numbers of "Blocked by #N" lines in a body. */
export function blockedBy(body: string): string[] {
  return [...body.matchAll(/^\s*Blocked by #(\d+)\s*$/gim)].map((m) => m[1] as string);
}

/** The `priority:N` label's N (the smallest, when there are several). */
export function priorityOf(labels: readonly string[]): number | undefined {
  let best: number | undefined;
  for (const label of labels) {
    const m = PRIORITY_LABEL.exec(label.trim());
    if (m) {
      const n = Number(m[1]);
      if (best === undefined || n < best) best = n;
    }
  }
  return best;
}

/** The URL of `rel="next"` in a `link` header. */
export function nextLink(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
    if (m && m[2]?.split(/\s+/).includes('next')) return m[1];
  }
  return undefined;
}

function toIssue(item: CachedIssue): Issue {
  const issue: Issue = {
    id: String(item.number),
    title: item.title,
    body: item.body,
    status: item.state,
    labels: [...item.labels],
    dependencies: [],
  };
  const priority = priorityOf(item.labels);
  if (priority !== undefined) issue.priority = priority;
  if (item.createdAt !== undefined) issue.createdAt = item.createdAt;
  if (item.url !== undefined) issue.url = item.url;
  if (item.authorAssociation !== undefined) issue.authorAssociation = item.authorAssociation;
  return issue;
}

/** The fields used of one item of GitHub's issue JSON; undefined when it is not an issue. */
function toCached(raw: unknown): CachedIssue | undefined {
  if (!isObject(raw) || typeof raw.number !== 'number' || !Number.isInteger(raw.number)) return undefined;
  const labels = Array.isArray(raw.labels)
    ? raw.labels
        .map((l) => (typeof l === 'string' ? l : isObject(l) && typeof l.name === 'string' ? l.name : undefined))
        .filter((l): l is string => l !== undefined)
    : [];
  const item: CachedIssue = {
    number: raw.number,
    title: typeof raw.title === 'string' ? raw.title : '',
    body: typeof raw.body === 'string' ? raw.body : '',
    state: typeof raw.state === 'string' ? raw.state : '',
    labels,
  };
  if (typeof raw.created_at === 'string') item.createdAt = raw.created_at;
  if (typeof raw.html_url === 'string') item.url = raw.html_url;
  if (isObject(raw.user) && typeof raw.user.login === 'string') item.author = raw.user.login;
  if (typeof raw.author_association === 'string') item.authorAssociation = raw.author_association;
  if (raw.pull_request !== undefined && raw.pull_request !== null) item.pullRequest = true;
  if (typeof raw.comments === 'number') item.comments = raw.comments;
  return item;
}

function issueNumber(id: string): number | undefined {
  const m = /^#?(\d+)$/.exec(id.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

function asHttpError(error: unknown): HttpError | undefined {
  if (!isObject(error) || typeof error.status !== 'number') return undefined;
  return error as unknown as HttpError;
}

/** GitHub's own `message` from the error body, else Octokit's. */
function apiMessage(error: HttpError): string {
  const data = error.response?.data;
  if (!isObject(data) || typeof data.message !== 'string') return error.message;
  // A 422's details: "Validation Failed: A pull request already exists for octo:agent-loop/issue-1."
  const details = Array.isArray(data.errors)
    ? data.errors.map((e) => (isObject(e) && typeof e.message === 'string' ? e.message : undefined)).filter(Boolean)
    : [];
  return details.length > 0 ? `${data.message}: ${details.join('; ')}` : data.message;
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 20;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--; // do not split a surrogate pair
  return `${text.slice(0, cut)}\n\n… (truncated)`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
