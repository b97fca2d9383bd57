/**
 * The retry policy, as data (Temporal's terms): which failures are retried, how long to wait, how
 * many attempts, and what happens when they run out. Validated once at load. Pure.
 *
 * Who retries what (one place decides for each call):
 *
 * | what fails                                   | decided by                                                        |
 * |----------------------------------------------|-------------------------------------------------------------------|
 * | an agent run (rate limit, timeout, crash, …) | POLICIES below, through decideFailure (the loop acts on it)       |
 * | the Discord webhook                          | OUTSIDE_CALL_POLICIES.discord below, through retryCall            |
 * | the Actions cache and artifacts (persist/)   | OUTSIDE_CALL_POLICIES.actions_storage below, through retryCall    |
 * | the GitHub REST API (issues, pull requests)  | Octokit's retry and throttling plugins, configured in             |
 * |                                              | src/issues/github/client.ts (createOctokit), not these rows       |
 * | one git network call (push, fetch, ls-remote) | OUTSIDE_CALL_POLICIES.git_network below, through retryCall        |
 * |                                              | (src/git/network.ts), each attempt under the git-timeout-seconds  |
 * | landing a finished cycle (push, pull request)| LANDING_POLICY below, between runs: the core (src/core/slice.ts)  |
 * | that failed even so                          | keeps it in the outbox and a later run tries it again             |
 *
 * The Actions clients also retry inside themselves (see actions_storage); the artifact listing is
 * a REST call through a plain Octokit (no plugins), so the actions_storage row decides for it.
 */
import { type Surface, surface } from '../config/surface.js';
import { z } from 'zod';
import type { AgentFailure } from './agentFailure.js';

/** What every row says about retrying: the waits and the attempts (all that retryCall reads of a row). */
export const RetryPolicySchema = z.object({
  /** First wait, before backoff. */
  initialIntervalMs: z.number().min(0),
  backoffCoefficient: z.number().min(1),
  /** Longest single wait (a longer retry-after is still honoured). */
  maximumIntervalMs: z.number().positive(),
  /** Attempts before giving up (`onExhausted` for an agent failure); null: until the failure stops (rate limits). */
  maximumAttempts: z.number().int().positive().nullable(),
});
export type RetryPolicy = z.infer<typeof RetryPolicySchema>;

/** An agent failure's row: the retry part, and what the loop does with the failure. */
export const PolicySchema = RetryPolicySchema.extend({
  /** Whether a failure of this kind counts toward the step's --max-retries-per-step. */
  countsTowardStep: z.boolean(),
  /** Start the next attempt in a fresh agent session. */
  freshSession: z.boolean(),
  onExhausted: z.enum(['escalate', 'halt']),
});
export type Policy = z.infer<typeof PolicySchema>;

/** How the loop treats a failure, by what it says about the issue and the environment. */
export const FailureKinds = ['rate_limit', 'timeout', 'transient', 'permanent_issue', 'permanent_environment'] as const;
export type FailureKind = (typeof FailureKinds)[number];

export const POLICIES: Readonly<Record<FailureKind, Policy>> = Object.freeze(
  z.record(z.enum(FailureKinds), PolicySchema).parse({
    // 1, 2, 4, 8, 16, 32 s … honouring retry-after / reset times, until the window passes.
    rate_limit: {
      initialIntervalMs: 1000,
      backoffCoefficient: 2,
      maximumIntervalMs: 5 * 60_000,
      maximumAttempts: null,
      countsTowardStep: false,
      freshSession: false,
      onExhausted: 'escalate',
    },
    // Timeouts and network errors: the same timeout again, 3 retries (4 attempts), then escalate the cycle.
    timeout: {
      initialIntervalMs: 0,
      backoffCoefficient: 1,
      maximumIntervalMs: 1,
      maximumAttempts: 4,
      countsTowardStep: false,
      freshSession: false,
      onExhausted: 'escalate',
    },
    // Other transient failures (overloaded, 5xx, crashes): the step's retries.
    transient: {
      initialIntervalMs: 0,
      backoffCoefficient: 1,
      maximumIntervalMs: 1,
      maximumAttempts: null,
      countsTowardStep: true,
      freshSession: false,
      onExhausted: 'escalate',
    },
    // Tied to the issue (max turns, prompt too long, invalid request): next iteration, fresh session, failure as context.
    permanent_issue: {
      initialIntervalMs: 0,
      backoffCoefficient: 1,
      maximumIntervalMs: 1,
      maximumAttempts: null,
      countsTowardStep: true,
      freshSession: true,
      onExhausted: 'escalate',
    },
    // The environment (auth, billing, permissions): no issue is to blame; 2 in a row halt the run.
    permanent_environment: {
      initialIntervalMs: 0,
      backoffCoefficient: 1,
      maximumIntervalMs: 1,
      maximumAttempts: 2,
      countsTowardStep: false,
      freshSession: true,
      onExhausted: 'halt',
    },
  }),
);

