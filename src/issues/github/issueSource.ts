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
import { sortIssues } from '../ready.js';
import { IN_PROGRESS_LABEL, type Issue, type IssueSource, type SourceWarning } from '../types.js';
import { IssueCache, type GitHubSourceState } from './cache.js';
import type { GitHubClient } from './client.js';
import type { Claim, ClaimOutcome, ClaimProgress, Claimant } from '../claims.js';
import { GitHubClaims } from './claimComments.js';
import { listingFailed } from '../listing.js';
import { issueNumber, toIssue } from './issueFields.js';
import {
  type MarkContext,
  addLabel,
  closeWithReason,
  markEscalated,
  markHeld,
  reopenClosedByToken,
  markNoChange,
  requireNumber,
  tickChecklistItem,
} from './issueMarks.js';
import {
  type ListingSummary,
  type SkippedOutsider,
  type Sorted,
  emptySummary,
  sortPage,
  unblockedBy,
} from './listingFilter.js';
import { createLabelledIssue, findIssuesByMarkers } from './phaseIssues.js';
import { openOrReusePullRequest, type NewPullRequest, type OpenedPullRequest } from './pullRequests.js';
import { GitHubRequests, PER_PAGE, type ApiCalls, type RateLimitStatus } from './requests.js';

export { commentMarker } from './comments.js';
export { ESCALATION_MARKER } from './issueMarks.js';
export type { ListingSummary, SkippedOutsider } from './listingFilter.js';

export const DEFAULT_ALLOWED_AUTHORS: readonly string[] = ['OWNER', 'MEMBER', 'COLLABORATOR'];

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
  private readonly marks: MarkContext;

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
    this.marks = { api: this.api, cache: this.cache, redact: this.redact, where: `${this.owner}/${this.repo}` };
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
    const sorted: Sorted = { listed: [], escalated: [], outsiders: [], warnings: [] };
    const summary = emptySummary();
    const pages: GitHubSourceState['pages'] = {};
    let url: string | undefined = this.firstPageUrl();
    while (url !== undefined) {
      if (summary.pages >= this.maxPages || sorted.listed.length >= this.maxIssues) {
        summary.truncated = true;
        break;
      }
      const page = await this.cache.listingPage(
        url,
        summary,
        `listing open issues labelled ${this.label} in ${this.owner}/${this.repo}`,
      );
      pages[url] = page;
      sorted.warnings = [];
      sortPage(page.items, { allowed: this.allowed, trusted: this.trusted }, sorted, summary);
      for (const warning of sorted.warnings) this.warnOnce(warning);
      url = page.next;
    }
    this.cache.keepListing(pages);
    this.skippedOutsiders = sorted.outsiders;
    const unblocked = unblockedBy(pages, summary);
    const ready = sortIssues(unblocked(sorted.listed)).slice(0, this.maxIssues);
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
    return [...ready, ...sortIssues(unblocked(sorted.escalated)).slice(0, this.maxIssues)];
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
  tickChecklistItem(id: string, item: string): Promise<boolean> {
    return tickChecklistItem(this.marks, id, item);
  }

  /**
   * A comment with the reason (marked: posted once, see postOnce), then `state: closed,
   * state_reason: completed`. A closed issue is left as it is. Called again after a crash between
   * the comment and the close, it finds the comment and only closes.
   */
  close(id: string, reason: string): Promise<void> {
    return closeWithReason(this.marks, id, reason);
  }

  /**
   * Adds ESCALATED_LABEL and posts one comment: a hidden marker, the note's hash, the (redacted)
   * note. Called again for the same note while the issue still carries the label, it finds that
   * comment and posts nothing. Once a person has removed the label, a new escalation comments anew.
   */
  markEscalated(id: string, note: string): Promise<void> {
    return markEscalated(this.marks, id, note);
  }

  /**
   * An issue found already satisfied: NO_CHANGE_LABEL and one comment with the evidence (label,
   * comment: 2 calls after the read), then closed when `close` (the issue's own named tests or
   * `verify:` pass: 1 more call), else left open for a person to close. Called again with the same
   * note (a run killed on the way), it labels and comments nothing twice.
   */
  markNoChange(id: string, note: string, close: boolean): Promise<void> {
    return markNoChange(this.marks, id, note, close);
  }

  /**
   * Work held for a person (issue 42): `label` (agent-loop:tests-changed, agent-loop:unverified) and
   * one comment with `note` (2 calls after the read); the issue stays open. Called again with the
   * same note (a run killed on the way), it labels and comments nothing twice.
   */
  markHeld(id: string, note: string, label: string): Promise<void> {
    return markHeld(this.marks, id, note, label);
  }

  /**
   * An issue of a cycle found closed before agent-loop closed it (issue 42): when GitHub says a bot
   * closed it (an app's token: the job's, as an agent that read it would use) or names no one, one
   * comment and `state: open` (2 calls after the read); a person's close stands. Who closed it, when reopened.
   */
  reopenClosedByToken(id: string, note: string): Promise<string | undefined> {
    return reopenClosedByToken(this.marks, id, note);
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
  addLabel(id: string, label: string): Promise<void> {
    return addLabel(this.marks, id, label);
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
    return requireNumber(`${this.owner}/${this.repo}`, id, action);
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
