/**
 * GitHub issues as the issue source (the action): open issues carrying a label, pull requests
 * excluded, most urgent first. Only issues whose author association is allowed are worked on; the
 * others are skipped and listed (`skippedOutsiders`) so that an outsider cannot make the agent run
 * their text. Escalation adds ESCALATED_LABEL and one comment; `ready()` lists such issues last, and
 * the engine skips them until a person removes the label or edits the issue. The same source opens the action's pull requests (pullRequests.ts)
 * and the planning pipeline's phase issues (phaseIssues.ts), through the same requests.
 *
 * API budget (what a slice costs, whatever the backlog size):
 * - `ready()`: one `GET …/issues?per_page=100` page, more only while fewer than `maxIssues`
 *   workable issues were found, never more than `maxPages` (default 3) pages. Each page is a
 *   conditional request (`If-None-Match` with the page's stored ETag, cache.ts); a 304 reuses the
 *   cached page and does not count against the primary rate limit.
 * - `get(id)`: 1 conditional `GET …/issues/{n}`.
 * - `close(id, reason)`: 1 conditional GET, then a comment and a PATCH (3; 1 when already closed).
 * - `tickChecklistItem(id, item)`: 1 conditional GET, the PATCH of the body (2; 1 when already ticked).
 * - `markEscalated(id, note)`: 1 conditional GET, the label (when absent), the comment (3).
 * - `markNoChange(id, note, close)`: 1 conditional GET, the label (when absent), the comment, the
 *   PATCH when `close` (4).
 * Every comment is posted once (postOnce): when the issue already has comments, up to 2 comment
 * pages are read first to find an earlier one with the same marker (a run killed after posting it).
 * - Claims (issue 14, claimComments.ts): `ready()` reads the claims of each listed issue carrying
 *   IN_PROGRESS_LABEL (1 each); claiming an issue costs 4 (5 when it loses the race, 1 more per
 *   dead claim it takes over), renewing 1, releasing 2.
 * Retries (5xx, network errors, rate limits, see `createOctokit` in client.ts) come on top, at most
 * `retries` per request.
 */
import { createHash } from 'node:crypto';
import { sortIssues } from '../ready.js';
import { tickItem } from '../checklist.js';
import {
  ESCALATED_LABEL,
  IN_PROGRESS_LABEL,
  NO_CHANGE_LABEL,
  PR_OPEN_LABEL,
  type Issue,
  type IssueSource,
  type SourceWarning,
} from '../types.js';
import { IssueCache, type GitHubSourceState } from './cache.js';
import type { GitHubClient } from './client.js';
import type { Claim, ClaimOutcome, ClaimProgress, Claimant } from '../claims.js';
import { GitHubClaims } from './claimComments.js';
import { GitHubSourceError } from './errors.js';
import { listingFailed } from '../listing.js';
import { blockedBy, issueNumber, toIssue } from './issueFields.js';
import { isObject } from './json.js';
import { createLabelledIssue, findIssuesByMarkers } from './phaseIssues.js';
import { commentText } from './postedText.js';
import { openOrReusePullRequest, type NewPullRequest, type OpenedPullRequest } from './pullRequests.js';
import { GitHubRequests, PER_PAGE, type ApiCalls, type RateLimitStatus } from './requests.js';

export const DEFAULT_ALLOWED_AUTHORS: readonly string[] = ['OWNER', 'MEMBER', 'COLLABORATOR'];
/** Hidden first line of every escalation comment. */
export const ESCALATION_MARKER = '<!-- agent-loop:escalation -->';
const COMMENT_PAGES_SEARCHED = 2;

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
  /** This run's id in claims (issue 14): ready() marks issues another run's live claim holds (`claimedBy`). */
  runId?: string;
  /** The injected clock, for claims when GitHub's answer carries no date. Default Date.now. */
  now?: () => number;
  /** This workflow run's page, linked from the claim comment (issue 15: the issue's progress comment). */
  runUrl?: string;
  /**
   * The only issues this run may work (a fan-out work job's one issue, issue 16): ready() reads the
   * claims of these alone, not of every other issue of the wave in flight (1 request each, wasted).
   */
  claimsOf?: readonly string[];
}

export class GitHubIssueSource implements IssueSource {
  readonly description: string;
  /** Outsiders' issues the last ready() skipped, for the summary. */
  skippedOutsiders: SkippedOutsider[] = [];
  /** What the last ready() looked at. */
  lastListing: ListingSummary | undefined;
  /** The rate limit as the last answer reported it. */
  get rateLimit(): RateLimitStatus | undefined {
    return this.api.rateLimit;
  }

  private readonly api: GitHubRequests;
  private readonly cache: IssueCache;
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
  private readonly trusted = new Set<string>();
  private readonly claims: GitHubClaims;
  private readonly runId: string | undefined;
  private readonly claimsOf: ReadonlySet<string> | undefined;

