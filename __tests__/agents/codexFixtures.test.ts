import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CodexAgent } from '../../src/agents/codex.js';
import { CodexStreamParser, unwrapShell } from '../../src/agents/codexStream.js';
import type { ProcessResult } from '../../src/agents/process.js';
import { classifyCodexOutcome, httpStatus, retryAfterMs } from '../../src/agents/classifyCodex.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const CWD = '/home/runner/work/demo/demo';
const proc = (exitCode: number | null, extra: Partial<ProcessResult> = {}): ProcessResult => ({
  exitCode,
  signal: null,
  timedOut: false,
  aborted: false,
  durationMs: 1000,
  tail: '',
  stderrTail: '',
  bytes: 0,
  ...extra,
});

function replay(lines: string[]) {
  const parser = new CodexStreamParser(CWD);
  const shown = lines.flatMap((l) => parser.push(l));
  return { parser, shown };
}

describe('Codex 0.169.0 recorded output (shared/fixtures)', () => {
  it("success-text: ok despite the CLI's own warning item, tokens and the last message captured", () => {
    const { parser, shown } = replay(
      readFileSync(path.join(fixtures, 'codex-0.169.0', 'success-text.jsonl'), 'utf8').split('\n'),
    );
    expect(parser.state).toMatchObject({
      threadId: '01a1feac-d980-7040-b101-ed754c0fc4a2',
      lastMessage: 'Hello from fake codex model',
      turnsCompleted: 1,
      usage: { input: 10, output: 5 },
    });
    expect(parser.state.warnings[0]).toMatch(/Model metadata for `gpt-fake` not found/);
    expect(shown).toEqual(['  ✎ Hello from fake codex model']);
    expect(classifyCodexOutcome({ state: parser.state, process: proc(0) })).toBeUndefined();
  });
});

describe('Codex events and classification', () => {
  it('prints one line per command and per file change', () => {
    const { shown } = replay([
      JSON.stringify({
        type: 'item.started',
        item: { id: 'i1', type: 'command_execution', command: 'bash -lc "npm test"', status: 'in_progress' },
      }),
      JSON.stringify({
        type: 'item.completed',
        item: {
          id: 'i1',
          type: 'command_execution',
          command: 'bash -lc "npm test"',
          exit_code: 0,
          status: 'completed',
        },
      }),
      JSON.stringify({
        type: 'item.completed',
        item: {
          id: 'i2',
          type: 'file_change',
          changes: [
            { path: `${CWD}/src/a.ts`, kind: 'update' },
            { path: 'new.txt', kind: 'add' },
          ],
          status: 'completed',
        },
      }),
    ]);
    expect(shown).toEqual(['  ▸ Bash: bash -lc "npm test"', '  ▸ Edit: src/a.ts', '  ▸ Write: new.txt']);
  });

  it("shows the command inside Codex's /bin/bash -lc wrapper", () => {
    expect(unwrapShell("/bin/bash -lc 'echo good > value.txt'")).toBe('echo good > value.txt');
    expect(unwrapShell("/bin/bash -lc 'echo '\\''quoted'\\'''")).toBe("echo 'quoted'");
    expect(unwrapShell('/bin/bash -lc "echo \\"hi\\" \\$HOME"')).toBe('echo "hi" $HOME');
    expect(unwrapShell('npm test')).toBe('npm test');
  });

  it.each([
    [
      'exceeded retry limit, last status: 429 Too Many Requests, request id: abc. Please try again in 20s',
      'transient',
      'rate_limit',
    ],
    ['unexpected status 401 Unauthorized: Incorrect API key provided', 'permanent', 'auth'],
    [
      'unexpected status 400 Bad Request: {"error":{"message":"Your input exceeds the context window of this model"}}',
      'permanent',
      'invalid_request',
    ],
    ['exceeded retry limit, last status: 500 Internal Server Error', 'transient', 'server_error'],
    ['exceeded retry limit, last status: 503 Service Unavailable', 'transient', 'overloaded'],
    ['stream disconnected before completion: error sending request', 'transient', 'network'],
  ])('turn.failed "%s" is %s %s', (message, cls, reason) => {
    const { parser } = replay([JSON.stringify({ type: 'turn.failed', error: { message } })]);
    expect(classifyCodexOutcome({ state: parser.state, process: proc(1) })).toMatchObject({ class: cls, reason });
  });

  it('a top-level error event fails the run even when the exit code is 0', () => {
    const { parser } = replay([JSON.stringify({ type: 'error', message: 'unexpected status 401 Unauthorized' })]);
    expect(classifyCodexOutcome({ state: parser.state, process: proc(0) })).toMatchObject({ reason: 'auth' });
  });

  it('reads statuses and waits out of the messages', () => {
    expect(httpStatus('last status: 429 Too Many Requests')).toBe(429);
    expect(httpStatus('unexpected status 503 Service Unavailable')).toBe(503);
    expect(retryAfterMs('Please try again in 20s')).toBe(20_000);
    expect(retryAfterMs('try again in 1.5 seconds')).toBe(1500);
    expect(retryAfterMs('Retry-After: 3')).toBe(3000);
    expect(retryAfterMs('nothing here')).toBeUndefined();
    expect(retryAfterMs("You've hit your usage limit. Try again in 4 hours.")).toBe(4 * 3_600_000);
    expect(retryAfterMs('try again in 2 days 3 hours')).toBe(2 * 86_400_000 + 3 * 3_600_000);
    expect(retryAfterMs('try again in 1h 30m')).toBe(90 * 60_000);
    expect(retryAfterMs('try again in 250ms')).toBe(250);
    expect(retryAfterMs('try again in 20s, request id: req_1')).toBe(20_000);
  });

  it('no events and a crash is transient with stderr; our timeout is a timeout; missing binary is permanent', () => {
    const empty = new CodexStreamParser(CWD).state;
    expect(
      classifyCodexOutcome({ state: empty, process: proc(101, { stderrTail: 'thread main panicked\n' }) }),
    ).toMatchObject({ class: 'transient', reason: 'crashed' });
    expect(
      classifyCodexOutcome({ state: empty, process: proc(null, { timedOut: true }), timeoutMs: 60_000 }),
    ).toMatchObject({ reason: 'timeout' });
    expect(classifyCodexOutcome({ state: empty, process: proc(127) })).toMatchObject({
      class: 'permanent',
      reason: 'not_found',
    });
  });

  it('tolerates garbage and truncated lines', () => {
    const { parser } = replay([
      'garbage',
      '{"type":"item.completed","item":{"type":"agent_mess',
      '{"type":"unknown.event"}',
      '[]',
    ]);
    expect(parser.state.ignoredLines).toBe(3);
    expect(parser.state.lastMessage).toBeUndefined();
  });

  it('runs codex exec --json with the prompt on stdin and the options', () => {
    expect(new CodexAgent({ sandbox: 'workspace-write', model: 'gpt-5', extraArgs: ['-c', 'x=1'] }).args()).toEqual([
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--sandbox',
      'workspace-write',
      '--model',
      'gpt-5',
      '-c',
      'x=1',
      '-',
    ]);
  });
});