/**
 * A finished cycle whose landing (push, pull request, label) failed for a transient reason (GitHub
 * answering 5xx, the network, a secondary rate limit that outlasted Octokit's own retries): it stays
 * in the checkpoint's outbox and the next runs try it again, never the agent, after 1, 2, 4, 8 …
 * minutes, at most an hour apart. The 30th transient failure in a row (about a day of them when runs
 * come at least hourly: 63 minutes of waits, then 23 of an hour) halts publish_refused, as a refusal no retry can change does at once:
 * GitHub that keeps failing is for a person to look at, not for scheduled runs to retry unseen.
 */
export const LANDING_POLICY: RetryPolicy = Object.freeze(
  RetryPolicySchema.parse({
    initialIntervalMs: 60_000,
    backoffCoefficient: 2,
    maximumIntervalMs: 60 * 60_000,
    maximumAttempts: 30,
  }),
);

/** An outside call's row: the retry part, and the most time spent waiting between its attempts. */
export const CallPolicySchema = RetryPolicySchema.extend({
  /** A wait that would take the call past this much waiting in all is not made: the call gives up. */
  waitBudgetMs: z.number().positive(),
});
export type CallPolicy = z.infer<typeof CallPolicySchema>;

/** The outside calls retried by retryCall (src/failure/retryCall.ts). */
export const OutsideCalls = ['discord', 'actions_storage', 'git_network'] as const;
export type OutsideCall = (typeof OutsideCalls)[number];

export const OUTSIDE_CALL_POLICIES: Readonly<Record<OutsideCall, CallPolicy>> = Object.freeze(
  z.record(z.enum(OutsideCalls), CallPolicySchema).parse({
    // The halt diagnostic's webhook (report/discordWebhook.ts): a 5xx or network error waits 1, 2,
    // 4, 8, 8 s; a 429 waits its retry_after; at most 6 requests, and never more than 30 s of
    // waiting, so a halt is not held up. Any other 4xx is not retried.
    discord: {
      initialIntervalMs: 1000,
      backoffCoefficient: 2,
      maximumIntervalMs: 8000,
      maximumAttempts: 6,
      waitBudgetMs: 30_000,
    },
    // @actions/cache and @actions/artifact and the artifact listing (persist/storageRetry.ts): a
    // network error, a 5xx or a 429 that reaches us is tried again after 1 s, then 2 s (3 attempts);
    // a retry-after longer than the 10 s budget gives up. The clients already retry their own
    // requests (Twirp calls 5 times from 3 s, downloads 5 times), so a failure they report as
    // already retried, any 4xx and their own refusals (ReserveCacheError, ValidationError, …) are not.
    actions_storage: {
      initialIntervalMs: 1000,
      backoffCoefficient: 2,
      maximumIntervalMs: 2000,
      maximumAttempts: 3,
      waitBudgetMs: 10_000,
    },
    // agent-loop's own push, fetch and ls-remote (src/git/network.ts, issue 43): one that ran over its
    // timeout (its process group ended) or met a network error (no answer, connection refused or
    // reset, HTTP 5xx) is tried once more after 2 s; a refusal (a rejected ref, a hook, 401/403) is
    // not. A timeout that repeats is a landing failure: the landing's own retries (LANDING_POLICY) decide then.
    git_network: {
      initialIntervalMs: 2000,
      backoffCoefficient: 2,
      maximumIntervalMs: 8000,
      maximumAttempts: 2,
      waitBudgetMs: 10_000,
    },
  }),
);

const ENVIRONMENT_REASONS = new Set([
  'auth',
  'billing',
  'not_found',
  'not_executable',
  'spawn_failed',
  'permission_denied',
]);
const TIMEOUT_REASONS = new Set(['timeout', 'network']);

