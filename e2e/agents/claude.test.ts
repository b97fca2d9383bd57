/**
 * End to end: agent-loop's built CLI driving the real Claude Code CLI (2.1.197, installed by
 * scripts/install-agent-clis.mjs) against the scripted Anthropic Messages API stand-in on
 * 127.0.0.1 (e2e/support/anthropicServer.ts). Every test has its own server, sandbox repository
 * and HOME (Claude Code keeps its config and sessions under HOME). Nothing here sleeps: the tests
 * wait for the child process (and, after the timeout, for the processes the agent had started to
 * end, bounded); Claude Code's own retries are kept to one (CLAUDE_CODE_MAX_RETRIES=1), so the
 * 529/429/401 tests cost one retry delay of Claude Code's (0.5–1 s).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type AnswerSource,
  type AnthropicAnswer,
  type AnthropicScript,
  type AnthropicServer,
  type RecordedRequest,
  always,
  authFailed,
  claudeEnv,
  hang,
  overloaded,
  promptTooLong,
  rateLimited,
  startAnthropicServer,
  textTurn,
  toolTurn,
  userText,
} from '../support/anthropicServer.js';
import {
  type CheckpointJson,
  type LogEvent,
  checkpointPath,
  events,
  expectExit,
  git,
  lastResult,
  processGone,
  readCheckpoint,
  readIssues,
} from '../helpers.js';
import {
  type SandboxProcess,
  TITLE,
  agentProcesses,
  claudeArgs,
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Starts a server, runs `body`, always closes the server. */
async function withServer(script: AnthropicScript, body: (server: AnthropicServer) => Promise<void>): Promise<void> {
  const server = await startAnthropicServer(script);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

const env = (server: AnthropicServer) => claudeEnv(server.url, 1);

interface Message {
  role?: unknown;
  content?: unknown;
}
const messagesOf = (r: RecordedRequest): Message[] => {
  const m = (r.body as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(m) ? (m as Message[]) : [];
};
const textOfContent = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .map((b) =>
            b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string'
              ? (b as { text: string }).text
              : '',
          )
          .join('\n')
      : '';
/** The text of every assistant message a request carries (the earlier conversation). */
const assistantText = (r: RecordedRequest): string =>
  messagesOf(r)
    .filter((m) => m.role === 'assistant')
    .map((m) => textOfContent(m.content))
    .join('\n');

/**
 * The step of a main-loop request within its loop iteration: how many assistant turns follow the
 * last user message carrying the iteration's prompt. Retries of the same request keep the step.
 */
function stepOf(r: RecordedRequest): number {
  const messages = messagesOf(r);
  let start = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user' && iterationIn(textOfContent(m.content)) !== undefined) start = i;
  });
  return messages.slice(start + 1).filter((m) => m.role === 'assistant').length;
}

/**
 * A script keyed by agent-loop's iteration (read from the prompt): `plan[n]` is played step by
 * step for iteration n (the last answer repeating), a single answer for every step, or absent
 * (the default text turn). Side requests get the default text turn.
 */
function byIteration(plan: Record<number, AnswerSource | AnswerSource[]>): AnthropicScript {
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

const bash = (command: string): AnthropicAnswer => toolTurn('Bash', { command, description: command });
const DONE = textTurn(
  `Fixed: value.txt now reads good and sh check.sh passes.\n\n${report('0', false, 'made the value good')}`,
);
/** A short fix: one Bash call writing the value, then the done report. */
const quickFix = (): AnswerSource[] => [bash('echo good > value.txt'), DONE];

const failedEvents = (evs: LogEvent[]) => evs.filter((e) => e.event === 'iteration.failed');
/** The CLI's own JSON events in an iteration's log (its stderr lines, logged as agent_loop_stderr events, left out). */
const ndjsonFile = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.type !== 'agent_loop_stderr');

