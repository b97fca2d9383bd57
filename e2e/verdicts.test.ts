/**
 * Issue 12: honest verdicts on a repository whose suite is already red, with a real test runner
 * (node's, `node --test`) read per test, on the built CLI. The suite fails for a reason no issue
 * covers; each issue's fix is judged against the suite as it stood before its cycle.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  commit,
  type Sandbox,
  DONE_REPORT,
  createSandbox,
  events,
  expectExit,
  git,
  issue,
  lastResult,
  runArgs,
  runCli,
  writeAgent,
} from './helpers.js';
import { FIX, addCalculator } from './support/calcRepo.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

async function redRepository(issues: ReturnType<typeof issue>[]): Promise<Sandbox> {
  const sb = await createSandbox(issues);
  sandboxes.push(sb);
  await addCalculator(sb);
  return sb;
}

const TEST_COMMAND = 'node --test test/';
/** The run's arguments with a command agent (and --test-command, unless `extra` gives its own). */
const args = (agent: string, ...extra: string[]) => [
  ...['run', '--json', '--agent', 'command', '--agent-command', agent, '--iteration-delay', '0'],
  ...(extra.includes('--test-command') ? [] : ['--test-command', TEST_COMMAND]),
  ...['--issues-file', './.beads/issues.jsonl', ...extra],
];

/** What git.staging_restored says when an agent's clean filter (.git/config and .git/info/attributes) was put back. */
const RESTORED_FILTER =
  /changed what git stages: \.git\/config; \.git\/info\/attributes\. Put back as it was before the agent ran/;

/** main holds add's fix and sub as it was: the tree the tests ran on, not a filter's output. */
function expectAddFixedSubIntact(sb: Sandbox): void {
  const merged = git(sb, 'show', 'main:src/calc.mjs');
  expect(merged).toContain('export const add = (a, b) => a + b;');
  expect(merged).toContain('export const sub = (a, b) => a - b;');
}

/** Fixes the issue it is given, one line each (bd-add, bd-mul, bd-clamp); does nothing for others. */
const FIXER = `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/invocations"
cp "$AGENT_LOOP_PROMPT_FILE" "$NOTES/prompt-$AGENT_LOOP_ITERATION.txt"
case "$AGENT_LOOP_ISSUE_IDS" in
  bd-add) ${FIX.add} ;;
  bd-mul) ${FIX.mul} ;;
  bd-clamp) ${FIX.clamp} ;;
esac
${DONE_REPORT}`;

const invocations = (sb: Sandbox) => readFileSync(path.join(sb.root, 'invocations'), 'utf8').trim().split('\n');

