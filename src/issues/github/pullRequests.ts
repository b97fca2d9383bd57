/**
 * Pull requests, for the action's way to land a finished cycle (src/publish/pullRequest.ts): the
 * open pull request from a branch is found and reused, or a new one opened, its title and body
 * redacted. GitHubIssueSource.openPullRequest is this, through the source's requests.
 */
import { GitHubSourceError } from './errors.js';
import { listingFailed } from '../listing.js';
import { isObject } from './json.js';
import { commentText, truncate } from './postedText.js';
import type { GitHubRequests } from './requests.js';

export interface NewPullRequest {
  /** A branch of this repository. */
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
}

export interface OpenedPullRequest {
  number: number;
  url: string;
  /** true: it was open already (an earlier run's, or another run's that won the race). */
  reused: boolean;
}

/**
 * The open pull request from `head` (a branch of this repository), or a new one: 1 GET, plus 1
 * POST when there is none. A 422 "already exists" (another run won the race) reads it again.
 */
export async function openOrReusePullRequest(
  api: GitHubRequests,
  redact: (text: string) => string,
  pr: NewPullRequest,
): Promise<OpenedPullRequest> {
  const find = async () => {
    const answer = await api.send(
      'GET /repos/{owner}/{repo}/pulls',
      { head: `${api.owner}:${pr.head}`, base: pr.base, state: 'open', per_page: 1 },
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
    const answer = await api.send(
      'POST /repos/{owner}/{repo}/pulls',
      {
        head: pr.head,
        base: pr.base,
        title: truncate(redact(pr.title), 250),
        body: commentText(redact, pr.body),
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
    // A refusal's fix is named where the landing is classified (src/publish/landingFailures.ts).
    throw error;
  }
}

/** An open pull request as listOpenPullRequests reads it. */
export interface ListedPullRequest {
  number: number;
  url: string;
  /** The head branch's name. */
  head: string;
  body: string;
}

/**
 * The open pull requests whose head is a branch of this repository starting with `prefix`: at most
 * `maxPages` pages of 100 (1 request for up to 100 open pull requests). A listing GitHub did not
 * answer (after the client's retries) is a ListingError, never an empty list.
 */
export async function listOpenPullRequests(
  api: GitHubRequests,
  prefix: string,
  maxPages = 3,
): Promise<ListedPullRequest[]> {
  try {
    return await listPages(api, prefix, maxPages);
  } catch (error) {
    throw listingFailed(error, `listing the open pull requests of ${api.owner}/${api.repo}`);
  }
}

async function listPages(api: GitHubRequests, prefix: string, maxPages: number): Promise<ListedPullRequest[]> {
  const found: ListedPullRequest[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const answer = await api.send(
      'GET /repos/{owner}/{repo}/pulls',
      { state: 'open', per_page: 100, page },
      'listing the open pull requests',
    );
    const items = Array.isArray(answer.data) ? answer.data : [];
    for (const item of items) {
      if (!isObject(item) || typeof item.number !== 'number' || !isObject(item.head)) continue;
      const head = item.head;
      const fullName = isObject(head.repo) ? head.repo.full_name : undefined;
      const ref = typeof head.ref === 'string' ? head.ref : '';
      // A fork's branch of the same name is not agent-loop's.
      if (
        !ref.startsWith(prefix) ||
        (typeof fullName === 'string' && fullName.toLowerCase() !== `${api.owner}/${api.repo}`.toLowerCase())
      )
        continue;
      found.push({
        number: item.number,
        url: typeof item.html_url === 'string' ? item.html_url : '',
        head: ref,
        body: typeof item.body === 'string' ? item.body : '',
      });
    }
    if (items.length < 100) break;
  }
  return found;
}
