/**
 * Issue 11: one run at a time (a lock per state directory and repository naming its holder; a
 * stale one taken over and reported), and a killed run's agent ended by the next run before it
 * starts anything.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, promises as fs, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type Sandbox,
  CLI,
  DONE_REPORT,
  createSandbox,
  expectExit,
  lastResult,
  processGone,
  readCheckpoint,
  runArgs,
  runCli,
  writeAgent,
} from './helpers.js';
import { waitFor } from './crashHelpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

/** An agent that says it started, then waits until the test lets it finish. */
const GATED = `echo "$$" >> "$NOTES/invocations"
touch "$NOTES/started"
while [ ! -e "$NOTES/go" ]; do sleep 0.05; done
echo good > value.txt
${DONE_REPORT}`;

function startCli(sandbox: Sandbox, args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: sandbox.repo,
    env: sandbox.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string; signal: NodeJS.Signals | null }>(
    (resolve) => {
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    },
  );
  return { child, done };
}

describe('one run at a time (issue 11)', () => {
  it('a second run, plan or cleanup exits 2 naming the holder; status still works', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const agent = await writeAgent(sandbox, 'gated', GATED);
    const first = startCli(sandbox, runArgs(agent));
    await waitFor("the first run's agent", () => existsSync(path.join(sandbox.root, 'started')));

    const second = await runCli(sandbox, runArgs(agent));
    expectExit(second, 2);
    expect(second.stderr).toContain('another run holds the lock');
    expect(second.stderr).toContain(`agent-loop pid ${first.child.pid} on ${os.hostname()}`);
    const plan = await runCli(sandbox, [
      'plan',
      '--goal',
      'x',
      '--agent',
      'command',
      '--agent-command',
      agent,
      '--test-command',
      'true',
    ]);
    expectExit(plan, 2);
    expect(plan.stderr).toContain(`pid ${first.child.pid}`);
    const cleanup = await runCli(sandbox, ['cleanup', '--all']);
    expectExit(cleanup, 2);
    expect(cleanup.stderr).toContain(`pid ${first.child.pid}`);
    const status = await runCli(sandbox, ['status']);
    expectExit(status, 0);

    await fs.writeFile(path.join(sandbox.root, 'go'), '');
    const r = await first.done;
    expect(r.code).toBe(0);
    expect(lastResult(r.stdout).status).toBe('complete');
    // Released: the next command takes the lock.
    expectExit(await runCli(sandbox, ['cleanup', '--older-than', '1', '--dry-run']), 0);
  });

  it('takes over a lock whose process is gone, and says so', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const pid = Number(dead.stdout);
    const lockFile = path.join(sandbox.repo, '.git', 'agent-loop.lock');
    await fs.writeFile(
      lockFile,
      JSON.stringify({
        pid,
        host: os.hostname(),
        startedAt: '2026-11-01T00:00:00.000Z',
        command: 'agent-loop run',
        cwd: sandbox.repo,
      }),
    );
    const agent = await writeAgent(sandbox, 'agent', `echo good > value.txt\n${DONE_REPORT}`);
    const r = await runCli(sandbox, runArgs(agent));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Took over the lock ${lockFile} from agent-loop pid ${pid}`);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('issue 43: takes over a lock whose pid now belongs to another process (its start time differs), and says so; a live holder with its own start time is refused', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    // A live process standing in for the one the pid was given to after the holder died.
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const pid = other.pid as number;
      const start = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] as string;
      const lockFile = path.join(sandbox.repo, '.git', 'agent-loop.lock');
      const holder = (procStart: string) =>
        JSON.stringify({
          pid,
          host: os.hostname(),
          startedAt: '2026-11-01T00:00:00.000Z',
          command: 'agent-loop run',
          cwd: sandbox.repo,
          procStart,
        });
      const agent = await writeAgent(sandbox, 'agent', `echo good > value.txt\n${DONE_REPORT}`);
      // The holder is that very process: refused.
      await fs.writeFile(lockFile, holder(start));
      const refused = await runCli(sandbox, runArgs(agent));
      expectExit(refused, 2);
      expect(refused.stderr).toContain(`pid ${pid}`);
      // The holder started at another time: its pid was reused, the lock is taken over.
      await fs.writeFile(lockFile, holder(String(Number(start) - 1)));
      const r = await runCli(sandbox, runArgs(agent));
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        `Took over the lock ${lockFile} from agent-loop pid ${pid} on ${os.hostname()}, started 2026-11-01T00:00:00.000Z (agent-loop run) in ${sandbox.repo}: pid ${pid} now belongs to another process`,
      );
      expect(existsSync(lockFile)).toBe(false);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('two runs started at the same moment: one works, the other is refused; invocations equal recorded iterations', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const agent = await writeAgent(
      sandbox,
      'agent',
      `echo "$$" >> "$NOTES/invocations"\necho good > value.txt\n${DONE_REPORT}`,
    );
    const [a, b] = [startCli(sandbox, runArgs(agent)), startCli(sandbox, runArgs(agent))];
    const results = await Promise.all([a.done, b.done]);
    const codes = results.map((r) => r.code).sort();
    expect(codes).toEqual([0, 2]);
    const winner = results.find((r) => r.code === 0)!;
    const invocations = readFileSync(path.join(sandbox.root, 'invocations'), 'utf8').trim().split('\n').length;
    expect(invocations).toBe(readCheckpoint(sandbox, lastResult(winner.stdout).checkpointId).state.loop?.iteration);
  });
});

describe("a killed run's agent (issue 11)", () => {
  it('the next run ends the process group a SIGKILLed engine left behind, before it starts anything', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const lingering = await writeAgent(
      sandbox,
      'lingering',
      `sleep 300 &
echo $! > "$NOTES/child.pid"
touch "$NOTES/started"
wait`,
    );
    const first = startCli(sandbox, runArgs(lingering));
    await waitFor("the agent's child", () => existsSync(path.join(sandbox.root, 'started')));
    // The engine records the group synchronously after spawn() returns, but under load the agent's
    // shell can reach its first lines before the engine's thread runs again: wait for the record.
    const records = path.join(sandbox.repo, '.git', 'agent-loop', 'run', 'processes');
    // The records are slots rewritten in place (the baseline's test command left one saying pid 0):
    // the agent's own record, not any file, is what is waited for.
    const agentRecorded = () =>
      existsSync(records) &&
      readdirSync(records).some((name) => {
        try {
          const r = JSON.parse(readFileSync(path.join(records, name), 'utf8')) as { pid?: number; role?: string };
          return r.role === 'agent' && (r.pid ?? 0) > 1;
        } catch {
          return false;
        }
      });
    await waitFor("the agent's process record", agentRecorded);
    const child = Number(readFileSync(path.join(sandbox.root, 'child.pid'), 'utf8'));
    first.child.kill('SIGKILL');
    await first.done;
    expect(processGone(child)).toBe(false); // the engine died; its agent did not

    const agent = await writeAgent(
      sandbox,
      'agent',
      `if [ -d /proc/${child} ] && ! grep -q '^State:.*Z' /proc/${child}/status; then echo alive; else echo gone; fi > "$NOTES/order"
echo good > value.txt
${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent));
    expect(r.stdout).toContain("Ended the agent's process group"); // the whole output: the result line alone can fill explain()'s tail
    expect(processGone(child)).toBe(true);
    expect(readFileSync(path.join(sandbox.root, 'order'), 'utf8').trim()).toBe('gone');
    expect(r.code).toBe(0);
  });
});
