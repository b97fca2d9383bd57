import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClaudeStreamParser, describeToolUse } from '../../src/agents/claudeStream.js';
import type { ProcessResult } from '../../src/agents/process.js';
import { classifyClaudeOutcome } from '../../src/agents/classifyClaude.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'claude-code-2.1.197');
const CWD = '/home/runner/work/demo/demo';
const NOW = Date.parse('2026-11-21T14:52:00Z');

function proc(exitCode: number | null, extra: Partial<ProcessResult> = {}): ProcessResult {
  return {
    exitCode,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs: 1000,
    tail: '',
    stderrTail: '',
    bytes: 0,
    ...extra,
  };
}

function replay(file: string, chunkAt?: number) {
  const parser = new ClaudeStreamParser(CWD);
  const text = readFileSync(path.join(dir, file), 'utf8');
  const shown: string[] = [];
  const lines = (chunkAt === undefined ? text : text.slice(0, chunkAt)).split('\n');
  for (const line of lines) shown.push(...parser.push(line));
  return { parser, shown };
}

describe('Claude Code 2.1.197 recorded output (shared/fixtures)', () => {
  it('success-with-tools: success, tool lines, cost, turns, session and the report block', () => {
    const { parser, shown } = replay('success-with-tools.ndjson');
    expect(shown).toEqual([
      "  ✎ I'll fix it.",
      '  ▸ Write: hello.txt',
      '  ▸ Bash: cat hello.txt && echo done',
      '  ✎ Done.',
    ]);
    const s = parser.state;
    expect(s.result).toMatchObject({
      subtype: 'success',
      isError: false,
      apiErrorStatus: null,
      costUsd: 0.00168,
      numTurns: 3,
      permissionDenials: 0,
    });
    expect(s.sessionId).toBe('772379f9-77ed-4370-8f2a-aed009054822');
    expect(s.toolCalls).toBe(2);
    expect(classifyClaudeOutcome({ state: s, process: proc(0), now: NOW })).toBeUndefined();
  });

  it('success-json-format: the single result object of --output-format json reads the same way', () => {
    const { parser } = replay('success-json-format.json');
    expect(parser.state.result).toMatchObject({ subtype: 'success', isError: false, costUsd: 0.00168 });
    expect(parser.state.result?.text).toContain('work_remaining: 0');
  });

  it('a negative total_cost_usd is not read as spend (it would lower the run’s total under --max-cost-usd)', () => {
    const parser = new ClaudeStreamParser(CWD);
    parser.push('{"type":"result","subtype":"success","is_error":false,"result":"ok","total_cost_usd":-5}');
    expect(parser.state.result?.subtype).toBe('success');
    expect(parser.state.result?.costUsd).toBeUndefined();
  });

  it('overloaded-529: subtype success with is_error is a failure: transient overloaded', () => {
    const { parser } = replay('overloaded-529.ndjson');
    expect(parser.state.result).toMatchObject({ subtype: 'success', isError: true, apiErrorStatus: 529 });
    expect(parser.state.lastRetry).toMatchObject({ status: 529, error: 'overloaded' });
    expect(classifyClaudeOutcome({ state: parser.state, process: proc(1), now: NOW })).toMatchObject({
      class: 'transient',
      reason: 'overloaded',
    });
  });

  it('rate-limited-429: transient rate_limit with the wait from the api_retry event', () => {
    const { parser } = replay('rate-limited-429.ndjson');
    const f = classifyClaudeOutcome({ state: parser.state, process: proc(1), now: NOW });
    expect(f).toMatchObject({ class: 'transient', reason: 'rate_limit', retryAfterMs: 1000 });
    expect(f?.message).toMatch(/^rate limited \(HTTP 429\): API Error: Request rejected \(429\)/);
  });

  it('a rate_limit_event resetsAt takes precedence over the retry delay', () => {
    const { parser } = replay('rate-limited-429.ndjson');
    parser.push(
      JSON.stringify({ type: 'rate_limit_event', rate_limit_info: { status: 'rejected', resetsAt: NOW / 1000 + 90 } }),
    );
    expect(classifyClaudeOutcome({ state: parser.state, process: proc(1), now: NOW })?.retryAfterMs).toBe(90_000);
  });

  it('auth-failed-401: permanent auth, saying what to check', () => {
    const { parser } = replay('auth-failed-401.ndjson');
    const f = classifyClaudeOutcome({ state: parser.state, process: proc(1), now: NOW });
    expect(f).toMatchObject({ class: 'permanent', reason: 'auth' });
    expect(f?.message).toMatch(/Invalid API key.*ANTHROPIC_API_KEY/);
  });

  it('prompt-too-long-400: permanent invalid_request, named "prompt is too long"', () => {
    const { parser } = replay('prompt-too-long-400.ndjson');
    const f = classifyClaudeOutcome({ state: parser.state, process: proc(1), now: NOW });
    expect(f).toMatchObject({ class: 'permanent', reason: 'invalid_request' });
    expect(f?.message).toMatch(/^prompt is too long \(HTTP 400\)/);
  });

  it('max-turns: permanent max_turns, with the cost still captured', () => {
    const { parser, shown } = replay('max-turns.ndjson');
    expect(shown).toEqual(['  ▸ Bash: echo step', '  ▸ Bash: echo step']);
    expect(parser.state.result).toMatchObject({
      subtype: 'error_max_turns',
      costUsd: 0.0011200000000000001,
      numTurns: 3,
    });
    expect(classifyClaudeOutcome({ state: parser.state, process: proc(1), now: NOW })).toMatchObject({
      class: 'permanent',
      reason: 'max_turns',
    });
  });
});

