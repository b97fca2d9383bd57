/**
 * Issue 42: --workflow tdd's test runs are judged in a judge tree (src/workflows/tdd/judgeBase.ts),
 * on real pytest, with the built CLI and a scripted command agent that acts by role (the prompt says
 * "test agent", "implementing agent" or "refactor agent"). From GREEN on the tests stand as RED
 * committed them, and test infrastructure as the cycle's base had it: a GREEN agent that rewrites
 * RED's assertion or adds a conftest.py forcing passes does not pass the phase (the agent is told to
 * restore them) and is never merged; one that also makes the code right is held for a person
 * (tests-changed). The honest cycle still takes its three agent runs. On the old code the tests ran
 * in the agent's working tree: both cheats were committed as GREEN, closed and merged, and the
 * weakened assertion merged too.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type RunResultJson,
  type Sandbox,
  commit,
  createSandbox,
  expectExit,
  git,
  issue,
  lastResult,
  runCli,
  tddRunArgs,
  writeAgent,
} from './helpers.js';
import { PYTHON } from './support/python.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

const PYTEST = `${PYTHON} -m pytest -q -rA -p no:cacheprovider tests`;

/** A Python repository: add() works and is tested; mul() answers 0 and has no test yet. */
async function pythonRepository(): Promise<Sandbox> {
  const sb = await createSandbox([
    issue('bd-1', 'mul() multiplies', {
      description: 'mul(a, b) should return a * b',
      issue_type: 'feature',
    }),
  ]);
  sandboxes.push(sb);
  sb.env.PYTHONDONTWRITEBYTECODE = '1';
  await fs.mkdir(path.join(sb.repo, 'tests'));
  await fs.writeFile(
    path.join(sb.repo, 'calc.py'),
    'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return 0\n',
  );
  await fs.writeFile(
    path.join(sb.repo, 'tests', 'test_add.py'),
    'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
  );
  await fs.writeFile(path.join(sb.repo, 'pytest.ini'), '[pytest]\npythonpath = .\n');
  git(sb, 'add', '-A');
  commit(sb, 'calc in Python: mul() answers 0');
  return sb;
}

const RED = `printf 'from calc import mul\\n\\n\\ndef test_mul():\\n    assert mul(2, 3) == 6\\n' > tests/test_mul.py`;
const FIX = `sed -i 's/^    return 0$/    return a * b/' calc.py`;
const REFACTOR = `sed -i '1i # calc: small arithmetic helpers' calc.py`;
/** GREEN's cheats: RED's assertion rewritten to what the code answers; a conftest.py turning every failure into a pass. */
const EDIT_RED_TEST = `sed -i 's/== 6/== 0/' tests/test_mul.py`;
/** A GREEN that makes the code right and weakens RED's assertion too (it passes whatever mul answers, but a negative). */
const WEAKEN_RED_TEST = `sed -i 's/== 6/>= 0/' tests/test_mul.py`;
const CONFTEST = `cat > tests/conftest.py <<'PY'
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
PY`;

/** The agent: by role, each prompt kept as $NOTES/prompt-N.md and each run counted in $NOTES/invocations. */
function agentScript(green: string, red = RED): string {
  return `P="$AGENT_LOOP_PROMPT_FILE"
cp "$P" "$NOTES/prompt-$AGENT_LOOP_ITERATION.md"
echo x >> "$NOTES/invocations"
if grep -q "You are the test agent" "$P"; then
${red}
elif grep -q "You are the implementing agent" "$P"; then
${green}
else
${REFACTOR}
fi
printf 'Done.\\n\\n\`\`\`yaml\\nwork_remaining: 0\\nrequires_continuation: false\\n\`\`\`\\n'
`;
}

/** Runs the agent `script` (agentScript) with pytest as the test command. */
const runAs = async (sb: Sandbox, script: string, ...extra: string[]) =>
  runCli(sb, [...tddRunArgs(await writeAgent(sb, 'agent', script)), '--test-command', PYTEST, ...extra]);
const run = (sb: Sandbox, green: string, ...extra: string[]) => runAs(sb, agentScript(green), ...extra);

/** Each iteration as PHASE:decision(ERROR_TYPE). */
const trail = (result: RunResultJson) =>
  result.history.map((h) => `${h.tdd?.phase}:${h.tdd?.decision}${h.tdd?.error ? `(${h.tdd.error})` : ''}`);

const invocations = (sb: Sandbox) => readFileSync(path.join(sb.root, 'invocations'), 'utf8').trim().split('\n').length;
const promptOf = (sb: Sandbox, n: number) => readFileSync(path.join(sb.root, `prompt-${n}.md`), 'utf8');

