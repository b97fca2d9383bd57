/**
 * The Octokit the GitHub issue source talks through: `@actions/github`'s, with
 * `@octokit/plugin-retry` (5xx and network errors) and `@octokit/plugin-throttling` (rate limits
 * waited as GitHub asks), and mutating and notifying requests spaced per client.
 */
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { systemClock, type Clock } from '../../util/clock.js';

/** The Octokit `createOctokit` (or `@actions/github`'s `getOctokit`) returns. */
export type GitHubClient = ReturnType<typeof getOctokit>;

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
  /** Tells the time and sleeps the write spacing. Default the system clock. */
  clock?: Pick<Clock, 'now' | 'sleep'>;
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
function spacingGroup(gapMs: number, clock: Pick<Clock, 'now' | 'sleep'>): never {
  let last = -Infinity;
  let chain: Promise<unknown> = Promise.resolve();
  const limiter = {
    schedule(...args: unknown[]): Promise<unknown> {
      const [fn, ...rest] = (typeof args[0] === 'function' ? args : args.slice(1)) as [
        (...a: unknown[]) => unknown,
        ...unknown[],
      ];
      const run = chain.then(async () => {
        const wait = last + gapMs - clock.now().getTime();
        if (wait > 0) await clock.sleep(wait);
        last = clock.now().getTime();
        return fn(...rest);
      });
      chain = run.catch(() => undefined);
      return run;
    },
  };
  return { key: () => limiter } as never;
}
