/**
 * Issue 42, proof of fix: when the issue names no test and the work fixes no failure of the base, the
 * evidence is a test the agent added that fails on the base (with only that test added) and passes on
 * the judge tree with it; both runs on the maintainer's test infrastructure, on real runners (pytest,
 * node --test), on the built CLI. A test the issue names that does not exist yet is a target the agent
 * must write, judged with the agent's added tests. What is accepted is unchanged here (an `unverified`
 * landing is another part of issue 42): the evidence is logged (`tests.evidence`) with the verdict.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Sandbox,
  DONE_REPORT,
  commit,
  createSandbox,
  events,
  expectExit,
  git,
  issue,
  lastResult,
  runCli,
  writeAgent,
} from './helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

/** The Python that has pytest, by its real path (the sandbox's HOME hides a version manager's shims). */
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)']).toString().trim();
const PYTEST = `${PYTHON} -m pytest -q -rA -p no:cacheprovider tests`;

const CALC_PY = 'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n';
/** The maintainer's tests cover sub() only: nothing of the suite fails on add()'s bug. */
const TEST_SUB_PY = 'from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n';

/** A Python repository where add() subtracts and no test says so; the issue names no test unless told. */
async function pythonRepository(description = 'add(2, 3) should be 5, it is -1'): Promise<Sandbox> {
  const sb = await createSandbox([issue('bd-add', 'add() subtracts', { description })]);
  sandboxes.push(sb);
  sb.env.PYTHONDONTWRITEBYTECODE = '1';
  await fs.mkdir(path.join(sb.repo, 'tests'));
  await fs.writeFile(path.join(sb.repo, 'calc.py'), CALC_PY);
  await fs.writeFile(path.join(sb.repo, 'tests', 'test_calc.py'), TEST_SUB_PY);
  await fs.writeFile(path.join(sb.repo, 'pytest.ini'), '[pytest]\npythonpath = .\n');
  await fs.writeFile(path.join(sb.repo, '.agent-loop.yml'), `test-command: ${JSON.stringify(PYTEST)}\n`);
  git(sb, 'add', '-A');
  commit(sb, 'calc in Python, add() broken, untested');
  return sb;
}

const FIX_PY = `printf 'def add(a, b):\\n    return a + b\\n\\n\\ndef sub(a, b):\\n    return a - b\\n' > calc.py`;
/** A test of add() that fails on the base (add subtracts) and passes with the fix. */
const TEST_ADD_PY = `printf 'from calc import add\\n\\n\\ndef test_add():\\n    assert add(2, 3) == 5\\n' > tests/test_add.py`;

const args = (agent: string, ...extra: string[]) => [
  ...['run', '--json', '--agent', 'command', '--agent-command', agent, '--iteration-delay', '0'],
  ...['--issues-file', './.beads/issues.jsonl', ...extra],
];

/** Writes each prompt to $NOTES/prompt-N.txt, then runs `body`, then says done. */
const agentDoing = (body: string) => `cp "$AGENT_LOOP_PROMPT_FILE" "$NOTES/prompt-$AGENT_LOOP_ITERATION.txt"
${body}
${DONE_REPORT}`;

/** The evidence logged with each verdict (`tests.evidence`), in order. */
const evidenceOf = (stdout: string) =>
  events(stdout)
    .filter((e) => e.event === 'tests.evidence')
    .map((e) => e.evidence as { kind: string; tests: string[]; said: string });

/** How many times the suite ran with the agent's added tests announced (`tests.added`). */
const addedRuns = (stdout: string) => events(stdout).filter((e) => e.event === 'tests.added').length;