  constructor(options: GitHubIssueSourceOptions) {
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
    this.api = new GitHubRequests(options.octokit, this.owner, this.repo);
    this.cache = new IssueCache(this.api, this.query);
    this.claims = new GitHubClaims(
      this.api,
      options.now ?? Date.now,
      (author) => author.type === 'Bot' || this.allowed.has((author.association ?? '').toUpperCase()),
      { redact: this.redact, ...(options.runUrl ? { runUrl: options.runUrl } : {}) },
    );
    this.runId = options.runId;
    this.claimsOf = options.claimsOf ? new Set(options.claimsOf.map((id) => String(issueNumber(id) ?? id))) : undefined;
    this.description = `GitHub issues of ${this.owner}/${this.repo} labelled ${this.label}`;
    if (options.state !== undefined) this.restore(options.state);
  }

  /** The cache to keep in the checkpoint: the last listing's pages and recently read issues, with their ETags. */
  get state(): GitHubSourceState {
    return this.cache.state;
  }

  /** Every stored ETag by request (listing pages by URL, issues as `issue #N`). */
  get etags(): Record<string, string> {
    return this.cache.etags;
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
    return this.api.apiCalls;
  }

  /**
   * The workable issues, most urgent first, then the escalated ones. A listing GitHub did not answer
   * (after the client's retries) is a ListingError, never an empty list: the run is deferred.
   */
  async ready(): Promise<Issue[]> {
    try {
      return await this.list();
    } catch (error) {
      throw listingFailed(error, `listing the open issues labelled ${this.label} in ${this.owner}/${this.repo}`);
    }
  }

