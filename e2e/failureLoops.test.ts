/**
 * Failure-loop scenarios (seed 002 AC1–AC5, FR1–FR6; seed 003 "API Rate Limits" and "Network
 * Timeouts") on the built CLI (dist/cli/index.js), in temporary git repositories whose test is
 * `sh check.sh` (value.txt must read "good"), with scripted agents:
 *
 * - command agents (`--agent command`) that fail the tests, bounce, get stuck or hang;
 * - for what a command agent cannot say (rate limited, not authenticated), a small `claude` first
 *   on PATH that prints recorded Claude Code streams (__tests__/fixtures/claude) and exits as the
 *   real CLI did, run with `--agent claude`;
 * - the Discord emulator (e2e/support/discordServer.ts) for --discord-webhook.
 *
 * No test sleeps: --iteration-delay is 0; the only waits are inside the CLI (a 1 s rate-limit
 * window from the recording, the Discord 429's retry_after, its backoff when Discord is down).
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  commit,
  DONE_REPORT,
  type CliResult,
  type LogEvent,
  type RunResultJson,
  type Sandbox,
  changeIssue,
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
  claudeArgs,
  runCli,
  shellQuote,
  writeAgent,
  phaseAndStage,
} from './helpers.js';
import { startDiscordServer } from './support/discordServer.js';
import { actionVocabulary } from './support/vocabulary.js';

const ESCALATED = 'agent-loop:escalated';
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '__tests__', 'fixtures', 'claude');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
const RFC3339 = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g;

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

/** Open issues bd-1, bd-2, … in this order (equal priority, each one second younger). */
const issues = (...titles: string[]) =>
  titles.map((title, i) =>
    issue(`bd-${i + 1}`, title, { created_at: `2026-11-01T09:00:0${i}Z`, updated_at: `2026-11-01T09:00:0${i}Z` }),
  );

// --- scripted agents ------------------------------------------------------------------------------

/**
 * Says it is done and changes value.txt every time, but never to "good": the tests keep failing.
 * It prints an early marker, then more than 500 characters, then a late marker and its report as
 * bare `key: value` lines (no code fence), so the last 500 characters are known exactly
 * (`failingOutput`).
 */
const FAILING = `echo "attempt $AGENT_LOOP_ITERATION on $AGENT_LOOP_ISSUE_IDS" > value.txt
echo "EARLY-MARKER iteration $AGENT_LOOP_ITERATION"
i=10
while [ $i -lt 22 ]; do
  echo "noise line $i: the agent explains at length what it tried .........."
  i=$((i + 1))
done
echo "LATE-MARKER iteration $AGENT_LOOP_ITERATION on $AGENT_LOOP_ISSUE_IDS"
echo "work_remaining: 0"
echo "requires_continuation: false"
echo "stuck_detected: false"
echo "summary: changed value.txt"
`;

/** What FAILING prints at iteration `n` for `ids`. */
function failingOutput(n: number, ids: string): string {
  const noise = Array.from(
    { length: 12 },
    (_, k) => `noise line ${k + 10}: the agent explains at length what it tried ..........\n`,
  ).join('');
  return `EARLY-MARKER iteration ${n}\n${noise}LATE-MARKER iteration ${n} on ${ids}\nwork_remaining: 0\nrequires_continuation: false\nstuck_detected: false\nsummary: changed value.txt\n`;
}

/** Makes the test pass and says so. */
const FIXER = `echo good > value.txt\n${DONE_REPORT}`;

/** Makes the test pass, leaves a line in fixes.txt (a change even when value.txt is good already) and says so. */
const FIX_AND_RECORD = `echo good > value.txt\necho "fixed $AGENT_LOOP_ISSUE_IDS" >> fixes.txt\n${DONE_REPORT}`;

/** Reports the work done without changing anything: verify's precondition fails every time. */
const NO_CHANGE = `echo "nothing to change, I think (iteration $AGENT_LOOP_ITERATION)"\n${DONE_REPORT}`;
/** Breaks the suite itself: it prints nothing and exits 3, so verify cannot run (a real step back). */
const BREAKS_SUITE = `printf 'echo "cannot import value"; exit 3\\n' > check.sh\n${DONE_REPORT}`;

/** Says it is stuck: the cycle escalates at once. */
const STUCK = `echo "half done" > value.txt
cat <<'EOF'
I cannot make this work.
\`\`\`yaml
work_remaining: the value
requires_continuation: true
stuck_detected: true
\`\`\`
EOF
`;

/** An agent that runs `scripts[id]` for the issue it is given (`*` for any other). */
function perIssue(scripts: Record<string, string>): string {
  // Bodies are not indented: their here-documents end at a line that is exactly EOF.
  const arms = Object.entries(scripts).map(
    ([id, body]) => `${id === '*' ? '*' : shellQuote(id)})\n${body.trimEnd()}\n;;`,
  );
  return `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked.txt"\ncase "$AGENT_LOOP_ISSUE_IDS" in\n${arms.join('\n')}\nesac\n`;
}

/** The issues the agent was given, one line per iteration (perIssue agents). */
const worked = (sb: Sandbox): string[] => {
  const file = path.join(sb.root, 'worked.txt');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
};

// --- a stand-in `claude` that replays recorded streams --------------------------------------------

type Recording = { stream: string; exit: number; fixValue?: boolean };

/**
 * Writes `<root>/bin/claude`: it reads the prompt from stdin, logs the call (its time in ms) to
 * `<root>/claude/calls`, prints the recording named by line N of `<root>/claude/plan` (the last
 * line once the plan runs out) and exits with its exit code. Returns the environment that puts
 * it first on PATH.
 */
async function writeClaude(
  sb: Sandbox,
  recordings: Record<string, Recording>,
  plan: string[],
): Promise<NodeJS.ProcessEnv> {
  const dir = path.join(sb.root, 'claude');
  const bin = path.join(sb.root, 'bin');
  await fs.mkdir(dir, { recursive: true });
  await fs.mkdir(bin, { recursive: true });
  for (const [name, r] of Object.entries(recordings)) {
    await fs.writeFile(path.join(dir, `${name}.ndjson`), r.stream.endsWith('\n') ? r.stream : `${r.stream}\n`);
    await fs.writeFile(path.join(dir, `${name}.exit`), `${r.exit}\n`);
    if (r.fixValue) await fs.writeFile(path.join(dir, `${name}.fix`), '');
  }
  await fs.writeFile(path.join(dir, 'plan'), `${plan.join('\n')}\n`);
  const file = path.join(bin, 'claude');
  await fs.writeFile(
    file,
    `#!/bin/sh
D=${shellQuote(dir)}
cat > /dev/null
n=$(( $(cat "$D/count" 2>/dev/null || echo 0) + 1 ))
echo $n > "$D/count"
date +%s%3N >> "$D/calls"
kind=$(sed -n "\${n}p" "$D/plan")
[ -n "$kind" ] || kind=$(tail -n 1 "$D/plan")
[ -e "$D/$kind.fix" ] && echo good > value.txt
cat "$D/$kind.ndjson"
exit $(cat "$D/$kind.exit")
`,
  );
  await fs.chmod(file, 0o755);
  return { PATH: `${bin}:${sb.env.PATH ?? ''}` };
}

/** The times (epoch ms) at which the stand-in claude was called. */
const claudeCalls = (sb: Sandbox): number[] => {
  const file = path.join(sb.root, 'claude', 'calls');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [];
};

const recording = (name: string): Recording => ({
  stream: readFileSync(path.join(FIXTURES, `${name}.ndjson`), 'utf8'),
  exit: Number(readFileSync(path.join(FIXTURES, `${name}.exit`), 'utf8').trim()),
});

