/**
 * agent-loop's own git network calls (push, fetch, ls-remote; issue 43): each attempt runs under a
 * timeout (past it, its whole process group is ended: exec.ts), a call that timed out or met a
 * network error is tried again under OUTSIDE_CALL_POLICIES.git_network (retryCall, waits through the
 * injected sleep), and within a landing an overall deadline holds: no attempt starts past it and none
 * runs beyond it. A call that ran out ends with one line naming the remote, the command, the timeout
 * and what to do, which the landing's classifier reads (src/publish/landingFailures.ts).
 */
import { surface } from '../config/surface.js';
import { type CallPolicy, OUTSIDE_CALL_POLICIES } from '../failure/policy.js';
import { type Attempt, type RetryVerdict, retryCall } from '../failure/retryCall.js';
import { type Clock, systemClock } from '../util/clock.js';
import { type GitResult, execGit } from './exec.js';
import { type GitRunner, gitRunner } from './runner.js';

/** The git-timeout-seconds default: a push or fetch on a healthy remote takes seconds. */
export const DEFAULT_GIT_TIMEOUT_MS = 120_000;
/** A landing (every push and fetch of it, retries and waits included) may take this many timeouts. */
export const LANDING_TIMEOUTS = 3;

export interface NetworkLimits {
  /** One attempt's timeout (git-timeout-seconds). */
  timeoutMs: number;
  /** The run's clock: the waits between attempts, and the time left before a deadline. */
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** The deadline (ms since the epoch) of the landing under way, if one is: see attemptTimeoutMs. */
  deadline?: () => number | undefined;
  /** Default OUTSIDE_CALL_POLICIES.git_network. */
  policy?: CallPolicy;
}

/** Where nothing else is given: the default timeout, the system clock, no deadline. */
export const DEFAULT_NETWORK_LIMITS: NetworkLimits = Object.freeze({
  timeoutMs: DEFAULT_GIT_TIMEOUT_MS,
  sleep: (ms: number) => systemClock.sleep(ms),
  now: () => systemClock.now().getTime(),
});

/** Limits that can hold a landing's deadline (`landing`). */
export interface LandingLimits extends NetworkLimits {
  /**
   * Runs `work` as one landing: every network call made through these limits while it runs ends by
   * LANDING_TIMEOUTS × timeoutMs from its start (a landing inside another keeps the outer deadline).
   */
  landing<T>(work: () => Promise<T>): Promise<T>;
}

/** The limits of a run: git-timeout-seconds and the run's clock, with a landing's deadline when one is under way. */
export function networkLimits(timeoutMs: number, clock: Pick<Clock, 'now' | 'sleep'>): LandingLimits {
  let deadline: number | undefined;
  const now = () => clock.now().getTime();
  return {
    timeoutMs,
    sleep: (ms) => clock.sleep(ms),
    now,
    deadline: () => deadline,
    async landing(work) {
      if (deadline !== undefined) return work();
      deadline = now() + LANDING_TIMEOUTS * timeoutMs;
      try {
        return await work();
      } finally {
        deadline = undefined;
      }
    },
  };
}

/** What one attempt's result says: done, ran over its timeout, a network error (worth another try), or an answer (a refusal is one). */
export type NetworkOutcome = 'ok' | 'timeout' | 'network' | 'answered';

/** git's words for a remote that could not be reached or broke off, and HTTP 5xx: they may pass by themselves. */
const NETWORK_ERROR = new RegExp(
  [
    'Could not resolve host',
    'Connection (refused|reset|timed out)',
    'Operation timed out',
    'Failed to connect',
    'Empty reply from server',
    'Recv failure',
    'early EOF',
    'remote end hung up unexpectedly',
    'RPC failed',
    'returned error: 5\\d\\d',
  ].join('|'),
  'i',
);