describe('verdicts against the baseline, with node --test (issue 12)', () => {
  it('a red suite no issue covers, three issues, one fix per invocation: three closed in three invocations, each commit only its fix, the rest reported', async () => {
    const sb = await redRepository([
      issue('bd-add', 'add() subtracts', { description: 'add(2, 3) should be 5', created_at: '2026-11-01T09:00:01Z' }),
      issue('bd-mul', 'mul() adds', { description: 'mul(2, 3) should be 6', created_at: '2026-11-01T09:00:02Z' }),
      issue('bd-clamp', 'clamp() does nothing', {
        description: 'clamp(9, 0, 5) should be 5',
        created_at: '2026-11-01T09:00:03Z',
      }),
    ]);
    const r = await runCli(sb, args(await writeAgent(sb, 'fixer', FIXER)));
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(invocations(sb)).toEqual(['bd-add', 'bd-mul', 'bd-clamp']);
    expect(res).toMatchObject({
      status: 'complete',
      iterations: 3,
      issuesClosed: ['bd-add', 'bd-mul', 'bd-clamp'],
      issuesEscalated: [],
      // Issue 40: the last verdict accepted the work; legacy works, failing before and still, is reported beside.
      testsPassed: true,
      testFailures: 0,
    });
    expect(res.history.map((h) => h.outcome)).toEqual(['complete', 'complete', 'complete']);
    expect(res.preexistingFailures).toEqual([expect.stringContaining('legacy works')]);
    expect(res.history[0]?.verdict?.summary).toMatch(
      /^1 target\(s\) pass; 3 failure\(s\) that were there before, not targeted$/,
    );
    // Each cycle's commit changes only its own line.
    for (const [id, line] of [
      ['bd-add', 'a + b'],
      ['bd-mul', 'a * b'],
      ['bd-clamp', 'Math.min'],
    ] as const) {
      const commit = git(sb, 'log', '--format=%H', '-1', '--grep', `^agent-loop: ${id} `, 'main');
      const diff = git(sb, 'show', '--format=', '--unified=0', commit, '--', 'src/calc.mjs')
        .split('\n')
        .filter((l) => /^[-+][^-+]/.test(l));
      expect(diff).toHaveLength(2);
      expect(diff[1]).toContain(line);
    }
    // The agent was told which tests were failing before and are not its issue's.
    expect(readFileSync(path.join(sb.root, 'prompt-1.txt'), 'utf8')).toMatch(
      /4 test\(s\) already fail before your change \(.*legacy works/,
    );
    // One baseline per cycle (each starts from a new tree), none re-run within a cycle.
    expect(
      events(r.stdout).filter((e) => e.event === 'tests.baseline' && String(e.message).startsWith('Running the tests')),
    ).toHaveLength(3);
    expect(r.stdout).toMatch(/failing before and still failing, not targeted \(1\)|"preexistingFailures"/);
  });

  it('issue 42: a pre-existing failing test the agent deletes from its file is a finding: the file is judged as the base had it (the test still fails: neither removed nor fixed), the work held for a person, nothing merged', async () => {
    // Until slice 4a (the judge tree) this work was accepted and merged, legacy works reported as removed.
    const sb = await redRepository([issue('bd-mul', 'mul() adds', { description: 'mul(2, 3) should be 6' })]);
    const mainBefore = git(sb, 'rev-parse', 'main');
    const remover = await writeAgent(
      sb,
      'remover',
      `${FIX.mul}
sed -i "/^test('legacy works'/d" test/calc.test.mjs
${DONE_REPORT}`,
    );
    const r = await runCli(sb, args(remover, '--max-iterations', '1'));
    const res = lastResult(r.stdout);
    // Until issue 42's landing for a person: rejected (tests_failed). The fix passes the maintainer's
    // tests, so a person judges the deleted test: held, on its branch.
    expect(res.history.map((h) => h.outcome)).toEqual(['held']);
    expect(res.history[0]?.verdict?.summary).toBe(
      '1 target(s) pass; 3 failure(s) that were there before, not targeted; but it changed 1 path(s) ' +
        "the maintainer owns (test/calc.test.mjs (test-changed)); the maintainer's tests pass with the base's version of them",
    );
    expect(res.issuesClosed).toEqual([]);
    // Nothing of the work on main: the issue's label and note only (bookkeeping, as an escalation's).
    expect(git(sb, 'diff', '--name-only', mainBefore, 'main')).toBe('.beads/issues.jsonl');
  });

  it("issue 42: --batch judges every issue's targets: one issue's agent-loop block does not drop the test another issue names, so a half fix closes nothing", async () => {
    const sb = await redRepository([
      issue('bd-mul', 'mul() adds', {
        description: 'mul(2, 3) should be 6\n\n```agent-loop\ntests: [mul multiplies]\n```',
        created_at: '2026-11-01T09:00:01Z',
      }),
      issue('bd-clamp', 'clamp() does nothing', {
        description: 'The test clamp clamps fails: clamp(9, 0, 5) should be 5',
        created_at: '2026-11-01T09:00:02Z',
      }),
    ]);
    const half = await writeAgent(sb, 'half', `${FIX.mul}\n${DONE_REPORT}`);
    const mainBefore = git(sb, 'rev-parse', 'main');
    const r = await runCli(sb, args(half, '--batch', '--max-iterations', '1'));
    const res = lastResult(r.stdout);
    expect(res.issuesClosed).toEqual([]);
    expect(res.history[0]?.verdict?.summary).toMatch(/^1 target\(s\) still failing \(clamp clamps\)/);
    expect(git(sb, 'rev-parse', 'main')).toBe(mainBefore);
  });

  it('an issue already fixed: closed in one invocation with no change needed, no halt', async () => {
    const sb = await redRepository([
      issue('bd-sub', 'sub() is wrong', { description: 'Users say sub(5, 3) is wrong; check it.' }),
    ]);
    const r = await runCli(sb, args(await writeAgent(sb, 'fixer', FIXER)));
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(invocations(sb)).toEqual(['bd-sub']);
    expect(res).toMatchObject({ status: 'complete', haltReason: null, iterations: 1, issuesClosed: ['bd-sub'] });
    expect(res.history.map((h) => h.outcome)).toEqual(['no_change']);
    const closed = readFileSync(path.join(sb.repo, '.beads', 'issues.jsonl'), 'utf8');
    expect(closed).toMatch(/"close_reason":"agent-loop: no change was needed: the agent reports `made the value good/);
    expect(git(sb, 'branch', '--list', 'agent-loop/*')).toBe('');
    // Issue 40: closed as no change, and said so (the result and status listed no issue needing no change).
    expect(res).toMatchObject({ issuesClosed: ['bd-sub'], issuesNoChange: ['bd-sub'] });
    const status = await runCli(sb, ['status', '--json']);
    expectExit(status, 0);
    const checkpoints = (JSON.parse(status.stdout) as { checkpoints: { loop: Record<string, unknown> }[] }).checkpoints;
    expect(checkpoints[0]?.loop).toMatchObject({ issuesClosed: ['bd-sub'], issuesNoChange: ['bd-sub'] });
  });

  it("an issue already fixed: its close is committed and merged, never left uncommitted on main (the next run refused it as the user's change)", async () => {
    const sb = await createSandbox([issue('bd-1', 'First'), issue('bd-2', 'Second')]);
    sandboxes.push(sb);
    await fs.writeFile(path.join(sb.repo, 'value.txt'), 'good\n');
    commit(sb, 'the value is good already', { tracked: true });
    const r = await runCli(sb, runArgs(await writeAgent(sb, 'idle', DONE_REPORT)));
    expectExit(r, 0);
    expect(lastResult(r.stdout).history.map((h) => h.outcome)).toEqual(['no_change', 'no_change']);
    expect(git(sb, 'status', '--porcelain')).toBe('');
    expect(git(sb, 'show', 'main:.beads/issues.jsonl')).toMatch(/"id":"bd-2"[^\n]*"status":"closed"/);
    // Each close in its own cycle's commit: bd-1's is not swept into bd-2's.
    expect(git(sb, 'log', 'main', '--format=%s', '--grep=^agent-loop: bd-1')).not.toBe('');
    expect(git(sb, 'branch', '--list', 'agent-loop/*')).toBe('');
  });

  it('an issue naming its test that already passes: closed, the evidence is the test', async () => {
    const sb = await redRepository([
      issue('bd-sub', 'sub() is wrong', { description: 'test/calc.test.mjs: "sub subtracts" should pass' }),
    ]);
    const r = await runCli(sb, args(await writeAgent(sb, 'fixer', FIXER)));
    expectExit(r, 0);
    expect(lastResult(r.stdout).history.map((h) => h.outcome)).toEqual(['no_change']);
    expect(readFileSync(path.join(sb.repo, '.beads', 'issues.jsonl'), 'utf8')).toMatch(
      /no change was needed: its targets pass \([^)]*sub subtracts/,
    );
  });

  it('a fix that breaks a passing test is rejected and the broken test is named, with its message, in the next prompt', async () => {
    const sb = await redRepository([issue('bd-mul', 'mul() adds', { description: 'mul(2, 3) should be 6' })]);
    const agent = await writeAgent(
      sb,
      'careless',
      `cp "$AGENT_LOOP_PROMPT_FILE" "$NOTES/prompt-$AGENT_LOOP_ITERATION.txt"
echo x >> "$NOTES/invocations"
${FIX.mul}
if [ "$AGENT_LOOP_ITERATION" = 1 ]; then ${FIX.breakSub}
else ${FIX.restoreSub}; fi
${DONE_REPORT}`,
    );
    const r = await runCli(sb, args(agent));
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ status: 'complete', iterations: 2, issuesClosed: ['bd-mul'] });
    expect(res.history.map((h) => h.outcome)).toEqual(['tests_failed', 'complete']);
    expect(res.history[0]?.verdict?.summary).toMatch(/^1 test\(s\) broken \([^)]*sub subtracts\)/);
    const prompt2 = readFileSync(path.join(sb.root, 'prompt-2.txt'), 'utf8');
    expect(prompt2).toContain('Tests that passed before this cycle and fail now (you broke them):');
    expect(prompt2).toMatch(
      /- [^\n]*sub subtracts: [^\n]*0 !== 2|- [^\n]*sub subtracts: [^\n]*Expected values to be strictly equal/,
    );
    // The regression was confirmed by a second run before the rejection.
    expect(events(r.stdout).some((e) => e.event === 'tests.confirm')).toBe(true);
  });

  it('a fix that breaks a passing test and hides it (skips the test, or replaces the test command by exit 0) is not accepted: nothing closed, nothing merged', async () => {
    const sb = await redRepository([issue('bd-mul', 'mul() adds', { description: 'mul(2, 3) should be 6' })]);
    const mainBefore = git(sb, 'rev-parse', 'main');
    const hider = await writeAgent(
      sb,
      'hider',
      `${FIX.mul}
${FIX.breakSub}
sed -i "s/^test('sub subtracts'/test.skip('sub subtracts'/" test/calc.test.mjs
${DONE_REPORT}`,
    );
    const r = await runCli(sb, args(hider, '--max-iterations', '1'));
    expectExit(r, 1);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ haltReason: 'max_iterations', issuesClosed: [] });
    expect(res.history[0]?.verdict?.summary).toMatch(/^1 test\(s\) broken \([^)]*sub subtracts\)/);
    expect(git(sb, 'rev-parse', 'main')).toBe(mainBefore);

    const sb2 = await redRepository([issue('bd-mul', 'mul() adds', { description: 'mul(2, 3) should be 6' })]);
    const silencer = await writeAgent(
      sb2,
      'silencer',
      `${FIX.mul}
${FIX.breakSub}
printf '#!/bin/sh\\nexit 0\\n' > check.sh
${DONE_REPORT}`,
    );
    const r2 = await runCli(sb2, args(silencer, '--test-command', 'sh check.sh', '--max-iterations', '1'));
    expectExit(r2, 1);
    const res2 = lastResult(r2.stdout);
    expect(res2).toMatchObject({ issuesClosed: [] });
    expect(res2.history.map((h) => h.outcome)).toEqual(['bounced']);
    expect(res2.history[0]?.verdict?.summary).toMatch(/^the test output can no longer be read per test \(exit code 0/);
  });

  it("an escalated issue's rejected work, kept as wip: on its branch, is the next cycle's to mend: an agent that changes nothing does not close the issue nor merge the breakage (the baseline is main's tree, not the branch's)", async () => {
    const sb = await redRepository([issue('bd-mul', 'mul() adds', { description: 'mul(2, 3) should be 6' })]);
    // First run: fixes mul but breaks sub, every time: rejected, escalated, the work kept as wip:.
    const careless = await writeAgent(sb, 'careless', `${FIX.mul}\n${FIX.breakSub}\n${DONE_REPORT}`);
    const first = await runCli(sb, args(careless, '--max-retries-per-step', '1'));
    expectExit(first, 1);
    expect(lastResult(first.stdout)).toMatchObject({ haltReason: 'all_escalated', issuesEscalated: ['bd-mul'] });
    expect(git(sb, 'log', '-1', '--format=%s', 'agent-loop/bd-mul')).toMatch(/^wip: bd-mul escalated/);
    expect(git(sb, 'show', 'agent-loop/bd-mul:src/calc.mjs')).toContain('export const sub = (a, b) => 0;');

    // A person takes the label off to have it tried again; the agent now changes nothing and says it is done.
    const file = path.join(sb.repo, '.beads', 'issues.jsonl');
    const line = JSON.parse(readFileSync(file, 'utf8')) as { labels: string[] };
    line.labels = line.labels.filter((l) => l !== 'agent-loop:escalated');
    await fs.writeFile(file, `${JSON.stringify(line)}\n`);
    commit(sb, 'retry bd-mul', { tracked: true, by: 'person' });
    const mainBefore = git(sb, 'rev-parse', 'main');
    const idle = await writeAgent(sb, 'idle', DONE_REPORT);
    const second = await runCli(sb, args(idle, '--max-retries-per-step', '1', '--max-consecutive-escalations', '5'));
    expectExit(second, 1);
    const res = lastResult(second.stdout);
    expect(res).toMatchObject({ haltReason: 'all_escalated', issuesClosed: [], issuesEscalated: ['bd-mul'] });
    // The baseline ran on main's tree: sub passing, the four failures there before.
    const baseline = events(second.stdout).filter((e) => e.event === 'tests.baseline');
    expect(String(baseline.at(-1)?.message)).toMatch(/^Baseline: 5 test\(s\) read \(.*\), 4 failing before any change/);
    expect(String(baseline.at(-1)?.message)).not.toContain('sub subtracts');
    // Every verdict names sub as broken by the cycle; nothing was merged, the work is still on its branch.
    expect(res.history.filter((h) => h.n > 2).map((h) => h.outcome)).toEqual(['tests_failed', 'tests_failed']);
    for (const h of res.history.filter((x) => x.n > 2))
      expect(h.verdict?.summary).toMatch(/^1 test\(s\) broken \([^)]*sub subtracts\)/);
    expect(git(sb, 'show', 'main:src/calc.mjs')).toContain('export const sub = (a, b) => a - b;');
    expect(git(sb, 'log', '--format=%s', `${mainBefore}..main`)).toBe('agent-loop: bd-mul escalated');
    expect(git(sb, 'show', 'agent-loop/bd-mul:src/calc.mjs')).toContain('export const sub = (a, b) => 0;');
    expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(readFileSync(file, 'utf8')).toMatch(/"status":"open"/);
  });

  it("one cycle's agent rewrites the recorded baseline to say sub failed before: the next cycle on the same base tip does not trust it, and the sub it breaks is not excused", async () => {
    const sb = await redRepository([
      issue('bd-add', 'add() subtracts', { description: 'add(2, 3) should be 5', created_at: '2026-11-01T09:00:01Z' }),
      issue('bd-mul', 'mul() adds', { description: 'mul(2, 3) should be 6', created_at: '2026-11-01T09:00:02Z' }),
    ]);
    // With --on-success branch main does not move: both cycles start on its tip, under one baseline key.
    const liar = await writeAgent(
      sb,
      'liar',
      `case "$AGENT_LOOP_ISSUE_IDS" in
  bd-add) sed -i 's/\\("[^"]*sub subtracts[^"]*":\\)"passed"/\\1"failed"/' .git/agent-loop/baselines/*.json
    grep -l 'sub subtracts":"failed"' .git/agent-loop/baselines/*.json > "$NOTES/forged"
    ${FIX.add} ;;
  bd-mul) ${FIX.mul}; ${FIX.breakSub} ;;
esac
${DONE_REPORT}`,
    );
    const r = await runCli(sb, args(liar, '--on-success', 'branch', '--max-retries-per-step', '1'));
    expect(readFileSync(path.join(sb.root, 'forged'), 'utf8')).toMatch(/baselines\/[0-9a-f]+\.json/);
    const res = lastResult(r.stdout);
    expect(res.issuesClosed).toEqual(['bd-add']);
    expect(res.issuesEscalated).toEqual(['bd-mul']);
    for (const h of res.history.filter((x) => x.issueIds[0] === 'bd-mul'))
      expect(h.verdict?.summary).toMatch(/^1 test\(s\) broken \([^)]*sub subtracts\)/);
    const said = events(r.stdout)
      .filter((e) => e.event === 'tests.baseline')
      .map((e) => String(e.message));
    expect(said).toContainEqual(expect.stringMatching(/changed since this run recorded it, not by agent-loop/));
    // The suite ran again on main's tree for bd-mul, where sub passes.
    expect(said.filter((m) => m.startsWith('Running the tests'))).toHaveLength(2);
    expect(git(sb, 'show', 'agent-loop/bd-mul:src/calc.mjs')).toContain('export const sub = (a, b) => 0;');
    expect(git(sb, 'show', 'main:src/calc.mjs')).toContain('export const sub = (a, b) => a - b;');
  });

  it('an agent that defines a git clean filter breaking sub as git stages it: what is committed and merged is the tree the tests ran on, and the run says what it put back', async () => {
    const sb = await redRepository([issue('bd-add', 'add() subtracts', { description: 'add(2, 3) should be 5' })]);
    const filtering = await writeAgent(
      sb,
      'filtering',
      `${FIX.add}
git config filter.x.clean "sed 's/=> a - b;/=> 0;/'"
echo 'src/calc.mjs filter=x' >> .git/info/attributes
${DONE_REPORT}`,
    );
    const r = await runCli(sb, args(filtering));
    expectExit(r, 0);
    expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', issuesClosed: ['bd-add'] });
    expectAddFixedSubIntact(sb);
    expect(git(sb, 'config', '--list', '--local')).not.toMatch(/^filter\./m);
    const restored = events(r.stdout).find((e) => e.event === 'git.staging_restored')?.message;
    expect(restored).toMatch(RESTORED_FILTER);
    expect(restored).toMatch(
      /before committing, so that what is committed is the working tree as it is \(for finished work, the tree the tests ran on\), not what those settings make of it\.$/,
    );
  });

  it('an agent that defines a clean filter in a slice that ends with work remaining: the slice puts it back at its end, so the next run (a new process) neither keeps it nor commits through it', async () => {
    const sb = await redRepository([issue('bd-add', 'add() subtracts', { description: 'add(2, 3) should be 5' })]);
    const agent = await writeAgent(
      sb,
      'two-step',
      `if [ ! -f "$NOTES/went" ]; then
  touch "$NOTES/went"
  git config filter.x.clean "sed 's/=> a - b;/=> 0;/'"
  echo 'src/calc.mjs filter=x' >> .git/info/attributes
  git remote add elsewhere https://example.invalid/elsewhere.git
  printf 'Partway.\\n\`\`\`yaml\\nwork_remaining: 1\\nrequires_continuation: true\\nstuck_detected: false\\nsummary: half\\n\`\`\`\\n'
  exit 0
fi
${FIX.add}
${DONE_REPORT}`,
    );
    const first = await runCli(sb, args(agent, '--slice-iterations', '1'));
    expectExit(first, 0);
    expect(lastResult(first.stdout)).toMatchObject({ status: 'continuing', iterations: 1 });
    // Put back at the slice's end: nothing of it stays in the person's repository between runs.
    expect(git(sb, 'config', '--list', '--local')).not.toMatch(/^(filter\.|remote\.elsewhere)/m);
    expect(existsSync(path.join(sb.repo, '.git', 'info', 'attributes'))).toBe(false); // there was none
    const restored = events(first.stdout).find((e) => e.event === 'git.staging_restored')?.message;
    expect(restored).toMatch(RESTORED_FILTER);
    expect(restored).toMatch(/at the slice's end, so that none of it stays in the repository/);
    expect(restored).not.toMatch(/before committing/); // nothing was committed in that slice

    const second = await runCli(sb, args(agent));
    expectExit(second, 0);
    expect(lastResult(second.stdout)).toMatchObject({ status: 'complete', issuesClosed: ['bd-add'] });
    expectAddFixedSubIntact(sb);
  });

  it('with --junit-file: the report is read per test, and what the test command writes (the report, a cache) is never committed', async () => {
    const sb = await redRepository([issue('bd-add', 'add() subtracts', { description: 'add(2, 3) should be 5' })]);
    const command =
      'mkdir -p .cache && date > .cache/last-run && node --test --test-reporter=junit --test-reporter-destination=junit.xml test/ >/dev/null 2>&1';
    const r = await runCli(
      sb,
      args(await writeAgent(sb, 'fixer', FIXER), '--test-command', command, '--junit-file', 'junit.xml'),
    );
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ status: 'complete', iterations: 1, issuesClosed: ['bd-add'] });
    expect(res.preexistingFailures).toEqual(expect.arrayContaining([expect.stringContaining('legacy works')]));
    expect(res.history[0]?.verdict?.summary).toMatch(/^1 target\(s\) pass/);
    const tree = git(sb, 'ls-tree', '-r', '--name-only', 'main').split('\n');
    expect(tree).not.toContain('junit.xml');
    expect(tree.filter((f) => f.startsWith('.cache'))).toEqual([]);
    expect(git(sb, 'status', '--porcelain')).toBe('');
    expect(events(r.stdout).some((e) => e.event === 'tests.excluded')).toBe(true);
  });

  it("TDD on a red suite: RED's target is only the test it adds, GREEN passes although the old failures stay, no false regression", async () => {
    const sb = await redRepository([issue('bd-add', 'add', { description: '- [ ] add adds small numbers' })]);
    const agent = await writeAgent(
      sb,
      'tdd',
      `P="$AGENT_LOOP_PROMPT_FILE"
cp "$P" "$NOTES/prompt-$AGENT_LOOP_ITERATION.txt"
if grep -q "You are the test agent" "$P"; then
  printf "import { test } from 'node:test';\\nimport assert from 'node:assert/strict';\\nimport { add } from '../src/calc.mjs';\\ntest('add adds small numbers', () => assert.equal(add(1, 1), 2));\\n" > test/add_small.test.mjs
elif grep -q "You are the implementing agent" "$P"; then
  ${FIX.add}
fi
${DONE_REPORT}`,
    );
    const r = await runCli(sb, args(agent, '--workflow', 'tdd'));
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(
      res.history.map((h) => `${h.tdd?.phase}:${h.tdd?.decision}${h.tdd?.error ? `(${h.tdd.error})` : ''}`),
    ).toEqual(['RED:commit', 'GREEN:commit', 'REFACTOR:commit']);
    expect(res).toMatchObject({ status: 'complete', issuesClosed: ['bd-add'] });
    // GREEN was told about the one new failing test, and that the old failures are not its business.
    const green = readFileSync(path.join(sb.root, 'prompt-2.txt'), 'utf8');
    expect(green).toContain('add adds small numbers');
    // bd-add is a bug (add subtracts; issue_type bug): GREEN's commit is a fix (issue 40).
    expect(git(sb, 'log', '--format=%s', 'main')).toMatch(/^fix: add adds small numbers$/m);
  });

  it("TDD on a red suite: a RED test that fails at import is COMPILATION_ERROR with node's error in the retry prompt (no false regression); the retry's failing test is the target", async () => {
    const sb = await redRepository([issue('bd-div', 'div', { description: '- [ ] div divides' })]);
    const agent = await writeAgent(
      sb,
      'tdd',
      `P="$AGENT_LOOP_PROMPT_FILE"
cp "$P" "$NOTES/prompt-$AGENT_LOOP_ITERATION.txt"
if grep -q "You are the test agent" "$P"; then
  if grep -q "does not compile" "$P"; then
    printf "import { test } from 'node:test';\\nimport assert from 'node:assert/strict';\\ntest('div divides', async () => { const { div } = await import('../src/calc.mjs'); assert.equal(typeof div === 'function' && div(6, 3), 2); });\\n" > test/div.test.mjs
  else
    printf "import { test } from 'node:test';\\nimport assert from 'node:assert/strict';\\nimport { div } from '../src/calc.mjs';\\ntest('div divides', () => assert.equal(div(6, 3), 2));\\n" > test/div.test.mjs
  fi
elif grep -q "You are the implementing agent" "$P"; then
  echo 'export const div = (a, b) => a / b;' >> src/calc.mjs
fi
${DONE_REPORT}`,
    );
    const r = await runCli(sb, args(agent, '--workflow', 'tdd'));
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(
      res.history.map((h) => `${h.tdd?.phase}:${h.tdd?.decision}${h.tdd?.error ? `(${h.tdd.error})` : ''}`),
    ).toEqual(['RED:retry(COMPILATION_ERROR)', 'RED:commit', 'GREEN:commit', 'REFACTOR:commit']);
    expect(res).toMatchObject({ status: 'complete', issuesClosed: ['bd-div'] });
    const retry = readFileSync(path.join(sb.root, 'prompt-2.txt'), 'utf8');
    expect(retry).toContain('The new test does not compile');
    expect(retry).toContain(
      "SyntaxError: The requested module '../src/calc.mjs' does not provide an export named 'div'",
    );
    // The failures that were there before are named as not the agent's.
    expect(retry).toContain('1 test(s) fail that did not fail before this cycle:\n- ');
    expect(retry).toContain("(4 test(s) already failed before this cycle; they are not this workflow's.)");
    expect(readFileSync(path.join(sb.root, 'prompt-3.txt'), 'utf8')).toContain('div divides');
  });

  it('TDD with --junit-file: the report the suite writes is never in a commit, and a refactoring that changes nothing commits "refactor: no changes"', async () => {
    // div is new: a feature, so GREEN commits "feat:" (the helpers' issue is a bug by default).
    const sb = await redRepository([
      issue('bd-div', 'div', { description: '- [ ] div divides', issue_type: 'feature' }),
    ]);
    const agent = await writeAgent(
      sb,
      'tdd',
      `P="$AGENT_LOOP_PROMPT_FILE"
if grep -q "You are the test agent" "$P"; then
  printf "import { test } from 'node:test';\\nimport assert from 'node:assert/strict';\\nimport * as calc from '../src/calc.mjs';\\ntest('div divides', () => assert.equal(calc.div?.(6, 3), 2));\\n" > test/div.test.mjs
elif grep -q "You are the implementing agent" "$P"; then
  echo 'export const div = (a, b) => a / b;' >> src/calc.mjs
fi
${DONE_REPORT}`,
    );
    const command = 'node --test --test-reporter=junit --test-reporter-destination=junit.xml test/';
    const r = await runCli(
      sb,
      args(agent, '--workflow', 'tdd', '--test-command', command, '--junit-file', 'junit.xml'),
    );
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(res.history.map((h) => `${h.tdd?.phase}:${h.tdd?.decision}`)).toEqual([
      'RED:commit',
      'GREEN:commit',
      'REFACTOR:commit',
    ]);
    const subjects = git(sb, 'log', '--format=%s', 'main^1..main^2').split('\n');
    expect(subjects).toEqual([
      'agent-loop: bd-div div',
      'refactor: no changes',
      'feat: div divides',
      'test: div divides',
    ]);
    const touched = git(sb, 'log', '--format=', '--name-only', 'main').split('\n').filter(Boolean);
    expect(touched).not.toContain('junit.xml');
    expect(git(sb, 'ls-tree', '-r', '--name-only', 'main').split('\n')).not.toContain('junit.xml');
    expect(git(sb, 'status', '--porcelain')).toBe('');
  });

  it('started in a subdirectory: works at the repository root (its issues, its detected test command), paths given relative to the subdirectory', async () => {
    const sb = await redRepository([issue('bd-add', 'add() subtracts', { description: 'add(2, 3) should be 5' })]);
    await fs.writeFile(
      path.join(sb.repo, 'package.json'),
      '{"name":"calc","private":true,"type":"module","scripts":{"test":"node --test test/"}}\n',
    );
    git(sb, 'add', '-A');
    commit(sb, 'npm test');
    const agent = await writeAgent(sb, 'fixer', FIXER);
    const r = await runCli(
      sb,
      [
        'run',
        '--json',
        '--agent',
        'command',
        '--agent-command',
        agent,
        '--iteration-delay',
        '0',
        '--issues-file',
        '../.beads/issues.jsonl',
      ],
      { cwd: path.join(sb.repo, 'src') },
    );
    expectExit(r, 0);
    expect(r.stderr).toContain(`working at the repository's root ${sb.repo} (started in ${path.join(sb.repo, 'src')})`);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ status: 'complete', issuesClosed: ['bd-add'] });
    expect(events(r.stdout).find((e) => e.event === 'tests.baseline')?.message).toContain('npm test');
    expect(git(sb, 'show', 'main:src/calc.mjs')).toContain('a + b');
  });

  it('a red suite whose output cannot be read per test halts before any agent run, naming the command and what to do', async () => {
    const sb = await redRepository([issue('bd-add', 'add() subtracts')]);
    const agent = await writeAgent(sb, 'never', `echo ran >> "$NOTES/invocations"\n${DONE_REPORT}`);
    const r = await runCli(sb, args(agent, '--test-command', 'node --test test/ >/dev/null 2>&1'));
    expectExit(r, 1);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ status: 'halted', haltReason: 'baseline_unreadable', iterations: 0 });
    expect(res.error).toContain('`node --test test/ >/dev/null 2>&1` fails on the base branch (exit code 1)');
    expect(res.diagnostic).toContain('--junit-file');
    await expect(fs.access(path.join(sb.root, 'invocations'))).rejects.toThrow();
  });

  it('a baseline that gave no verdict is not kept: once the suite can be read, the same command on the same tree runs it again and the work goes on', async () => {
    const sb = await redRepository([issue('bd-add', 'add() subtracts', { description: 'add(2, 3) should be 5' })]);
    // The suite's script lives outside the repository: fixing it changes neither the tree nor the command.
    const suite = path.join(sb.root, 'suite.sh');
    await fs.writeFile(suite, 'node --test test/ >/dev/null 2>&1\n');
    const runArgs = async () => args(await writeAgent(sb, 'fixer', FIXER), '--test-command', `sh ${suite}`);
    const first = await runCli(sb, await runArgs());
    expectExit(first, 1);
    expect(lastResult(first.stdout).haltReason).toBe('baseline_unreadable');
    await fs.writeFile(suite, 'node --test test/\n');
    // The halt stands (nothing in the repository changed) until a person resumes it.
    const quiet = await runCli(sb, await runArgs());
    expectExit(quiet, 1);
    expect(lastResult(quiet.stdout).standing).toMatchObject({ resume: ['explicit', 'base_commits', 'fresh'] });
    expect(existsSync(path.join(sb.root, 'invocations'))).toBe(false); // no agent ran
    const second = await runCli(sb, [...(await runArgs()), '--resume-halted']);
    expectExit(second, 0);
    expect(lastResult(second.stdout)).toMatchObject({ status: 'complete', issuesClosed: ['bd-add'] });
    expect(invocations(sb)).toEqual(['bd-add']);
  });
});

