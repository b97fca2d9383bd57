/**
 * A listing the run depends on (the source's open issues on GitHub, or the repository's open pull
 * requests) that failed after the client's own retries: a 404, a 5xx, the network. It never means
 * "no issues": the run cannot tell which issues are workable, so it starts none and ends deferred
 * (src/core/result.ts), nothing lost; the next run lists them again.
 */
import { GitHubSourceError } from './github/errors.js';

export class ListingError extends Error {
  constructor(
    /** What failed, e.g. "listing the open pull requests of octo/widgets". */
    readonly what: string,
    /** The HTTP status of the last answer, null when there was none (the network). */
    readonly status: number | null,
    /** What failed in full: the status, GitHub's own message and what to check. */
    message: string,
    /** The request's own error (a GitHubSourceError: its kind, a rate limit's reset). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ListingError';
  }
}

/**
 * What a failed listing (`what`) throws: a ListingError (the run is deferred), keeping a GitHub
 * request's status and explanation (src/issues/github/errors.ts); anything else is said with its own
 * message. A token GitHub refuses (401, or 403 not a rate limit: the kinds auth and permission) is
 * no passing failure: it is thrown as it is, so the run stops and the step fails, naming the token,
 * rather than every later run being deferred, green, for ever.
 */
export function listingFailed(error: unknown, what: string): Error {
  if (error instanceof ListingError) return error;
  if (error instanceof GitHubSourceError && (error.kind === 'auth' || error.kind === 'permission')) return error;
  if (error instanceof GitHubSourceError) return new ListingError(what, error.status ?? null, error.message, error);
  const message = error instanceof Error ? error.message : String(error);
  return new ListingError(what, null, `${what} failed: ${message}`, error);
}
