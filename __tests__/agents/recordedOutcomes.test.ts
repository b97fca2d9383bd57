/**
 * Every recording of the real CLIs (shared/fixtures and __tests__/fixtures/{claude,codex}, made by
 * driving Claude Code 2.1.197 and Codex 0.169.0 against the scripted servers in e2e/support) read
 * through the adapters' parsers and classified. A killed run (exit file "SIGTERM") is what our
 * timeout produces.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClaudeStreamParser } from '../../src/agents/claudeStream.js';
import { CodexStreamParser } from '../../src/agents/codexStream.js';
import type { ProcessResult } from '../../src/agents/process.js';
import { parseReportBlock } from '../../src/agents/report.js';
import { classifyClaudeOutcome } from '../../src/agents/classifyClaude.js';
import { classifyCodexOutcome } from '../../src/agents/classifyCodex.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const CWD = '/home/runner/work/demo/demo';

function recorded(dir: string, name: string) {
  const base = path.join(root, dir, name.replace(/\.(ndjson|jsonl|json)$/, ''));
  const exit = existsSync(`${base}.exit`) ? readFileSync(`${base}.exit`, 'utf8').trim() : '0';
  // Killed by us after 3 s: recorded as the signal's name, or as 143 (128 + SIGTERM) by a shell.
  const killed = !/^\d+$/.test(exit) || exit === '143';
  const process: ProcessResult = {
    exitCode: killed ? null : Number(exit),
    signal: killed ? exit : null,
    timedOut: killed,
    aborted: false,
    durationMs: 1000,
    tail: '',
    stderrTail: existsSync(`${base}.stderr.txt`) ? readFileSync(`${base}.stderr.txt`, 'utf8') : '',
    bytes: 0,
  };
  return { lines: readFileSync(path.join(root, dir, name), 'utf8').split('\n'), process };
}

type Expect = 'ok' | [cls: 'transient' | 'permanent', reason: string];

const claude: Record<string, Expect> = {
  'success-with-tools': 'ok',
  'success-json-format': 'ok',
  'resume-first': 'ok',
  'resume-second': 'ok',
  'overloaded-529': ['transient', 'overloaded'],
  'rate-limited-429': ['transient', 'rate_limit'],
  'server-error-500': ['transient', 'server_error'],
  'auth-failed-401': ['permanent', 'auth'],
  'prompt-too-long-400': ['permanent', 'invalid_request'],
  'max-turns': ['permanent', 'max_turns'],
  hang: ['transient', 'timeout'],
  'hang-mid-stream': ['transient', 'timeout'],
  'hang-api-timeout': ['transient', 'network'],
  'resume-unknown': ['transient', 'execution_error'],
  'resume-other-cwd': ['transient', 'execution_error'],
};
const codex: Record<string, Expect> = {
  'success-text': 'ok',
  'success-shell': 'ok',
  'rate-limited-429': ['transient', 'rate_limit'],
  'rate-limited-429-defaults': ['transient', 'rate_limit'],
  'auth-failed-401': ['permanent', 'auth'],
  'auth-failed-401-defaults': ['permanent', 'auth'],
  'server-error-500': ['transient', 'overloaded'],
  'server-error-500-defaults': ['transient', 'overloaded'],
  'unavailable-503': ['transient', 'overloaded'],
  'invalid-request-400': ['permanent', 'invalid_request'],
  'context-too-long-400': ['permanent', 'invalid_request'],
  'stream-failed': ['transient', 'network'],
  'hang-mid-stream-idle-timeout': ['transient', 'network'],
  hang: ['transient', 'timeout'],
  'resume-unknown': ['transient', 'agent_error'],
};

const files = (dir: string) => readdirSync(path.join(root, dir)).filter((f) => /\.(ndjson|jsonl|json)$/.test(f));
const scenario = (f: string) => f.replace(/\.(ndjson|jsonl|json)$/, '');

describe.each(['claude', 'claude-code-2.1.197'])('Claude Code recordings in %s', (dir) => {
  it.each(files(dir))('%s', (file) => {
    const { lines, process } = recorded(dir, file);
    const parser = new ClaudeStreamParser(CWD);
    for (const line of lines) parser.push(line);
    const want = claude[scenario(file)];
    expect(want).toBeDefined();
    const failure = classifyClaudeOutcome({ state: parser.state, process, timeoutMs: 3000, now: Date.now() });
    if (want === 'ok') {
      expect(failure).toBeUndefined();
      expect(parser.state.result?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    } else {
      expect(failure).toMatchObject({ class: want![0], reason: want![1] });
    }
  });
});

describe.each(['codex', 'codex-0.169.0'])('Codex recordings in %s', (dir) => {
  it.each(files(dir))('%s', (file) => {
    const { lines, process } = recorded(dir, file);
    const parser = new CodexStreamParser(CWD);
    for (const line of lines) parser.push(line);
    const want = codex[scenario(file)];
    expect(want).toBeDefined();
    const failure = classifyCodexOutcome({ state: parser.state, process, timeoutMs: 3000 });
    if (want === 'ok') expect(failure).toBeUndefined();
    else expect(failure).toMatchObject({ class: want![0], reason: want![1] });
  });
});

describe('what the recordings carry', () => {
  it('a resume of an unknown Claude session says so, which the adapter uses to fall back to a fresh session', () => {
    const parser = new ClaudeStreamParser(CWD);
    for (const line of recorded('claude', 'resume-unknown.ndjson').lines) parser.push(line);
    expect(parser.state.result?.text).toMatch(/No conversation found with session ID/);
  });

  it('max turns reads its errors list', () => {
    const parser = new ClaudeStreamParser(CWD);
    for (const line of recorded('claude', 'max-turns.ndjson').lines) parser.push(line);
    expect(parser.state.result?.text).toBe('Reached maximum number of turns (2)');
  });

  it('Codex retries in between ("Reconnecting... n/5") are shown, not taken as the end', () => {
    const parser = new CodexStreamParser(CWD);
    const shown = recorded('codex', 'rate-limited-429-defaults.jsonl').lines.flatMap((l) => parser.push(l));
    expect(shown.filter((l) => l.includes('Reconnecting'))).toHaveLength(5);
    expect(parser.state.fatalError).toMatch(/^exceeded retry limit, last status: 429/);
  });

  it('the Codex shell call and the report block of the last message', () => {
    const parser = new CodexStreamParser(CWD);
    const shown = recorded('codex', 'success-shell.jsonl').lines.flatMap((l) => parser.push(l));
    expect(shown.some((l) => l.startsWith('  ▸ Bash: '))).toBe(true);
    const text = new CodexStreamParser(CWD);
    for (const l of recorded('codex', 'success-text.jsonl').lines) text.push(l);
    expect(parseReportBlock(text.state.lastMessage ?? '')).toMatchObject({ workRemainingEmpty: true });
  });
});