describe("an issue's agent-loop block that is not valid YAML (cannot verify)", () => {
  /** Says done, writes a file of no use, never the one the issue's verify: checks for. */
  const LIAR = `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/invocations"\necho unrelated > notes.txt\n${DONE_REPORT}`;
  const block = (verify: string, key: string) => `Write greeting.txt.\n\n\`\`\`agent-loop\n${key}: ${verify}\n\`\`\`\n`;
  const COMMAND = `node -e "process.exit(require('fs').existsSync('greeting.txt') ? 0 : 1)"`;
  const onMain = (sb: Sandbox) =>
    JSON.parse(git(sb, 'show', 'main:.beads/issues.jsonl')) as { status: string; labels?: string[] };

  async function greetingRepo(verify: string, key = 'verify'): Promise<Sandbox> {
    const sb = await createSandbox([issue('bd-1', 'Add a greeting', { description: block(verify, key) })]);
    sandboxes.push(sb);
    await fs.writeFile(path.join(sb.repo, 'value.txt'), 'good\n');
    git(sb, 'add', '-A');
    commit(sb, 'the suite passes');
    return sb;
  }

  /** The liar's run: the issue is escalated, not closed; whether the agent ran at all. */
  async function liarEscalated(sb: Sandbox, agentRuns: boolean): Promise<string> {
    const agent = await writeAgent(sb, 'liar', LIAR);
    const r = await runCli(sb, runArgs(agent));
    const result = lastResult(r.stdout);
    expect(result.issuesClosed).toEqual([]);
    expect(result.issuesEscalated).toEqual(['bd-1']);
    // A block that cannot be taken is known before the agent runs: no agent run is spent on it.
    expect(existsSync(path.join(sb.root, 'invocations'))).toBe(agentRuns);
    expect(result.iterations > 0).toBe(agentRuns);
    return r.stdout;
  }

  it('written unquoted: the lying agent is not believed: escalated with the YAML error and how to quote it, the issue left open on main, nothing merged', async () => {
    const sb = await greetingRepo(COMMAND);
    const stdout = await liarEscalated(sb, false);
    const said = events(stdout).find((e) => e.event === 'issue.targets');
    expect(said?.level).toBe('error');
    expect(String(said?.message)).toMatch(/cannot verify: the agent-loop block is not valid YAML \(.+\); .*quoted/);
    expect(onMain(sb)).toMatchObject({ status: 'open', labels: expect.arrayContaining(['agent-loop:escalated']) });
    expect(git(sb, 'ls-tree', '--name-only', 'main')).not.toMatch(/notes\.txt/);
  });

  it("quoted as the message says: the block is read and its verify: enforced (the liar's work rejected, never closed)", async () => {
    const sb = await greetingRepo(`'${COMMAND.replace(/'/g, "''")}'`);
    const stdout = await liarEscalated(sb, true);
    expect(events(stdout).some((e) => e.event === 'issue.targets')).toBe(false);
    expect(stdout).toMatch(/verify failed: `node -e/);
    expect(onMain(sb).status).toBe('open');
  });

  it('with the key mistyped (verfy:): the lying agent is not believed either: escalated naming the key and the one meant, never closed', async () => {
    const sb = await greetingRepo(`'${COMMAND.replace(/'/g, "''")}'`, 'verfy');
    const stdout = await liarEscalated(sb, false);
    const said = events(stdout).find((e) => e.event === 'issue.targets');
    expect(String(said?.message)).toContain('a key agent-loop does not know: verfy (did you mean verify?)');
    expect(onMain(sb).status).toBe('open');
    expect(git(sb, 'ls-tree', '--name-only', 'main')).not.toMatch(/notes\.txt/);
  });
});