/** The recorded success, shaped as Claude Code prints it, with the result text replaced. */
function successSaying(text: string): Recording {
  const lines = recording('success-with-tools').stream.split('\n').filter(Boolean);
  const init = lines[0] as string;
  const result = JSON.parse(lines[lines.length - 1] as string) as Record<string, unknown>;
  return { stream: `${init}\n${JSON.stringify({ ...result, result: text })}\n`, exit: 0 };
}

// --- reading results ------------------------------------------------------------------------------

/** Fails with the run's output when the exit code is not `code`; returns the run result. */
function result(r: CliResult, code: number): RunResultJson & Record<string, unknown> {
  expectExit(r, code);
  return lastResult(r.stdout) as RunResultJson & Record<string, unknown>;
}

const named = (r: CliResult, name: string): LogEvent[] => events(r.stdout).filter((e) => e.event === name);

interface LoopJson {
  iteration: number;
  consecutiveEscalations: number;
  totalEscalations: number;
  issuesEscalated: string[];
  escalations: Array<{ issueIds: string[]; steps: string[]; reason: string; iteration: number; note: string }>;
  halt?: { reason: string; message: string };
  parkedBranch?: string;
  rateLimitedUntil?: string;
  currentCycle?: {
    issueIds: string[];
    rateLimitAttempts: number;
    timeoutRetries: number;
    progress: { retries: Record<string, number>; bounces: number };
  };
  history: Array<{ n: number; outcome: string; issueIds: string[] }>;
}

const loopOf = (sb: Sandbox, id: string): LoopJson => readCheckpoint(sb, id).state.loop as unknown as LoopJson;

/** What a person does to retry an escalated issue: removes its label from the beads file and commits. */
async function removeLabel(sb: Sandbox, id: string): Promise<void> {
  await editIssue(sb, id, `retry ${id}`, (line) => {
    line.labels = (line.labels as string[]).filter((l) => l !== ESCALATED);
  });
}

/** A person changes an issue in the beads file and commits it. */
async function editIssue(
  sb: Sandbox,
  id: string,
  message: string,
  change: (line: Record<string, unknown>) => void,
): Promise<void> {
  await changeIssue(sb, id, change);
  commit(sb, message, { tracked: true, by: 'person' });
}

/** The beads file with the escalation times taken out. */
const issuesWithoutTimes = (sb: Sandbox) =>
  JSON.parse(JSON.stringify(readIssues(sb)).replace(RFC3339, '<time>')) as unknown;

/** What must come out the same whenever the same failure pattern is run. */
function outcomeOf(
  r: RunResultJson & Record<string, unknown>,
  history: Array<{ n: number; outcome: string }> = r.history,
) {
  // The loop's totals (issue 40): a halt reached over several invocations is compared with a one-run halt.
  return {
    status: r.status,
    haltReason: r.haltReason,
    error: r.error,
    iterations: r.loop.iterations,
    issuesEscalated: r.loop.issuesEscalated,
    issuesClosed: r.loop.issuesClosed,
    failedIterations: r.loop.failedIterations,
    testFailures: r.loop.testFailures,
    history: history.map((h) => `${h.n}:${h.outcome}`),
    diagnostic: (r.diagnostic ?? '').replace(UUID, '<checkpoint>').replace(RFC3339, '<time>'),
  };
}

/** The one-run reference of AC1: two issues whose tests never pass. */
async function ac1InOneRun(): Promise<ReturnType<typeof outcomeOf>> {
  let outcome: ReturnType<typeof outcomeOf> | undefined;
  await withSandbox(issues('First', 'Second'), async (sb) => {
    outcome = outcomeOf(result(await runCli(sb, runArgs(await writeAgent(sb, 'failing', FAILING))), 1));
  });
  return outcome!;
}

const AC1_ERROR =
  'FAILURE LOOP DETECTED: 2 consecutive escalations (issues bd-1, bd-2); last: step verify failed 4 times (retries exhausted: --max-retries-per-step 3); last: tests: 1 target(s) still failing (value_is_good)';

