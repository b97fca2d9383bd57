/**
 * The Actions cache and artifact backends under the `actions_storage` row (OUTSIDE_CALL_POLICIES
 * in failure/policy.ts, run by retryCall): each port call is tried again on a transient failure —
 * a network error, a 5xx, a 429 — and never on a refusal (a 4xx, the clients' own errors such as
 * ReserveCacheError or ValidationError) or on a failure the client says it has retried already.
 */
import { OUTSIDE_CALL_POLICIES } from '../failure/policy.js';
import { type Attempt, type RetryVerdict, lastValue, retryCall } from '../failure/retryCall.js';
import { type ArtifactBackend, type CacheBackend, errorText } from './stateBackends.js';

export interface StorageRetryDeps {
  sleep: (ms: number) => Promise<void>;
  /** Told of each retry, before its wait. */
  log?: (message: string) => void;
}

/** The clients' errors that say the request cannot succeed as it is (@actions/cache, @actions/artifact). */
const REFUSALS = new Set([
  'ValidationError',
  'ReserveCacheError',
  'CacheWriteDeniedError',
  'CacheReadDeniedError',
  'FinalizeCacheError',
  'FilesNotFoundError',
  'ArtifactNotFoundError',
  'GHESNotSupportedError',
  'UsageError',
  'InvalidResponseError',
]);

/** A client that has already retried the request, or judged it not worth retrying (Twirp, downloads). */
const CLIENT_GAVE_UP = /non-retryable|after \d+ (attempts|retries)/i;

const NETWORK_CODES =
  // eslint-disable-next-line max-len -- one alternation of error codes: cut, it would no longer read as the list it is
  /\b(ECONNRESET|ECONNREFUSED|ECONNABORTED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ENETDOWN|EPIPE|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)\b/;

/** Whether a storage call's failure is worth another try. Pure. */
export function classifyStorageFailure(attempt: Attempt<unknown>): RetryVerdict {
  if (attempt.ok) return { retry: false };
  const error = attempt.error as { name?: unknown; message?: unknown; code?: unknown; cause?: { code?: unknown } };
  if (typeof error !== 'object' || error === null) return { retry: false };
  const message = typeof error.message === 'string' ? error.message : '';
  if (REFUSALS.has(String(error.name)) || CLIENT_GAVE_UP.test(message)) return { retry: false };
  const status = statusOf(attempt.error, message);
  if (status !== undefined) {
    if (status === 429) {
      const after = retryAfterMs(attempt.error);
      return after === undefined ? { retry: true } : { retry: true, retryAfterMs: after };
    }
    return { retry: status >= 500 };
  }
  const network =
    error.name === 'NetworkError' ||
    NETWORK_CODES.test(`${String(error.code)} ${String(error.cause?.code)} ${message}`);
  return { retry: network };
}

/** The HTTP status of a failure: Octokit's `status`, @actions/http-client's `statusCode`, or Twirp's "(503)". */
function statusOf(error: unknown, message: string): number | undefined {
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  for (const value of [status, statusCode]) if (typeof value === 'number' && value >= 100) return value;
  const quoted = /\((\d{3})\)/.exec(message);
  return quoted ? Number(quoted[1]) : undefined;
}

/** Octokit's `retry-after` header (seconds) on a 429. */
function retryAfterMs(error: unknown): number | undefined {
  const headers = (error as { response?: { headers?: Record<string, unknown> } }).response?.headers;
  const seconds = Number(headers?.['retry-after'] ?? NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** One port call under the row: its value, or the last failure thrown. */
function storageCall(deps: StorageRetryDeps) {
  return async <T>(what: string, op: () => Promise<T>): Promise<T> =>
    lastValue(
      await retryCall(op, {
        policy: OUTSIDE_CALL_POLICIES.actions_storage,
        classify: classifyStorageFailure,
        sleep: deps.sleep,
        onRetry: ({ attempt, waitMs, last }) =>
          deps.log?.(
            `${what} failed (${last.ok ? 'no error' : errorText(last.error)}); trying again in ${waitMs / 1000} s (attempt ${attempt + 1}).`,
          ),
      }),
    );
}

export function retryingCache(backend: CacheBackend, deps: StorageRetryDeps): CacheBackend {
  const call = storageCall(deps);
  return {
    lookup: (...args) => call('Looking up the cache', () => backend.lookup(...args)),
    restore: (...args) => call('Restoring the cache', () => backend.restore(...args)),
    save: (...args) => call('Saving the cache', () => backend.save(...args)),
  };
}

export function retryingArtifacts(backend: ArtifactBackend, deps: StorageRetryDeps): ArtifactBackend {
  const call = storageCall(deps);
  return {
    upload: (...args) => call('Uploading the artifact', () => backend.upload(...args)),
    list: (...args) => call('Listing the artifacts', () => backend.list(...args)),
    download: (...args) => call('Downloading the artifact', () => backend.download(...args)),
  };
}