  private async list(): Promise<Issue[]> {
    const listed: Issue[] = [];
    // Escalated issues are listed too, after the others and not counted against maxIssues: the engine
    // skips them unless they were edited since their escalation, and halts when only they remain.
    const listedEscalated: Issue[] = [];
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
      const page = await this.cache.listingPage(
        url,
        summary,
        `listing open issues labelled ${this.label} in ${this.owner}/${this.repo}`,
      );
      pages[url] = page;
      for (const item of page.items) {
        summary.scanned++;
        if (item.pullRequest) {
          summary.pullRequests++;
          continue;
        }
        if (item.state !== 'open') continue;
        const escalated = item.labels.some((l) => l.toLowerCase() === ESCALATED_LABEL);
        if (escalated) summary.escalated++;
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
        (escalated ? listedEscalated : listed).push(toIssue(item));
      }
      url = page.next;
    }
    this.cache.keepListing(pages);
    this.skippedOutsiders = outsiders;
    // "Blocked by #N" (the planning pipeline's phase N+1): not ready while #N is open in the listing.
    const open = new Set(
      Object.values(pages)
        .flatMap((p) => p.items)
        .filter((i) => i.state === 'open' && !i.pullRequest)
        .map((i) => String(i.number)),
    );
    const unblocked = (issues: Issue[]) =>
      issues.filter((issue) => {
        const blocker = blockedBy(issue.body).find((n) => open.has(n));
        if (blocker !== undefined) summary.blocked++;
        return blocker === undefined;
      });
    const ready = sortIssues(unblocked(listed)).slice(0, this.maxIssues);
    // An issue another run is working on: its claim is read (1 request per such issue) and handed on.
    for (const issue of ready) {
      if (!issue.labels.some((l) => l.toLowerCase() === IN_PROGRESS_LABEL)) continue;
      if (this.claimsOf && !this.claimsOf.has(issue.id)) continue;
      const holder = await this.claims.heldBy(Number(issue.id), this.runId ?? '');
      if (holder) issue.claimedBy = holder;
    }
    summary.ready = ready.length;
    this.lastListing = summary;
    if (summary.truncated && ready.length < this.maxIssues) {
      this.warnOnce(
        `${this.description}: only the oldest ${summary.scanned} of the labelled items were looked at (${this.maxPages} pages of ${PER_PAGE}); ` +
          `newer issues, and priority labels on them, are seen once older ones are closed or escalated`,
      );
    }
    return [...ready, ...sortIssues(unblocked(listedEscalated)).slice(0, this.maxIssues)];
  }

  async get(id: string): Promise<Issue | undefined> {
    const number = issueNumber(id);
    if (number === undefined) return undefined;
    const item = await this.cache.issue(number, `reading issue #${number}`);
    return item && !item.pullRequest ? toIssue(item) : undefined;
  }

  /**
   * Ticks one checklist item's box in the issue's body: the body read again (a conditional GET, so a
   * person's edit up to now is in it), that one `[ ]` made `[x]`, the body PATCHed back; nothing sent
   * when the box is already ticked or not there. A person's edit in the moment between the read
   * and the PATCH would be lost: GitHub offers no conditional PATCH of an issue.
   */
  async tickChecklistItem(id: string, item: string): Promise<boolean> {
    const number = this.requireNumber(id, 'tick a checklist item of');
    const found = await this.cache.issue(number, `reading issue #${number} before ticking "${item}" in it`);
    if (!found || found.pullRequest) throw this.unknownIssue(number, 'tick a checklist item of');
    const body = tickItem(found.body, item);
    if (body === undefined) return false;
    await this.api.send(
      'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
      { issue_number: number, body },
      `ticking "${item}" in issue #${number}`,
    );
    this.cache.forget(number);
    return true;
  }

  /**
   * A comment with the reason (marked: posted once, see postOnce), then `state: closed,
   * state_reason: completed`. A closed issue is left as it is. Called again after a crash between
   * the comment and the close, it finds the comment and only closes.
   */
  async close(id: string, reason: string): Promise<void> {
    const number = this.requireNumber(id, 'close');
    const item = await this.cache.issue(number, `reading issue #${number} before closing it`);
    if (!item || item.pullRequest) throw this.unknownIssue(number, 'close');
    if (item.state === 'closed') return;
    if (commentText(this.redact, reason).trim() !== '')
      await this.postOnce(
        number,
        item.comments ?? 0,
        'close',
        reason,
        `commenting on issue #${number} before closing it`,
      );
    await this.api.send(
      'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
      { issue_number: number, state: 'closed', state_reason: 'completed' },
      `closing issue #${number}`,
    );
    this.cache.forget(number);
  }

  /**
   * Adds ESCALATED_LABEL and posts one comment: a hidden marker, the note's hash, the (redacted)
   * note. Called again for the same note while the issue still carries the label, it finds that
   * comment and posts nothing. Once a person has removed the label, a new escalation comments anew.
   */
  async markEscalated(id: string, note: string): Promise<void> {
    const number = this.requireNumber(id, 'escalate');
    const item = await this.cache.issue(number, `reading issue #${number} before escalating it`);
    if (!item || item.pullRequest) throw this.unknownIssue(number, 'escalate');
    const labelled = item.labels.some((l) => l.toLowerCase() === ESCALATED_LABEL);
    if (!labelled) {
      await this.api.send(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
        { issue_number: number, labels: [ESCALATED_LABEL] },
        `labelling issue #${number} ${ESCALATED_LABEL}`,
      );
    }
    // Looked for only when the label was there already: a run killed after labelling, or after commenting too.
    await this.postOnce(
      number,
      labelled ? (item.comments ?? 0) : 0,
      'escalation-note',
      note,
      `commenting on escalated issue #${number}`,
      [ESCALATION_MARKER],
    );
    this.cache.forget(number);
  }

  /**
   * An issue found already satisfied: NO_CHANGE_LABEL and one comment with the evidence (label,
   * comment: 2 calls after the read), then closed when `close` (the issue's own named tests or
   * `verify:` pass: 1 more call), else left open for a person to close. Called again with the same
   * note (a run killed on the way), it labels and comments nothing twice.
   */
  async markNoChange(id: string, note: string, close: boolean): Promise<void> {
    const number = this.requireNumber(id, 'label');
    const item = await this.cache.issue(number, `reading issue #${number} before labelling it ${NO_CHANGE_LABEL}`);
    if (!item || item.pullRequest) throw this.unknownIssue(number, 'label');
    if (item.state === 'closed') return;
    // The label, then the comment (found by its marker: a run killed between the two posts it on the next try, once).
    const labelled = item.labels.some((l) => l.toLowerCase() === NO_CHANGE_LABEL);
    if (!labelled) {
      await this.api.send(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
        { issue_number: number, labels: [NO_CHANGE_LABEL] },
        `labelling issue #${number} ${NO_CHANGE_LABEL}`,
      );
    }
    const next = close
      ? `Nothing was changed or merged: the issue's own tests pass, so it is closed. Reopen it and remove the ${NO_CHANGE_LABEL} label to have agent-loop try it again.`
      : `Nothing was changed or merged. Close this issue if that is right; remove the ${NO_CHANGE_LABEL} label to have agent-loop try it again.`;
    await this.postOnce(
      number,
      labelled ? (item.comments ?? 0) : 0,
      'no-change',
      `${note}\n\n${next}`,
      `commenting on issue #${number}`,
    );
    if (close) {
      await this.api.send(
        'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
        { issue_number: number, state: 'closed', state_reason: 'completed' },
        `closing issue #${number}`,
      );
    }
    this.cache.forget(number);
  }

  /**
   * The open pull request from `head` (a branch of this repository), or a new one: 1 GET, plus 1
   * POST when there is none. A 422 "already exists" (another run won the race) reads it again.
   */
  openPullRequest(pr: NewPullRequest): Promise<OpenedPullRequest> {
    return openOrReusePullRequest(this.api, this.redact, pr);
  }

  /** Opens an issue carrying this source's label (1 request); its number. */
  createIssue(issue: { title: string; body: string }): Promise<number> {
    return createLabelledIssue(this.api, this.label, this.redact, issue);
  }

  /**
   * The issues (open or closed) carrying this source's label whose body contains each marker: at
   * most `maxPages` pages of 100, newest first (where a re-run's own issues are).
   */
  findByMarkers(markers: readonly string[]): Promise<Map<string, number>> {
    return findIssuesByMarkers(this.api, this.label, this.maxPages, markers);
  }

  /** Adds a label to an issue (1 request; GitHub creates a missing repository label). */
  async addLabel(id: string, label: string): Promise<void> {
    const number = this.requireNumber(id, 'label');
    await this.api.send(
      'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
      { issue_number: number, labels: [label] },
      `labelling issue #${number} ${label}`,
    );
    this.cache.forget(number);
  }

  /**
   * Claims the issue (issue 14; claimComments.ts): the label, the claim comment (issue 15: the issue's
   * progress comment, telling `progress`), the race read back.
   */
  claim(id: string, me: Claimant, expires: string, resuming: boolean, progress?: ClaimProgress): Promise<ClaimOutcome> {
    // The issue's cached ETag stays: its label changed, so the next conditional read gets it anew.
    return this.claims.claim(this.requireNumber(id, 'claim'), me, expires, resuming, progress);
  }

  /** Renews this run's claim on the issue (1 PATCH of its comment, telling `progress`); the run that took it over, if one did. */
  renewClaim(id: string, me: Claimant, expires: string, progress?: ClaimProgress): Promise<Claim | undefined> {
    return this.claims.renew(this.requireNumber(id, 'claim'), me, expires, progress);
  }

  /** The progress `me`'s claim on the issue last recorded (a wave job that died: what it had run). */
  async claimProgress(id: string, me: Claimant): Promise<{ iterations: number; costUsd?: number } | undefined> {
    const claim = await this.claims.ownNewest(this.requireNumber(id, 'read the claim of'), me);
    if (claim?.iterations === undefined) return undefined;
    return { iterations: claim.iterations, ...(claim.costUsd !== undefined ? { costUsd: claim.costUsd } : {}) };
  }

  /** Releases this run's claim: its comment says how the work ended (`progress`; deleted without), the label goes. */
  async releaseClaim(id: string, me: Claimant, at: string, progress?: ClaimProgress): Promise<void> {
    const number = this.requireNumber(id, 'release');
    await this.claims.release(number, me, at, progress);
    this.cache.forget(number);
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

  /**
   * Posts `note` (redacted) as a comment once: its hidden first line says what it is for and
   * carries the note's hash (`<!-- agent-loop:<kind> sha256=… -->`); when the issue has comments,
   * the newest pages are searched for that line first (up to 2 requests; `comments` 0: not
   * searched, nothing of this effect can be there yet) and nothing is posted when it is there. `lines`: more hidden lines before it (the escalation's older marker).
   */
  private async postOnce(
    number: number,
    comments: number,
    kind: string,
    note: string,
    what: string,
    lines: readonly string[] = [],
  ): Promise<void> {
    const text = commentText(this.redact, note);
    const marker = commentMarker(kind, text);
    if (comments > 0 && (await this.hasComment(number, comments, (b) => b.includes(marker)))) return;
    await this.api.send(
      'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
      { issue_number: number, body: [...lines, marker, '', text].join('\n') },
      what,
    );
  }

  /** Looks through the newest comments (the last pages) for one that `matches`. */
  private async hasComment(number: number, count: number, matches: (body: string) => boolean): Promise<boolean> {
    const lastPage = Math.ceil(count / PER_PAGE);
    for (let page = lastPage; page >= 1 && page > lastPage - COMMENT_PAGES_SEARCHED; page--) {
      const answer = await this.api.send(
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { issue_number: number, per_page: PER_PAGE, page },
        `reading the comments of issue #${number}`,
      );
      const comments = Array.isArray(answer.data) ? answer.data : [];
      if (comments.some((c) => isObject(c) && typeof c.body === 'string' && matches(c.body))) return true;
    }
    return false;
  }

  // --- helpers -----------------------------------------------------------------------------------

  private restore(value: unknown): void {
    const problem = this.cache.restore(value);
    if (problem !== undefined) {
      this.warnOnce(
        `${this.description}: the saved GitHub cache is not valid and is ignored (${problem}); the first requests are ordinary ones`,
      );
    }
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

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hidden line that marks a comment agent-loop posted: what it is for and a hash of its text. */
export function commentMarker(kind: string, text: string): string {
  return `<!-- agent-loop:${kind} sha256=${sha256(text).slice(0, 16)} -->`;
}
