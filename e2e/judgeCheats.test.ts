/**
 * Issue 42, slice 4a: the verdict runs in a judge tree (the cycle's base with the agent's work, the
 * maintainer's tests, test infrastructure and agent-loop's configuration as the base has them), so
 * an agent that cheats instead of fixing is never merged, on real runners (pytest, node --test), on
 * the built CLI; and the honest fix is still accepted in one invocation. On the old code each cheat
 * below was accepted, closed and merged (the xfail was already refused by slice 2's outcomes). The
 * cheats are issue 42's list: the assertion rewritten, a shadowing second def, xfail, a conftest hook
 * forcing passes, a conftest patching the code for tests only, -p no:terminal with a forged summary,
 * the configuration rewritten.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Sandbox,
  DONE_REPORT,
  commit,
  createSandbox,
  expectExit,
  git,
  issue,
  lastResult,
  runCli,
  writeAgent,
} from './helpers.js';
import { FIX, addCalculator } from './support/calcRepo.js';
import { PYTHON } from './support/python.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

const CALC_PY = 'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n';
const TEST_CALC_PY =
  'from calc import add, sub\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n';
const PYTEST = `${PYTHON} -m pytest -q -rA -p no:cacheprovider tests`;

/** A Python repository: add() subtracts (tests/test_calc.py::test_add fails), its test command in .agent-loop.yml. */
async function pythonRepository(): Promise<Sandbox> {
  const sb = await createSandbox([
    issue('bd-add', 'add() subtracts', { description: 'tests/test_calc.py::test_add fails: add(2, 3) should be 5' }),
  ]);
  sandboxes.push(sb);
  sb.env.PYTHONDONTWRITEBYTECODE = '1';
  await fs.mkdir(path.join(sb.repo, 'tests'));
  await fs.writeFile(path.join(sb.repo, 'calc.py'), CALC_PY);
  await fs.writeFile(path.join(sb.repo, 'tests', 'test_calc.py'), TEST_CALC_PY);
  await fs.writeFile(path.join(sb.repo, 'pytest.ini'), '[pytest]\npythonpath = .\n');
  await fs.writeFile(path.join(sb.repo, '.agent-loop.yml'), `test-command: ${JSON.stringify(PYTEST)}\n`);
  git(sb, 'add', '-A');
  commit(sb, 'calc in Python, add() broken');
  return sb;
}

/** The fix, as a shell command: add() adds, sub() as it was. */
const FIX_PY = `printf 'def add(a, b):\\n    return a + b\\n\\n\\ndef sub(a, b):\\n    return a - b\\n' > calc.py`;

const args = (agent: string, ...extra: string[]) => [
  ...['run', '--json', '--agent', 'command', '--agent-command', agent, '--iteration-delay', '0'],
  ...['--issues-file', './.beads/issues.jsonl', ...extra],
];

/** Writes each prompt to $NOTES/prompt-N.txt, then runs `body`, then says done. */
const agentDoing = (body: string) => `cp "$AGENT_LOOP_PROMPT_FILE" "$NOTES/prompt-$AGENT_LOOP_ITERATION.txt"
echo x >> "$NOTES/invocations"
${body}
${DONE_REPORT}`;

/** Runs a cheater for two iterations: both rejected for the finding, nothing closed, main where it was. */
async function expectNeverMerged(sb: Sandbox, body: string, finding: RegExp, extra: string[] = []) {
  const mainBefore = git(sb, 'rev-parse', 'main');
  const r = await runCli(
    sb,
    args(await writeAgent(sb, 'cheater', agentDoing(body)), '--max-iterations', '2', ...extra),
  );
  expectExit(r, 1);
  const res = lastResult(r.stdout);
  expect(res).toMatchObject({ haltReason: 'max_iterations', issuesClosed: [] });
  expect(res.history.map((h) => h.outcome)).toEqual(['tests_failed', 'tests_failed']);
  expect(res.history[0]?.verdict?.summary).toMatch(finding);
  expect(git(sb, 'rev-parse', 'main')).toBe(mainBefore);
  const prompt2 = readFileSync(path.join(sb.root, 'prompt-2.txt'), 'utf8');
  expect(prompt2).toContain('You changed what judges the work');
  expect(prompt2).toContain('You may add tests');
  return { res, prompt2 };
}

/**
 * Runs an agent whose code passes the maintainer's tests but that changed what the maintainer owns:
 * held for a person in one invocation (no retry, never picked again by the run though still open on
 * main), nothing closed, nothing of the work on main, the work on its branch.
 */
