/**
 * Integration tests: the built CLI (dist/cli/index.js, `node scripts/bundle.mjs`) run as a child
 * process on temporary git repositories, with scripted command agents. Nothing sleeps: the agents
 * finish at once (or are killed by the timeout) and --iteration-delay is 0.
 */
import { describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { OPTIONS, type Command } from '../src/config/options.js';
import {
  CLI,
  DONE_REPORT,
  type Sandbox,
  checkpointPath,
  createSandbox,
  events,
  expectExit,
  git,
  issue,
  lastResult,
  processGone,
  readCheckpoint,
  readIssues,
  runArgs,
  runCli,
  writeAgent,
  phaseAndStage,
} from './helpers.js';

const TITLE = 'Make the value good';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Runs `body` with a fresh sandbox and always removes it afterwards. */
async function withSandbox(
  beads: Parameters<typeof createSandbox>[0],
  body: (sb: Sandbox) => Promise<void>,
): Promise<void> {
  const sb = await createSandbox(beads);
  try {
    await body(sb);
  } finally {
    await sb.cleanup();
  }
}

const oneIssue = () => [issue('bd-1', TITLE)];

/** An agent that makes the test pass and says so. */
const FIXER = `echo good > value.txt\n${DONE_REPORT}`;

/** An agent that fixes the value from iteration `n` on and before that only reports progress (no report block). */
const fixerFrom = (n: number) => `if [ "$AGENT_LOOP_ITERATION" -ge ${n} ]; then
  echo good > value.txt
  ${DONE_REPORT}
else
  echo "still working (iteration $AGENT_LOOP_ITERATION)"
fi
`;

const checkpointFiles = async (sb: Sandbox) => {
  const dir = path.join(sb.repo, '.git', 'agent-loop', 'checkpoints');
  return existsSync(dir) ? (await fs.readdir(dir)).sort() : [];
};

describe('agent-loop CLI end to end', () => {
  it('completes: fixes the failing test, closes the issue, commits on agent-loop/<id>, merges into main and keeps its state out of the working tree and out of git', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const initial = git(sb, 'rev-parse', 'main');
      const r = await runCli(sb, runArgs(await writeAgent(sb, 'fixer', FIXER)));
      expectExit(r, 0);
      const result = lastResult(r.stdout);
      expect(result).toMatchObject({
        status: 'complete',
        haltReason: null,
        error: null,
        iterations: 1,
        failedIterations: 0,
        successfulIterations: 1,
        testFailures: 0,
        testsPassed: true,
        issuesClosed: ['bd-1'],
        completedIterations: [1],
      });
      expect(result.checkpointId).toMatch(UUID_V4);

      // The issue is closed in the beads file, with a reason.
      const [closed] = readIssues(sb);
      expect(closed).toMatchObject({ id: 'bd-1', status: 'closed' });
      expect(typeof closed?.close_reason).toBe('string');
      expect(String(closed?.close_reason)).not.toBe('');
      expect(typeof closed?.closed_at).toBe('string');

      // Committed on agent-loop/bd-1, merged into main, main checked out again.
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
      expect(git(sb, 'log', 'main', '--format=%s').split('\n')).toContain(`agent-loop: bd-1 ${TITLE}`);
      expect(git(sb, 'log', '-1', '--format=%s', 'main')).toBe(`Merge agent-loop/bd-1: agent-loop: bd-1 ${TITLE}`);
      expect(git(sb, 'log', '-1', '--format=%s', 'main^2')).toBe(`agent-loop: bd-1 ${TITLE}`);
      expect(git(sb, 'rev-parse', 'main^1')).toBe(initial);
      expect(git(sb, 'show', 'main:value.txt')).toBe('good');
      expect(JSON.parse(git(sb, 'show', 'main:.beads/issues.jsonl'))).toMatchObject({ id: 'bd-1', status: 'closed' });
      expect(git(sb, 'status', '--porcelain')).toBe('');

      // The state directory is excluded and never committed.
      expect(existsSync(path.join(sb.repo, '.git', 'agent-loop', 'checkpoints'))).toBe(true); // outside the working tree
      expect(existsSync(path.join(sb.repo, '.agent-loop'))).toBe(false);
      expect(git(sb, 'log', '--all', '--name-only', '--format=')).not.toContain('.agent-loop');
      expect(existsSync(checkpointPath(sb, result.checkpointId))).toBe(true);
      expect(phaseAndStage(readCheckpoint(sb, result.checkpointId))).toEqual(['implementation-complete', 'complete']);
      // The command agent's output is kept like claude's and codex's (issue 15).
      expect(readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'logs', 'iteration-1.log'), 'utf8')).toContain(
        'work_remaining: 0',
      );
    });
  });

  it('never commits a temporary file that a crash left next to the issue file', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const leftover = path.join(sb.repo, '.beads', '.issues.jsonl.agent-loop-999999-0a1b2c3d.tmp');
      await fs.writeFile(leftover, '{"id":"bd-1","half written');
      const agent = await writeAgent(sb, 'fixer', FIXER);
      expectExit(await runCli(sb, runArgs(agent)), 0);
      expect(git(sb, 'ls-tree', '-r', '--name-only', 'main').split('\n')).not.toContain(
        '.beads/.issues.jsonl.agent-loop-999999-0a1b2c3d.tmp',
      );
      expect(readFileSync(path.join(sb.repo, '.git', 'info', 'exclude'), 'utf8').split('\n')).toContain(
        '*.agent-loop-*.tmp',
      );
    });
  });

  it('continues after failing tests and gives the next iteration the failing test output as context', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const agent = await writeAgent(
        sb,
        'two-tries',
        `cat > "$NOTES/stdin-$AGENT_LOOP_ITERATION.txt"
cp "$AGENT_LOOP_PROMPT_FILE" "$NOTES/prompt-$AGENT_LOOP_ITERATION.txt"
if [ "$AGENT_LOOP_ITERATION" = 1 ]; then echo almost > value.txt; else echo good > value.txt; fi
${DONE_REPORT}`,
      );
      const r = await runCli(sb, runArgs(agent));
      expectExit(r, 0);
      const result = lastResult(r.stdout);
      expect(result).toMatchObject({
        status: 'complete',
        iterations: 2,
        testFailures: 1,
        failedIterations: 0,
        successfulIterations: 2,
        testsPassed: true,
      });
      expect(result.history.map((h) => h.outcome)).toEqual(['tests_failed', 'complete']);
      expect(result.history[0]?.tests).toMatchObject({ passed: false, exitCode: 1 });

      const prompt1 = readFileSync(path.join(sb.root, 'prompt-1.txt'), 'utf8');
      const prompt2 = readFileSync(path.join(sb.root, 'prompt-2.txt'), 'utf8');
      expect(prompt1).not.toContain('ASSERTION FAILED');
      expect(prompt2).toContain("ASSERTION FAILED: value.txt is 'almost', expected 'good'");
      expect(prompt2).toContain('The last attempt was not accepted: 1 target(s) still failing (value_is_good)');
      expect(prompt2).toContain(
        "The issue's tests that do not pass yet:\n- value_is_good: value.txt is 'almost', expected 'good'",
      );
      // The baseline ran once, before the first agent run, and knew the failing test.
      expect(
        events(r.stdout).filter(
          (e) =>
            e.event === 'tests.baseline' &&
            /Baseline: 1 test\(s\) read \(node-test\), 1 failing before any change: value_is_good/.test(
              String(e.message),
            ),
        ),
      ).toHaveLength(1);
      // The same prompt arrives on stdin and in $AGENT_LOOP_PROMPT_FILE.
      expect(readFileSync(path.join(sb.root, 'stdin-2.txt'), 'utf8')).toBe(prompt2);
      expect(events(r.stdout).some((e) => e.event === 'tests.failed' && e.iteration === 1)).toBe(true);
    });
  });

  it('logs an agent crash as "Command iteration 1 failed" with exit code and class, continues and completes', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const agent = await writeAgent(
        sb,
        'crash-once',
        `cp "$AGENT_LOOP_PROMPT_FILE" "$NOTES/prompt-$AGENT_LOOP_ITERATION.txt"
if [ "$AGENT_LOOP_ITERATION" = 1 ]; then echo "fatal: simulated agent crash" >&2; exit 3; fi
${FIXER}`,
      );
      const r = await runCli(sb, runArgs(agent));
      expectExit(r, 0);
      const failed = events(r.stdout).filter((e) => e.event === 'iteration.failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]?.message).toMatch(
        /^Command iteration 1 failed: exited with code 3: fatal: simulated agent crash \(exit code 3, \d+\.\ds, transient exit_code\)$/,
      );
      expect(failed[0]).toMatchObject({
        level: 'warn',
        iteration: 1,
        exitCode: 3,
        class: 'transient',
        reason: 'exit_code',
      });

      const result = lastResult(r.stdout);
      expect(result).toMatchObject({
        status: 'complete',
        iterations: 2,
        failedIterations: 1,
        successfulIterations: 1,
        issuesClosed: ['bd-1'],
      });
      expect(result.history.map((h) => h.outcome)).toEqual(['agent_failed', 'complete']);
      expect(readFileSync(path.join(sb.root, 'prompt-2.txt'), 'utf8')).toContain(
        'The last agent run failed: exited with code 3',
      );
    });
  });

  it('kills the whole process group on --agent-timeout-minutes, grandchildren included, and records a timeout', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const pidFile = path.join(sb.root, 'grandchild.pid');
      const agent = await writeAgent(
        sb,
        'hang',
        `sleep 300 &
echo $! > "$NOTES/grandchild.pid"
wait
`,
      );
      let pid: number | undefined;
      try {
        const r = await runCli(sb, runArgs(agent, '--agent-timeout-minutes', '0.01', '--max-iterations', '1'));
        pid = Number(readFileSync(pidFile, 'utf8').trim());
        expectExit(r, 1);
        const result = lastResult(r.stdout);
        expect(result).toMatchObject({
          status: 'halted',
          haltReason: 'max_iterations',
          iterations: 1,
          failedIterations: 1,
        });
        expect(result.history[0]?.agent.failure).toMatchObject({
          class: 'transient',
          reason: 'timeout',
          message: 'timed out after 0.01 min',
        });
        const failed = events(r.stdout).find((e) => e.event === 'iteration.failed');
        expect(failed?.message).toMatch(
          /^Command iteration 1 failed: timed out after 0\.01 min \(killed by SIGTERM, [0-9.]+s, transient timeout\)$/,
        );
        expect(Number.isInteger(pid) && pid > 1).toBe(true);
        expect(processGone(pid)).toBe(true);
      } finally {
        // Never leave a sleeping grandchild behind, whatever the assertions said.
        if (pid && pid > 1 && !processGone(pid)) process.kill(pid, 'SIGKILL');
      }
    });
  });

  it('halts at --max-iterations with the error in the result and the checkpoint, shows it resumable, and a rerun resumes at the next iteration', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      // Says what remains, and it moves on each time: never stuck (3 silent iterations would be).
      const agent = await writeAgent(
        sb,
        'never-done',
        'echo "still working (iteration $AGENT_LOOP_ITERATION)"\nprintf "work_remaining: step %s\\nrequires_continuation: true\\n" "$AGENT_LOOP_ITERATION"\n',
      );
      const first = await runCli(sb, runArgs(agent, '--max-iterations', '3'));
      expectExit(first, 1);
      const r1 = lastResult(first.stdout);
      expect(r1).toMatchObject({
        status: 'halted',
        haltReason: 'max_iterations',
        error: 'Max iterations (3) reached',
        iterations: 3,
        maxIterations: 3,
      });
      const cp = readCheckpoint(sb, r1.checkpointId);
      expect(phaseAndStage(cp)).toEqual(['implementation-failed', 'halted']);
      expect(cp.errors).toContain('Max iterations (3) reached');

      const status = await runCli(sb, ['status', '--json']);
      expectExit(status, 0);
      const listing = JSON.parse(status.stdout) as {
        resumable: string | null;
        checkpoints: Array<Record<string, unknown>>;
        invalid: unknown[];
      };
      expect(listing.resumable).toBe(r1.checkpointId);
      expect(listing.invalid).toEqual([]);
      expect(listing.checkpoints).toHaveLength(1);
      expect(listing.checkpoints[0]).toMatchObject({
        id: r1.checkpointId,
        phase: 'implementation-failed',
        stage: 'halted',
        resumable: true,
        wouldResume: true,
        resumeAt: 'implementation',
        errors: ['Max iterations (3) reached'],
        loop: { iteration: 3, maxIterations: 3, haltReason: 'max_iterations' },
      });

      const second = await runCli(sb, runArgs(agent, '--max-iterations', '5'));
      expectExit(second, 1);
      const r2 = lastResult(second.stdout);
      expect(r2).toMatchObject({
        checkpointId: r1.checkpointId,
        status: 'halted',
        error: 'Max iterations (5) reached',
        iterations: 2,
        sliceIterations: 2,
        loop: { iterations: 5 },
      });
      expect(r2.history.map((h) => h.n)).toEqual([4, 5]);
      const start = events(second.stdout).find((e) => e.event === 'run.start');
      expect(start).toMatchObject({ resumed: true, iteration: 3, checkpointId: r1.checkpointId });
      expect(start?.message).toContain(`Resuming checkpoint ${r1.checkpointId} at iteration 4`);
      expect(await checkpointFiles(sb)).toEqual([`${r1.checkpointId}.json`]);
    });
  });

  it('resumes across invocations with --slice-iterations 1: continuing, continuing, complete, one checkpoint and one history', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const agent = await writeAgent(sb, 'third-time', fixerFrom(3));
      const results = [];
      for (const expected of ['continuing', 'continuing', 'complete']) {
        const r = await runCli(sb, runArgs(agent, '--slice-iterations', '1'));
        expectExit(r, 0);
        const result = lastResult(r.stdout);
        expect(result.status).toBe(expected);
        results.push(result);
      }
      const id = results[0]?.checkpointId;
      expect(id).toMatch(UUID_V4);
      expect(results.map((r) => r.checkpointId)).toEqual([id, id, id]);
      // Each invocation's own counts; the loop's totals under `loop` (issue 40).
      expect(results.map((r) => r.iterations)).toEqual([1, 1, 1]);
      expect(results.map((r) => r.loop.iterations)).toEqual([1, 2, 3]);
      expect(results.map((r) => r.sliceIterations)).toEqual([1, 1, 1]);
      expect(results.map((r) => r.history.map((h) => h.n))).toEqual([[1], [2], [3]]);
      expect(results[2]).toMatchObject({
        issuesClosed: ['bd-1'],
        completedIterations: [3],
        successfulIterations: 1,
        loop: { issuesClosed: ['bd-1'], successfulIterations: 3 },
      });

      const cp = readCheckpoint(sb, id as string);
      expect(phaseAndStage(cp)).toEqual(['implementation-complete', 'complete']);
      expect(cp.state.loop?.history.map((h) => h.n)).toEqual([1, 2, 3]);
      expect(cp.state.loop?.slices).toBe(3);
      expect(await checkpointFiles(sb)).toEqual([`${id}.json`]);
    });
  });

  it('skips a corrupt checkpoint file with a warning naming its path and reason, resumes the valid one, and status reports it', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const agent = await writeAgent(sb, 'second-time', fixerFrom(2));
      const first = await runCli(sb, runArgs(agent, '--slice-iterations', '1'));
      expectExit(first, 0);
      const valid = lastResult(first.stdout).checkpointId;

      const corruptId = 'c0ffee00-1234-4abc-9def-0123456789ab';
      const corrupt = checkpointPath(sb, corruptId);
      await fs.writeFile(corrupt, '{"id": "c0ffee00-1234-4abc-9def-0123456789ab", "phase": ');

      const second = await runCli(sb, runArgs(agent));
      expectExit(second, 0);
      const warnings = events(second.stdout).filter((e) => e.event === 'checkpoint.invalid');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 'warn', path: corrupt });
      expect(String(warnings[0]?.reason)).not.toBe('');
      expect(warnings[0]?.message).toBe(`Skipped checkpoint ${corrupt}: ${String(warnings[0]?.reason)}`);
      expect(events(second.stdout).find((e) => e.event === 'run.start')).toMatchObject({
        resumed: true,
        checkpointId: valid,
      });
      expect(lastResult(second.stdout)).toMatchObject({
        status: 'complete',
        checkpointId: valid,
        iterations: 1,
        loop: { iterations: 2 },
      });

      const status = await runCli(sb, ['status']);
      expectExit(status, 0);
      expect(status.stdout).toContain('Checkpoints in ');
      expect(status.stdout).toContain(valid);
      expect(status.stdout).toContain(`skipped ${corrupt}: ${String(warnings[0]?.reason)}`);
      // The corrupt file is reported, not deleted or rewritten.
      expect(readFileSync(corrupt, 'utf8')).toBe('{"id": "c0ffee00-1234-4abc-9def-0123456789ab", "phase": ');
    });
  });

  it('rejects checkpoint files not named <uuid-v4>.json and --resume values that are not checkpoint ids', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      // A real, valid checkpoint, renamed: only its name is wrong.
      const agent = await writeAgent(sb, 'second-time', fixerFrom(2));
      const first = await runCli(sb, runArgs(agent, '--slice-iterations', '1'));
      expectExit(first, 0);
      const oldId = lastResult(first.stdout).checkpointId;
      const latest = path.join(sb.repo, '.git', 'agent-loop', 'checkpoints', 'latest.json');
      await fs.rename(checkpointPath(sb, oldId), latest);
      // The first run left its cycle branch checked out; a run that starts afresh there would take
      // agent-loop/bd-1 as its base branch. Back to main, as a user starting over would be.
      git(sb, 'checkout', '-q', 'main');

      const status = await runCli(sb, ['status', '--json']);
      expectExit(status, 0);
      const listing = JSON.parse(status.stdout) as {
        resumable: string | null;
        checkpoints: unknown[];
        invalid: Array<{ path: string; reason: string }>;
      };
      expect(listing.resumable).toBeNull();
      expect(listing.checkpoints).toEqual([]);
      expect(listing.invalid).toHaveLength(1);
      expect(listing.invalid[0]?.path).toBe(latest);
      expect(listing.invalid[0]?.reason).toContain('<uuid-v4>.json');
      const text = await runCli(sb, ['status']);
      expectExit(text, 0);
      expect(text.stdout).toContain(`skipped ${latest}: `);

      // Never resumed: a run starts afresh under a new id and warns about the file.
      const run = await runCli(sb, runArgs(agent));
      expectExit(run, 0);
      const start = events(run.stdout).find((e) => e.event === 'run.start');
      expect(start).toMatchObject({ resumed: false, iteration: 0 });
      const result = lastResult(run.stdout);
      expect(result.checkpointId).not.toBe(oldId);
      expect(result.history[0]?.n).toBe(1);
      expect(events(run.stdout).some((e) => e.event === 'checkpoint.invalid' && e.path === latest)).toBe(true);
      expect(existsSync(latest)).toBe(true);

      const before = await checkpointFiles(sb);
      const traversal = await runCli(sb, runArgs(agent, '--resume', '../../etc/passwd'));
      expectExit(traversal, 2);
      expect(traversal.stderr).toContain('--resume: got "../../etc/passwd"; expected a checkpoint id (UUID v4');
      expect(traversal.stdout).toBe('');
      expect(await checkpointFiles(sb)).toEqual(before);
    });
  });

  it('keeps a malformed JSONL line and every untouched line byte-identical when it rewrites the beads file, and reports the line', async () => {
    const lines = [
      '{"id":"bd-1","title":"Make the value good","status":"open","priority":0,"x_review":{"owner":"ops","tags":["a","b"]},"created_at":"2026-11-01T09:00:00Z"}',
      '{"id":"bd-2","title":"truncated line',
      '{ "id": "bd-3",  "title": "Already done", "status": "closed", "x_custom": "spacing kept" }',
      '{"id":"bd-4","title":"Not ready","status":"in_progress","x_unknown":[1,2,3]}',
    ];
    await withSandbox(lines.join('\n') + '\n', async (sb) => {
      const r = await runCli(sb, runArgs(await writeAgent(sb, 'fixer', FIXER)));
      expectExit(r, 0);
      expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', issuesClosed: ['bd-1'] });

      const after = readFileSync(path.join(sb.repo, '.beads', 'issues.jsonl'), 'utf8');
      expect(after.endsWith('\n')).toBe(true);
      const afterLines = after.slice(0, -1).split('\n');
      expect(afterLines).toHaveLength(lines.length);
      expect(afterLines.slice(1)).toEqual(lines.slice(1));
      const closed = JSON.parse(afterLines[0] as string) as Record<string, unknown>;
      expect(closed).toMatchObject({
        id: 'bd-1',
        status: 'closed',
        priority: 0,
        x_review: { owner: 'ops', tags: ['a', 'b'] },
      });
      expect(typeof closed.close_reason).toBe('string');
      expect(Object.keys(closed).slice(0, 6)).toEqual(['id', 'title', 'status', 'priority', 'x_review', 'created_at']);

      const warnings = events(r.stdout).filter((e) => e.event === 'source.warning');
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      expect(warnings.some((e) => /issues\.jsonl:2: malformed line skipped/.test(String(e.message)))).toBe(true);
      expect(warnings.every((e) => !/issues\.jsonl:[134]:/.test(String(e.message)))).toBe(true);
    });
  });

  it('reports every invalid option at once with exit 2, including those from AGENT_LOOP_* variables, and cleanup without a mode', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const bad = await runCli(sb, [
        'run',
        '--max-iterations',
        'abc',
        '--agent',
        'robot',
        '--slice-minutes',
        '-1',
        '--bogus',
      ]);
      expectExit(bad, 2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toContain('--max-iterations: got "abc"; expected a whole number from 1 to 1000000');
      expect(bad.stderr).toContain('--agent: got "robot"; expected one of claude, codex, command');
      expect(bad.stderr).toMatch(/--slice-minutes: got "?-1"?; expected a number of minutes > 0/);
      expect(bad.stderr).toContain('Unknown option --bogus');

      const agent = await writeAgent(sb, 'fixer', FIXER);
      const fromEnv = await runCli(sb, runArgs(agent), { env: { AGENT_LOOP_MAX_ITERATIONS: 'zero' } });
      expectExit(fromEnv, 2);
      expect(fromEnv.stderr).toContain(
        '--max-iterations: got "zero" (from AGENT_LOOP_MAX_ITERATIONS); expected a whole number from 1 to 1000000',
      );
      // Nothing ran.
      expect(existsSync(path.join(sb.repo, '.git', 'agent-loop'))).toBe(false);
      expect(readIssues(sb)[0]).toMatchObject({ status: 'open' });

      const cleanup = await runCli(sb, ['cleanup']);
      expectExit(cleanup, 2);
      expect(cleanup.stderr).toContain('--older-than');
      expect(cleanup.stderr).toContain('--all');
    });
  });

  it('refuses to start --agent claude or codex when the CLI is not on PATH, saying how to install it (exit 2)', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      for (const [agent, pkg] of [
        ['claude', '@anthropic-ai/claude-code'],
        ['codex', '@openai/codex'],
      ]) {
        const r = await runCli(
          sb,
          ['run', '--agent', agent as string, '--test-command', 'true', '--issues-file', './.beads/issues.jsonl'],
          { env: { PATH: path.dirname(process.execPath) + ':/usr/bin:/bin' } },
        );
        expectExit(r, 2);
        expect(r.stderr).toContain(`--agent ${agent}: \`${agent}\` is not on PATH. Install it (npm install -g ${pkg})`);
        expect(await checkpointFiles(sb)).toEqual([]);
      }
    });
  });

  it('a reader that goes away (agent-loop … | true) ends nothing badly: no EPIPE crash, the run still completes', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const agent = await writeAgent(sb, 'fixer', FIXER);
      const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
      // \`true\` exits at once without reading: every write of the CLI meets a closed pipe.
      const pipeline = `${quote(process.execPath)} ${quote(CLI)} ${runArgs(agent).map(quote).join(' ')} | true`;
      const r = spawnSync('sh', ['-c', pipeline], { cwd: sb.repo, env: sb.env, encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
      expect(readIssues(sb)[0]).toMatchObject({ status: 'closed' });
      const status = spawnSync('sh', ['-c', `${quote(process.execPath)} ${quote(CLI)} status --json | true`], {
        cwd: sb.repo,
        env: sb.env,
        encoding: 'utf8',
      });
      expect(status.stderr).not.toMatch(/EPIPE|Unhandled/);
    });
  });

  it('--help of run, status and cleanup exits 0 and lists exactly the options of that command', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      for (const command of ['run', 'status', 'cleanup'] as Command[]) {
        const r = await runCli(sb, [command, '--help']);
        expectExit(r, 0);
        expect(r.stdout).toContain(`Usage: agent-loop ${command} [options]`);
        const listed = r.stdout.split('\n').flatMap((line) => /^ {2}--([a-z][a-z-]*)/.exec(line)?.[1] ?? []);
        const expected = OPTIONS.filter((o) => o.commands.includes(command)).map((o) => o.flag);
        expect([...listed].sort()).toEqual([...expected, 'help'].sort());
        for (const o of OPTIONS.filter((opt) => opt.commands.includes(command))) expect(r.stdout).toContain(o.env);
      }
    });
  });

  it('issue 15: --agent-command alone runs the command as the agent; beside --agent claude it is exit 2 naming both', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const agent = await writeAgent(sb, 'fixer', FIXER);
      const args = runArgs(agent).filter((a, i, all) => a !== '--agent' && all[i - 1] !== '--agent');
      expect(args).not.toContain('--agent');

      const conflict = await runCli(sb, [...args, '--agent', 'claude']);
      expectExit(conflict, 2);
      expect(conflict.stderr).toContain(
        '--agent claude and --agent-command contradict each other: --agent claude runs Claude Code, --agent-command runs a command as the agent. To run the command, give --agent command or leave --agent out; to run Claude Code, leave --agent-command out.',
      );
      expect(await checkpointFiles(sb)).toEqual([]);

      const r = await runCli(sb, args);
      expectExit(r, 0);
      expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', issuesClosed: ['bd-1'] });
    });
  });

  it('issue 15: status calls iterations whose agent ran but whose tests failed what they are, not successful', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      // Says it is done and changes nothing: the tests keep failing.
      const claimsDone = await writeAgent(sb, 'claims-done', DONE_REPORT);
      const r = await runCli(sb, runArgs(claimsDone, '--slice-iterations', '2'));
      expectExit(r, 0);
      expect(lastResult(r.stdout)).toMatchObject({ status: 'continuing', successfulIterations: 2, testFailures: 2 });

      const status = await runCli(sb, ['status']);
      expectExit(status, 0);
      expect(status.stdout).toContain(
        '  iterations: 2: 0 passed their tests, 2 failed their tests (agent ran), 0 agent runs failed',
      );
      expect(status.stdout).not.toMatch(/successful/);
    });
  });

  it('issue 15: a mistyped command or option is exit 2 with what was most likely meant, and nothing runs', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const command = await runCli(sb, ['stauts']);
      expectExit(command, 2);
      expect(command.stdout).toBe('');
      expect(command.stderr).toContain("Unknown command 'stauts': did you mean status?");

      const option = await runCli(sb, ['run', '--max-iteration', '5', '--agent-command', 'true']);
      expectExit(option, 2);
      expect(option.stderr).toContain('Unknown option --max-iteration: did you mean --max-iterations?');
      expect(option.stderr).not.toContain("Unexpected argument '5'");
      expect(await checkpointFiles(sb)).toEqual([]);
    });
  });

  it("escalation commits the cycle's work as wip: and moves on; the escalation that halts (failure loop) leaves branch, edits and checkpoint as they are", async () => {
    await withSandbox([issue('bd-1', TITLE), issue('bd-2', 'Second', { priority: 2 })], async (sb) => {
      const initial = git(sb, 'rev-parse', 'main');
      const agent = await writeAgent(
        sb,
        'stuck',
        `echo "half of $AGENT_LOOP_ISSUE_IDS" > value.txt
echo "my notes" > scratch.txt
cat <<'EOF'
I cannot make this work.
\`\`\`yaml
work_remaining: the value
requires_continuation: true
stuck_detected: true
\`\`\`
EOF
`,
      );
      const r = await runCli(sb, runArgs(agent));
      expectExit(r, 1);
      const result = lastResult(r.stdout);
      expect(result).toMatchObject({
        status: 'halted',
        haltReason: 'failure_loop',
        iterations: 2,
        issuesEscalated: ['bd-1', 'bd-2'],
      });
      expect(result.error).toMatch(/^FAILURE LOOP DETECTED: 2 consecutive escalations \(issues bd-1, bd-2\)/);

      // The first escalation moved on: its work is a wip: commit on its branch, main untouched.
      expect(git(sb, 'log', '-1', '--format=%s', 'agent-loop/bd-1')).toMatch(/^wip: bd-1 escalated: stuck/);
      expect(git(sb, 'show', 'agent-loop/bd-1:value.txt')).toBe('half of bd-1');
      expect(git(sb, 'rev-parse', 'main~1')).toBe(initial);
      // The halting one moved nothing: its branch is checked out with the edits uncommitted.
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-2');
      expect(git(sb, 'rev-parse', 'agent-loop/bd-2')).toBe(git(sb, 'rev-parse', 'main'));
      // (the label of bd-2 is written into the issue file as it is, uncommitted)
      expect(git(sb, 'status', '--porcelain').split('\n').sort()).toEqual([
        ' M .beads/issues.jsonl',
        ' M value.txt',
        '?? scratch.txt',
      ]);
      expect(readFileSync(path.join(sb.repo, 'value.txt'), 'utf8')).toBe('half of bd-2\n');
      // bd-1's escalation, which did not halt, was recorded on main itself.
      expect(git(sb, 'log', '-1', '--format=%s', 'main')).toBe('agent-loop: bd-1 escalated');
      // Both issues labelled and noted in the source; the checkpoint and halt.md kept.
      for (const i of readIssues(sb)) {
        expect(i).toMatchObject({ status: 'open', labels: ['agent-loop:escalated'] });
        expect(String(i?.notes)).toMatch(/agent-loop escalated this issue at iteration \d \(.*\): stuck/);
      }
      const cp = readCheckpoint(sb, result.checkpointId);
      expect(phaseAndStage(cp)).toEqual(['implementation-failed', 'halted']);
      expect(cp.errors).toContain(result.error);
      expect(readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'halt.md'), 'utf8')).toBe(result.diagnostic);
      expect(events(r.stdout).some((e) => e.event === 'run.halted' && e.level === 'error')).toBe(true);

      // The next run: the halt stands (nothing changed), so it stops at once and moves nothing.
      const quiet = await runCli(sb, runArgs(agent));
      expectExit(quiet, 1);
      expect(lastResult(quiet.stdout)).toMatchObject({ haltReason: 'failure_loop', sliceIterations: 0 });
      expect(lastResult(quiet.stdout).standing).not.toBeNull();
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-2');
      // Resumed by hand, it parks the halted cycle's work as wip: and finds only escalated issues.
      const again = await runCli(sb, runArgs(agent, '--resume-halted'));
      expectExit(again, 1);
      expect(lastResult(again.stdout)).toMatchObject({ haltReason: 'all_escalated' });
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
      expect(git(sb, 'log', '-1', '--format=%s', 'agent-loop/bd-2')).toMatch(/^wip: agent-loop\/bd-2/);
      const onMain = git(sb, 'show', 'main:.beads/issues.jsonl')
        .split('\n')
        .map((l) => JSON.parse(l) as { labels: string[] });
      expect(onMain.map((i) => i.labels)).toEqual([['agent-loop:escalated'], ['agent-loop:escalated']]);
    });
  });

  it('a fresh run on the cycle branch a halted run left parks it first, as the resumed run would (issue 40: "or start over with --fresh" works as written)', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const agent = await writeAgent(sb, 'busy', 'echo "still working" > progress.txt');
      const halted = lastResult((await runCli(sb, runArgs(agent, '--max-iterations', '1'))).stdout);
      expect(halted.haltReason).toBe('max_iterations');
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-1');
      const r = await runCli(sb, runArgs(agent, '--fresh', '--max-iterations', '1'));
      expectExit(r, 1);
      expect(events(r.stdout).find((e) => e.event === 'git.parked')?.message).toBe(
        'Committed the work left on agent-loop/bd-1 as wip: and returned to main.',
      );
      expect(git(sb, 'log', '--format=%s', 'agent-loop/bd-1').split('\n')).toContain(
        'wip: agent-loop/bd-1 (stopped; parked by the next run)',
      );
      const fresh = lastResult(r.stdout);
      expect(fresh.checkpointId).not.toBe(halted.checkpointId);
      expect(fresh).toMatchObject({ haltReason: 'max_iterations', loop: { iterations: 1 } });
    });
  });

  it('refuses to start a fresh run on a cycle branch no loop left (exit 2, nothing written)', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      git(sb, 'checkout', '-q', '-b', 'agent-loop/bd-1');
      const r = await runCli(sb, runArgs(await writeAgent(sb, 'busy', 'echo "still working"'), '--fresh'));
      expectExit(r, 2);
      expect(r.stderr).toMatch(/agent-loop\/bd-1 is a cycle branch of an earlier run.*git checkout main/);
      expect(existsSync(path.join(sb.repo, '.git', 'agent-loop', 'checkpoints'))).toBe(false);
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-1');
    });
  });

  it('on SIGTERM ends the agent group, writes the checkpoint with every recorded iteration and exits 143; the next run resumes', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      // Iteration 1 fails (recorded); iteration 2 signals that it is running, then blocks.
      const agent = await writeAgent(
        sb,
        'blocker',
        `if [ "$AGENT_LOOP_ITERATION" = 1 ]; then echo "first try fails" >&2; exit 1; fi
echo $$ > "$NOTES/agent.pid"
exec sleep 300
`,
      );
      const child = spawn(process.execPath, [CLI, ...runArgs(agent)], {
        cwd: sb.repo,
        env: sb.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      const pidFile = path.join(sb.root, 'agent.pid');
      for (let i = 0; i < 500 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 10));
      const agentPid = Number(readFileSync(pidFile, 'utf8'));
      child.kill('SIGTERM');
      expect(await exited).toBe(143);

      const result = lastResult(Buffer.concat(out).toString('utf8'));
      expect(result).toMatchObject({ status: 'continuing', interrupted: true, iterations: 1, failedIterations: 1 });
      expect(processGone(agentPid)).toBe(true);
      const cp = readCheckpoint(sb, result.checkpointId);
      expect(phaseAndStage(cp)).toEqual(['beads_integration-complete', 'working']);

      const again = await runCli(sb, runArgs(await writeAgent(sb, 'fixer', FIXER)));
      expectExit(again, 0);
      expect(lastResult(again.stdout)).toMatchObject({
        status: 'complete',
        checkpointId: result.checkpointId,
        iterations: 1,
        loop: { iterations: 2 },
      });
    });
  });

  it('--on-success branch leaves the work on agent-loop/<id>, main unchanged and checked out', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const initial = git(sb, 'rev-parse', 'main');
      const r = await runCli(sb, runArgs(await writeAgent(sb, 'fixer', FIXER), '--on-success', 'branch'));
      expectExit(r, 0);
      expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', iterations: 1, issuesClosed: ['bd-1'] });

      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
      expect(git(sb, 'rev-parse', 'main')).toBe(initial);
      expect(git(sb, 'rev-list', '--merges', '--all')).toBe('');
      expect(git(sb, 'log', '-1', '--format=%s', 'agent-loop/bd-1')).toBe(`agent-loop: bd-1 ${TITLE}`);
      expect(git(sb, 'rev-parse', 'agent-loop/bd-1^')).toBe(initial);
      expect(git(sb, 'show', 'agent-loop/bd-1:value.txt')).toBe('good');
      expect(readFileSync(path.join(sb.repo, 'value.txt'), 'utf8')).toBe('bad\n');
      expect(git(sb, 'status', '--porcelain')).toBe('');
    });
  });

  it('--on-success branch: while a finished branch is unmerged, later runs do not work its issue again (idle, and they say why); once the branch is deleted, the issue is worked again', async () => {
    await withSandbox([issue('bd-1', TITLE), issue('bd-2', 'Another')], async (sb) => {
      const fixer = await writeAgent(sb, 'fixer', `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/invocations"\n${FIXER}`);
      const invocations = () => readFileSync(path.join(sb.root, 'invocations'), 'utf8').trim().split('\n');
      const run = () => runCli(sb, runArgs(fixer, '--on-success', 'branch'));
      const first = await run();
      expectExit(first, 0);
      expect(lastResult(first.stdout)).toMatchObject({ status: 'complete', issuesClosed: ['bd-1', 'bd-2'] });
      expect(invocations()).toEqual(['bd-1', 'bd-2']);
      const checkpoints = await checkpointFiles(sb);

      // Both closed on their branches only: a new run finds nothing to do, writes nothing, and says why.
      const second = await run();
      expectExit(second, 0);
      expect(lastResult(second.stdout)).toMatchObject({ status: 'complete', idle: true });
      expect(invocations()).toEqual(['bd-1', 'bd-2']);
      expect(await checkpointFiles(sb)).toEqual(checkpoints);
      const skipped = events(second.stdout).filter((e) => e.event === 'issue.on_branch');
      expect(skipped.map((e) => e.issueId)).toEqual(['bd-1', 'bd-2']);
      expect(String(skipped[0]?.message)).toBe(
        'Skipping bd-1: its work is finished on agent-loop/bd-1, which is not merged into main (the issue is closed there). Merge agent-loop/bd-1 to land it, or delete it (git branch -D agent-loop/bd-1) to have agent-loop work on the issue again.',
      );

      // A person deletes bd-2's branch: bd-2 is worked again (once), bd-1 still not, and said once.
      git(sb, 'branch', '-D', 'agent-loop/bd-2');
      const third = await run();
      expectExit(third, 0);
      expect(lastResult(third.stdout)).toMatchObject({ status: 'complete', issuesClosed: ['bd-2'] });
      expect(invocations()).toEqual(['bd-1', 'bd-2', 'bd-2']);
      expect(
        events(third.stdout)
          .filter((e) => e.event === 'issue.on_branch')
          .map((e) => e.issueId),
      ).toEqual(['bd-1']);
    });
  });

  it('issue 40: on a terminal (COLUMNS=72) the halt\'s "What to do" and every line of its own are broken at words to fit, nothing cut; the agent\'s output is left alone', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      const agent = await writeAgent(sb, 'busy', `echo "still working: ${'w'.repeat(90)}"`);
      // --verbose: the agent's output is echoed on the console (issue 42: not by default).
      const args = runArgs(agent, '--max-iterations', '1', '--verbose').filter((a) => a !== '--json');
      const r = await runCli(sb, args, { env: { COLUMNS: '72' } });
      expectExit(r, 1);
      // halt.md keeps each paragraph on one line: the advice as written.
      const halt = readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'halt.md'), 'utf8');
      const advice = /^What to do: (.*)$/m.exec(halt)?.[1] ?? '';
      expect(advice.length).toBeGreaterThan(100);
      // On the console: the same words in the same order, on lines of at most 71 characters.
      const shown = r.stdout.slice(
        r.stdout.indexOf('What to do:'),
        r.stdout.indexOf('\n\n', r.stdout.indexOf('What to do:')),
      );
      const words = (text: string) => text.split(/\s+/).filter(Boolean);
      expect(words(shown)).toEqual(words(`What to do: ${advice}`));
      expect(shown.split('\n').length).toBeGreaterThan(2);
      let fenced = false;
      for (const line of r.stdout.trimEnd().split('\n')) {
        if (/^\s*`{3,}/.test(line)) fenced = !fenced;
        if (fenced || line.startsWith('  │ ')) continue;
        expect(`${line.length} ${line}`).toMatch(/^(\d|[1-6]\d|7[01]) /);
      }
      // The agent's own line is output: as it was printed.
      expect(r.stdout).toContain(`  │ still working: ${'w'.repeat(90)}\n`);
    });
  });

  it('prints readable progress without --json: "[iteration 1/…] <id> "<title>"" lines and the closing summary', async () => {
    await withSandbox(oneIssue(), async (sb) => {
      // --verbose: the agent's output is echoed on the console (issue 42: not by default).
      const args = runArgs(await writeAgent(sb, 'fixer', FIXER), '--verbose').filter((a) => a !== '--json');
      const r = await runCli(sb, args);
      expectExit(r, 0);
      expect(r.stdout).toContain(`[iteration 1/100] bd-1 "${TITLE}"`);
      expect(r.stdout).toContain('  │ Done.');
      const tail = r.stdout.trimEnd().split('\n').slice(-5);
      expect(tail[0]).toBe('COMPLETE');
      expect(tail[1]).toBe('  this run: 1 iteration (1 agent ok, 0 agent failed, 0 test failures); tests passed: true');
      expect(tail[2]).toBe('  closed in this run: bd-1');
      expect(tail[3]).toBe('  the loop so far: iterations 1/100; 1 issue closed, 0 escalated');
      expect(tail[4]).toMatch(/^ {2}checkpoint [0-9a-f-]{36}$/);
      expect(r.stdout.split('\n')[0]?.startsWith('{')).toBe(false);
    });
  });
});
