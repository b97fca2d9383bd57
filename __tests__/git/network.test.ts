/** Issue 43: the decisions of agent-loop's git network calls (src/git/network.ts), pure. */
import { describe, expect, it } from '@jest/globals';
import { OUTSIDE_CALL_POLICIES } from '../../src/failure/policy.js';
import { nextRetry } from '../../src/failure/retryCall.js';
import { attemptTimeoutMs, describeCall, gitTimedOut, networkOutcome, networkVerdict } from '../../src/git/network.js';

const result = (code: number, stderr = '', timedOutMs?: number) => ({
  code,
  stdout: '',
  stderr,
  ...(timedOutMs !== undefined ? { timedOutMs } : {}),
});

describe('what one network call gave', () => {
  it('a timeout is a timeout, whatever its exit code; exit 0 is done', () => {
    expect(networkOutcome(result(1, '', 500))).toBe('timeout');
    expect(networkOutcome(result(0, '', 500))).toBe('timeout');
    expect(networkOutcome(result(0))).toBe('ok');
  });

  it.each([
    "fatal: unable to access 'https://github.com/o/r/': Could not resolve host: github.com",
    "fatal: unable to access 'http://127.0.0.1:9/o/r/': Failed to connect to 127.0.0.1 port 9: Connection refused",
    'error: RPC failed; HTTP 502 curl 22 The requested URL returned error: 502',
    'fatal: the remote end hung up unexpectedly',
    'fatal: early EOF',
  ])('a network error is worth another try: %s', (stderr) => {
    expect(networkOutcome(result(128, stderr))).toBe('network');
  });

  it.each([
    ' ! [remote rejected] main -> main (pre-receive hook declined)',
    'remote: Permission to o/r.git denied to bot.\nfatal: unable to access: The requested URL returned error: 403',
    ' ! [rejected]        main -> main (fetch first)',
  ])('an answer (a refusal) is not: %s', (stderr) => {
    expect(networkOutcome(result(1, stderr))).toBe('answered');
  });

  it('the retry: a timeout and a network error are tried again, an answer and a throw are not', () => {
    expect(networkVerdict({ ok: true, value: result(1, '', 100) })).toEqual({ retry: true });
    expect(networkVerdict({ ok: true, value: result(128, 'Connection reset by peer') })).toEqual({ retry: true });
    expect(networkVerdict({ ok: true, value: result(1, 'rejected') })).toEqual({ retry: false });
    expect(networkVerdict({ ok: true, value: result(0) })).toEqual({ retry: false });
    expect(networkVerdict({ ok: false, error: new Error('x') })).toEqual({ retry: false });
  });

  it('the git_network row: one more attempt after 2 s, then given up', () => {
    const policy = OUTSIDE_CALL_POLICIES.git_network;
    expect(nextRetry(policy, { attempts: 1, backoffSteps: 0, spentMs: 0 }, { retry: true })).toEqual({
      retryInMs: 2000,
      backoffSteps: 1,
    });
    expect(nextRetry(policy, { attempts: 2, backoffSteps: 1, spentMs: 2000 }, { retry: true })).toEqual({
      end: 'exhausted',
    });
  });
});

describe("an attempt's timeout within a landing's deadline", () => {
  it("is the call's timeout without a deadline, cut to what is left before one, 0 past it", () => {
    expect(attemptTimeoutMs(1000, 50, undefined)).toBe(1000);
    expect(attemptTimeoutMs(1000, 50, 5000)).toBe(1000);
    expect(attemptTimeoutMs(1000, 4500, 5000)).toBe(500);
    expect(attemptTimeoutMs(1000, 6000, 5000)).toBe(0);
  });
});

describe('the line a call that ran out ends with', () => {
  it('names the command and the remote, past the commit author given with -c', () => {
    expect(describeCall(['-c', 'user.name=a', '-c', 'user.email=a@b', 'push', '--no-verify', 'origin', 'x:y'])).toEqual(
      { command: 'git push', remote: 'origin' },
    );
    expect(describeCall(['ls-remote', '--exit-code', '--heads', 'upstream', 'refs/heads/x'])).toEqual({
      command: 'git ls-remote',
      remote: 'upstream',
    });
  });

  it('says the timeout, the attempts and what to do; or that the landing deadline ran out', () => {
    expect(gitTimedOut({ args: ['fetch', '--quiet', 'origin', 'main'], timeoutMs: 120_000, attempts: 2 })).toBe(
      'agent-loop ended `git fetch` to origin: it ran 120 s without finishing (2 attempts, each ended with all its ' +
        'processes; the remote did not answer in time). A later run tries again; if the remote is only slow, raise ' +
        'the input git-timeout-seconds.',
    );
    expect(gitTimedOut({ args: ['push', 'origin'], timeoutMs: 2500, attempts: 1, deadline: true })).toContain(
      "`git push` to origin: the landing's deadline (3 × the 2.5 s git timeout) ran out (1 attempt,",
    );
  });
});