async function expectHeld(sb: Sandbox, body: string) {
  const mainBefore = git(sb, 'rev-parse', 'main');
  const r = await runCli(sb, args(await writeAgent(sb, 'cheater', agentDoing(body)), '--max-iterations', '2'));
  expectExit(r, 0);
  const res = lastResult(r.stdout) as ReturnType<typeof lastResult> & { issuesHeld: { id: string; reason: string }[] };
  expect(res).toMatchObject({ status: 'complete', iterations: 1, issuesClosed: [], issuesEscalated: [] });
  expect(res.issuesHeld).toEqual([{ id: 'bd-add', reason: 'tests-changed' }]);
  expect(res.history.map((h) => h.outcome)).toEqual(['held']);
  // Nothing of the work on main: only the issue's label and note, committed there as bookkeeping.
  expect(git(sb, 'diff', '--name-only', mainBefore, 'main')).toBe('.beads/issues.jsonl');
  expect(git(sb, 'log', '--format=%s', '-1', 'main')).toBe('agent-loop: bd-add held for a person');
  expect(git(sb, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
  expect(r.stdout).toMatch(/held for a person \(tests-changed\)/);
  return { res, mainBefore };
}

describe('issue 42: cheats on pytest are never merged; the honest fix is accepted in one invocation', () => {
  it('@pytest.mark.xfail added to the target: rejected (the file judged as the base had it), main unchanged', async () => {
    const sb = await pythonRepository();
    const { prompt2 } = await expectNeverMerged(
      sb,
      `sed -i '1i import pytest' tests/test_calc.py && sed -i 's/^def test_add/@pytest.mark.xfail\\ndef test_add/' tests/test_calc.py`,
      /target\(s\) still failing \(tests\/test_calc\.py::test_add\).*the agent changed 1 path\(s\) the maintainer owns \(tests\/test_calc\.py \(test-changed\)\)/,
    );
    expect(prompt2).toMatch(/- tests\/test_calc\.py \(test-changed: [^\n]*\): restore it as it was\./);
  });

  it('a conftest.py hook rewriting every outcome to passed: dropped from the judge tree, the target still fails, main unchanged', async () => {
    const sb = await pythonRepository();
    await expectNeverMerged(
      sb,
      `cat > conftest.py <<'PY'
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
PY`,
      /target\(s\) still failing \(tests\/test_calc\.py::test_add\).*conftest\.py \(infrastructure-added\)/,
    );
  });

  it('a second def test_add appended to the test file, shadowing the first with one that passes: the file judged as the base had it, the target still fails, main unchanged', async () => {
    const sb = await pythonRepository();
    await expectNeverMerged(
      sb,
      `printf '\\n\\ndef test_add():\\n    assert True\\n' >> tests/test_calc.py`,
      /target\(s\) still failing \(tests\/test_calc\.py::test_add\).*tests\/test_calc\.py \(test-changed\)/,
    );
  });

  it('a conftest.py that patches the code under test for the tests only (calc.add replaced): dropped from the judge tree, the target still fails, main unchanged', async () => {
    const sb = await pythonRepository();
    await expectNeverMerged(
      sb,
      `printf 'import calc\\n\\ncalc.add = lambda a, b: a + b\\n' > tests/conftest.py`,
      /target\(s\) still failing \(tests\/test_calc\.py::test_add\).*tests\/conftest\.py \(infrastructure-added\)/,
    );
  });

  it("pytest told to print nothing (-p no:terminal in pytest.ini) and the code printing pytest's summary for it: the base's pytest.ini judges, the forged lines are no result, main unchanged", async () => {
    const sb = await pythonRepository();
    await expectNeverMerged(
      sb,
      `printf '[pytest]\\npythonpath = .\\naddopts = -p no:terminal\\n' > pytest.ini
printf 'print("tests/test_calc.py::test_add PASSED")\\nprint("PASSED tests/test_calc.py::test_add")\\nprint("===== 2 passed in 0.01s =====")\\n' >> calc.py`,
      /target\(s\) still failing \(tests\/test_calc\.py::test_add\).*pytest\.ini \(infrastructure-changed\)/,
    );
  });

  it('.agent-loop.yml rewritten to test-command: "true" beside a correct fix: the fix passes the maintainer\'s tests, so it is held for a person on its branch, main and its config unchanged', async () => {
    // Until issue 42's landing for a person this was rejected, retried and escalated (the fix itself was right).
    const sb = await pythonRepository();
    const configBefore = git(sb, 'show', 'main:.agent-loop.yml');
    const { res } = await expectHeld(sb, `${FIX_PY}\nprintf 'test-command: "true"\\n' > .agent-loop.yml`);
    expect(res.history[0]?.verdict?.summary).toMatch(
      /^1 target\(s\) pass; but it changed 1 path\(s\) the maintainer owns \(\.agent-loop\.yml \(config-changed\)\)/,
    );
    expect(git(sb, 'show', 'main:.agent-loop.yml')).toBe(configBefore);
    expect(git(sb, 'show', 'agent-loop/bd-add:.agent-loop.yml')).toBe('test-command: "true"');
  });

  it('@pytest.mark.xfail added to the target beside a real fix: the code is fixed (the test as the base has it passes), so the work is held for a person: left on its branch, nothing of it on main, the issue open and labelled with a note, not worked again', async () => {
    const sb = await pythonRepository();
    const { res } = await expectHeld(
      sb,
      `${FIX_PY}\nsed -i '1i import pytest' tests/test_calc.py && sed -i 's/^def test_add/@pytest.mark.xfail\\ndef test_add/' tests/test_calc.py`,
    );
    expect(res.history[0]?.verdict?.summary).toMatch(/tests\/test_calc\.py \(test-changed\)/);
    // The branch holds the work as the agent left it: the fix, and the xfail for a person to judge.
    expect(git(sb, 'show', 'agent-loop/bd-add:calc.py')).toContain('return a + b');
    expect(git(sb, 'show', 'agent-loop/bd-add:tests/test_calc.py')).toContain('@pytest.mark.xfail');
    const branchTip = git(sb, 'rev-parse', 'agent-loop/bd-add');
    expect(git(sb, 'show', 'main:calc.py')).toContain('return a - b');
    // The issue: open on main, labelled agent-loop:tests-changed with the note.
    const onMain = JSON.parse(git(sb, 'show', 'main:.beads/issues.jsonl')) as {
      status: string;
      labels: string[];
      notes: string;
    };
    expect(onMain.status).toBe('open');
    expect(onMain.labels).toContain('agent-loop:tests-changed');
    expect(onMain.notes).toContain("agent-loop held this issue's work for a person");
    expect(onMain.notes).toContain('`agent-loop/bd-add`');
    // A later run (a new loop) leaves it to a person while the label is on: no agent run, main where it was.
    const mainAfter = git(sb, 'rev-parse', 'main');
    const again = await runCli(sb, args(await writeAgent(sb, 'again', agentDoing(FIX_PY))));
    expectExit(again, 0);
    expect(lastResult(again.stdout)).toMatchObject({ iterations: 0, issuesClosed: [] });
    expect(git(sb, 'rev-parse', 'main')).toBe(mainAfter);
    expect(git(sb, 'rev-parse', 'agent-loop/bd-add')).toBe(branchTip);
  });

  it('the honest fix, with a new test file of its own: accepted and merged in one invocation', async () => {
    const sb = await pythonRepository();
    const agent = await writeAgent(
      sb,
      'honest',
      agentDoing(`${FIX_PY}
printf 'from calc import add\\n\\n\\ndef test_add_negative():\\n    assert add(-2, -3) == -5\\n' > tests/test_more.py`),
    );
    const r = await runCli(sb, args(agent));
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ status: 'complete', iterations: 1, issuesClosed: ['bd-add'] });
    expect(git(sb, 'show', 'main:calc.py')).toContain('return a + b');
    expect(git(sb, 'show', 'main:tests/test_more.py')).toContain('test_add_negative');
  });
});

