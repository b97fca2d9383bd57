/**
 * Issue 12 with the real Claude Code CLI against the scripted Anthropic API stand-in: a repository
 * whose suite is red for a reason no issue covers (e2e/support/calcRepo.ts, node's test runner),
 * the model fixing one issue per invocation through Claude Code's Bash tool.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  type AnswerSource,
  type AnthropicAnswer,
  type AnthropicScript,
  claudeEnv,
  startAnthropicServer,
  textTurn,
  toolTurn,
  userText,
} from '../support/anthropicServer.js';
import { expectExit, git, issue, lastResult } from '../helpers.js';
import { FIX, addCalculator } from '../support/calcRepo.js';
import { claudeArgs, iterationIn, removeCliSnapshot, report, runLoop, withAgentSandbox } from './support.js';

const bash = (command: string): AnthropicAnswer => toolTurn('Bash', { command, description: command });
const done = (summary: string) => textTurn(`${summary}\n\n${report('0', false, summary)}`);

/** Per agent-loop iteration (read from the prompt), the model's turns; the last repeats. */
function byIteration(plan: Record<number, AnswerSource[]>): AnthropicScript {
  return (r) => {
    if (!r.mainLoop) return undefined;
    const n = iterationIn(userText(r));
    const list = n === undefined ? undefined : plan[n];
    if (!list) return undefined;
    const messages = (r.body as { messages?: Array<{ role?: string }> } | undefined)?.messages ?? [];
    const step = messages.filter((m) => m.role === 'assistant').length;
    const a = list[Math.min(step, list.length - 1)] as AnswerSource;
    return typeof a === 'function' ? a(r) : a;
  };
}

const ISSUES = [
  issue('bd-add', 'add() subtracts', { description: 'add(2, 3) should be 5', created_at: '2026-11-01T09:00:01Z' }),
  issue('bd-mul', 'mul() adds', { description: 'mul(2, 3) should be 6', created_at: '2026-11-01T09:00:02Z' }),
  issue('bd-clamp', 'clamp() does nothing', {
    description: 'clamp(9, 0, 5) should be 5',
    created_at: '2026-11-01T09:00:03Z',
  }),
];

describe('verdicts against the baseline with the real Claude Code (issue 12)', () => {
  afterAll(removeCliSnapshot);

  it('a red suite no issue covers, three issues: three closed in three invocations, the legacy failure reported', async () => {
    await withAgentSandbox(async (sb) => {
      await addCalculator(sb);
      const server = await startAnthropicServer(
        byIteration({
          1: [bash(FIX.add), done('fixed add')],
          2: [bash(FIX.mul), done('fixed mul')],
          3: [bash(FIX.clamp), done('fixed clamp')],
        }),
      );
      try {
        const r = await runLoop(sb, claudeArgs(), claudeEnv(server.url, 1));
        expectExit(r, 0);
        const res = lastResult(r.stdout);
        expect(res).toMatchObject({
          status: 'complete',
          iterations: 3,
          issuesClosed: ['bd-add', 'bd-mul', 'bd-clamp'],
        });
        expect(res.history.map((h) => h.outcome)).toEqual(['complete', 'complete', 'complete']);
        expect(res.preexistingFailures).toEqual([expect.stringContaining('legacy works')]);
        expect(git(sb, 'show', 'main:src/calc.mjs')).toContain('Math.min(hi, Math.max(lo, x))');
      } finally {
        await server.close();
      }
    }, ISSUES);
  });

  it('an issue already fixed: the model says so without a change; closed in one invocation, no halt', async () => {
    await withAgentSandbox(
      async (sb) => {
        await addCalculator(sb);
        const server = await startAnthropicServer(
          byIteration({
            1: [
              bash('node --test test/ 2>&1 | grep -c "^ok" || true'),
              done('sub already subtracts: nothing to change'),
            ],
          }),
        );
        try {
          const r = await runLoop(sb, claudeArgs(), claudeEnv(server.url, 1));
          expectExit(r, 0);
          const res = lastResult(r.stdout);
          expect(res).toMatchObject({ status: 'complete', haltReason: null, iterations: 1, issuesClosed: ['bd-sub'] });
          expect(res.history.map((h) => h.outcome)).toEqual(['no_change']);
        } finally {
          await server.close();
        }
      },
      [issue('bd-sub', 'sub() is wrong', { description: 'Users say sub(5, 3) is wrong; check it.' })],
    );
  });

  it('a fix that breaks a passing test is rejected; the next prompt names it; the model repairs it', async () => {
    await withAgentSandbox(
      async (sb) => {
        await addCalculator(sb);
        const server = await startAnthropicServer(
          byIteration({
            1: [bash(`${FIX.mul} && ${FIX.breakSub}`), done('fixed mul')],
            2: [bash(FIX.restoreSub), done('restored sub')],
          }),
        );
        try {
          const r = await runLoop(sb, claudeArgs(), claudeEnv(server.url, 1));
          expectExit(r, 0);
          const res = lastResult(r.stdout);
          expect(res).toMatchObject({ status: 'complete', iterations: 2, issuesClosed: ['bd-mul'] });
          expect(res.history.map((h) => h.outcome)).toEqual(['tests_failed', 'complete']);
          const second = server.mainLoopRequests().find((q) => iterationIn(userText(q)) === 2);
          expect(userText(second!)).toContain('Tests that passed before this cycle and fail now (you broke them):');
          expect(userText(second!)).toMatch(/- [^\n]*sub subtracts: Expected values to be strictly equal/);
        } finally {
          await server.close();
        }
      },
      [ISSUES[1]!],
    );
  });
});