/** A GREEN cheater run for 3 iterations: RED committed, GREEN retried twice for the finding; nothing merged or closed. */
async function expectNotPassed(sb: Sandbox, green: string, finding: RegExp) {
  const mainBefore = git(sb, 'rev-parse', 'main');
  const r = await run(sb, green, '--max-iterations', '3');
  expectExit(r, 1);
  const res = lastResult(r.stdout);
  expect(res).toMatchObject({ haltReason: 'max_iterations', issuesClosed: [] });
  expect(trail(res)).toEqual(['RED:commit', 'GREEN:retry(TESTS_CHANGED)', 'GREEN:retry(TESTS_CHANGED)']);
  expect(invocations(sb)).toBe(3);
  expect(git(sb, 'rev-parse', 'main')).toBe(mainBefore);
  expect(git(sb, 'log', '--format=%s', 'agent-loop/bd-1')).not.toMatch(/^feat:/m);
  // The retry prompt names the path to restore and why, then the phase's failing test.
  const prompt = promptOf(sb, 3);
  expect(prompt).toContain('You changed what judges the work');
  expect(prompt).toMatch(finding);
  expect(prompt).toContain('tests/test_mul.py::test_mul');
  return res;
}

describe('issue 42: --workflow tdd judges its phases in a judge tree (pytest)', () => {
  it('the honest cycle: RED, GREEN and REFACTOR in 3 agent runs, committed, merged and closed', async () => {
    const sb = await pythonRepository();
    const r = await run(sb, FIX);
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ status: 'complete', iterations: 3, issuesClosed: ['bd-1'] });
    expect(trail(res)).toEqual(['RED:commit', 'GREEN:commit', 'REFACTOR:commit']);
    expect(invocations(sb)).toBe(3);
    expect(git(sb, 'show', 'main:calc.py')).toContain('return a * b');
    expect(git(sb, 'show', 'main:tests/test_mul.py')).toContain('assert mul(2, 3) == 6');
  });

  it("GREEN rewrites RED's assertion to what the code answers: the test runs as RED committed it, the phase is retried with the path to restore; never merged", async () => {
    const sb = await pythonRepository();
    await expectNotPassed(sb, EDIT_RED_TEST, /- tests\/test_mul\.py \(test-changed: [^\n]*\): restore it as it was\./);
  });

  it('GREEN adds a conftest.py that turns every failure into a pass: dropped from the judge tree, the phase is retried with the path to remove; never merged', async () => {
    const sb = await pythonRepository();
    await expectNotPassed(sb, CONFTEST, /- tests\/conftest\.py \(infrastructure-added: [^\n]*\): remove it\./);
  });

  it('RED makes an existing test fail instead of writing a new one: the test runs as the base has it, RED is retried with the path to restore; nothing committed', async () => {
    const sb = await pythonRepository();
    const mainBefore = git(sb, 'rev-parse', 'main');
    const r = await runAs(sb, agentScript(FIX, `sed -i 's/== 5/== 6/' tests/test_add.py`), '--max-iterations', '2');
    expectExit(r, 1);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ haltReason: 'max_iterations', issuesClosed: [] });
    expect(trail(res)).toEqual(['RED:retry(TESTS_CHANGED)', 'RED:retry(TESTS_CHANGED)']);
    expect(git(sb, 'rev-parse', 'main')).toBe(mainBefore);
    expect(git(sb, 'log', '--format=%s', 'agent-loop/bd-1')).not.toMatch(/^test:/m);
    expect(promptOf(sb, 2)).toMatch(/- tests\/test_add\.py \(test-changed: [^\n]*\): restore it as it was\./);
  });

  it("GREEN makes the code right but weakens RED's assertion too: held for a person (tests-changed) at once, the work on its branch, nothing of it on main, the issue open and labelled", async () => {
    const sb = await pythonRepository();
    const mainBefore = git(sb, 'rev-parse', 'main');
    const r = await run(sb, `${FIX}\n${WEAKEN_RED_TEST}`, '--max-iterations', '4');
    expectExit(r, 0);
    const res = lastResult(r.stdout) as RunResultJson & { issuesHeld: { id: string; reason: string }[] };
    expect(res).toMatchObject({ status: 'complete', iterations: 2, issuesClosed: [] });
    expect(res.issuesHeld).toEqual([{ id: 'bd-1', reason: 'tests-changed' }]);
    expect(trail(res)).toEqual(['RED:commit', 'GREEN:hold']);
    expect(res.history.map((h) => h.outcome)).toEqual(['continuing', 'held']);
    expect(invocations(sb)).toBe(2);
    expect(r.stdout).toMatch(/held for a person \(agent-loop:tests-changed\)/);
    // Nothing of the work on main: only the issue's label and note, committed there as bookkeeping.
    expect(git(sb, 'diff', '--name-only', mainBefore, 'main')).toBe('.beads/issues.jsonl');
    expect(git(sb, 'show', 'main:calc.py')).toContain('return 0');
    expect(git(sb, 'show', 'agent-loop/bd-1:calc.py')).toContain('return a * b');
    expect(git(sb, 'show', 'agent-loop/bd-1:tests/test_mul.py')).toContain('assert mul(2, 3) >= 0');
    const onMain = JSON.parse(git(sb, 'show', 'main:.beads/issues.jsonl')) as { status: string; labels: string[] };
    expect(onMain.status).toBe('open');
    expect(onMain.labels).toContain('agent-loop:tests-changed');
  });
});
