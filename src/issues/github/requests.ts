/**
 * One repository's requests, as the GitHub issue source makes them: owner and repo filled into
 * templated routes, conditional GETs (`If-None-Match`; a 304 is an answer, not an error), every
 * failure turned into a GitHubSourceError (errors.ts), the requests and 304s counted, and the rate
 * limit the last answer reported kept.
 */
import type { GitHubClient } from './client.js';
import { GitHubSourceError, asHttpError, explainHttpError } from './errors.js';

/** Listing pages and comment pages are read this many items at a time. */
export const PER_PAGE = 100;

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

export type LooseResponse = { status: number; headers: Record<string, string | number | undefined>; data: unknown };
type LooseRequest = (route: string, parameters?: Record<string, unknown>) => Promise<LooseResponse>;

/** A conditional GET's answer: 'not-modified' (304), else the response with its ETag when it has one. */
export type ConditionalAnswer = 'not-modified' | (LooseResponse & { etag?: string });

/** The requests of one repository, through one Octokit; the source's and its pull requests' alike. */
export class GitHubRequests {
  /** The rate limit as the last answer reported it. */
  rateLimit: RateLimitStatus | undefined;

  private readonly request: LooseRequest;
  private readonly calls = { requests: 0, notModified: 0 };

  constructor(
    octokit: GitHubClient,
    readonly owner: string,
    readonly repo: string,
  ) {
    this.request = octokit.request as unknown as LooseRequest;
  }

  get apiCalls(): ApiCalls {
    return { ...this.calls, counted: this.calls.requests - this.calls.notModified };
  }

  /** `route` with `If-None-Match: etag` when there is one; a 304 answers 'not-modified' (and is counted). */
  async conditionalGet(
    route: string,
    params: Record<string, unknown>,
    etag: string | undefined,
    what: string,
  ): Promise<ConditionalAnswer> {
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

  /**
   * One request (`route`, templated or a URL); `what` names it in the error of a failure, a
   * GitHubSourceError (a 304 too, which conditionalGet takes as its answer).
   */
  async send(route: string, params: Record<string, unknown>, what: string): Promise<LooseResponse> {
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
      throw explainHttpError(http, what, `${this.owner}/${this.repo}`);
    }
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