describe('issue 42: proof of fix on pytest when the issue names no test', () => {
  it('the prompt asks for a test; the honest agent adds one that fails on the base and passes with the fix: evidence `added`, naming it', async () => {
    const sb = await pythonRepository();
    const r = await runCli(sb, args(await writeAgent(sb, 'honest', agentDoing(`${FIX_PY}\n${TEST_ADD_PY}`))));
    expectExit(r, 0);
    expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', iterations: 1, issuesClosed: ['bd-add'] });
    expect(readFileSync(path.join(sb.root, 'prompt-1.txt'), 'utf8')).toContain(
      'The issue names no test: add one that fails without your change and passes with it',
    );
    expect(evidenceOf(r.stdout)).toEqual([
      {
        kind: 'added',
        tests: ['tests/test_add.py::test_add'],
        said: '1 test(s) the agent added fail on the base and pass with the change: tests/test_add.py::test_add',
      },
    ]);
    expect(addedRuns(r.stdout)).toBe(1);
  });

  it('an added test that passes on the base too shows nothing: evidence `none`, saying which', async () => {
    const sb = await pythonRepository();
    const vacuous = `printf 'from calc import add\\n\\n\\ndef test_add_zero():\\n    assert add(0, 0) == 0\\n' > tests/test_add.py`;
    const r = await runCli(sb, args(await writeAgent(sb, 'vacuous', agentDoing(`${FIX_PY}\n${vacuous}`))));
    expectExit(r, 0);
    expect(evidenceOf(r.stdout)).toEqual([
      {
        kind: 'none',
        tests: [],
        said:
          'no evidence of a fix: none of the 1 test(s) the agent added fails on the base and passes with the change; ' +
          'passing on the base too: tests/test_add.py::test_add_zero',
      },
    ]);
  });

  it('no test added: evidence `none`, and the suite is not run again', async () => {
    const sb = await pythonRepository();
    const r = await runCli(sb, args(await writeAgent(sb, 'untested', agentDoing(FIX_PY))));
    expectExit(r, 0);
    expect(evidenceOf(r.stdout)).toEqual([
      {
        kind: 'none',
        tests: [],
        said: 'no evidence of a fix: no target, no failure of the base fixed, and the agent added no test that shows the fix',
      },
    ]);
    expect(addedRuns(r.stdout)).toBe(0);
  });

  it('an added test that passes only through a conftest.py the agent added (add() patched for tests): the conftest is a finding and is dropped from both runs, so the test fails with the change: evidence `none`; held for a person (tests-changed), never merged', async () => {
    const sb = await pythonRepository();
    const mainBefore = git(sb, 'rev-parse', 'main');
    const conftest = `cat > conftest.py <<'PY'
import calc

calc.add = lambda a, b: a + b
PY`;
    const r = await runCli(
      sb,
      args(await writeAgent(sb, 'forger', agentDoing(`${conftest}\n${TEST_ADD_PY}`)), '--max-iterations', '1'),
    );
    // The maintainer's tests pass without the conftest (nothing broken, no target): the change to the
    // infrastructure is held for a person, not merged (issue 42's held landing).
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ issuesClosed: [], issuesHeld: [{ id: 'bd-add', reason: 'tests-changed' }] });
    expect(res.history.map((h) => h.outcome)).toEqual(['held']);
    expect(res.history[0]?.verdict?.summary).toMatch(/conftest\.py \(infrastructure-added\)/);
    expect(evidenceOf(r.stdout)).toEqual([
      {
        kind: 'none',
        tests: [],
        said:
          'no evidence of a fix: none of the 1 test(s) the agent added fails on the base and passes with the change; ' +
          'not passing with the change: tests/test_add.py::test_add',
      },
    ]);
    // Only the issue's held label and note reach main (a bookkeeping commit); nothing of the work.
    expect(git(sb, 'diff', '--name-only', mainBefore, 'main')).toBe('.beads/issues.jsonl');
  });
});

