import { describe, it, expect } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../../src/agents/process.js';

const cwd = tmpdir();

/**
 * Whether a pid is gone. A killed orphan stays a zombie until PID 1 reaps it,
 * and some containers' PID 1 never does: a zombie counts as gone.
 */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

/**
 * A signalled process closes its pipes before the kernel marks it exited, so the moment runProcess
 * returns it may still be on its way out: wait (bounded) for it to be gone.
 */
async function goneSoon(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && !isGone(pid); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return isGone(pid);
}

function pidFrom(tail: string): number {
  const m = /^pid=(\d+)$/m.exec(tail);
  if (!m?.[1]) throw new Error(`no pid in output: ${tail}`);
  return Number(m[1]);
}

describe('runProcess exit codes', () => {
  it('reports exit code 0 and the output', async () => {
    const r = await runProcess({ command: 'echo hello', shell: true, cwd });
    expect(r).toMatchObject({ exitCode: 0, signal: null, timedOut: false, aborted: false, tail: 'hello\n', bytes: 6 });
    expect(r.spawnError).toBeUndefined();
    expect(r.durationMs).toBeGreaterThan(0);
  });

  it('reports a non-zero exit code and the stderr tail', async () => {
    const r = await runProcess({ command: 'echo out; echo "bad thing" >&2; exit 3', shell: true, cwd });
    expect(r.exitCode).toBe(3);
    expect(r.stderrTail).toBe('bad thing\n');
    expect(r.tail).toContain('out\n');
    expect(r.tail).toContain('bad thing\n');
  });

  it('reports the signal that killed the child', async () => {
    const r = await runProcess({ command: 'kill -USR1 $$', shell: true, cwd });
    expect(r.exitCode).toBeNull();
    expect(r.signal).toBe('SIGUSR1');
  });

  it('runs a command without a shell, passing args verbatim', async () => {
    const r = await runProcess({ command: 'printf', args: ['%s|', 'a b', '$HOME'], cwd });
    expect(r.exitCode).toBe(0);
    expect(r.tail).toBe('a b|$HOME|');
  });

  it('passes args to a shell script as positional parameters', async () => {
    const r = await runProcess({ command: 'echo "$1-$2"', args: ['x', 'y z'], shell: true, cwd });
    expect(r.tail).toBe('x-y z\n');
  });
});

describe('runProcess stdin, env and lines', () => {
  it('delivers stdin and closes it', async () => {
    const r = await runProcess({ command: 'cat', cwd, stdin: 'line one\nline two' });
    expect(r.exitCode).toBe(0);
    expect(r.tail).toBe('line one\nline two');
  });

  it('closes stdin at once when none is given, so a reader does not block', async () => {
    const r = await runProcess({ command: 'cat; echo done', shell: true, cwd, timeoutMs: 10_000 });
    expect(r).toMatchObject({ exitCode: 0, timedOut: false, tail: 'done\n' });
  });

  it('ignores EPIPE when the child does not read a large stdin', async () => {
    const r = await runProcess({ command: 'exit 0', shell: true, cwd, stdin: 'x'.repeat(4 * 1024 * 1024) });
    expect(r.exitCode).toBe(0);
  });

  it('gives the child the prompt file as its stdin when the file holds exactly the text (no pipe)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stdin-file-'));
    try {
      const file = join(dir, 'prompt.md');
      writeFileSync(file, 'the prompt\n');
      const r = await runProcess({
        command: 'cat; readlink /proc/$$/fd/0',
        shell: true,
        cwd,
        stdin: 'the prompt\n',
        stdinFile: file,
      });
      expect(r.tail).toBe(`the prompt\n${file}\n`);
      // A file that says something else: the text goes through a pipe (a socket pair in Node), as always.
      writeFileSync(file, 'something else\n');
      const piped = await runProcess({
        command: 'cat; readlink /proc/$$/fd/0',
        shell: true,
        cwd,
        stdin: 'the prompt\n',
        stdinFile: file,
      });
      expect(piped.tail).toMatch(/^the prompt\n(?:pipe|socket):\[\d+\]\n$/);
      // A missing file: the pipe too.
      const missing = await runProcess({ command: 'cat', cwd, stdin: 'the prompt\n', stdinFile: join(dir, 'gone') });
      expect(missing.tail).toBe('the prompt\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives /dev/null as stdin when there is none', async () => {
    const r = await runProcess({ command: 'readlink /proc/$$/fd/0', shell: true, cwd });
    expect(r.tail).toBe('/dev/null\n');
  });

  it('passes the env', async () => {
    const r = await runProcess({
      command: 'printf "%s" "$AGENT_LOOP_TEST_VAR"',
      shell: true,
      cwd,
      env: { PATH: process.env['PATH'], AGENT_LOOP_TEST_VAR: 'it works' },
    });
    expect(r.tail).toBe('it works');
  });

  it('runs in cwd', async () => {
    const r = await runProcess({ command: 'pwd -P', shell: true, cwd: '/' });
    expect(r.tail).toBe('/\n');
  });

  it('calls onLine for each line in order, tagged with its stream', async () => {
    const seen: Array<[string, string]> = [];
    const r = await runProcess({
      command: 'echo one; echo two; echo err1 >&2; printf "three\\r\\nno-newline"; echo err2 >&2',
      shell: true,
      cwd,
      onLine: (line, stream) => seen.push([stream, line]),
    });
    expect(r.exitCode).toBe(0);
    expect(seen.filter(([s]) => s === 'stdout').map(([, l]) => l)).toEqual(['one', 'two', 'three', 'no-newline']);
    expect(seen.filter(([s]) => s === 'stderr').map(([, l]) => l)).toEqual(['err1', 'err2']);
    expect(r.stderrTail).toBe('err1\nerr2\n');
  });

  it('survives an onLine that throws', async () => {
    const r = await runProcess({
      command: 'echo a; echo b',
      shell: true,
      cwd,
      onLine: () => {
        throw new Error('listener bug');
      },
    });
    expect(r.exitCode).toBe(0);
    expect(r.tail).toBe('a\nb\n');
  });

  it('keeps only tailBytes of output', async () => {
    const r = await runProcess({ command: 'seq 1 10000', shell: true, cwd, tailBytes: 12 });
    expect(r.tail).toBe('9998\n9999\n10000\n'.slice(-12));
    expect(r.bytes).toBeGreaterThan(40_000);
  });
});

