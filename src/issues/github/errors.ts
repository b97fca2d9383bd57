/**
 * A failed GitHub request as an error that names its cause and what to do about it: a bad token, a
 * missing permission, a repository the token cannot see, a rate limit (with when to come back), a
 * server failure.
 */
import { isObject } from './json.js';

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

/** What Octokit throws for an HTTP answer that is not a success. */
export interface HttpError {
  status: number;
  message: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

export function asHttpError(error: unknown): HttpError | undefined {
  if (!isObject(error) || typeof error.status !== 'number') return undefined;
  return error as unknown as HttpError;
}

/** The error for a failed `what` (e.g. "closing issue #3") in the repository `where` (owner/repo). */
export function explainHttpError(error: HttpError, what: string, where: string): GitHubSourceError {
  const { status } = error;
  const headers = error.response?.headers ?? {};
  const message = apiMessage(error);
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
  if (status === 410)
    return new GitHubSourceError(
      `Gone while ${what} (410 ${message}): it was deleted on GitHub (an issue, or the repository's issues turned off in ${where}).`,
      'not-found',
      410,
    );
  if (status === 404) {
    return new GitHubSourceError(
      `Not found while ${what} (404 ${message}): check that ${where} exists and that the \`github-token\` input can read it ` +
        `(GitHub answers 404 for a private repository the token cannot see).`,
      'not-found',
      404,
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

/** GitHub's own `message` from the error body, else Octokit's. */
export function apiMessage(error: HttpError): string {
  const data = error.response?.data;
  if (!isObject(data) || typeof data.message !== 'string') return error.message;
  // A 422's details: "Validation Failed: A pull request already exists for octo:agent-loop/issue-1."
  const details = Array.isArray(data.errors)
    ? data.errors.map((e) => (isObject(e) && typeof e.message === 'string' ? e.message : undefined)).filter(Boolean)
    : [];
  return details.length > 0 ? `${data.message}: ${details.join('; ')}` : data.message;
}