describe('failure loops (seed 002) and retry policies (seed 003) on the built CLI', () => {
  it('AC1/FR1/FR5: two issues whose tests never pass escalate back to back → exit 1, failure_loop after 8 iterations, both labelled and noted', async () => {
    await withSandbox(issues('First', 'Second'), async (sb) => {
      const r = await runCli(
        sb,
        runArgs(await writeAgent(sb, 'failing', perIssue({ '*': FAILING })), '--max-retries-per-step', '3'),
      );
      const res = result(r, 1);
      expect(res).toMatchObject({
        status: 'halted',
        haltReason: 'failure_loop',
        error: AC1_ERROR,
        iterations: 8,
        testFailures: 8,
        failedIterations: 0,
        issuesEscalated: ['bd-1', 'bd-2'],
        issuesClosed: [],
        testsPassed: false,
      });
      expect(res.error).toMatch(/^FAILURE LOOP DETECTED: 2 consecutive escalations \(issues bd-1, bd-2\)/);
      // 4 attempts per issue (1 + 3 retries of the verify step), every one a test failure.
      expect(worked(sb)).toEqual([...Array(4).fill('bd-1'), ...Array(4).fill('bd-2')]);
      expect(res.history.map((h) => h.outcome)).toEqual(Array(8).fill('tests_failed'));

      const escalated = named(r, 'cycle.escalated');
      expect(escalated.map((e) => [e.issueIds, e.consecutiveEscalations, e.steps])).toEqual([
        [['bd-1'], 1, ['verify']],
        [['bd-2'], 2, ['verify']],
      ]);
      expect(named(r, 'run.halted')).toHaveLength(1);
      expect(named(r, 'run.halted')[0]).toMatchObject({ level: 'error', haltReason: 'failure_loop' });

      for (const [i, found] of readIssues(sb).entries()) {
        expect(found).toMatchObject({ id: `bd-${i + 1}`, status: 'open', labels: [ESCALATED] });
        expect(String(found?.notes)).toMatch(
          new RegExp(
            `^agent-loop escalated this issue at iteration ${4 * (i + 1)} \\(${RFC3339.source}\\): step verify failed 4 times .*Remove the ${ESCALATED} label`,
          ),
        );
      }
    });
  });

  it('AC1 across invocations (--slice-iterations 1): every invocation before the halt exits 0 continuing; the escalations fall in different invocations; the halt is exactly the one-run halt', async () => {
    const reference = await ac1InOneRun();
    await withSandbox(issues('First', 'Second'), async (sb) => {
      const agent = await writeAgent(sb, 'failing', FAILING);
      const runs: Array<RunResultJson & Record<string, unknown>> = [];
      for (let n = 1; n <= 7; n++) {
        const res = result(await runCli(sb, runArgs(agent, '--slice-iterations', '1')), 0);
        expect(res).toMatchObject({
          status: 'continuing',
          haltReason: null,
          iterations: 1,
          sliceIterations: 1,
          loop: { iterations: n },
        });
        runs.push(res);
      }
      // bd-1 escalated in invocation 4, which went on (exit 0) with the count kept in the checkpoint.
      // This run's escalations, and the loop's (issue 40).
      expect(runs.map((r) => r.issuesEscalated)).toEqual([[], [], [], ['bd-1'], [], [], []]);
      expect(runs.map((r) => r.loop.issuesEscalated)).toEqual([[], [], [], ['bd-1'], ['bd-1'], ['bd-1'], ['bd-1']]);
      const id = runs[0]!.checkpointId;
      expect(loopOf(sb, id)).toMatchObject({ consecutiveEscalations: 1, totalEscalations: 1 });
      expect(readIssues(sb).map((i) => i?.labels)).toEqual([[ESCALATED], undefined]);

      const last = result(await runCli(sb, runArgs(agent, '--slice-iterations', '1')), 1);
      expect(last).toMatchObject({ checkpointId: id, sliceIterations: 1 });
      expect(outcomeOf(last, loopOf(sb, id).history)).toEqual(reference);
      expect(last.error).toBe(AC1_ERROR);
      expect(loopOf(sb, id)).toMatchObject({ consecutiveEscalations: 2, totalEscalations: 2, slices: 8 });
      expect(readIssues(sb).map((i) => i?.labels)).toEqual([[ESCALATED], [ESCALATED]]);
    });
  });

  it('AC1 across invocations, the slice ending right between the two escalations (--slice-iterations 4): continuing with 1 escalation counted, then the same failure_loop halt', async () => {
    const reference = await ac1InOneRun();
    await withSandbox(issues('First', 'Second'), async (sb) => {
      const agent = await writeAgent(sb, 'failing', FAILING);
      const first = result(await runCli(sb, runArgs(agent, '--slice-iterations', '4')), 0);
      expect(first).toMatchObject({ status: 'continuing', iterations: 4, issuesEscalated: ['bd-1'] });
      // The first escalation moved on: the label committed on main, main checked out, counter in the checkpoint.
      expect(loopOf(sb, first.checkpointId)).toMatchObject({ consecutiveEscalations: 1, totalEscalations: 1 });
      expect(loopOf(sb, first.checkpointId).currentCycle).toBeUndefined();
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
      expect(git(sb, 'log', '-1', '--format=%s', 'main')).toBe('agent-loop: bd-1 escalated');

      const second = result(await runCli(sb, runArgs(agent, '--slice-iterations', '4')), 1);
      expect(second).toMatchObject({ checkpointId: first.checkpointId, sliceIterations: 4 });
      expect(outcomeOf(second, loopOf(sb, second.checkpointId).history)).toEqual(reference);
    });
  });

  it('FR1/FR6: a successful cycle between two escalations resets the count: bad, good, bad → no failure_loop; all_escalated with the good one closed', async () => {
    await withSandbox(issues('Bad one', 'Good one', 'Bad two'), async (sb) => {
      const agent = await writeAgent(sb, 'mixed', perIssue({ 'bd-2': FIXER, '*': FAILING }));
      const r = await runCli(sb, runArgs(agent));
      const res = result(r, 1);
      expect(res).toMatchObject({
        status: 'halted',
        haltReason: 'all_escalated',
        error: 'ALL ISSUES ESCALATED: only escalated issues remain (bd-1, bd-3)',
        iterations: 9,
        issuesClosed: ['bd-2'],
        issuesEscalated: ['bd-1', 'bd-3'],
        completedIterations: [5],
      });
      expect(worked(sb)).toEqual([...Array(4).fill('bd-1'), 'bd-2', ...Array(4).fill('bd-3')]);
      expect(named(r, 'cycle.escalated').map((e) => e.consecutiveEscalations)).toEqual([1, 1]);
      expect(loopOf(sb, res.checkpointId)).toMatchObject({ consecutiveEscalations: 1, totalEscalations: 2 });
      expect(res.diagnostic).toContain('- Loop type: only escalated issues remain');
      expect(res.diagnostic).toContain('- Escalations: 1 consecutive (limit 2), 2 in the loop so far');
      expect(readIssues(sb).map((i) => [i?.id, i?.status, i?.labels])).toEqual([
        ['bd-1', 'open', [ESCALATED]],
        ['bd-2', 'closed', undefined],
        ['bd-3', 'open', [ESCALATED]],
      ]);
      expect(git(sb, 'show', 'main:value.txt')).toBe('good');
    });
  });

  it('AC2/FR2: an issue escalated in an earlier run is skipped; when only escalated issues remain the run halts all_escalated; removing the label makes it eligible again', async () => {
    const escalatedBefore = issue('bd-1', 'Escalated before', {
      created_at: '2026-11-01T09:00:00Z',
      labels: [ESCALATED],
      notes: 'agent-loop escalated this issue at iteration 4 (2026-11-01T10:00:00Z): stuck.',
    });
    await withSandbox(
      [escalatedBefore, issue('bd-2', 'Fresh one', { created_at: '2026-11-01T09:00:01Z' })],
      async (sb) => {
        const agent = await writeAgent(sb, 'fixer', perIssue({ '*': FIX_AND_RECORD }));
        const r1 = await runCli(sb, runArgs(agent));
        const res1 = result(r1, 1);
        expect(worked(sb)).toEqual(['bd-2']);
        expect(res1).toMatchObject({
          status: 'halted',
          haltReason: 'all_escalated',
          error: 'ALL ISSUES ESCALATED: only escalated issues remain (bd-1)',
          iterations: 1,
          issuesClosed: ['bd-2'],
          issuesEscalated: [],
        });
        expect(res1.diagnostic?.split('\n')[0]).toBe(
          '# agent-loop halted: ALL ISSUES ESCALATED: only escalated issues remain (bd-1)',
        );
        expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');

        // Again: nothing to work, no agent run.
        const res2 = result(await runCli(sb, runArgs(agent)), 1);
        expect(res2).toMatchObject({
          haltReason: 'all_escalated',
          iterations: 0,
          sliceIterations: 0,
          loop: { iterations: 1 },
        });
        expect(worked(sb)).toEqual(['bd-2']);

        // A person removes the label (and commits): the next run works bd-1.
        await removeLabel(sb, 'bd-1');
        const res3 = result(await runCli(sb, runArgs(agent)), 0);
        expect(res3).toMatchObject({
          status: 'complete',
          checkpointId: res1.checkpointId,
          iterations: 1,
          issuesClosed: ['bd-1'],
          loop: { iterations: 2, issuesClosed: ['bd-2', 'bd-1'] },
        });
        expect(worked(sb)).toEqual(['bd-2', 'bd-1']);
        expect(readIssues(sb).map((i) => i?.status)).toEqual(['closed', 'closed']);
      },
    );
  });

  it('AC2: an issue escalated by the run being resumed becomes eligible again once a person removes its label, as the halt diagnostic says', async () => {
    await withSandbox(issues('Hard one'), async (sb) => {
      const failing = await writeAgent(sb, 'failing', perIssue({ '*': FAILING }));
      // One escalation, then only the escalated issue is left: all_escalated (on main, label committed).
      const first = result(await runCli(sb, runArgs(failing)), 1);
      expect(first).toMatchObject({ haltReason: 'all_escalated', iterations: 4, issuesEscalated: ['bd-1'] });
      expect(first.diagnostic).toContain('remove the agent-loop:escalated label');
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
      expect(git(sb, 'status', '--porcelain')).toBe('');

      await removeLabel(sb, 'bd-1');

      const second = result(
        await runCli(sb, runArgs(await writeAgent(sb, 'fixer', perIssue({ '*': FIX_AND_RECORD })))),
        0,
      );
      expect(second).toMatchObject({
        status: 'complete',
        checkpointId: first.checkpointId,
        issuesClosed: ['bd-1'],
        iterations: 1,
        loop: { iterations: 5 },
      });
      expect(worked(sb)).toEqual([...Array(4).fill('bd-1'), 'bd-1']);
      // Merged into main cleanly: the person's edit (no label) and the escalation note kept, the issue closed.
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
      expect(git(sb, 'status', '--porcelain')).toBe('');
      expect(git(sb, 'show', 'main:value.txt')).toBe('good');
      const onMain = JSON.parse(git(sb, 'show', 'main:.beads/issues.jsonl')) as Record<string, unknown>;
      expect(onMain).toMatchObject({ id: 'bd-1', status: 'closed', labels: [] });
      expect(String(onMain.notes)).toMatch(/^agent-loop escalated this issue at iteration 4 /);
    });
  });

  it('issue 14: a person edits the escalated issue (its description, the label left on): the halted loop resumes by itself and works it again', async () => {
    await withSandbox(issues('Hard one'), async (sb) => {
      const failing = await writeAgent(sb, 'failing', perIssue({ '*': FAILING }));
      const first = result(await runCli(sb, runArgs(failing)), 1);
      expect(first).toMatchObject({ haltReason: 'all_escalated', iterations: 4, issuesEscalated: ['bd-1'] });
      expect(first.diagnostic).toContain(
        'or edit the issue (its title or text) to say more: the next run resumes by itself',
      );
      const fixer = await writeAgent(sb, 'fixer', perIssue({ '*': FIX_AND_RECORD }));
      // Unchanged: the halt stands, nothing runs.
      expect(result(await runCli(sb, runArgs(fixer)), 1)).toMatchObject({
        haltReason: 'all_escalated',
        sliceIterations: 0,
        standing: expect.objectContaining({ resume: ['unlabel'] }),
      });

      await editIssue(sb, 'bd-1', 'say what good means', (line) => {
        line.description = 'value.txt must read "good": nothing else is accepted.';
      });
      const r = await runCli(sb, runArgs(fixer));
      const second = result(r, 0);
      expect(second).toMatchObject({ status: 'complete', checkpointId: first.checkpointId, issuesClosed: ['bd-1'] });
      const log = events(r.stdout).map((e) => [e.event, e.message]);
      expect(log).toContainEqual(['run.halt_lifted', 'Resuming the halted run: bd-1 was edited since the escalation.']);
      expect(log).toContainEqual(['issue.edited', 'bd-1 was edited since its escalation: trying again.']);
      expect(worked(sb)).toEqual([...Array(4).fill('bd-1'), 'bd-1']);
    });
  });

  it('AC3/FR3: verify cannot run (the agent broke the suite itself) bounces verify → implement; the 4th step-back halts bounce_loop after 4 iterations', async () => {
    await withSandbox(issues('Bouncy'), async (sb) => {
      const r = await runCli(sb, runArgs(await writeAgent(sb, 'breaks-suite', BREAKS_SUITE)));
      const res = result(r, 1);
      expect(res).toMatchObject({
        status: 'halted',
        haltReason: 'bounce_loop',
        iterations: 4,
        issuesEscalated: ['bd-1'],
        testFailures: 0,
      });
      expect(res.error).toBe(
        'BOUNCE LOOP DETECTED: 4 step-back transitions in cycle for issue bd-1 (verify→implement, verify→implement, verify→implement, verify→implement)',
      );
      expect(res.history.map((h) => h.outcome)).toEqual(['bounced', 'bounced', 'bounced', 'bounced']);
      expect(res.history[0]?.verdict).toMatchObject({ kind: 'cannot_run' });
      const bounces = named(r, 'step.bounce');
      expect(bounces.map((e) => [e.iteration, e.from, e.to])).toEqual(
        [1, 2, 3, 4].map((n) => [n, 'verify', 'implement']),
      );
      expect(bounces.every((e) => e.level === 'warn')).toBe(true);
      expect(String(bounces[0]?.message)).toContain('the test output can no longer be read per test (exit code 3)');
      expect(named(r, 'cycle.escalated')[0]).toMatchObject({ issueIds: ['bd-1'], bounceLoop: true });
      expect(res.diagnostic).toContain('- Loop type: step bounce');
      expect(res.diagnostic).toContain('- Steps involved: verify→implement');
      // Seed 002 AC5's example: the branch stays.
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-1');
      expect(readIssues(sb)[0]).toMatchObject({ labels: [ESCALATED] });
    });
  });

  it('an agent that never ends with a report block (garbage, a file touched each time) and never closes its issue: escalated as stuck after 3 agent runs, not run to --max-iterations', async () => {
    await withSandbox(issues('Silent one'), async (sb) => {
      const silent = `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked.txt"
printf 'thinking\\x00\\x1b[31m%s\\n' "$AGENT_LOOP_ITERATION"
echo "attempt $AGENT_LOOP_ITERATION" > value.txt
`;
      const r = await runCli(sb, runArgs(await writeAgent(sb, 'silent', silent), '--max-iterations', '20'));
      const res = result(r, 1);
      expect(res).toMatchObject({ status: 'halted', haltReason: 'all_escalated', iterations: 3 });
      expect(worked(sb)).toEqual(['bd-1', 'bd-1', 'bd-1']);
      expect(res.history.map((h) => h.outcome)).toEqual(['continuing', 'continuing', 'stuck']);
      expect(named(r, 'cycle.stuck')[0]?.message).toMatch(
        /stuck on bd-1 "Silent one": the agent ended 3 iterations in a row without a report block .* and the issue is not closed: nothing says the work moves on\.$/,
      );
      expect(readIssues(sb)[0]).toMatchObject({ status: 'open', labels: [ESCALATED] });
    });
  });

  it('--max-iterations-per-issue: an agent that says work remains in new words every time is escalated after N runs of the issue, its work kept as wip:, and the next issue is worked', async () => {
    await withSandbox(issues('Endless', 'Easy'), async (sb) => {
      const agent = perIssue({
        'bd-1': `echo "attempt $AGENT_LOOP_ITERATION" > value.txt
printf 'Making progress.\\nwork_remaining: part %s of the parser\\nrequires_continuation: true\\n' "$AGENT_LOOP_ITERATION"`,
        '*': `echo good > value.txt\n${DONE_REPORT}`,
      });
      const r = await runCli(
        sb,
        runArgs(await writeAgent(sb, 'endless', agent), '--max-iterations-per-issue', '4', '--max-iterations', '30'),
      );
      // Then only the escalated bd-1 is left: halted all_escalated, as for any escalation.
      const res = result(r, 1);
      expect(res).toMatchObject({
        status: 'halted',
        haltReason: 'all_escalated',
        iterations: 5,
        issuesClosed: ['bd-2'],
        issuesEscalated: ['bd-1'],
      });
      expect(worked(sb)).toEqual(['bd-1', 'bd-1', 'bd-1', 'bd-1', 'bd-2']);
      expect(named(r, 'cycle.stuck')[0]?.message).toMatch(
        /stuck on bd-1 "Endless": 4 agent runs on this cycle ended with work still remaining \(now: part 4 of the parser\): the limit is --max-iterations-per-issue 4\.$/,
      );
      expect(git(sb, 'show', 'agent-loop/bd-1:value.txt')).toBe('attempt 4');
      expect(readIssues(sb)[0]).toMatchObject({ status: 'open', labels: [ESCALATED] });
    });
  });

  it('an agent that reports done but changes nothing, on an issue whose test still fails: rejected with the test named, never a bounce', async () => {
    await withSandbox(issues('Claims done'), async (sb) => {
      const r = await runCli(sb, runArgs(await writeAgent(sb, 'no-change', NO_CHANGE)));
      const res = result(r, 1);
      expect(res).toMatchObject({ status: 'halted', haltReason: 'all_escalated', iterations: 4, testFailures: 4 });
      expect(res.history.map((h) => h.outcome)).toEqual([
        'tests_failed',
        'tests_failed',
        'tests_failed',
        'tests_failed',
      ]);
      expect(named(r, 'step.bounce')).toEqual([]);
      expect(res.history[0]?.verdict?.summary).toBe('1 target(s) still failing (value_is_good)');
    });
  });

  it('AC4/FR4: the halt diagnostic (result, halt.md, halt.diagnostic event) names the loop type, issues, steps, escalation counts and holds exactly the last 500 characters of agent output', async () => {
    await withSandbox(issues('First', 'Second'), async (sb) => {
      const r = await runCli(sb, runArgs(await writeAgent(sb, 'failing', FAILING)));
      const res = result(r, 1);
      const diagnostic = res.diagnostic as string;
      expect(readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'halt.md'), 'utf8')).toBe(diagnostic);
      const shown = named(r, 'halt.diagnostic');
      expect(shown).toHaveLength(1);
      expect(shown[0]?.message).toBe(diagnostic.trimEnd());

      expect(diagnostic.split('\n')[0]).toBe(`# agent-loop halted: ${AC1_ERROR}`);
      expect(diagnostic).toContain('- Loop type: consecutive escalations\n');
      expect(diagnostic).toContain('- Issues: bd-1 "First", bd-2 "Second"\n');
      expect(diagnostic).toContain('- Steps involved: verify\n');
      expect(diagnostic).toContain('- Escalations: 2 consecutive (limit 2), 2 in the loop so far\n');
      expect(diagnostic).toContain(`- Iteration: 8; checkpoint ${res.checkpointId}\n`);
      expect(diagnostic).toMatch(/What to do: .*remove the agent-loop:escalated label/);
      // The last agent run's output (iteration 8, bd-2): its last 500 characters, no more.
      const output = failingOutput(8, 'bd-2');
      expect(output.length).toBeGreaterThan(600);
      expect(diagnostic).toContain(
        `Last 500 characters of agent output:\n\n\`\`\`\n${output.slice(-500).trimEnd()}\n\`\`\`\n`,
      );
      expect(diagnostic).not.toContain('EARLY-MARKER');
      expect(diagnostic).not.toContain(output.slice(-501));
      expect(diagnostic).toContain('LATE-MARKER iteration 8 on bd-2');
    });
  });

  it("AC4/FR4: with --discord-webhook the emulator receives exactly one message: issues, counts and what to do (in the CLI's flags) in it, allowed_mentions parse [] (issue text pings nobody), ?wait=true", async () => {
    const discord = await startDiscordServer();
    try {
      await withSandbox(issues('First <@123456789012345678>', 'Second @everyone'), async (sb) => {
        const r = await runCli(
          sb,
          runArgs(await writeAgent(sb, 'failing', FAILING), '--discord-webhook', discord.url()),
        );
        const res = result(r, 1);
        expect(res.haltReason).toBe('failure_loop');
        expect(discord.requests).toHaveLength(1);
        expect(discord.requests[0]).toMatchObject({ method: 'POST', status: 200, query: 'wait=true' });
        expect(discord.received).toHaveLength(1);
        const body = discord.received[0] as {
          embeds: Array<{ title: string; description: string; fields: Array<{ name: string; value: string }> }>;
          allowed_mentions: unknown;
        };
        expect(body.allowed_mentions).toEqual({ parse: [] });
        expect(discord.messages[0]).toMatchObject({ mentions: [], mention_roles: [], mention_everyone: false });
        expect(body.embeds).toHaveLength(1);
        const embed = body.embeds[0]!;
        expect(embed.title).toBe('agent-loop halted: consecutive escalations');
        expect(embed.description).toContain('FAILURE LOOP DETECTED: 2 consecutive escalations (issues bd-1, bd-2)');
        expect(embed.description).toContain('LATE-MARKER iteration 8 on bd-2');
        expect(embed.description).not.toContain('EARLY-MARKER');
        // What to do, in the CLI's words only (issue 40): its flags, none of the action's inputs.
        expect(embed.description).toContain('once the cause is fixed, run agent-loop run --resume-halted');
        expect(embed.description).toContain('or start over with --fresh');
        expect(actionVocabulary(JSON.stringify(body))).toEqual([]);
        const field = (name: string) => embed.fields.find((f) => f.name === name)?.value;
        expect(field('Issues')).toBe('bd-1 First <@123456789012345678>\nbd-2 Second @everyone');
        expect(field('Steps')).toBe('verify');
        expect(field('Escalations')).toBe('2 consecutive (limit 2), 2 total');
        expect(field('Checkpoint')).toBe(`${res.checkpointId} (iteration 8)`);
        expect(named(r, 'discord.posted')).toHaveLength(1);
        expect(named(r, 'discord.posted')[0]?.message).toBe('Posted the halt diagnostic to Discord (1 attempt).');
        expect(named(r, 'discord.failed')).toEqual([]);
      });
    } finally {
      await discord.close();
    }
  });

  it('AC4 redaction: the webhook URL and its token, and a declared secret (DEPLOY_TOKEN) the agent prints (GITHUB_TOKEN itself no longer reaches the agent), appear nowhere (stdout, stderr, halt.md, checkpoint, what Discord received)', async () => {
    const discord = await startDiscordServer();
    const secret = 'ghp_' + 'Zq7xR2mK9vT4wL8nB3cY6hJ1dF5gS0pA2eU7';
    try {
      await withSandbox(issues('First', 'Second'), async (sb) => {
        const leaky = `${FAILING}echo "env: DEPLOY_TOKEN=$DEPLOY_TOKEN"
echo "webhook: ${discord.url()}"
echo "token alone: ${discord.token}"
`;
        const r = await runCli(sb, runArgs(await writeAgent(sb, 'leaky', leaky), '--discord-webhook', discord.url()), {
          env: { DEPLOY_TOKEN: secret },
        });
        const res = result(r, 1);
        expect(res.haltReason).toBe('failure_loop');
        expect(discord.received).toHaveLength(1);

        const stateDir = path.join(sb.repo, '.git', 'agent-loop');
        const outputs: Record<string, string> = {
          stdout: r.stdout,
          stderr: r.stderr,
          'halt.md': readFileSync(path.join(stateDir, 'halt.md'), 'utf8'),
          // What was sent (the request's own path holds the token, as it must).
          discord: JSON.stringify(discord.requests.map((q) => q.body)),
        };
        for (const f of readdirSync(path.join(stateDir, 'checkpoints')))
          outputs[`checkpoints/${f}`] = readFileSync(path.join(stateDir, 'checkpoints', f), 'utf8');
        for (const [where, text] of Object.entries(outputs)) {
          for (const value of [secret, discord.url(), discord.token, encodeURIComponent(discord.url())]) {
            if (text.includes(value)) throw new Error(`${where} holds a secret (${value.slice(0, 8)}…)`);
          }
        }
        // It was printed, and masked: the agent's lines are there with *** in place of the values.
        expect(res.diagnostic).toContain('env: DEPLOY_TOKEN=***');
        expect(res.diagnostic).toContain('token alone: ***');
        expect(r.stdout).toContain('env: DEPLOY_TOKEN=***');
        const embed = (discord.received[0] as { embeds: Array<{ description: string }> }).embeds[0]!;
        expect(embed.description).toContain('env: DEPLOY_TOKEN=***');
        expect(embed.description).not.toContain('ghp_');
        // The checkpoint holds the agent's output masked, and is still a valid, resumable checkpoint.
        expect(readFileSync(checkpointPath(sb, res.checkpointId), 'utf8')).toContain('env: DEPLOY_TOKEN=***');
        const status = await runCli(sb, ['status', '--json']);
        expectExit(status, 0);
        expect(JSON.parse(status.stdout)).toMatchObject({ resumable: res.checkpointId, invalid: [] });
      });
    } finally {
      await discord.close();
    }
  });

  it("AC4 redaction: a DEPLOY_TOKEN in a crashing agent's stderr, quoted in the escalation reason, is masked in the issues' notes and in git (history and working tree) too", async () => {
    const secret = 'ghp_' + 'Kd82nQ0xVb7Lm3Tz5Rw9Yc1Hs4Gf6Ja8Pe2U';
    await withSandbox(issues('First', 'Second'), async (sb) => {
      // It crashes differently on each issue (exit 2, then exit 1): the issues' failures, not the agent's
      // (one that fails the same way on every issue halts agent_unavailable, labelling none: issue 43).
      const crash = (code: number) => `echo "changed $AGENT_LOOP_ITERATION" > value.txt
echo "fatal: could not push with $DEPLOY_TOKEN" >&2
exit ${code}
`;
      const agent = await writeAgent(sb, 'crashing', perIssue({ 'bd-1': crash(2), '*': crash(1) }));
      const r = await runCli(sb, runArgs(agent), { env: { DEPLOY_TOKEN: secret } });
      const res = result(r, 1);
      expect(res).toMatchObject({ haltReason: 'failure_loop', iterations: 8, failedIterations: 8 });
      expect(res.error).toContain('last: exited with code 1: fatal: could not push with ***');
      const notes = readIssues(sb).map((i) => String(i?.notes));
      expect(notes.every((n) => n.includes('fatal: could not push with ***'))).toBe(true);
      const stateDir = path.join(sb.repo, '.git', 'agent-loop');
      const places: Record<string, string> = {
        stdout: r.stdout,
        stderr: r.stderr,
        'halt.md': readFileSync(path.join(stateDir, 'halt.md'), 'utf8'),
        checkpoint: readFileSync(checkpointPath(sb, res.checkpointId), 'utf8'),
        'beads file': readFileSync(path.join(sb.repo, '.beads', 'issues.jsonl'), 'utf8'),
        'git history': git(sb, 'log', '--all', '-p', '--format=%H %s%n%b'),
      };
      for (const [where, text] of Object.entries(places)) {
        if (text.includes(secret)) throw new Error(`${where} holds the DEPLOY_TOKEN value`);
      }
    });
  });

  it('issue 43: an agent that crashes the same way on every issue halts agent_unavailable before any issue is labelled; the checkout is back on main; fixed and resumed, both issues are worked', async () => {
    await withSandbox(issues('First', 'Second'), async (sb) => {
      const crashing = await writeAgent(sb, 'crashing', perIssue({ '*': 'echo "fatal: runtime broken" >&2\nexit 1' }));
      const main = git(sb, 'rev-parse', 'main');
      const r = await runCli(sb, runArgs(crashing));
      const res = result(r, 1);
      expect(res).toMatchObject({ status: 'halted', haltReason: 'agent_unavailable', issuesEscalated: [] });
      expect(res.error).toMatch(
        /^AGENT UNAVAILABLE: the agent failed the same way \(exit_code, exit 1\) on every attempt at issues bd-1 and bd-2, and nowhere worked in between: an agent problem, not the issues'; neither is labelled escalated\. Last: exited with code 1: fatal: runtime broken$/,
      );
      // 4 attempts on each issue, all failed the same way; the first issue's label was withheld.
      expect(worked(sb)).toEqual([...Array(4).fill('bd-1'), ...Array(4).fill('bd-2')]);
      expect(named(r, 'cycle.label_withheld').map((e) => e.issueIds)).toEqual([['bd-1']]);
      expect(named(r, 'agent.problem')).toHaveLength(1);
      // No issue labelled or noted, in the file or in git; the checkout back on main, clean, main unmoved.
      for (const found of readIssues(sb)) expect(found?.labels ?? []).not.toContain(ESCALATED);
      expect(git(sb, 'log', '--all', '-p', '--format=%s')).not.toContain(ESCALATED);
      expect(git(sb, 'branch', '--show-current')).toBe('main');
      expect(git(sb, 'status', '--porcelain')).toBe('');
      expect(git(sb, 'rev-parse', 'main')).toBe(main);
      const loop = loopOf(sb, res.checkpointId);
      expect(loop).toMatchObject({ issuesEscalated: [], totalEscalations: 0, consecutiveEscalations: 0 });
      expect(loop.currentCycle).toBeUndefined();
      const halt = readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'halt.md'), 'utf8');
      expect(halt).toContain('Run the agent by hand in this repository');

      // The agent fixed, the halt resumed by hand: both issues are worked and closed.
      const fixed = await writeAgent(sb, 'fixed', FIX_AND_RECORD);
      const again = result(await runCli(sb, runArgs(fixed, '--resume-halted')), 0);
      expect(again).toMatchObject({ status: 'complete', issuesClosed: ['bd-1', 'bd-2'], issuesEscalated: [] });
    });
  });

  it('issue 43: an agent that crashes on one issue and works on the next: the first is labelled escalated after all (its label withheld until then)', async () => {
    await withSandbox(issues('First', 'Second'), async (sb) => {
      const agent = await writeAgent(
        sb,
        'mixed',
        perIssue({ 'bd-1': 'echo "fatal: cannot read First" >&2\nexit 1', '*': FIX_AND_RECORD }),
      );
      const r = await runCli(sb, runArgs(agent));
      const res = result(r, 1);
      expect(res).toMatchObject({ haltReason: 'all_escalated', issuesEscalated: ['bd-1'], issuesClosed: ['bd-2'] });
      expect(named(r, 'cycle.label_withheld').map((e) => e.issueIds)).toEqual([['bd-1']]);
      expect(named(r, 'agent.problem')).toEqual([]);
      expect(readIssues(sb)[0]).toMatchObject({ id: 'bd-1', labels: [ESCALATED] });
    });
  });

  it('AC4: a Discord that answers 429 (retry_after 0.2) and then 200 still gets the one message', async () => {
    const discord = await startDiscordServer();
    try {
      discord.failNext(1, '429', 0.2);
      await withSandbox(issues('First', 'Second'), async (sb) => {
        const r = await runCli(
          sb,
          runArgs(await writeAgent(sb, 'failing', FAILING), '--discord-webhook', discord.url()),
        );
        expect(result(r, 1)).toMatchObject({ haltReason: 'failure_loop', error: AC1_ERROR });
        expect(discord.requests.map((q) => q.status)).toEqual([429, 200]);
        expect(discord.received).toHaveLength(1);
        expect(named(r, 'discord.posted')[0]?.message).toBe('Posted the halt diagnostic to Discord (2 attempts).');
        expect(named(r, 'discord.failed')).toEqual([]);
      });
    } finally {
      await discord.close();
    }
  });

  it("AC5/FR5: after the halt nothing is reset: checkpoint halted with its counters, the halting cycle's branch checked out with its edits, labels kept; status shows the halt and the counts", async () => {
    await withSandbox(issues('First', 'Second'), async (sb) => {
      const initial = git(sb, 'rev-parse', 'main');
      const res = result(await runCli(sb, runArgs(await writeAgent(sb, 'failing', FAILING))), 1);

      const cp = readCheckpoint(sb, res.checkpointId);
      expect(phaseAndStage(cp)).toEqual(['implementation-failed', 'halted']);
      expect(cp.errors).toEqual([AC1_ERROR]);
      const loop = loopOf(sb, res.checkpointId);
      expect(loop).toMatchObject({
        iteration: 8,
        consecutiveEscalations: 2,
        totalEscalations: 2,
        issuesEscalated: ['bd-1', 'bd-2'],
        halt: { reason: 'failure_loop', message: AC1_ERROR },
        parkedBranch: 'agent-loop/bd-2',
      });
      expect(loop.escalations.map((e) => [e.issueIds, e.iteration, e.steps])).toEqual([
        [['bd-1'], 4, ['verify']],
        [['bd-2'], 8, ['verify']],
      ]);
      expect(loop.escalations[1]?.reason).toBe(
        'step verify failed 4 times (retries exhausted: --max-retries-per-step 3); last: tests: 1 target(s) still failing (value_is_good)',
      );

      // The halting escalation moved nothing: its branch, its uncommitted edit, the label in the working tree.
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-2');
      expect(git(sb, 'rev-parse', 'HEAD')).toBe(git(sb, 'rev-parse', 'main'));
      expect(git(sb, 'status', '--porcelain').split('\n').sort()).toEqual([' M .beads/issues.jsonl', ' M value.txt']);
      expect(readFileSync(path.join(sb.repo, 'value.txt'), 'utf8')).toBe('attempt 8 on bd-2\n');
      expect(readIssues(sb).map((i) => i?.labels)).toEqual([[ESCALATED], [ESCALATED]]);
      // The first escalation's work is on its branch as wip:, main only got its label.
      expect(git(sb, 'show', 'agent-loop/bd-1:value.txt')).toBe('attempt 4 on bd-1');
      expect(git(sb, 'log', '--format=%s', `${initial}..main`)).toBe('agent-loop: bd-1 escalated');

      const text = await runCli(sb, ['status']);
      expectExit(text, 0);
      expect(text.stdout).toContain(`  halted:     failure_loop: ${AC1_ERROR}`);
      expect(text.stdout).toContain('  escalations: 2 in a row, 2 in all');
      expect(text.stdout).toContain('  escalated:  2 (bd-1, bd-2)');
      const json = await runCli(sb, ['status', '--json']);
      expectExit(json, 0);
      const listing = JSON.parse(json.stdout) as {
        resumable: string;
        checkpoints: Array<{ loop: Record<string, unknown> }>;
      };
      expect(listing.resumable).toBe(res.checkpointId);
      expect(listing.checkpoints[0]?.loop).toMatchObject({
        haltReason: 'failure_loop',
        haltMessage: AC1_ERROR,
        consecutiveEscalations: 2,
        totalEscalations: 2,
        issuesEscalated: ['bd-1', 'bd-2'],
      });
      // status reads; it changes nothing.
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-2');
      expect(existsSync(checkpointPath(sb, res.checkpointId))).toBe(true);
    });
  });

  it('NFR determinism: the same failure pattern in two fresh sandboxes gives the same halt (status, reason, error, iterations, escalations, history, diagnostic)', async () => {
    // bd-1: a crash, then tests failing (escalates); bd-2: fixed (resets the count); bd-3: tests
    // failing (escalates); bd-4: stuck (escalates: 2 in a row → failure_loop).
    const scenario = async () => {
      let out:
        | {
            outcome: ReturnType<typeof outcomeOf>;
            issues: unknown;
            mainLog: string;
            commits: string[];
            worked: string[];
          }
        | undefined;
      await withSandbox(issues('Crashy', 'Fine', 'Failing', 'Stuck'), async (sb) => {
        const agent = await writeAgent(
          sb,
          'pattern',
          perIssue({
            'bd-1': `if [ "$AGENT_LOOP_ITERATION" = 1 ]; then echo "fatal: simulated crash" >&2; exit 3; fi\n${FAILING}`,
            'bd-2': FIXER,
            'bd-3': FAILING,
            'bd-4': STUCK,
          }),
        );
        const res = result(await runCli(sb, runArgs(agent)), 1);
        // Git: main's first-parent line, and every commit as a set (commits made in the same second have no order).
        out = {
          outcome: outcomeOf(res),
          issues: issuesWithoutTimes(sb),
          worked: worked(sb),
          mainLog: git(sb, 'log', '--first-parent', '--format=%s', 'main'),
          commits: git(sb, 'log', '--all', '--format=%s').split('\n').sort(),
        };
      });
      return out!;
    };
    const a = await scenario();
    const b = await scenario();
    expect(b).toEqual(a);
    expect(a.outcome).toMatchObject({
      status: 'halted',
      haltReason: 'failure_loop',
      iterations: 11,
      issuesEscalated: ['bd-1', 'bd-3', 'bd-4'],
      issuesClosed: ['bd-2'],
      failedIterations: 1,
      testFailures: 8,
    });
    expect(a.outcome.error).toMatch(
      /^FAILURE LOOP DETECTED: 2 consecutive escalations \(issues bd-3, bd-4\); last: stuck/,
    );
    expect(a.outcome.history).toEqual([
      '1:agent_failed',
      '2:tests_failed',
      '3:tests_failed',
      '4:tests_failed',
      '5:tests_failed',
      '6:complete',
      '7:tests_failed',
      '8:tests_failed',
      '9:tests_failed',
      '10:tests_failed',
      '11:stuck',
    ]);
    expect(a.outcome.diagnostic).toContain('- Issues: bd-3 "Failing", bd-4 "Stuck"\n');
    expect(a.outcome.diagnostic).toContain('- Steps involved: verify, implement\n');
    expect(a.outcome.diagnostic).toContain('- Escalations: 2 consecutive (limit 2), 3 in the loop so far\n');
  });

  it('seed 003 network timeouts: a hanging agent is killed at --agent-timeout-minutes 4 times in a row (3 retries with the same timeout), then the cycle escalates and the next issue is worked', async () => {
    await withSandbox(issues('Hangs', 'Fine'), async (sb) => {
      const agent = await writeAgent(
        sb,
        'hang',
        perIssue({
          'bd-1': 'sleep 300 &\necho $! >> "$NOTES/sleepers.pid"\nwait',
          '*': FIXER,
        }),
      );
      const pids = () => {
        const file = path.join(sb.root, 'sleepers.pid');
        return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [];
      };
      try {
        const r = await runCli(sb, runArgs(agent, '--agent-timeout-minutes', '0.01'));
        const res = result(r, 1);
        expect(worked(sb)).toEqual(['bd-1', 'bd-1', 'bd-1', 'bd-1', 'bd-2']);
        const failed = named(r, 'iteration.failed');
        expect(failed.map((e) => [e.iteration, e.class, e.reason, e.error])).toEqual(
          [1, 2, 3, 4].map((n) => [n, 'transient', 'timeout', 'timed out after 0.01 min']),
        );
        // The same timeout every time: each attempt ran its full 0.6 s.
        for (const h of res.history.slice(0, 4))
          expect((h.agent as unknown as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(600);
        const escalated = named(r, 'cycle.escalated');
        expect(escalated).toHaveLength(1);
        expect(escalated[0]).toMatchObject({ issueIds: ['bd-1'], consecutiveEscalations: 1 });
        expect(escalated[0]?.reason).toBe(
          'timed out 4 times in a row (3 retries with the same timeout): timed out after 0.01 min',
        );
        // Then bd-2 is worked and closed; only the escalated bd-1 is left.
        expect(res).toMatchObject({
          haltReason: 'all_escalated',
          iterations: 5,
          failedIterations: 4,
          issuesClosed: ['bd-2'],
          issuesEscalated: ['bd-1'],
          completedIterations: [5],
        });
        expect(res.history.map((h) => h.outcome)).toEqual([
          'agent_failed',
          'agent_failed',
          'agent_failed',
          'agent_failed',
          'complete',
        ]);
        expect(pids()).toHaveLength(4);
        for (const pid of pids()) expect(processGone(pid)).toBe(true);
      } finally {
        for (const pid of pids()) if (pid > 1 && !processGone(pid)) process.kill(pid, 'SIGKILL');
      }
    });
  });

  it('seed 003 rate limits past --slice-minutes: the slice ends continuing with rateLimitedUntil in the checkpoint; the next run honours the window, and one started inside it exits 0 at once', async () => {
    await withSandbox(issues('Rate limited'), async (sb) => {
      const recorded = recording('rate-limited-429');
      // The same recording with a one-minute retry delay, so the window is surely open for run 3.
      const long = {
        ...recorded,
        stream: recorded.stream.replace('"retry_delay_ms":1000,', '"retry_delay_ms":60000,'),
      };
      expect(long.stream).not.toBe(recorded.stream);
      const env = await writeClaude(sb, { 429: recorded, long }, ['429', 'long']);

      // Run 1: the 1 s wait runs past the 0.9 s slice.
      const r1 = await runCli(sb, claudeArgs('--slice-minutes', '0.015'), { env });
      const res1 = result(r1, 0);
      expect(res1).toMatchObject({ status: 'continuing', iterations: 1, failedIterations: 1 });
      const until1 = loopOf(sb, res1.checkpointId).rateLimitedUntil as string;
      expect(until1).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      // Not before the 1000 ms Claude Code asked for, counted from when it answered.
      const [firstCall] = claudeCalls(sb);
      expect(Date.parse(until1)).toBeGreaterThanOrEqual((firstCall as number) + 1000);
      expect(named(r1, 'rate.limited').map((e) => e.message)).toEqual([
        `Rate limited until ${until1}, past this slice's end: the next run waits or resumes then.`,
      ]);
      expect(phaseAndStage(readCheckpoint(sb, res1.checkpointId))).toEqual(['beads_integration-complete', 'working']);
      const cycle1 = loopOf(sb, res1.checkpointId).currentCycle;
      expect(cycle1).toMatchObject({ issueIds: ['bd-1'], rateLimitAttempts: 1, progress: { retries: {}, bounces: 0 } });

      // Run 2: the agent is not run before the window has passed; the 60 s 429 ends this slice too.
      const r2 = await runCli(sb, claudeArgs('--slice-minutes', '0.05'), { env });
      const res2 = result(r2, 0);
      expect(res2).toMatchObject({
        status: 'continuing',
        checkpointId: res1.checkpointId,
        iterations: 1,
        sliceIterations: 1,
        loop: { iterations: 2 },
      });
      expect(claudeCalls(sb)).toHaveLength(2);
      expect(claudeCalls(sb)[1]).toBeGreaterThanOrEqual(Date.parse(until1));
      const until2 = loopOf(sb, res1.checkpointId).rateLimitedUntil as string;
      expect(Date.parse(until2)).toBeGreaterThanOrEqual((claudeCalls(sb)[1] as number) + 60_000);
      expect(loopOf(sb, res1.checkpointId).currentCycle).toMatchObject({
        rateLimitAttempts: 2,
        progress: { retries: {} },
      });

      // Run 3, inside the window: exits 0 at once, no agent run, the window kept.
      const r3 = await runCli(sb, claudeArgs('--slice-minutes', '0.05'), { env });
      const res3 = result(r3, 0);
      expect(res3).toMatchObject({ status: 'continuing', iterations: 0, sliceIterations: 0, loop: { iterations: 2 } });
      expect(named(r3, 'rate.limited').map((e) => e.message)).toEqual([
        `Rate limited until ${until2}: nothing to do in this slice; the next run continues.`,
      ]);
      expect(named(r3, 'iteration.start')).toEqual([]);
      expect(claudeCalls(sb)).toHaveLength(2);
      expect(loopOf(sb, res1.checkpointId).rateLimitedUntil).toBe(until2);
      const status = await runCli(sb, ['status']);
      expectExit(status, 0);
      expect(status.stdout).toContain(`  rate limited until ${until2}`);
    });
  });

  it('seed 003 environment failures: a Claude Code that cannot authenticate (recorded 401) halts agent_unavailable after 2 iterations, says to check ANTHROPIC_API_KEY, and blames no issue', async () => {
    await withSandbox(issues('First', 'Second'), async (sb) => {
      const env = await writeClaude(sb, { 401: recording('auth-failed-401') }, ['401']);
      const r = await runCli(sb, claudeArgs(), { env });
      const res = result(r, 1);
      expect(res).toMatchObject({
        status: 'halted',
        haltReason: 'agent_unavailable',
        iterations: 2,
        failedIterations: 2,
        issuesEscalated: [],
      });
      expect(res.error).toMatch(
        /^AGENT UNAVAILABLE: 2 environment failures in a row \(auth\): authentication failed \(HTTP 401\): Invalid API key/,
      );
      expect(named(r, 'iteration.failed').map((e) => [e.class, e.reason, e.level])).toEqual([
        ['permanent', 'auth', 'error'],
        ['permanent', 'auth', 'error'],
      ]);
      expect(res.diagnostic).toContain('- Loop type: agent unavailable');
      expect(res.diagnostic).toMatch(/What to do: .*check ANTHROPIC_API_KEY/);
      expect(claudeCalls(sb)).toHaveLength(2);
      expect(named(r, 'cycle.escalated')).toEqual([]);
      expect(readIssues(sb).map((i) => [i?.status, i?.labels, i?.notes])).toEqual([
        ['open', undefined, undefined],
        ['open', undefined, undefined],
      ]);
      expect(loopOf(sb, res.checkpointId)).toMatchObject({ consecutiveEscalations: 0, totalEscalations: 0 });
    });
  });

  // The two tests below mostly wait inside the CLI: a Discord that is down costs the halt its
  // bounded backoff (1 + 2 + 4 + 8 + 8 s), the rate limits 6 s of windows. Concurrent tests start
  // with the file and are awaited here, last, so that waiting overlaps the tests above.
  it.concurrent(
    'seed 003 rate limits (recorded Claude Code 429 stream): the waits honour retry_delay_ms and back off, rate-limited iterations do not count toward the step (5 of them, no escalation), and the run completes',
    async () => {
      await withSandbox(issues('Rate limited'), async (sb) => {
        const env = await writeClaude(
          sb,
          {
            429: recording('rate-limited-429'),
            // Each says what remains, and it moves on: not stuck (three silent runs would be).
            ...Object.fromEntries(
              ['check.sh', 'value.txt', 'the fix'].map((next, i) => [
                `work${i + 1}`,
                successSaying(`Still working.\n\nwork_remaining: ${next}\nrequires_continuation: true`),
              ]),
            ),
            done: { ...recording('success-with-tools'), fixValue: true },
          },
          ['429', '429', 'work1', '429', 'work2', '429', 'work3', '429', 'done'],
        );
        const r = await runCli(sb, claudeArgs(), { env });
        const res = result(r, 0);
        expect(res).toMatchObject({
          status: 'complete',
          iterations: 9,
          failedIterations: 5,
          issuesClosed: ['bd-1'],
          issuesEscalated: [],
          testFailures: 0,
        });
        expect(res.history.map((h) => h.outcome)).toEqual([
          'agent_failed',
          'agent_failed',
          'continuing',
          'agent_failed',
          'continuing',
          'agent_failed',
          'continuing',
          'agent_failed',
          'complete',
        ]);
        const failed = named(r, 'iteration.failed');
        expect(failed.map((e) => [e.reason, e.policy, e.retryAfterMs])).toEqual(
          Array(5).fill(['rate_limit', 'rate_limit', 1000]),
        );
        expect(failed[0]?.message).toMatch(
          /^Claude iteration 1 failed: rate limited \(HTTP 429\): API Error: Request rejected \(429\)/,
        );
        // 1 s from retry_delay_ms, doubled for a second 429 in a row; a successful run starts over.
        const waits = named(r, 'rate.limited').map((e) => e.waitMs);
        expect(waits).toEqual([1000, 2000, 1000, 1000, 1000]);
        const calls = claudeCalls(sb);
        expect(calls).toHaveLength(9);
        const after = (i: number) => (calls[i] as number) - (calls[i - 1] as number);
        expect([after(1), after(2), after(4), after(6), after(8)].map((gap, i) => gap >= (waits[i] as number))).toEqual(
          [true, true, true, true, true],
        );
        expect(named(r, 'cycle.escalated')).toEqual([]);
      });
    },
  );

  it.concurrent(
    'AC4: a Discord that is down (server closed) gives a discord.failed warning; the outcome and exit code are those of the run without Discord',
    async () => {
      const discord = await startDiscordServer();
      const url = discord.url();
      await discord.close();
      await withSandbox(issues('First', 'Second'), async (sb) => {
        const r = await runCli(sb, runArgs(await writeAgent(sb, 'failing', FAILING), '--discord-webhook', url));
        const res = result(r, 1);
        expect(res).toMatchObject({
          status: 'halted',
          haltReason: 'failure_loop',
          error: AC1_ERROR,
          iterations: 8,
          issuesEscalated: ['bd-1', 'bd-2'],
        });
        const failed = named(r, 'discord.failed');
        expect(failed).toHaveLength(1);
        expect(failed[0]).toMatchObject({ level: 'warn' });
        expect(failed[0]?.message).toMatch(/^Could not post the halt diagnostic to the Discord webhook: network error/);
        expect(named(r, 'discord.posted')).toEqual([]);
        expect(r.stdout + r.stderr).not.toContain(url);
        expect(r.stdout + r.stderr).not.toContain(discord.token);
        // The halt itself is complete: halt.md, checkpoint, labels.
        expect(readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'halt.md'), 'utf8')).toBe(res.diagnostic);
        expect(phaseAndStage(readCheckpoint(sb, res.checkpointId))).toEqual(['implementation-failed', 'halted']);
      });
    },
  );
});
