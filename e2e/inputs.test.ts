/**
 * Issue 11, "bad input gets a clear error, never a hang": every input path is a regular file within
 * a size cap. A FIFO as the issues file, the config, a checkpoint or --plan, and /dev/zero as the
 * issues file, each end at once with a message naming the path and what it is. Each run is bounded
 * by a kill timer that only catches a regression (a hang); it is not waited for when things work.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type CliResult, type Sandbox, CLI, DONE_REPORT, createSandbox, runArgs, writeAgent } from './helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

/** The CLI, killed after 20 s if it hangs (then `timedOut`). */
function runBounded(
  sandbox: Sandbox,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  moreArgs: string[] = [],
): Promise<CliResult & { timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args, ...moreArgs], {
      cwd: sandbox.repo,
      env: { ...sandbox.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, 20_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** `run` with the scripted agent and the given issues file (none: the environment's, or the default). */
const issuesArgs = (agent: string, issuesFile?: string) => [
  'run',
  '--agent',
  'command',
  '--agent-command',
  agent,
  '--iteration-delay',
  '0',
  '--test-command',
  'sh check.sh',
  ...(issuesFile ? ['--issues-file', issuesFile] : []),
];

async function sandboxWithFifo(name: string): Promise<{ sandbox: Sandbox; fifo: string; agent: string }> {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  const fifo = path.join(sandbox.root, name);
  execFileSync('mkfifo', [fifo]);
  const agent = await writeAgent(sandbox, 'agent', `echo good > value.txt\n${DONE_REPORT}`);
  return { sandbox, fifo, agent };
}

describe('input paths are regular files within a cap (issue 11)', () => {
  it('a FIFO as the issues file: exit 2 at once, naming it', async () => {
    const { sandbox, fifo, agent } = await sandboxWithFifo('issues.fifo');
    const r = await runBounded(sandbox, issuesArgs(agent, fifo));
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--issues-file:');
    expect(r.stderr).toContain('a FIFO (named pipe), not a regular file');
  });

  it('/dev/zero as the issues file: refused at once, without reading it', async () => {
    const { sandbox, agent } = await sandboxWithFifo('unused');
    const r = await runBounded(sandbox, issuesArgs(agent), { AGENT_LOOP_ISSUES_FILE: '/dev/zero' });
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'/dev/zero' is a device, not a regular file");
  });

  it('a FIFO as --config: exit 2 naming it', async () => {
    const { sandbox, fifo } = await sandboxWithFifo('config.fifo');
    const r = await runBounded(sandbox, ['status', '--config', fifo]);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('a FIFO');
  });

  it('a FIFO as --plan: exit 2 naming it', async () => {
    const { sandbox, fifo, agent } = await sandboxWithFifo('plan.fifo');
    const r = await runBounded(sandbox, runArgs(agent, '--plan', fifo));
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--plan:');
    expect(r.stderr).toContain('a FIFO');
  });

  it('a FIFO named like a checkpoint: status reports it and returns', async () => {
    const { sandbox } = await sandboxWithFifo('unused');
    const dir = path.join(sandbox.repo, '.git', 'agent-loop', 'checkpoints');
    await fs.mkdir(dir, { recursive: true });
    execFileSync('mkfifo', [path.join(dir, '0b7c4f8e-2d5a-4c1e-9f3b-6a1d2e3f4a5b.json')]);
    const r = await runBounded(sandbox, ['status']);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('not a regular file');
  });
});

describe('an issues file with no issue in it (issue 43)', () => {
  const secret = 'ghp_notAnIssueButAKey0123456789abcdefXY';

  it('lines but none an issue: exit 2 naming the file, nothing of its lines echoed, no agent run', async () => {
    const sandbox = await createSandbox(`${secret} is not json\n{"title": "no id"}\n[1, 2]\n`);
    sandboxes.push(sandbox);
    const agent = await writeAgent(sandbox, 'agent', `echo ran > "${sandbox.root}/agent-ran"\n${DONE_REPORT}`);
    const r = await runBounded(sandbox, issuesArgs(agent, './.beads/issues.jsonl'));
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "--issues-file: './.beads/issues.jsonl' holds no issue: none of its 3 non-empty line(s) is a JSON object",
    );
    expect(r.stdout + r.stderr).not.toContain('COMPLETE');
    for (const echoed of [secret.slice(0, 10), 'is not json', 'no id', '[1, 2]'])
      expect(r.stdout + r.stderr).not.toContain(echoed);
    await expect(fs.access(path.join(sandbox.root, 'agent-ran'))).rejects.toThrow();
  });

  it('an empty file stays "nothing to do": exit 0', async () => {
    const sandbox = await createSandbox('\n');
    sandboxes.push(sandbox);
    const agent = await writeAgent(sandbox, 'agent', DONE_REPORT);
    const r = await runBounded(sandbox, issuesArgs(agent, './.beads/issues.jsonl'));
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('COMPLETE: nothing to do');
  });
});
