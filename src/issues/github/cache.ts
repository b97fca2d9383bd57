/**
 * The GitHub issue source's ETag cache: the last listing's pages and the issues read one by one
 * (at most MAX_CACHED_ISSUES, least recently used dropped), each with its ETag. Every read through
 * it is a conditional request (`If-None-Match`); a 304 answers from the cache and does not count
 * against the primary rate limit. The cache is kept in the checkpoint (`state`) and restored from
 * it (`restore`).
 *
 * ETags are specific to the token that got them (GitHub support, eclipse-csi/otterdog#201), and a
 * workflow run gets a new GITHUB_TOKEN: a state restored in a later run costs an ordinary 200 on
 * its first request, then saves again within the run.
 */
import { z } from 'zod';
import { GitHubSourceError } from './errors.js';
import { cachedIssueSchema, toCached, type CachedIssue } from './issueFields.js';
import { nextLink, type ConditionalAnswer, type GitHubRequests } from './requests.js';

const MAX_CACHED_ISSUES = 50;

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

/** One listing page as cached: its ETag, its `rel="next"` URL, its items. */
export type ListingPage = GitHubSourceState['pages'][string];

export class IssueCache {
  private pages: GitHubSourceState['pages'] = {};
  private readonly issues = new Map<number, { etag: string; item: CachedIssue }>();

  constructor(
    private readonly api: GitHubRequests,
    /** `owner/repo label` (see gitHubSourceStateSchema). */
    private readonly query: string,
  ) {}

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

  /**
   * Takes in a saved state; one for another repository or label is ignored. Returns what is wrong
   * with a state that is not valid (nothing is taken in then), else undefined.
   */
  restore(value: unknown): string | undefined {
    const parsed = gitHubSourceStateSchema.safeParse(value);
    if (!parsed.success) return parsed.error.issues[0]?.message ?? 'invalid';
    if (parsed.data.query !== this.query) return undefined; // another repository or label: nothing to reuse
    this.pages = parsed.data.pages;
    for (const [n, entry] of Object.entries(parsed.data.issues)) {
      const number = Number(n);
      if (Number.isInteger(number) && number > 0) this.issues.set(number, entry);
    }
    return undefined;
  }

  /** The pages a finished listing read, in place of the last listing's. */
  keepListing(pages: GitHubSourceState['pages']): void {
    this.pages = pages;
  }

  /**
   * One listing page, conditional on the last listing's ETag for `url`; `what` names the listing
   * in errors. Counts the page, and a 304, in `summary`.
   */
  async listingPage(url: string, summary: { pages: number; notModified: number }, what: string): Promise<ListingPage> {
    const cached = this.pages[url];
    summary.pages++;
    const answer = await this.api.conditionalGet(`GET ${url}`, {}, cached?.etag, what);
    if (answer === 'not-modified' && cached) {
      summary.notModified++;
      return cached;
    }
    if (answer === 'not-modified')
      throw new GitHubSourceError(`GitHub answered 304 for ${url} without a cached page`, 'other', 304);
    if (!Array.isArray(answer.data)) {
      throw new GitHubSourceError(
        `Unexpected answer listing issues of ${this.api.owner}/${this.api.repo}: not a JSON array. Is the API URL right?`,
        'other',
        answer.status,
      );
    }
    const items = answer.data.map(toCached).filter((i): i is CachedIssue => i !== undefined);
    const page: ListingPage = { etag: answer.etag ?? '', items };
    const next = nextLink(answer.headers.link);
    if (next !== undefined) page.next = next;
    return page;
  }

  /** Issue #`number`, conditional on its stored ETag; undefined when it is gone (404, 410). */
  async issue(number: number, what: string): Promise<CachedIssue | undefined> {
    const cached = this.issues.get(number);
    let answer: ConditionalAnswer;
    try {
      answer = await this.api.conditionalGet(
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
        `Unexpected answer reading issue #${number} of ${this.api.owner}/${this.api.repo}: not an issue`,
        'other',
        answer.status,
      );
    this.issues.delete(number);
    if (answer.etag) this.issues.set(number, { etag: answer.etag, item });
    while (this.issues.size > MAX_CACHED_ISSUES) this.issues.delete(this.issues.keys().next().value as number);
    return item;
  }

  /** Drops issue #`number` (changed by this source: the next read is an ordinary one). */
  forget(number: number): void {
    this.issues.delete(number);
  }
}
