/**
 * Issue 42, "read every test or say so", on the built CLI with real pytest and the beads file: a
 * suite where pytest counts a result agent-loop cannot read one by one (a parameter holding a newline,
 * with the project's id escaping turned off: pytest prints that id over two lines). An honest fix the
 * verdict accepts, with evidence (a failure of the base it fixes), is held for a person as
 * `unverified` — the result not read could be a broken test — never merged, the issue left open with
 * the label and a note; with --accept-unverified the same work lands; with a JUnit report named by
 * --junit-file (read whole) nothing is unread and it lands.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  type Sandbox,
  DONE_REPORT,
  PYTHON,
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

const made: Sandbox[] = [];
afterEach(() => Promise.all(made.splice(0).map((sb) => sb.cleanup())));

const PYTEST = `${PYTHON} -m pytest -q -rA -p no:cacheprovider tests`;

const CALC_PY = 'def add(a, b):\n    return a - b\n';
/** test_add fails on the base; test_lines[one\ntwo] passes, and pytest prints its id over two lines. */
const TEST_CALC_PY = `import pytest

from calc import add


def test_add():
    assert add(2, 3) == 5


@pytest.mark.parametrize("text", ["one\\ntwo", "three"])
def test_lines(text):
    assert text
`;
/** Non-ASCII and control characters in ids printed as they are (pytest's own, long-named option). */
const PYTEST_INI =
  '[pytest]\npythonpath = .\ndisable_test_id_escaping_and_forfeit_all_rights_to_community_support = true\n';

async function pythonRepository(testCommand = PYTEST): Promise<Sandbox> {
  const sb = await createSandbox([issue('bd-add', 'add() subtracts', { description: 'add(2, 3) should be 5' })]);
  made.push(sb);
  sb.env.PYTHONDONTWRITEBYTECODE = '1';
  await fs.mkdir(path.join(sb.repo, 'tests'));
  await fs.writeFile(path.join(sb.repo, 'calc.py'), CALC_PY);
  await fs.writeFile(path.join(sb.repo, 'tests', 'test_calc.py'), TEST_CALC_PY);
  await fs.writeFile(path.join(sb.repo, 'pytest.ini'), PYTEST_INI);
  await fs.writeFile(path.join(sb.repo, '.gitignore'), 'junit.xml\n');
  await fs.writeFile(path.join(sb.repo, '.agent-loop.yml'), `test-command: ${JSON.stringify(testCommand)}\n`);
  git(sb, 'add', '-A');
  commit(sb, 'calc in Python, add() broken; a test id over two lines');
  return sb;
}

/** The honest fix: add() adds. */
const FIX = `printf 'def add(a, b):\\n    return a + b\\n' > calc.py
${DONE_REPORT}`;

const args = (agent: string, ...extra: string[]) => [
  ...['run', '--json', '--agent', 'command', '--agent-command', agent, '--iteration-delay', '0'],
  ...['--issues-file', './.beads/issues.jsonl', ...extra],
];

/** The issue as the base branch's beads file has it. */
const issueOnMain = (sb: Sandbox) =>
  JSON.parse(git(sb, 'show', 'main:.beads/issues.jsonl').trim().split('\n')[0] ?? '{}') as {
    status: string;
    labels?: string[];
    notes?: string;
  };

describe('issue 42: results pytest counted and agent-loop could not read one by one', () => {
  it('an honest fix with evidence is held for a person (unverified), saying counted 3 / read 2 and what to do; never merged, the issue open', async () => {
    const sb = await pythonRepository();
    const mainBefore = git(sb, 'rev-parse', 'main');
    const r = await runCli(sb, args(await writeAgent(sb, 'honest', FIX)));
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ issuesClosed: [], issuesHeld: [{ id: 'bd-add', reason: 'unverified' }] });
    expect(res.history.map((h) => h.outcome)).toEqual(['held']);
    // The verdict accepted it, with evidence: only the result not read holds it.
    expect(res.history[0]?.verdict).toMatchObject({ kind: 'accepted' });
    expect(res.history[0]?.verdict?.summary).toMatch(
      /^1 target\(s\) pass; 1 test result\(s\) the runner counted in its summary could not be read one by one/,
    );
    const evidence = events(r.stdout).find((e) => e.event === 'tests.evidence')?.evidence;
    expect(evidence).toMatchObject({ kind: 'fixed', tests: ['tests/test_calc.py::test_add'] });
    const held = events(r.stdout).find((e) => e.event === 'cycle.held');
    expect(held).toMatchObject({ reason: 'unverified' });
    expect(held?.why).toBe(
      'the runner counted 3 test result(s) in its summary and agent-loop read 2 of them one by one: ' +
        'the 1 it could not read are not judged, and one of them could be a broken test (the full output is in the log). ' +
        'Have the test command write a JUnit report and name it with --junit-file (a JUnit report is read whole), ' +
        'or land such work with --accept-unverified',
    );
    // Said before the agent ran, with the baseline: what accepted work on this suite comes to.
    expect(events(r.stdout).find((e) => e.event === 'tests.unread')).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(
        /^pytest counted 3 test result\(s\) on the cycle's base and agent-loop read 2 of them one by one: work the tests accept on this suite is held for a person as unverified/,
      ),
      counted: 3,
      read: 2,
    });
    // Never merged: main has only the issue's label and note; the fix is on its branch.
    expect(git(sb, 'diff', '--name-only', mainBefore, 'main')).toBe('.beads/issues.jsonl');
    expect(git(sb, 'show', 'agent-loop/bd-add:calc.py')).toContain('return a + b');
    const onMain = issueOnMain(sb);
    expect(onMain.status).toBe('open');
    expect(onMain.labels).toContain('agent-loop:unverified');
    expect(onMain.notes).toContain('the judge could not verify the work (the runner counted 3 test result(s)');
  });

  it('the same with --accept-unverified: merged and closed, as before issue 42', async () => {
    const sb = await pythonRepository();
    const r = await runCli(sb, args(await writeAgent(sb, 'honest', FIX), '--accept-unverified'));
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ status: 'complete', issuesClosed: ['bd-add'] });
    expect(res.issuesHeld ?? []).toEqual([]);
    // The maintainer lands such work: no warning ahead.
    expect(events(r.stdout).filter((e) => e.event === 'tests.unread')).toEqual([]);
    expect(res.history.map((h) => h.outcome)).toEqual(['complete']);
    expect(git(sb, 'show', 'main:calc.py')).toContain('return a + b');
    expect(issueOnMain(sb).status).toBe('closed');
  });

  it('the advice taken: a JUnit report named with --junit-file is read whole, nothing is unread, and the fix lands', async () => {
    const sb = await pythonRepository(`${PYTEST} --junitxml=junit.xml`);
    const r = await runCli(sb, args(await writeAgent(sb, 'honest', FIX), '--junit-file', 'junit.xml'));
    expectExit(r, 0);
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ status: 'complete', issuesClosed: ['bd-add'] });
    expect(res.history[0]?.verdict?.summary).not.toContain('could not be read one by one');
    expect(git(sb, 'show', 'main:calc.py')).toContain('return a + b');
  });
});