/** What one attempt's result says. Pure. */
export function networkOutcome(r: Pick<GitResult, 'code' | 'stderr' | 'timedOutMs'>): NetworkOutcome {
  if (r.timedOutMs !== undefined) return 'timeout';
  if (r.code === 0) return 'ok';
  return NETWORK_ERROR.test(r.stderr) ? 'network' : 'answered';
}

/** Another attempt for a timeout or a network error, none for anything else. Pure. */
export function networkVerdict(attempt: Attempt<GitResult>): RetryVerdict {
  if (!attempt.ok) return { retry: false };
  const outcome = networkOutcome(attempt.value);
  return { retry: outcome === 'timeout' || outcome === 'network' };
}

/** One attempt's timeout: the call's, cut to what is left before the deadline; 0 when it has passed. Pure. */
export function attemptTimeoutMs(timeoutMs: number, now: number, deadline: number | undefined): number {
  return deadline === undefined ? timeoutMs : Math.max(0, Math.min(timeoutMs, deadline - now));
}

/** `git push` and the remote of a call's arguments (after any `-c key=value`: the commit author). Pure. */
export function describeCall(args: readonly string[]): { command: string; remote: string | undefined } {
  let i = 0;
  while (args[i] === '-c') i += 2;
  const verb = args[i] ?? '';
  const remote = args.slice(i + 1).find((a) => !a.startsWith('-'));
  return { command: `git ${verb}`, remote };
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * The line a call that ran out ends with (its stderr's last): what was ended, where, after how long,
 * and what to do. `deadline`: the landing's deadline cut it short, or left no time to start it. Pure.
 */
export function gitTimedOut(call: {
  args: readonly string[];
  timeoutMs: number;
  attempts: number;
  deadline?: boolean;
}): string {
  const { command, remote } = describeCall(call.args);
  const where = remote ? ` to ${remote}` : '';
  const ran = call.deadline
    ? `the landing's deadline (${LANDING_TIMEOUTS} × the ${seconds(call.timeoutMs)} git timeout) ran out`
    : `it ran ${seconds(call.timeoutMs)} without finishing`;
  return (
    `agent-loop ended \`${command}\`${where}: ${ran} (${call.attempts} attempt${call.attempts === 1 ? '' : 's'}, ` +
    `each ended with all its processes; the remote did not answer in time). A later run tries again; if the ` +
    `remote is only slow, raise ${surface('action').option('gitTimeoutSeconds')}.`
  );
}

/** `exec` for network calls: each attempt timed, retried under the policy, the last result told if it ran out. */
export function networkExec(
  cwd: string,
  env: NodeJS.ProcessEnv,
  limits: NetworkLimits,
): (args: string[]) => Promise<GitResult> {
  const policy = limits.policy ?? OUTSIDE_CALL_POLICIES.git_network;
  return async (args) => {
    let cut = false;
    const attempt = async (): Promise<GitResult> => {
      const timeoutMs = attemptTimeoutMs(limits.timeoutMs, limits.now(), limits.deadline?.());
      cut = timeoutMs < limits.timeoutMs;
      if (timeoutMs <= 0) return { code: 1, stdout: '', stderr: '', timedOutMs: 0 };
      return execGit(cwd, env, args, { timeoutMs });
    };
    const end = await retryCall(attempt, {
      policy,
      classify: (a) => (cut ? { retry: false } : networkVerdict(a)),
      sleep: limits.sleep,
    });
    if (!end.last.ok) throw end.last.error;
    const r = end.last.value;
    if (r.timedOutMs === undefined) return r;
    const told = gitTimedOut({ args, timeoutMs: limits.timeoutMs, attempts: end.attempts, deadline: cut });
    return { ...r, stderr: `${r.stderr.trimEnd()}\n${told}`.trimStart() };
  };
}

/** gitRunner (the commit author, for merges) whose every call is a network call under `limits`. */
export function networkRunner(
  cwd: string,
  env: NodeJS.ProcessEnv,
  author: string | undefined,
  limits: NetworkLimits,
): GitRunner {
  return gitRunner(cwd, env, author, networkExec(cwd, env, limits));
}
