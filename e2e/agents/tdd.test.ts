/**
 * --workflow tdd driven by the real Claude Code CLI (2.1.197) against the scripted Anthropic
 * server: one full red → green → refactor cycle. The model's turns are scripted by the role the
 * prompt names (test agent, implementing agent, refactor agent): a Bash tool call that does the
 * phase's work, then a final message with the report block. Claude Code really runs the tools.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { commit, type Sandbox, events, expectExit, git, lastResult, readIssues } from '../helpers.js';
import {
  type AnthropicAnswer,
  type RecordedRequest,
  claudeEnv,
  rateLimited,
  startAnthropicServer,
  textTurn,
  toolTurn,
  userText,
} from '../support/anthropicServer.js';
import { issue } from '../helpers.js';
import { removeCliSnapshot, report, runLoop, withAgentSandbox } from './support.js';

afterAll(removeCliSnapshot);

const RUNNER = `#!/bin/sh
failed=0
for t in tests/*.sh; do
  [ -e "$t" ] || continue
  if ! sh -n "$t" 2>/dev/null; then echo "syntax error in $t"; exit 2; fi
  if out=$(sh "$t" 2>&1); then echo "PASSED $t::$(basename "$t" .sh)"; else echo "FAILED $t::$(basename "$t" .sh) - $out"; failed=1; fi
done
exit $failed
`;

const bash = (command: string) => toolTurn('Bash', { command, description: command.slice(0, 60) });

/** The sandbox's calculator and test runner, committed. */
async function calculator(sb: Sandbox): Promise<void> {
  await fs.writeFile(path.join(sb.repo, 'run-tests.sh'), RUNNER);
  await fs.mkdir(path.join(sb.repo, 'tests'));
  await fs.writeFile(path.join(sb.repo, 'calc.sh'), '#!/bin/sh\necho 0\n');
  git(sb, 'add', '-A');
  commit(sb, 'calc answers 0');
}

/** The model, by the role the prompt names: one Bash call doing the phase's work, then the report. */
function byRole(r: RecordedRequest): AnthropicAnswer | undefined {
  if (!r.mainLoop) return undefined;
  const text = userText(r);
  if (JSON.stringify(r.body).includes('tool_result')) return textTurn(`Done.\n\n${report('0', false, 'phase done')}`);
  if (text.includes('You are the test agent'))
    return bash(
      `printf '[ "$(sh calc.sh 2 3)" = 5 ] || { echo "calc 2 3 gave $(sh calc.sh 2 3)"; exit 1; }\\n' > tests/adds.sh && sh run-tests.sh; true`,
    );
  if (text.includes('You are the implementing agent'))
    return bash(`printf '#!/bin/sh\\necho $(($1 + $2))\\n' > calc.sh && sh run-tests.sh`);
  return bash(`printf '#!/bin/sh\\n# calc.sh A B: their sum\\necho $(($1 + $2))\\n' > calc.sh && sh run-tests.sh`);
}

const ARGS = [
  'run',
  '--json',
  '--workflow',
  'tdd',
  '--agent',
  'claude',
  '--agent-permission-mode',
  'acceptEdits',
  '--agent-allowed-tools',
  'Bash Write Edit Read',
  '--iteration-delay',
  '0',
  '--test-command',
  'sh run-tests.sh',
  '--issues-file',
  './.beads/issues.jsonl',
];