describe('runProcess timeout, abort and process group', () => {
  it('timeout kills the process group including a grandchild', async () => {
    const r = await runProcess({
      command: 'sleep 1000 & echo "pid=$!"; wait',
      shell: true,
      cwd,
      timeoutMs: 300,
      // SIGTERM suffices, so the grace period is never waited for: were it, the test would time out.
      killGraceMs: 10 * 60_000,
    });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGTERM');
    expect(await goneSoon(pidFrom(r.tail))).toBe(true);
  }, 20_000);

  it('escalates to SIGKILL when the child ignores SIGTERM', async () => {
    const r = await runProcess({
      command: `trap '' TERM; sleep 1000 & echo "pid=$!"; wait; wait; wait`,
      shell: true,
      cwd,
      timeoutMs: 300,
      killGraceMs: 300,
    });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(r.durationMs).toBeGreaterThanOrEqual(550);
    expect(await goneSoon(pidFrom(r.tail))).toBe(true);
  });

  it('terminates stray background processes after a normal exit instead of hanging', async () => {
    // Were the stray left to hold the pipes, this would hang until the test's own timeout.
    const r = await runProcess({
      command: 'sleep 1000 & echo "pid=$!"; exit 0',
      shell: true,
      cwd,
      timeoutMs: 10 * 60_000,
      killGraceMs: 10 * 60_000,
    });
    expect(r).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
    expect(await goneSoon(pidFrom(r.tail))).toBe(true);
  }, 20_000);

  it('issue 42: after a normal exit, a background writer that ignores SIGTERM is dead when runProcess returns (SIGKILL after the grace)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-loop-stray-'));
    try {
      const r = await runProcess({
        // A trap: SIGHUP and SIGTERM ignored (set before the leader exits); its output elsewhere, so the pipes close at once.
        command:
          `(trap '' TERM HUP; : > "$1.ready"; while :; do echo x >> "$1"; sleep 0.05; done) >/dev/null 2>&1 & ` +
          `while [ ! -e "$1.ready" ]; do sleep 0.01; done; echo "pid=$!"; exit 0`,
        args: [join(dir, 'written')],
        shell: true,
        cwd,
        killGraceMs: 200,
      });
      expect(r).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
      // No waiting here: the group is gone by the time the run is over, SIGKILLed after the grace.
      expect(isGone(pidFrom(r.tail))).toBe(true);
      expect(r.durationMs).toBeGreaterThanOrEqual(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('abort signal ends the whole group', async () => {
    const controller = new AbortController();
    const r = await runProcess({
      command: 'sleep 1000 & echo "pid=$!"; echo started; wait',
      shell: true,
      cwd,
      signal: controller.signal,
      onLine: (line) => {
        if (line === 'started') controller.abort();
      },
    });
    expect(r.aborted).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(r.signal).toBe('SIGTERM');
    expect(await goneSoon(pidFrom(r.tail))).toBe(true);
  });

  it('an already aborted signal does not start anything', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await runProcess({ command: 'echo should-not-run', shell: true, cwd, signal: controller.signal });
    expect(r).toMatchObject({ aborted: true, exitCode: null, tail: '' });
  });
});

describe('runProcess spawn errors', () => {
  it('resolves with spawnError when cwd does not exist', async () => {
    const r = await runProcess({ command: 'echo hi', shell: true, cwd: join(cwd, 'agent-loop-no-such-dir-4f1c') });
    expect(r.spawnError).toMatch(/working directory does not exist/);
    expect(r.exitCode).toBeNull();
  });

  it('resolves with spawnError when the executable does not exist (no shell)', async () => {
    const r = await runProcess({ command: 'agent-loop-no-such-binary-4f1c', cwd });
    expect(r.spawnError).toMatch(/not found/);
  });
});

describe('runProcess memory', () => {
  it('keeps memory bounded with 200 MiB of output', async () => {
    const total = 200 * 1024 * 1024;
    const before = process.memoryUsage.rss();
    let peak = before;
    let lines = 0;
    const r = await runProcess({
      command: `yes "$(printf '%01000d' 0)" | head -c ${total}`,
      shell: true,
      cwd,
      onLine: () => {
        if (++lines % 512 === 0) peak = Math.max(peak, process.memoryUsage.rss());
      },
    });
    peak = Math.max(peak, process.memoryUsage.rss());
    expect(r.exitCode).toBe(0);
    expect(r.bytes).toBe(total);
    expect(lines).toBe(Math.ceil(total / 1001));
    expect(r.tail.length).toBeLessThanOrEqual(64 * 1024);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  });
});