describe('issue 42: where the verdict already has evidence, the suite is not run again', () => {
  it("an issue naming a test the suite has: its target passing is the evidence, and the agent's added test is not run twice more", async () => {
    const sb = await pythonRepository('add(2, 3) should be 5; tests/test_calc.py::test_sub must keep passing');
    const r = await runCli(sb, args(await writeAgent(sb, 'honest', agentDoing(`${FIX_PY}\n${TEST_ADD_PY}`))));
    expectExit(r, 0);
    expect(evidenceOf(r.stdout)).toEqual([
      {
        kind: 'targets',
        tests: ['tests/test_calc.py::test_sub'],
        said: "the issue's targets pass: tests/test_calc.py::test_sub",
      },
    ]);
    expect(addedRuns(r.stdout)).toBe(0);
    expect(readFileSync(path.join(sb.root, 'prompt-1.txt'), 'utf8')).not.toContain('The issue names no test');
  });

  it("a failure of the base the work fixes (no test named): it is the evidence, and the agent's added test is not run twice more", async () => {
    const sb = await pythonRepository();
    await fs.writeFile(
      path.join(sb.repo, 'tests', 'test_calc.py'),
      `${TEST_SUB_PY}\n\ndef test_sum():\n    from calc import add\n    assert add(1, 1) == 2\n`,
    );
    git(sb, 'add', '-A');
    commit(sb, 'a red test of add()');
    const r = await runCli(sb, args(await writeAgent(sb, 'honest', agentDoing(`${FIX_PY}\n${TEST_ADD_PY}`))));
    expectExit(r, 0);
    expect(evidenceOf(r.stdout)).toEqual([
      {
        kind: 'fixed',
        tests: ['tests/test_calc.py::test_sum'],
        said: '1 test(s) that failed before the change pass now: tests/test_calc.py::test_sum',
      },
    ]);
    expect(addedRuns(r.stdout)).toBe(0);
  });
});

describe('issue 42: a test the issue names that does not exist yet is a target the agent must write', () => {
  const ASKS = 'add(2, 3) should be 5. Add tests/test_new.py::test_it showing it.';
  const TEST_NEW_PY = `printf 'from calc import add\\n\\n\\ndef test_it():\\n    assert add(2, 3) == 5\\n' > tests/test_new.py`;

  it('the agent writes it with the fix: the target passes (judged with the added tests), evidence `targets`', async () => {
    const sb = await pythonRepository(ASKS);
    const r = await runCli(sb, args(await writeAgent(sb, 'honest', agentDoing(`${FIX_PY}\n${TEST_NEW_PY}`))));
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ status: 'complete', iterations: 1, issuesClosed: ['bd-add'] });
    expect(res.history[0]?.verdict).toMatchObject({
      summary: '1 target(s) pass',
      targets: ['tests/test_new.py::test_it'],
    });
    expect(readFileSync(path.join(sb.root, 'prompt-1.txt'), 'utf8')).toContain(
      'Write the test(s) the issue names that do not exist yet (tests/test_new.py::test_it)',
    );
    expect(evidenceOf(r.stdout)).toEqual([
      {
        kind: 'targets',
        tests: ['tests/test_new.py::test_it'],
        said: "the issue's targets pass: tests/test_new.py::test_it",
      },
    ]);
    expect(git(sb, 'show', 'main:tests/test_new.py')).toContain('def test_it');
  });

  it("named in the issue's agent-loop block: the same", async () => {
    const sb = await pythonRepository(
      'add(2, 3) should be 5.\n\n```agent-loop\ntests: [tests/test_new.py::test_it]\n```',
    );
    const r = await runCli(sb, args(await writeAgent(sb, 'honest', agentDoing(`${FIX_PY}\n${TEST_NEW_PY}`))));
    expectExit(r, 0);
    expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', iterations: 1, issuesClosed: ['bd-add'] });
    expect(evidenceOf(r.stdout).map((e) => e.kind)).toEqual(['targets']);
  });

  it('written so that it passes on the base too (it asserts nothing of add): the target passes, but it is no evidence', async () => {
    const sb = await pythonRepository(ASKS);
    const vacuous = `printf 'def test_it():\\n    assert True\\n' > tests/test_new.py`;
    const r = await runCli(sb, args(await writeAgent(sb, 'vacuous', agentDoing(`${FIX_PY}\n${vacuous}`))));
    expectExit(r, 0);
    expect(evidenceOf(r.stdout)).toEqual([
      {
        kind: 'none',
        tests: [],
        said:
          'no evidence of a fix: the test(s) the issue asked for and the agent wrote pass on the base too, ' +
          'so they show nothing of the fix (tests/test_new.py::test_it)',
      },
    ]);
  });

  it('the fix without the test: the target is not met, and the agent is told the test is its to write', async () => {
    const sb = await pythonRepository(ASKS);
    const r = await runCli(sb, args(await writeAgent(sb, 'untested', agentDoing(FIX_PY)), '--max-iterations', '2'));
    expectExit(r, 1);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ issuesClosed: [] });
    expect(res.history.map((h) => h.outcome)).toEqual(['tests_failed', 'tests_failed']);
    expect(readFileSync(path.join(sb.root, 'prompt-2.txt'), 'utf8')).toContain(
      '- tests/test_new.py::test_it: the issue names this test and the base does not have it: it is yours to write',
    );
  });
});