describe('issue 42: a cheat on node --test is never merged; the honest fix is accepted in one invocation', () => {
  async function nodeRepository(): Promise<Sandbox> {
    const sb = await createSandbox([
      issue('bd-add', 'add() subtracts', { description: 'the test "add adds" fails: add(2, 3) should be 5' }),
    ]);
    sandboxes.push(sb);
    await addCalculator(sb);
    return sb;
  }

  it("the test's assertion rewritten to what the bug returns: rejected (the test judged as the base had it), main unchanged", async () => {
    const sb = await nodeRepository();
    await expectNeverMerged(
      sb,
      `sed -i 's/assert.equal(add(2, 3), 5)/assert.equal(add(2, 3), -1)/' test/calc.test.mjs`,
      /target\(s\) still failing \(add adds\).*test\/calc\.test\.mjs \(test-changed\)/,
      ['--test-command', 'node --test test/'],
    );
  });

  it('the honest fix: accepted and merged in one invocation', async () => {
    const sb = await nodeRepository();
    const r = await runCli(
      sb,
      args(await writeAgent(sb, 'honest', agentDoing(FIX.add)), '--test-command', 'node --test test/'),
    );
    expectExit(r, 0);
    expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', iterations: 1, issuesClosed: ['bd-add'] });
    expect(git(sb, 'show', 'main:src/calc.mjs')).toContain('export const add = (a, b) => a + b;');
  });
});