describe('Claude stream robustness', () => {
  it('a truncated stream (no result line) with a non-zero exit is a transient crash carrying stderr', () => {
    const text = readFileSync(path.join(dir, 'success-with-tools.ndjson'), 'utf8');
    const { parser } = replay('success-with-tools.ndjson', Math.floor(text.length * 0.6));
    expect(parser.state.result).toBeUndefined();
    const f = classifyClaudeOutcome({
      state: parser.state,
      process: proc(1, { stderrTail: 'Error: something broke\n' }),
      now: NOW,
    });
    expect(f).toMatchObject({ class: 'transient', reason: 'crashed' });
    expect(f?.message).toContain('something broke');
  });

  it('killed by our timeout is a timeout, whatever was printed', () => {
    const { parser } = replay('success-with-tools.ndjson');
    expect(
      classifyClaudeOutcome({
        state: parser.state,
        process: proc(null, { timedOut: true, signal: 'SIGTERM' }),
        timeoutMs: 60_000,
        now: NOW,
      }),
    ).toMatchObject({ class: 'transient', reason: 'timeout' });
  });

  it('claude missing from PATH is permanent not_found', () => {
    expect(
      classifyClaudeOutcome({ state: new ClaudeStreamParser(CWD).state, process: proc(127), now: NOW }),
    ).toMatchObject({ class: 'permanent', reason: 'not_found' });
  });

  it('garbage, partial JSON, non-objects and unknown event types are ignored and counted', () => {
    const parser = new ClaudeStreamParser(CWD);
    for (const line of [
      'not json',
      '{"type":"assistant","message":{"content":[{"type":"tool_u',
      '[1,2]',
      '{"type":"brand_new_event","x":1}',
      '',
      '{"type":"assistant","message":"odd"}',
    ]) {
      expect(parser.push(line)).toEqual([]);
    }
    expect(parser.state.ignoredLines).toBe(3);
    expect(parser.state.result).toBeUndefined();
  });

  it('skips tool-result lines without parsing them (they can be megabytes)', () => {
    const parser = new ClaudeStreamParser(CWD);
    expect(parser.push(`{"type":"user","message":{"content":"${'x'.repeat(1_000_000)}`)).toEqual([]);
    expect(parser.state.ignoredLines).toBe(0);
  });

  it('describes tool calls in one line, paths relative to the working directory', () => {
    expect(describeToolUse('Edit', { file_path: `${CWD}/src/parser.ts` }, CWD)).toBe('Edit: src/parser.ts');
    expect(describeToolUse('Bash', { command: 'npm test\necho more' }, CWD)).toBe('Bash: npm test');
    expect(describeToolUse('Grep', { pattern: 'TODO', path: `${CWD}/src` }, CWD)).toBe('Grep: TODO in src');
    expect(describeToolUse('Read', { file_path: '/etc/hosts' }, CWD)).toBe('Read: /etc/hosts');
    expect(describeToolUse('Mystery', {}, CWD)).toBe('Mystery');
  });
});