describe('agent-loop with the real Claude Code CLI', () => {
  afterAll(removeCliSnapshot);

  it('edits a file and runs the tests through its tools, passes the test gate, closes the issue, merges, logs one line per tool call and keeps the raw stream', async () => {
    await withAgentSandbox(async (sb) => {
      const file = path.join(sb.repo, 'value.txt');
      const script = byIteration({
        1: [
          // Claude Code's Write refuses to overwrite a file it has not read in this session.
          toolTurn('Read', { file_path: file }, 'Reading the value first.'),
          toolTurn('Write', { file_path: file, content: 'good\n' }),
          bash('sh check.sh'),
          DONE,
        ],
      });
      await withServer(script, async (server) => {
        const r = await runLoop(sb, claudeArgs(), env(server));
        expectExit(r, 0);
        const result = lastResult(r.stdout) as ReturnType<typeof lastResult> & { costUsd: number };
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
        expect(result.history.map((h) => h.outcome)).toEqual(['complete']);
        // Claude Code computes the cost from the usage the server reported.
        expect(result.costUsd).toBeGreaterThan(0);

        // The prompt reached the model; the Bash tool really ran check.sh (its output came back).
        const main = server.mainLoopRequests();
        expect(main).toHaveLength(4);
        expect(userText(main[0]!)).toContain(`bd-1: ${TITLE}`);
        expect(userText(main[0]!)).toContain('(iteration 1 of at most 100)');
        expect(userText(main[3]!)).toContain('check: ok');

        // Closed in the beads file, committed and merged into main.
        expect(readIssues(sb)[0]).toMatchObject({ id: 'bd-1', status: 'closed' });
        expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
        expect(git(sb, 'show', 'main:value.txt')).toBe('good');
        expect(git(sb, 'log', '-1', '--format=%s', 'main')).toBe(`Merge agent-loop/bd-1: agent-loop: bd-1 ${TITLE}`);
        expect(git(sb, 'status', '--porcelain')).toBe('');

        // One compact line per tool call, in order, as agent.output events.
        const evs = events(r.stdout);
        const tools = outputLines(evs).filter((l) => l.startsWith('  ▸ '));
        expect(tools).toEqual(['  ▸ Read: value.txt', '  ▸ Write: value.txt', '  ▸ Bash: sh check.sh']);
        expect(outputLines(evs)).toContain('  ✎ Reading the value first.');
        expect(evs.find((e) => e.event === 'tests.start')).toMatchObject({ iteration: 1, command: 'sh check.sh' });
        expect(evs.some((e) => e.event === 'cycle.complete')).toBe(true);
        expect(evs.some((e) => e.event === 'git.merged')).toBe(true);
        const usage = evs.find((e) => e.event === 'agent.usage');
        expect(usage).toMatchObject({ iteration: 1, turns: 4 });
        expect(usage?.costUsd).toBeGreaterThan(0);
        expect(String(usage?.sessionId)).toMatch(UUID);

        // The raw stream-json of the iteration is kept, line for line.
        const log = ndjsonFile(path.join(sb.repo, '.git', 'agent-loop', 'logs', 'iteration-1.ndjson'));
        expect(log[0]).toMatchObject({ type: 'system', subtype: 'init', session_id: usage?.sessionId });
        expect(log[log.length - 1]).toMatchObject({
          type: 'result',
          subtype: 'success',
          is_error: false,
          session_id: usage?.sessionId,
        });
        expect(log.filter((e) => e.type === 'user').length).toBe(3); // the three tool results
        expect(JSON.stringify(log)).toContain('"name":"Write"');
      });
    });
  });

  it('an overloaded API (529) in iteration 1 is a transient failure: logged as "Claude iteration 1 failed", the loop goes on and completes in iteration 2', async () => {
    await withAgentSandbox(async (sb) => {
      await withServer(byIteration({ 1: overloaded(), 2: quickFix() }), async (server) => {
        const r = await runLoop(sb, claudeArgs(), env(server));
        expectExit(r, 0);
        const failed = failedEvents(events(r.stdout));
        expect(failed).toHaveLength(1);
        expect(failed[0]).toMatchObject({
          level: 'warn',
          iteration: 1,
          exitCode: 1,
          class: 'transient',
          reason: 'overloaded',
          retryAfterMs: null,
        });
        expect(failed[0]?.message).toMatch(
          /^Claude iteration 1 failed: the API is overloaded \(HTTP 529\): API Error: 529 Overloaded.* \(exit code 1, [0-9.]+s, transient overloaded\)$/,
        );
        const result = lastResult(r.stdout);
        expect(result).toMatchObject({
          status: 'complete',
          iterations: 2,
          failedIterations: 1,
          successfulIterations: 1,
          issuesClosed: ['bd-1'],
        });
        expect(result.history.map((h) => h.outcome)).toEqual(['agent_failed', 'complete']);

        // Iteration 1: the first request and Claude Code's one retry, both 529.
        const main = server.mainLoopRequests();
        const first = main.filter((q) => iterationIn(userText(q)) === 1);
        expect(first.map((q) => q.answered)).toEqual(['error 529', 'error 529']);
        // Iteration 2 was told what went wrong.
        const second = main.filter((q) => iterationIn(userText(q)) === 2);
        expect(userText(second[0]!)).toContain('The last agent run failed: the API is overloaded (HTTP 529)');
        expect(readIssues(sb)[0]).toMatchObject({ status: 'closed' });
      });
    });
  });

  it('a rate limit (429, retry-after) is transient rate_limit with the wait Claude Code reported (retryAfterMs)', async () => {
    await withAgentSandbox(async (sb) => {
      await withServer(always(rateLimited(1)), async (server) => {
        const r = await runLoop(sb, claudeArgs('--max-iterations', '1'), env(server));
        expectExit(r, 1);
        const failed = failedEvents(events(r.stdout));
        expect(failed).toHaveLength(1);
        // retry-after: 1 → Claude Code's api_retry event says retry_delay_ms 1000.
        expect(failed[0]).toMatchObject({
          level: 'warn',
          iteration: 1,
          class: 'transient',
          reason: 'rate_limit',
          retryAfterMs: 1000,
        });
        expect(failed[0]?.message).toMatch(
          /^Claude iteration 1 failed: rate limited \(HTTP 429\): .*per-minute rate limit.*transient rate_limit\)$/,
        );
        const result = lastResult(r.stdout);
        expect(result).toMatchObject({
          status: 'halted',
          haltReason: 'max_iterations',
          iterations: 1,
          failedIterations: 1,
        });
        expect(server.mainLoopRequests().map((q) => q.answered)).toEqual(['error 429', 'error 429']);
      });
    });
  });

  it('a rejected API key (401) is a permanent auth failure, logged at level error', async () => {
    await withAgentSandbox(async (sb) => {
      // A real API rejects the key on every request, side requests included.
      await withServer(always(authFailed(), { sideRequests: true }), async (server) => {
        const r = await runLoop(sb, claudeArgs('--max-iterations', '1'), env(server));
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
          /^authentication failed \(HTTP 401\): Invalid API key .*Check ANTHROPIC_API_KEY/,
        );
        expect(failed[0]?.message).toMatch(
          /^Claude iteration 1 failed: authentication failed \(HTTP 401\).*permanent auth\)$/,
        );
        expect(lastResult(r.stdout)).toMatchObject({
          status: 'halted',
          haltReason: 'max_iterations',
          failedIterations: 1,
        });
        // Claude Code retries a 401 too (once here: CLAUDE_CODE_MAX_RETRIES=1) before giving up.
        expect(server.mainLoopRequests().map((q) => q.answered)).toEqual(['error 401', 'error 401']);
      });
    });
  });

  it('a prompt that is too long (400) is a permanent invalid_request naming "prompt is too long"', async () => {
    await withAgentSandbox(async (sb) => {
      await withServer(always(promptTooLong()), async (server) => {
        const r = await runLoop(sb, claudeArgs('--max-iterations', '1'), env(server));
        expectExit(r, 1);
        const failed = failedEvents(events(r.stdout));
        expect(failed).toHaveLength(1);
        expect(failed[0]).toMatchObject({
          level: 'error',
          iteration: 1,
          class: 'permanent',
          reason: 'invalid_request',
        });
        expect(String(failed[0]?.error)).toMatch(/^prompt is too long \(HTTP 400\): Prompt is too long/);
        expect(lastResult(r.stdout).history[0]?.agent.failure).toMatchObject({
          class: 'permanent',
          reason: 'invalid_request',
        });
        // A 400 is not retried by Claude Code.
        expect(server.mainLoopRequests().map((q) => q.answered)).toEqual(['error 400']);
      });
    });
  });

  it('--agent-max-turns 2 with a model that keeps calling tools ends as a permanent max_turns failure', async () => {
    await withAgentSandbox(async (sb) => {
      await withServer(always(bash('echo step')), async (server) => {
        const r = await runLoop(sb, claudeArgs('--agent-max-turns', '2', '--max-iterations', '1'), env(server));
        expectExit(r, 1);
        const evs = events(r.stdout);
        const failed = failedEvents(evs);
        expect(failed).toHaveLength(1);
        expect(failed[0]).toMatchObject({
          level: 'error',
          iteration: 1,
          exitCode: 1,
          class: 'permanent',
          reason: 'max_turns',
        });
        expect(String(failed[0]?.error)).toMatch(/^stopped at the maximum number of turns/);
        // Two model turns, each a tool call that ran; no third request.
        expect(server.mainLoopRequests()).toHaveLength(2);
        expect(outputLines(evs).filter((l) => l.startsWith('  ▸ '))).toEqual([
          '  ▸ Bash: echo step',
          '  ▸ Bash: echo step',
        ]);
        expect(lastResult(r.stdout)).toMatchObject({ status: 'halted', haltReason: 'max_iterations' });
      });
    });
  });

  it('a request that is never answered hits --agent-timeout-minutes: Claude Code and everything it started are ended, classified timeout', async () => {
    await withAgentSandbox(async (sb) => {
      let during: SandboxProcess[] = [];
      const script = byIteration({
        1: [
          // First the agent starts a command that outlives the tool call, recording its pid (exec
          // keeps it). Claude Code refuses a shell `&` in this permission mode; its Bash tool's own
          // background mode is allowed…
          toolTurn('Bash', {
            command: 'echo $$ > "$HOME/background.pid" && exec sleep 300',
            description: 'long task',
            run_in_background: true,
          }),
          // …then the model never answers. While the agent waits: what runs on behalf of this test.
          () => {
            during = processesUnder(sb.root);
            return hang();
          },
        ],
      });
      await withServer(script, async (server) => {
        try {
          const r = await runLoop(
            sb,
            claudeArgs('--agent-timeout-minutes', '0.05', '--max-iterations', '1'),
            env(server),
          );
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
          // Claude Code ends itself on SIGTERM with exit code 143 (SIGKILL follows after the grace period if it does not).
          expect(failed[0]?.message).toMatch(
            /^Claude iteration 1 failed: timed out after 0\.05 min \((exit code 143|killed by SIG(TERM|KILL)), [0-9.]+s, transient timeout\)$/,
          );
          expect(server.mainLoopRequests().map((q) => q.answered)).toEqual(['turn', 'hang']);

          // What ran (found by cwd/HOME under the sandbox): Claude Code in the agent's process group,
          // and the command its Bash tool left in the background, which Claude Code starts in a
          // session of its own (its pid recorded by the command itself).
          const background = Number(readFileSync(path.join(sb.root, 'background.pid'), 'utf8').trim());
          expect(Number.isInteger(background) && background > 1).toBe(true);
          const { group, outside } = agentProcesses(during);
          expect(group.map((p) => p.comm)).toEqual(['claude']);
          // (The background command may not have reached its exec yet when the snapshot was taken.)
          expect(outside.every((p) => p.sid !== group[0]!.sid)).toBe(true);
          // agent-loop's group kill has ended Claude Code by the time the run returns.
          expect(group.filter((p) => !processGone(p.pid))).toEqual([]);
          // The background command is out of reach of a group kill; Claude Code ends it itself on
          // SIGTERM, which may finish a moment after agent-loop has moved on: wait for it, bounded.
          expect(
            await survivorsAfter<{ pid: number; comm?: string }>(
              [...outside, { pid: background, comm: 'background.pid' }],
              5000,
            ),
          ).toEqual([]);
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
      await withServer(script, async (server) => {
        const r = await runLoop(sb, claudeArgs(), env(server));
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

  it("--agent-session continue resumes iteration 1's session in iteration 2 (the model sees the earlier conversation)", async () => {
    await withAgentSandbox(async (sb) => {
      const marker = 'First pass done (marker 7f3a)';
      const script = byIteration({ 1: textTurn(`${marker}.\n\n${report('bd-1', true, 'first pass')}`), 2: quickFix() });
      await withServer(script, async (server) => {
        const r = await runLoop(sb, claudeArgs('--agent-session', 'continue'), env(server));
        expectExit(r, 0);
        const evs = events(r.stdout);
        const usage = evs.filter((e) => e.event === 'agent.usage');
        expect(usage.map((e) => e.iteration)).toEqual([1, 2]);
        const session = String(usage[0]?.sessionId);
        expect(session).toMatch(UUID);
        // A resumed session keeps its id.
        expect(usage[1]?.sessionId).toBe(session);
        const log2 = ndjsonFile(path.join(sb.repo, '.git', 'agent-loop', 'logs', 'iteration-2.ndjson'));
        expect(log2[0]).toMatchObject({ type: 'system', subtype: 'init', session_id: session });

        const main = server.mainLoopRequests();
        expect(main.map((q) => iterationIn(userText(q)))).toEqual([1, 2, 2]);
        // The second main-loop request carries iteration 1's prompt and answer before iteration 2's prompt.
        expect(assistantText(main[1]!)).toContain(marker);
        expect(userText(main[1]!)).toContain('(iteration 1 of at most 100)');
        expect(userText(main[1]!)).toContain('(iteration 2 of at most 100)');
        expect(lastResult(r.stdout)).toMatchObject({
          status: 'complete',
          iterations: 2,
          failedIterations: 0,
          issuesClosed: ['bd-1'],
        });
        expect(outputLines(evs).some((l) => l.includes('could not resume'))).toBe(false);
      });
    });
  });

  it('--agent-session continue with a session that cannot be resumed falls back to a fresh session and the iteration still succeeds', async () => {
    await withAgentSandbox(async (sb) => {
      const marker = 'First pass done (marker 91c2)';
      const script = byIteration({ 1: textTurn(`${marker}.\n\n${report('bd-1', true, 'first pass')}`), 2: quickFix() });
      await withServer(script, async (server) => {
        // Slice 1: iteration 1 leaves work and a session id in the checkpoint.
        const first = await runLoop(
          sb,
          claudeArgs('--agent-session', 'continue', '--slice-iterations', '1'),
          env(server),
        );
        expectExit(first, 0);
        const r1 = lastResult(first.stdout);
        expect(r1).toMatchObject({ status: 'continuing', iterations: 1 });
        // Make the recorded session one Claude Code does not know (deterministic: expired, other machine).
        const fake = '00000000-0000-4000-8000-00000000beef';
        const cp = readCheckpoint(sb, r1.checkpointId) as CheckpointJson & {
          state: { loop: { currentCycle: { sessionId?: string } } };
        };
        expect(cp.state.loop.currentCycle.sessionId).toMatch(UUID);
        cp.state.loop.currentCycle.sessionId = fake;
        await fs.writeFile(checkpointPath(sb, r1.checkpointId), JSON.stringify(cp));

        // Slice 2: iteration 2 tries --resume <fake>, gets "No conversation found", starts fresh and completes.
        const second = await runLoop(sb, claudeArgs('--agent-session', 'continue'), env(server));
        expectExit(second, 0);
        const evs = events(second.stdout);
        expect(outputLines(evs)).toContain(`  ↻ could not resume session ${fake}; starting a fresh one`);
        expect(failedEvents(evs)).toEqual([]);
        const result = lastResult(second.stdout);
        // This run's one iteration; the loop's two (issue 40: the result's counts are this run's).
        expect(result).toMatchObject({
          status: 'complete',
          iterations: 1,
          failedIterations: 0,
          issuesClosed: ['bd-1'],
          loop: { iterations: 2 },
        });
        expect(result.history.map((h) => [h.n, h.outcome, h.agent.ok])).toEqual([[2, 'complete', true]]);
        const usage = evs.find((e) => e.event === 'agent.usage');
        expect(usage?.sessionId).not.toBe(fake);
        expect(String(usage?.sessionId)).toMatch(UUID);

        // The fresh session did not see iteration 1's conversation.
        const iteration2 = server.mainLoopRequests().filter((q) => iterationIn(userText(q)) === 2);
        expect(iteration2.length).toBe(2);
        expect(assistantText(iteration2[0]!)).not.toContain(marker);
        expect(userText(iteration2[0]!)).not.toContain('(iteration 1 of at most');
        // The iteration's raw log is the fresh run's stream (the failed resume attempt's is overwritten).
        const log2 = ndjsonFile(path.join(sb.repo, '.git', 'agent-loop', 'logs', 'iteration-2.ndjson'));
        expect(log2[0]).toMatchObject({ type: 'system', subtype: 'init', session_id: usage?.sessionId });
        expect(log2[log2.length - 1]).toMatchObject({ type: 'result', subtype: 'success', is_error: false });
      });
    });
  });
});