/** Which policy applies to a failure. */
export function failureKind(failure: Pick<AgentFailure, 'class' | 'reason'>): FailureKind {
  if (failure.reason === 'rate_limit') return 'rate_limit';
  if (TIMEOUT_REASONS.has(failure.reason)) return 'timeout';
  if (failure.class === 'permanent')
    return ENVIRONMENT_REASONS.has(failure.reason) ? 'permanent_environment' : 'permanent_issue';
  return 'transient';
}

/** The counters the policy keeps between attempts (in the checkpoint). */
export interface FailureCounters {
  /** Rate limits in a row in this cycle. */
  rateLimitAttempts: number;
  /** Timeouts and network errors in a row in this cycle. */
  timeoutRetries: number;
  /** Environment failures in a row in the run (no issue is to blame). */
  environmentFailures: number;
}

/** What the policy says about one failure: every field of its row applied. */
export interface FailureDecision {
  kind: FailureKind;
  /** The counters after this failure. */
  counters: FailureCounters;
  /** Failures of this kind in a row, this one included (0 when the kind keeps no count). */
  attempts: number;
  /** The wait before the next attempt. */
  waitMs: number;
  /** The attempts are used up: the row's onExhausted. */
  exhausted?: Policy['onExhausted'];
  /** The failure is one of the step's (the workflow's retries of the step decide). */
  countsTowardStep: boolean;
  /** The next attempt starts a fresh agent session. */
  freshSession: boolean;
}

const COUNTER: Partial<Record<FailureKind, keyof FailureCounters>> = {
  rate_limit: 'rateLimitAttempts',
  timeout: 'timeoutRetries',
  permanent_environment: 'environmentFailures',
};

/**
 * The one executor of the policy table: the failure's row, its counter bumped, the wait, whether
 * the attempts are used up and what then. A failure that counts toward the step ends a run of
 * environment failures. Pure; every workflow acts on its answer.
 */
export function decideFailure(
  failure: Pick<AgentFailure, 'class' | 'reason' | 'retryAfterMs'>,
  before: FailureCounters,
  policies: Readonly<Record<FailureKind, Policy>> = POLICIES,
): FailureDecision {
  const kind = failureKind(failure);
  const policy = policies[kind];
  const counter = COUNTER[kind];
  const counters = { ...before, ...(policy.countsTowardStep ? { environmentFailures: 0 } : {}) };
  const attempts = counter ? before[counter] + 1 : 0;
  if (counter) counters[counter] = attempts;
  return {
    kind,
    counters,
    attempts,
    waitMs: counter ? backoffMs(policy, attempts, failure.retryAfterMs) : 0,
    ...(counter && exhausted(policy, attempts) ? { exhausted: policy.onExhausted } : {}),
    countsTowardStep: policy.countsTowardStep,
    freshSession: policy.freshSession,
  };
}

/** The wait before attempt `attempt + 1` (attempt is 1 for the first failure), honouring the failure's own retry-after. */
export function backoffMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  const exponential = policy.initialIntervalMs * policy.backoffCoefficient ** Math.max(0, attempt - 1);
  const capped = Math.min(exponential, policy.maximumIntervalMs);
  return Math.max(capped, retryAfterMs ?? 0);
}

/** Whether `attempts` failures in a row have used up the policy. */
export function exhausted(policy: RetryPolicy, attempts: number): boolean {
  return policy.maximumAttempts !== null && attempts >= policy.maximumAttempts;
}

/** What a person must fix when the environment keeps failing, in the words of the surface that ran. */
export function environmentAdvice(reason: string, say: Surface = surface()): string {
  switch (reason) {
    case 'auth':
      return 'The agent cannot authenticate: check ANTHROPIC_API_KEY / OPENAI_API_KEY (or the CLI login) in the environment that runs agent-loop.';
    case 'billing':
      return "The agent's account cannot pay for requests: check the API account's billing and quota.";
    case 'not_found':
    case 'not_executable':
    case 'spawn_failed':
      return `The agent program cannot be started: check ${say.option('agent')} / ${say.option('agentCommand')} and that the CLI is installed and on PATH.`;
    case 'permission_denied':
      return (
        `The agent was denied every edit: allow its tools (${say.given('agentAllowedTools', '"Bash Edit Write Read"')}) ` +
        `or choose another ${say.option('agentPermissionMode')}.`
      );
    default:
      return 'Fix the agent environment (the key, the billing, the permissions).';
  }
}