describe('--workflow tdd with Claude Code', () => {
  it('one red → green → refactor cycle: three agents, three commits with git notes, the issue closed', async () => {
    await withAgentSandbox(
      async (sb) => {
        await calculator(sb);
        const server = await startAnthropicServer(byRole);
        try {
          const r = await runLoop(sb, ARGS, claudeEnv(server.url, 1));
          expectExit(r, 0);
          expect(lastResult(r.stdout)).toMatchObject({
            status: 'complete',
            iterations: 3,
            issuesClosed: ['bd-1'],
            tddError: null,
          });
          const commits = git(sb, 'log', '--format=%H %s', 'main^1..main^2').split('\n').reverse();
          expect(commits.map((c) => c.slice(41))).toEqual([
            // No checklist: the one test is the issue's title, quoted as the issue's (issue 40).
            'test: bd-1 "Calculator adds"',
            'feat: bd-1 "Calculator adds"',
            'refactor: bd-1 "Calculator adds"',
            'agent-loop: bd-1 Calculator adds',
          ]);
          const note = (i: number) =>
            JSON.parse(
              git(sb, 'notes', '--ref', 'refs/notes/agent-loop', 'show', (commits[i] as string).slice(0, 40)),
            ) as Record<string, unknown>;
          expect(note(0)).toEqual({
            phase: 'RED',
            next_phase: 'GREEN',
            cycle: 1,
            current_test: { description: 'Calculator adds', test_file: 'tests/adds.sh' },
            test_result: 'FAIL',
          });
          expect(note(1)).toMatchObject({ phase: 'GREEN', next_phase: 'REFACTOR', test_result: 'PASS' });
          expect(note(2)).toMatchObject({ phase: 'REFACTOR', next_phase: 'RED', test_result: 'PASS' });
          expect(git(sb, 'show', 'main:calc.sh')).toContain('# calc.sh A B: their sum');
          expect(readIssues(sb)[0]).toMatchObject({ status: 'closed' });
          // Three Claude Code sessions, one per role, each with its own prompt.
          const firsts = server
            .mainLoopRequests()
            .filter((q) => !JSON.stringify(q.body).includes('tool_result'))
            .map(userText);
          expect(firsts.map((t) => /You are the (test|implementing|refactor) agent/.exec(t)?.[1])).toEqual([
            'test',
            'implementing',
            'refactor',
          ]);
        } finally {
          await server.close();
        }
      },
      [issue('bd-1', 'Calculator adds', { issue_type: 'feature' })],
    );
  });

  it('API rate limit (seed 003): 429s during GREEN back off exponentially (1 s, 2 s), each retry logged, and GREEN is retried without spending an attempt', async () => {
    await withAgentSandbox(
      async (sb) => {
        await calculator(sb);
        let limited = 0;
        const server = await startAnthropicServer((r) => {
          // Claude Code's first two GREEN invocations: both requests of each (CLAUDE_CODE_MAX_RETRIES=1) get a 429.
          if (
            r.mainLoop &&
            limited < 4 &&
            userText(r).includes('You are the implementing agent') &&
            !JSON.stringify(r.body).includes('tool_result')
          ) {
            limited++;
            return rateLimited(1);
          }
          return byRole(r);
        });
        try {
          const r = await runLoop(sb, ARGS, claudeEnv(server.url, 1));
          expectExit(r, 0);
          const result = lastResult(r.stdout);
          expect(result).toMatchObject({
            status: 'complete',
            iterations: 5,
            failedIterations: 2,
            issuesClosed: ['bd-1'],
            tddError: null,
          });
          expect(
            result.history.map((h) => `${h.tdd?.phase}:${h.tdd?.decision}${h.tdd?.error ? `(${h.tdd.error})` : ''}`),
          ).toEqual([
            'RED:commit',
            'GREEN:backoff(API_RATE_LIMIT)',
            'GREEN:backoff(API_RATE_LIMIT)',
            'GREEN:commit',
            'REFACTOR:commit',
          ]);
          expect(result.history[1]?.agent.failure).toMatchObject({
            class: 'transient',
            reason: 'rate_limit',
            retryAfterMs: 1000,
          });
          const log = events(r.stdout);
          expect(log.filter((e) => e.event === 'tdd.rate_limited').map((e) => e.message)).toEqual([
            expect.stringContaining('API_RATE_LIMIT: retry 1 after the backoff'),
            expect.stringContaining('API_RATE_LIMIT: retry 2 after the backoff'),
          ]);
          // 1 s (the retry-after), then 2 s (doubled): seed 003's 1, 2, 4 … s.
          expect(log.filter((e) => e.event === 'rate.limited').map((e) => e.message)).toEqual([
            'Rate limited: waiting 1.0s before the next attempt.',
            'Rate limited: waiting 2.0s before the next attempt.',
          ]);
          // The retried GREEN is still its first attempt: a rate limit is not the agent's failure.
          const greens = server
            .mainLoopRequests()
            .filter(
              (q) =>
                q.answered !== 'error 429' &&
                !JSON.stringify(q.body).includes('tool_result') &&
                userText(q).includes('You are the implementing agent'),
            );
          expect(greens.map((q) => /attempt (\d) of 6/.exec(userText(q))?.[1])).toEqual(['1']);
        } finally {
          await server.close();
        }
      },
      [issue('bd-1', 'Calculator adds', { issue_type: 'feature' })],
    );
  });
});
