/**
 * End to end: agent-loop's built CLI driving the real Codex CLI (0.169.0, installed by
 * scripts/install-agent-clis.mjs) against the scripted OpenAI Responses API stand-in on 127.0.0.1
 * (e2e/support/openaiServer.ts). Every test has its own server, sandbox repository, HOME and
 * CODEX_HOME (written by writeCodexHome with request_max_retries = 0 and stream_max_retries = 0, so
 * Codex does not retry on its own). Nothing here sleeps: the tests wait for the child process (and,
 * after the timeout, for the processes the agent had started to end, bounded).
 *
 * Not covered for Codex, because the CLI has no such thing: a turn limit (`codex exec` has no
 * --max-turns; agent-loop's --agent-max-turns applies to Claude Code only) and session resumption
 * (--agent-session continue resumes Claude Code sessions; the Codex adapter always starts a fresh
 * `codex exec`).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type AnswerSource,
  type OpenAIScript,
  type OpenAIServer,
  type RecordedRequest,
  always,
  authFailed,
  codexEnv,
  contextTooLong,
  hang,
  rateLimited,
  serverError,
  shellCall,
  startOpenAIServer,
  textTurn,
  userText,
  writeCodexHome,
} from '../support/openaiServer.js';
import {
  type LogEvent,
  type Sandbox,
  events,
  expectExit,
  git,
  lastResult,
  processGone,
  readIssues,
} from '../helpers.js';
import {
  type SandboxProcess,
  TITLE,
  agentProcesses,
  codexArgs,
  iterationIn,
  killAll,
  outputLines,
  processesUnder,
  removeCliSnapshot,
  report,
  runLoop,
  survivorsAfter,
  withAgentSandbox,
} from './support.js';

/** Starts a server and a CODEX_HOME pointing at it, runs `body`, always closes the server. */
async function withServer(
  sb: Sandbox,
  script: OpenAIScript,
  body: (server: OpenAIServer, env: Record<string, string>) => Promise<void>,
): Promise<void> {
  const server = await startOpenAIServer(script);
  try {
    const home = await writeCodexHome(path.join(sb.root, 'codex-home'), server.url);
    await body(server, codexEnv(home));
  } finally {
    await server.close();
  }
}

interface InputItem {
  type?: unknown;
  role?: unknown;
  content?: unknown;
}
const inputOf = (r: RecordedRequest): InputItem[] => {
  const input = (r.body as { input?: unknown } | undefined)?.input;
  return Array.isArray(input) ? (input as InputItem[]) : [];
};
const itemText = (item: InputItem): string =>
  typeof item.content === 'string'
    ? item.content
    : Array.isArray(item.content)
      ? item.content
          .map((c) =>
            c && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string'
              ? (c as { text: string }).text
              : '',
          )
          .join('\n')
      : '';

/**
 * The step of a main-loop request within its loop iteration: how many function calls follow the
 * user message carrying the iteration's prompt.
 */
function stepOf(r: RecordedRequest): number {
  const input = inputOf(r);
  let start = -1;
  input.forEach((item, i) => {
    if (item.type === 'message' && item.role === 'user' && iterationIn(itemText(item)) !== undefined) start = i;
  });
  return input.slice(start + 1).filter((item) => item.type === 'function_call').length;
}

/** A script keyed by agent-loop's iteration (read from the prompt), played step by step, the last answer repeating. */
function byIteration(plan: Record<number, AnswerSource | AnswerSource[]>): OpenAIScript {
  return (r) => {
    if (!r.mainLoop) return undefined;
    const n = iterationIn(userText(r));
    const answers = n === undefined ? undefined : plan[n];
    if (answers === undefined) return undefined;
    const list = Array.isArray(answers) ? answers : [answers];
    const a = list[Math.min(stepOf(r), list.length - 1)] as AnswerSource;
    return typeof a === 'function' ? a(r) : a;
  };
}

const DONE = textTurn(
  `Fixed: value.txt now reads good and sh check.sh passes.\n\n${report('0', false, 'made the value good')}`,
);
const quickFix = (): AnswerSource[] => [shellCall('echo good > value.txt'), DONE];

const failedEvents = (evs: LogEvent[]) => evs.filter((e) => e.event === 'iteration.failed');
/** The CLI's own JSON events in an iteration's log (its stderr lines, logged as agent_loop_stderr events, left out). */
const ndjsonFile = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.type !== 'agent_loop_stderr');

