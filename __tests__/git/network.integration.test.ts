/**
 * Issue 43: every git network call agent-loop makes has a timeout and a bounded retry. Real git
 * pushing to a real bare repository (a local path: git runs its receive-pack, and the origin's
 * pre-receive hook, as processes of the push) whose hook never finishes; the waits between
 * attempts go through an injected sleep (no real waiting but git's own).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execGit } from '../../src/git/exec.js';
import { networkExec, networkLimits } from '../../src/git/network.js';
import { readProcStat } from '../../src/util/procStat.js';
import { GIT_ENV, gitIn } from './repo.js';

let dir: string;
let repo: string;
let origin: string;
const git = gitIn(() => repo);

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-net-')));
  repo = path.join(dir, 'repo');
  origin = path.join(dir, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin], { env: GIT_ENV });
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env: GIT_ENV });
  await fs.writeFile(path.join(repo, 'a.txt'), 'ok\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  git('remote', 'add', 'origin', origin);
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A pre-receive hook that records its pid, then sleeps far longer than any test runs. */
async function hangingHook(): Promise<string> {
  const pids = path.join(dir, 'hook-pids');
  await fs.writeFile(path.join(origin, 'hooks', 'pre-receive'), `#!/bin/sh\necho $$ >> '${pids}'\nexec sleep 300\n`, {
    mode: 0o755,
  });
  return pids;
}

/** A recorded sleep that returns at once; a clock that moves only when told. */
function manualClock(start = 1_000_000) {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    advance: (ms: number) => (now += ms),
    clock: {
      now: () => new Date(now),
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    },
  };
}

const alive = (pid: number) => {
  const stat = readProcStat(pid);
  return stat !== undefined && stat.state !== 'Z';
};

describe('execGit with a timeout (issue 43)', () => {
  it('runs a call that finishes in time as without one: its code and output', async () => {
    const r = await execGit(repo, GIT_ENV, ['rev-parse', '--abbrev-ref', 'HEAD'], { timeoutMs: 30_000 });
    expect(r).toEqual({ code: 0, stdout: 'main\n', stderr: '' });
  });

  it("ends a push whose remote hook never finishes at its timeout, with the whole process group: the hook's process is gone too", async () => {
    const pids = await hangingHook();
    const started = Date.now();
    const r = await execGit(repo, GIT_ENV, ['push', 'origin', 'main'], { timeoutMs: 700 });
    expect(r.code).toBe(1);
    expect(r.timedOutMs).toBe(700);
    expect(Date.now() - started).toBeLessThan(5_000);
    const hook = Number((await fs.readFile(pids, 'utf8')).trim());
    expect(alive(hook)).toBe(false);
    expect(execFileSync('git', ['--git-dir', origin, 'branch', '--list'], { encoding: 'utf8' })).toBe('');
  });
});

describe('networkExec: timed, retried, within a landing (issue 43)', () => {
  it('a push that times out is tried once more after 2 s (through the injected sleep), then ends with a line naming the command, the remote, the timeout and what to do', async () => {
    const pids = await hangingHook();
    const m = manualClock();
    const exec = networkExec(repo, GIT_ENV, networkLimits(600, m.clock));
    const started = Date.now();
    const r = await exec(['-c', 'user.name=t', 'push', '--no-verify', 'origin', 'refs/heads/main:refs/heads/main']);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(r.code).toBe(1);
    expect(m.slept).toEqual([2000]);
    expect((await fs.readFile(pids, 'utf8')).trim().split('\n')).toHaveLength(2); // two attempts reached the hook
    expect(r.stderr.split('\n').at(-1)).toBe(
      'agent-loop ended `git push` to origin: it ran 0.6 s without finishing (2 attempts, each ended with all its ' +
        'processes; the remote did not answer in time). A later run tries again; if the remote is only slow, ' +
        'raise the input git-timeout-seconds.',
    );
  });

  it('a refusal is answered at once and not tried again', async () => {
    await fs.writeFile(path.join(origin, 'hooks', 'pre-receive'), '#!/bin/sh\necho "no, thanks" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const m = manualClock();
    const r = await networkExec(repo, GIT_ENV, networkLimits(30_000, m.clock))(['push', 'origin', 'main']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('pre-receive hook declined');
    expect(r.stderr).not.toContain('agent-loop ended');
    expect(m.slept).toEqual([]);
  });

  it("a call made when the landing's deadline (3 timeouts) has passed is not started, and says that the deadline ran out", async () => {
    const m = manualClock();
    const limits = networkLimits(1000, m.clock);
    const r = await limits.landing(async () => {
      m.advance(3000);
      return networkExec(repo, GIT_ENV, limits)(['push', 'origin', 'main']);
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "agent-loop ended `git push` to origin: the landing's deadline (3 × the 1 s git timeout) ran out (1 attempt,",
    );
    expect(existsSync(path.join(origin, 'refs', 'heads', 'main'))).toBe(false);
    expect(m.slept).toEqual([]);
    expect(limits.deadline?.()).toBeUndefined(); // over with the landing
  });

  it('a call that finishes is returned as git gave it', async () => {
    const m = manualClock();
    const r = await networkExec(repo, GIT_ENV, networkLimits(30_000, m.clock))(['push', '-q', 'origin', 'main']);
    expect(r).toMatchObject({ code: 0 });
    expect(r.timedOutMs).toBeUndefined();
    expect(git('ls-remote', origin, 'refs/heads/main')).toContain('refs/heads/main');
  });
});