/** A repository holding `files` (relative path → text), committed, with the add() issue naming no test. */
async function repositoryWith(files: Record<string, string>): Promise<Sandbox> {
  const sb = await createSandbox([
    issue('bd-add', 'add() subtracts', { description: 'add(2, 3) should be 5, it is -1' }),
  ]);
  sandboxes.push(sb);
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(sb.repo, rel)), { recursive: true });
    await fs.writeFile(path.join(sb.repo, rel), text);
  }
  git(sb, 'add', '-A');
  commit(sb, 'calc, add() broken, untested');
  return sb;
}

describe("issue 42: proof of fix on node's test runner", () => {
  const CALC_MJS = 'export const add = (a, b) => a - b;\nexport const sub = (a, b) => a - b;\n';
  const SUB_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sub } from '../src/calc.mjs';

test('sub subtracts', () => assert.equal(sub(5, 3), 2));
`;

  it('the honest agent adds a test file: evidence `added`, by the name node gives the test', async () => {
    const sb = await repositoryWith({ 'src/calc.mjs': CALC_MJS, 'test/calc.test.mjs': SUB_TEST });
    const fix = "sed -i 's/export const add = (a, b) => a - b;/export const add = (a, b) => a + b;/' src/calc.mjs";
    const addTest = `cat > test/add.test.mjs <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add } from '../src/calc.mjs';

test('add adds two numbers', () => assert.equal(add(2, 3), 5));
JS`;
    const r = await runCli(
      sb,
      args(await writeAgent(sb, 'honest', agentDoing(`${fix}\n${addTest}`)), '--test-command', 'node --test test/'),
    );
    expectExit(r, 0);
    expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', iterations: 1, issuesClosed: ['bd-add'] });
    expect(evidenceOf(r.stdout)).toEqual([
      {
        kind: 'added',
        tests: ['test/add.test.mjs::add adds two numbers'],
        said: '1 test(s) the agent added fail on the base and pass with the change: test/add.test.mjs::add adds two numbers',
      },
    ]);
  });
});

describe('issue 42: proof of fix on jest (it names only failing tests: an added test is found by its file)', () => {
  /** The project's own jest, by its path: the sandbox has no node_modules. */
  const JEST = `node ${JSON.stringify(path.resolve('node_modules', 'jest', 'bin', 'jest.js'))} --ci --watchman=false test/`;
  const CALC_JS = 'exports.add = (a, b) => a - b;\nexports.sub = (a, b) => a - b;\n';
  const SUB_TEST =
    "const { sub } = require('../src/calc.js');\n\ntest('sub subtracts', () => expect(sub(5, 3)).toBe(2));\n";

  it('the honest agent adds a test file: evidence `added`, named by its file and name', async () => {
    const sb = await repositoryWith({
      'src/calc.js': CALC_JS,
      'test/calc.test.js': SUB_TEST,
      'package.json': '{ "private": true, "jest": { "testEnvironment": "node" } }\n',
    });
    const fix = "sed -i 's/exports.add = (a, b) => a - b;/exports.add = (a, b) => a + b;/' src/calc.js";
    const addTest = `cat > test/add.test.js <<'JS'
const { add } = require('../src/calc.js');

test('add adds two numbers', () => expect(add(2, 3)).toBe(5));
JS`;
    const r = await runCli(
      sb,
      args(await writeAgent(sb, 'honest', agentDoing(`${fix}\n${addTest}`)), '--test-command', JEST),
    );
    expectExit(r, 0);
    expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', iterations: 1, issuesClosed: ['bd-add'] });
    expect(evidenceOf(r.stdout)).toEqual([
      {
        kind: 'added',
        tests: ['test/add.test.js::add adds two numbers'],
        said: '1 test(s) the agent added fail on the base and pass with the change: test/add.test.js::add adds two numbers',
      },
    ]);
  });
});