describe('agent-loop with the real Codex CLI', () => {
  afterAll(removeCliSnapshot);

  it('edits a file and runs the tests through exec_command, passes the test gate, closes the issue, merges, logs one line per command and keeps the raw stream', async () => {
    await withAgentSandbox(async (sb) => {
      const script = byIteration({ 1: [shellCall('echo good > value.txt'), shellCall('sh check.sh'), DONE] });
      await withServer(sb, script, async (server, env) => {
        const r = await runLoop(sb, codexArgs(), env);
        expectExit(r, 0);
        const result = lastResult(r.stdout) as ReturnType<typeof lastResult> & {
          costUsd: number;
          tokens: { input: number; output: number };
        };
        expect(result).toMatchObject({
          status: 'complete',
          haltReason: null,
          iterations: 1,
          failedIterations: 0,
          successfulIterations: 1,
          testsPassed: true,
          issuesClosed: ['bd-1'],
          completedIterations: [1],
        });
        // Codex reports tokens, not dollars: three model requests of the stand-in's usage (10 in, 5 out).
        expect(result.tokens).toEqual({ input: 30, output: 15 });
        expect(result.costUsd).toBe(0);

        // The prompt reached the model; check.sh really ran (its output came back as the call's output).
        const main = server.mainLoopRequests();
        expect(main).toHaveLength(3);
        expect(userText(main[0]!)).toContain(`bd-1: ${TITLE}`);
        expect(userText(main[0]!)).toContain('(iteration 1 of at most 100)');
        expect(userText(main[2]!)).toContain('check: ok');

        expect(readIssues(sb)[0]).toMatchObject({ id: 'bd-1', status: 'closed' });
        expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
        expect(git(sb, 'show', 'main:value.txt')).toBe('good');
        expect(git(sb, 'log', '-1', '--format=%s', 'main')).toBe(`Merge agent-loop/bd-1: agent-loop: bd-1 ${TITLE}`);
        expect(git(sb, 'status', '--porcelain')).toBe('');

        // One compact line per command (Codex runs each as /bin/bash -lc '…'; the log shows the command itself).
        const evs = events(r.stdout);
        const tools = outputLines(evs).filter((l) => l.startsWith('  ▸ '));
        expect(tools).toEqual(['  ▸ Bash: echo good > value.txt', '  ▸ Bash: sh check.sh']);
        expect(evs.find((e) => e.event === 'tests.start')).toMatchObject({ iteration: 1, command: 'sh check.sh' });
        const usage = evs.find((e) => e.event === 'agent.usage');
        expect(usage).toMatchObject({ iteration: 1, costUsd: null, tokens: { input: 30, output: 15 }, turns: 1 });

        // The raw JSONL of the iteration is kept.
        const log = ndjsonFile(path.join(sb.repo, '.git', 'agent-loop', 'logs', 'iteration-1.ndjson'));
        expect(log[0]).toMatchObject({ type: 'thread.started', thread_id: usage?.sessionId });
        expect(log[log.length - 1]).toMatchObject({ type: 'turn.completed' });
        expect(
          log.filter((e) => e.type === 'item.completed' && (e.item as { type?: unknown }).type === 'command_execution'),
        ).toHaveLength(2);
      });
    });
  });

  it('server errors (500, then 503) are transient failures logged as "Codex iteration N failed"; the loop goes on and completes in iteration 3', async () => {
    await withAgentSandbox(async (sb) => {
      await withServer(
        sb,
        byIteration({ 1: serverError(500), 2: serverError(503), 3: quickFix() }),
        async (server, env) => {
          const r = await runLoop(sb, codexArgs(), env);
          expectExit(r, 0);
          const failed = failedEvents(events(r.stdout));
          expect(failed).toHaveLength(2);
          // Codex turns a 500 into "We're currently experiencing high demand…" (no status in the text).
          expect(failed[0]).toMatchObject({
            level: 'warn',
            iteration: 1,
            exitCode: 1,
            class: 'transient',
            reason: 'overloaded',
            retryAfterMs: null,
          });
          expect(failed[0]?.message).toMatch(
            /^Codex iteration 1 failed: the API is overloaded: We’re currently experiencing high demand.* \(exit code 1, [0-9.]+s, transient overloaded\)$/,
          );
          // …and keeps the status and the body's message of a 503 ("The server is overloaded or not ready yet.").
          expect(failed[1]).toMatchObject({
            level: 'warn',
            iteration: 2,
            exitCode: 1,
            class: 'transient',
            reason: 'overloaded',
          });
          expect(failed[1]?.message).toMatch(
            /^Codex iteration 2 failed: the API is overloaded \(HTTP 503\): unexpected status 503 Service Unavailable: The server is overloaded.*transient overloaded\)$/,
          );
          const result = lastResult(r.stdout);
          expect(result).toMatchObject({
            status: 'complete',
            iterations: 3,
            failedIterations: 2,
            successfulIterations: 1,
            issuesClosed: ['bd-1'],
          });
          expect(result.history.map((h) => h.outcome)).toEqual(['agent_failed', 'agent_failed', 'complete']);
          // No retries by Codex itself (request_max_retries = 0): one request per failed iteration.
          const main = server.mainLoopRequests();
          expect(main.map((q) => [iterationIn(userText(q)), q.answered])).toEqual([
            [1, 'error 500'],
            [2, 'error 503'],
            [3, 'turn'],
            [3, 'turn'],
          ]);
          expect(userText(main[2]!)).toContain('The last agent run failed: the API is overloaded (HTTP 503)');
        },
      );
    });
  });

  it("a rate limit (429, retry-after) is transient rate_limit; Codex's error text carries no wait, so there is no retryAfterMs", async () => {
    await withAgentSandbox(async (sb) => {
      await withServer(sb, always(rateLimited(1)), async (server, env) => {
        const r = await runLoop(sb, codexArgs('--max-iterations', '1'), env);
        expectExit(r, 1);
        const failed = failedEvents(events(r.stdout));
        expect(failed).toHaveLength(1);
        // Codex reports "exceeded retry limit, last status: 429 Too Many Requests, request id: …": the
        // retry-after header and the body's "try again in 1s" do not reach its output.
        expect(failed[0]).toMatchObject({
          level: 'warn',
          iteration: 1,
          class: 'transient',
          reason: 'rate_limit',
          retryAfterMs: null,
        });
        expect(failed[0]?.message).toMatch(
          /^Codex iteration 1 failed: rate limited \(HTTP 429\): exceeded retry limit, last status: 429 Too Many Requests.*transient rate_limit\)$/,
        );
        expect(lastResult(r.stdout)).toMatchObject({
          status: 'halted',
          haltReason: 'max_iterations',
          iterations: 1,
          failedIterations: 1,
        });
        expect(server.mainLoopRequests().map((q) => q.answered)).toEqual(['error 429']);
      });
    });
  });

  it('a rejected API key (401) is a permanent auth failure, logged at level error', async () => {
    await withAgentSandbox(async (sb) => {
      await withServer(sb, always(authFailed(), { sideRequests: true }), async (_server, env) => {
        const r = await runLoop(sb, codexArgs('--max-iterations', '1'), env);
        expectExit(r, 1);
        const failed = failedEvents(events(r.stdout));
        expect(failed).toHaveLength(1);
        expect(failed[0]).toMatchObject({
          level: 'error',
          iteration: 1,
          exitCode: 1,
          class: 'permanent',
          reason: 'auth',
        });
        expect(String(failed[0]?.error)).toMatch(
          /^authentication failed \(HTTP 401\): unexpected status 401 Unauthorized: Incorrect API key.*Check OPENAI_API_KEY/,
        );
        expect(failed[0]?.message).toMatch(
          /^Codex iteration 1 failed: authentication failed \(HTTP 401\).*permanent auth\)$/,
        );
        expect(lastResult(r.stdout)).toMatchObject({
          status: 'halted',
          haltReason: 'max_iterations',
          failedIterations: 1,
        });
      });
    });
  });

  it('a prompt that is too long (400 context_length_exceeded) is a permanent invalid_request naming "prompt is too long"', async () => {
    await withAgentSandbox(async (sb) => {
      await withServer(sb, always(contextTooLong()), async (server, env) => {
        const r = await runLoop(sb, codexArgs('--max-iterations', '1'), env);
        expectExit(r, 1);
        const failed = failedEvents(events(r.stdout));
        expect(failed).toHaveLength(1);
        expect(failed[0]).toMatchObject({
          level: 'error',
          iteration: 1,
          class: 'permanent',
          reason: 'invalid_request',
        });
        // Codex words it "ran out of room in the model's context window"; agent-loop names it.
        expect(String(failed[0]?.error)).toMatch(
          /^prompt is too long: Codex ran out of room in the model's context window/,
        );
        expect(server.mainLoopRequests().map((q) => q.answered)).toEqual(['error 400']);
      });
    });
  });

  it('a request that is never answered hits --agent-timeout-minutes: Codex and everything it started are ended, classified timeout', async () => {
    await withAgentSandbox(async (sb) => {
      let during: SandboxProcess[] = [];
      const script = byIteration({
        1: [
          // A command still running when its call returns (unified exec keeps it as a session)…
          shellCall('exec sleep 300', { yieldTimeMs: 250 }),
          // …then the model never answers. While Codex waits: what runs on behalf of this test.
          () => {
            during = processesUnder(sb.root);
            return hang();
          },
        ],
      });
      await withServer(sb, script, async (server, env) => {
        try {
          const r = await runLoop(sb, codexArgs('--agent-timeout-minutes', '0.05', '--max-iterations', '1'), env);
          expectExit(r, 1);
          const failed = failedEvents(events(r.stdout));
          expect(failed).toHaveLength(1);
          expect(failed[0]).toMatchObject({
            level: 'warn',
            iteration: 1,
            class: 'transient',
            reason: 'timeout',
            error: 'timed out after 0.05 min',
          });
          // The codex launcher (node) dies of the SIGTERM agent-loop sends to the group.
          expect(failed[0]?.message).toMatch(
            /^Codex iteration 1 failed: timed out after 0\.05 min \((killed by SIG(TERM|KILL)|exit code \d+), [0-9.]+s, transient timeout\)$/,
          );
          expect(server.mainLoopRequests().map((q) => q.answered)).toEqual(['turn', 'hang']);

          // What ran: the codex launcher and binary in the agent's process group, and the sandboxed
          // command (codex-linux-sandbox → bash → sleep) that Codex puts into sessions of its own.
          const { group, outside } = agentProcesses(during);
          expect(group.map((p) => p.comm)).toEqual(['node', 'codex']);
          expect(outside.some((p) => p.comm === 'codex-linux-san')).toBe(true);
          expect(outside.some((p) => p.comm === 'sleep')).toBe(true);
          expect(outside.every((p) => p.sid !== group[0]!.sid)).toBe(true);
          // agent-loop's group kill has ended the agent's process group by the time the run returns.
          expect(group.filter((p) => !processGone(p.pid))).toEqual([]);
          // The sandboxed command is out of reach of a group kill; Codex ends it itself on SIGTERM,
          // which may finish a moment after agent-loop has moved on: wait for it, bounded.
          expect(await survivorsAfter(outside, 5000)).toEqual([]);
          expect(processesUnder(sb.root)).toEqual([]);
        } finally {
          killAll(processesUnder(sb.root));
        }
      });
    });
  });

  it('a report with work_remaining "bd-1 tail" and requires_continuation false is overridden to continue (validation.override, errors.jsonl), and iteration 2 completes', async () => {
    await withAgentSandbox(async (sb) => {
      const script = byIteration({
        1: textTurn(`Did the first part.\n\n${report('bd-1 tail', false, 'first part')}`),
        2: quickFix(),
      });
      await withServer(sb, script, async (server, env) => {
        const r = await runLoop(sb, codexArgs(), env);
        expectExit(r, 0);
        const evs = events(r.stdout);
        const override = evs.filter((e) => e.event === 'validation.override');
        expect(override).toHaveLength(1);
        expect(override[0]).toMatchObject({ level: 'warn', iteration: 1, workRemaining: 'bd-1 tail' });
        const errors = ndjsonFile(path.join(sb.repo, '.git', 'agent-loop', 'errors.jsonl'));
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({
          type: 'validation_error',
          iteration: 1,
          issueIds: ['bd-1'],
          details: { work_remaining: 'bd-1 tail', requires_continuation: false, override: 'forced_true' },
        });
        const result = lastResult(r.stdout);
        expect(result).toMatchObject({
          status: 'complete',
          iterations: 2,
          failedIterations: 0,
          successfulIterations: 2,
          issuesClosed: ['bd-1'],
        });
        expect(result.history.map((h) => h.outcome)).toEqual(['continuing', 'complete']);
        expect(failedEvents(evs)).toEqual([]);
        expect(server.mainLoopRequests().map((q) => iterationIn(userText(q)))).toEqual([1, 2, 2]);
      });
    });
  });
});
