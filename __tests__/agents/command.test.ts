import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandAgent, commandEnv } from '../../src/agents/command.js';
import type { AgentRunRequest } from '../../src/agents/types.js';

let dir: string;
let promptFile: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-loop-command-'));
  promptFile = join(dir, 'prompt.md');
  writeFileSync(promptFile, 'PROMPT FROM FILE\n');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function request(over: Partial<AgentRunRequest> = {}): AgentRunRequest {
  return {
    prompt: 'PROMPT ON STDIN',
    iteration: 3,
    issueIds: ['12', '15'],
    cwd: dir,
    promptFile,
    timeoutMs: 30_000,
    ...over,
  };
}

describe('CommandAgent', () => {
  it('is called Command unless told otherwise', () => {
    expect(new CommandAgent({ command: 'true' }).displayName).toBe('Command');
    expect(new CommandAgent({ command: 'true', displayName: 'Aider' }).displayName).toBe('Aider');
  });

  it('gives the command the AGENT_LOOP_* env, the prompt file, the prompt on stdin and the cwd', async () => {
    const agent = new CommandAgent({
      command: [
        'echo "ids=$AGENT_LOOP_ISSUE_IDS"',
        'echo "iteration=$AGENT_LOOP_ITERATION"',
        'echo "base=$BASE_VAR"',
        'echo "file=$(cat "$AGENT_LOOP_PROMPT_FILE")"',
        'echo "stdin=$(cat)"',
        'echo "cwd=$(pwd -P)"',
      ].join('; '),
      env: { PATH: process.env['PATH'], BASE_VAR: 'from-base' },
    });
    const lines: string[] = [];
    const r = await agent.run(request({ onLine: (line) => lines.push(line) }));
    expect(r.ok).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.failure).toBeUndefined();
    expect(lines).toEqual([
      'ids=12,15',
      'iteration=3',
      'base=from-base',
      'file=PROMPT FROM FILE',
      'stdin=PROMPT ON STDIN',
      expect.stringMatching(/^cwd=\/.*agent-loop-command-/),
    ]);
    expect(r.outputTail).toContain('ids=12,15');
  });

  it('commandEnv adds to the base env without changing it', () => {
    const base = { PATH: '/bin', AGENT_LOOP_ITERATION: 'old' };
    const env = commandEnv(base, request({ issueIds: [] }));
    expect(env).toMatchObject({
      PATH: '/bin',
      AGENT_LOOP_ISSUE_IDS: '',
      AGENT_LOOP_ITERATION: '3',
      AGENT_LOOP_PROMPT_FILE: promptFile,
    });
    expect(base.AGENT_LOOP_ITERATION).toBe('old');
  });

  it('parses the report block from the end of the output', async () => {
    const script = join(dir, 'report.sh');
    writeFileSync(
      script,
      [
        'echo "working..."',
        "echo '```yaml'",
        "echo 'work_remaining: Phase_2 Phase_3'",
        "echo 'requires_continuation: false'",
        "echo 'summary: did phase 1'",
        "echo '```'",
      ].join('\n'),
    );
    const r = await new CommandAgent({ command: `sh ${script}` }).run(request());
    expect(r.ok).toBe(true);
    expect(r.report).toMatchObject({
      workRemaining: 'Phase_2 Phase_3',
      workRemainingEmpty: false,
      requiresContinuation: false,
      summary: 'did phase 1',
    });
  });

  it('has no report when the output has none', async () => {
    const r = await new CommandAgent({ command: 'echo hi' }).run(request());
    expect(r.report).toBeUndefined();
  });
});

describe('CommandAgent outcome classification', () => {
  it('exit 0 → ok', async () => {
    const r = await new CommandAgent({ command: 'exit 0' }).run(request());
    expect(r).toMatchObject({ ok: true, exitCode: 0, signal: null });
  });

  it('non-zero exit → transient exit_code with the last stderr line', async () => {
    const r = await new CommandAgent({ command: 'echo "first" >&2; echo "rate limited, try later" >&2; exit 2' }).run(
      request(),
    );
    expect(r.ok).toBe(false);
    expect(r.exitCode).toBe(2);
    expect(r.failure).toEqual({
      class: 'transient',
      reason: 'exit_code',
      message: 'exited with code 2: rate limited, try later',
    });
  });

  it('exit 127 → permanent not_found', async () => {
    const r = await new CommandAgent({ command: 'agent-loop-no-such-agent-4f1c --go' }).run(request());
    expect(r.exitCode).toBe(127);
    expect(r.failure).toMatchObject({ class: 'permanent', reason: 'not_found' });
    expect(r.failure?.message).toContain('--agent-command');
  });

  it('exit 126 → permanent not_executable', async () => {
    const file = join(dir, 'not-executable.sh');
    writeFileSync(file, 'echo hi\n');
    chmodSync(file, 0o644);
    const r = await new CommandAgent({ command: file }).run(request());
    expect(r.exitCode).toBe(126);
    expect(r.failure).toMatchObject({ class: 'permanent', reason: 'not_executable' });
  });

  it('timeout → transient timeout in minutes', async () => {
    const r = await new CommandAgent({ command: 'sleep 1000', killGraceMs: 1000 }).run(request({ timeoutMs: 300 }));
    expect(r.ok).toBe(false);
    expect(r.failure).toEqual({ class: 'transient', reason: 'timeout', message: 'timed out after 0.01 min' });
  });

  it('abort → transient killed', async () => {
    const controller = new AbortController();
    const r = await new CommandAgent({ command: 'echo started; sleep 1000' }).run(
      request({
        signal: controller.signal,
        onLine: (line) => {
          if (line === 'started') controller.abort();
        },
      }),
    );
    expect(r.failure).toMatchObject({ class: 'transient', reason: 'killed' });
  });

  it('killed by a signal → transient killed naming the signal', async () => {
    const r = await new CommandAgent({ command: 'kill -KILL $$' }).run(request());
    expect(r.signal).toBe('SIGKILL');
    expect(r.failure).toEqual({ class: 'transient', reason: 'killed', message: 'killed by signal SIGKILL' });
  });

  it('spawn failure → permanent spawn_failed', async () => {
    const r = await new CommandAgent({ command: 'echo hi' }).run(request({ cwd: join(dir, 'missing') }));
    expect(r.ok).toBe(false);
    expect(r.failure).toMatchObject({ class: 'permanent', reason: 'spawn_failed' });
    expect(r.failure?.message).toContain('working directory does not exist');
  });
});
