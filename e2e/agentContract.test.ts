/**
 * The agent contract of docs/agents.md, as a user meets it: its example agent, taken from the page
 * as written, runs under the built CLI in the implement and the tdd workflows. The tool it hands the
 * prompt to (MY_AGENT) is a scripted fixer here; what the example itself reads and prints is the
 * page's own code, so a change to the contract that the page does not follow fails here.
 */
import { describe, expect, it } from '@jest/globals';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Sandbox,
  commit,
  createSandbox,
  expectExit,
  git,
  issue,
  lastResult,
  readIssues,
  runArgs,
  runCli,
  shellQuote,
} from './helpers.js';

const PAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'agents.md');

/** The page's example agent: the first ```js block after its "An example agent" heading. */
function exampleAgent(page = readFileSync(PAGE, 'utf8')): string {
  const section = page.slice(page.indexOf('### An example agent'));
  const m = /```js\n([\s\S]*?)\n```/.exec(section);
  if (!m) throw new Error('docs/agents.md has no ```js block under "An example agent"');
  return `${m[1]}\n`;
}

async function withExample(sb: Sandbox, fixer: string): Promise<{ agent: string; env: NodeJS.ProcessEnv }> {
  const example = path.join(sb.root, 'my-agent.mjs');
  await fs.writeFile(example, exampleAgent());
  const tool = path.join(sb.root, 'fixer.sh');
  await fs.writeFile(tool, fixer);
  // MY_AGENT is split on spaces by the example: the path has none (the sandbox root is a mkdtemp name).
  expect(tool).not.toMatch(/\s/);
  return { agent: `node ${shellQuote(example)}`, env: { MY_AGENT: `sh ${tool}` } };
}

describe('docs/agents.md: the example agent, as written', () => {
  it('is at most 20 lines of code', () => {
    const code = exampleAgent()
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.trim().startsWith('//') && !l.startsWith('#!'));
    expect(code.length).toBeLessThanOrEqual(20);
  });

  it('works an issue in the implement workflow: told the issue and the iteration, its report read, the tests judge', async () => {
    const sb = await createSandbox([issue('bd-1', 'Make the value good')]);
    try {
      // The tool gets the prompt file as its last argument, as aider's --message-file would.
      const { agent, env } = await withExample(
        sb,
        '#!/bin/sh\ngrep -q "bd-1: Make the value good" "$1" || exit 3\necho good > value.txt\n',
      );
      const r = await runCli(sb, runArgs(agent), { env });
      expectExit(r, 0);
      const result = lastResult(r.stdout);
      expect(result).toMatchObject({ status: 'complete', issuesClosed: ['bd-1'], iterations: 1 });
      expect(r.stdout).toContain('iteration 1: implement for bd-1');
      expect(readIssues(sb)[0]).toMatchObject({ id: 'bd-1', status: 'closed' });
      expect(git(sb, 'show', 'main:value.txt')).toBe('good');
    } finally {
      await sb.cleanup();
    }
  });

  it('a tool that fails makes the example exit non-zero: the iteration fails and is retried, nothing is accepted', async () => {
    const sb = await createSandbox([issue('bd-1', 'Make the value good')]);
    try {
      const { agent, env } = await withExample(sb, '#!/bin/sh\necho "no model today" >&2\nexit 7\n');
      const r = await runCli(sb, runArgs(agent, '--max-iterations', '2'), { env });
      const result = lastResult(r.stdout);
      expect(result).toMatchObject({ failedIterations: 2, issuesClosed: [] });
      expect(git(sb, 'show', 'main:value.txt')).toBe('bad');
    } finally {
      await sb.cleanup();
    }
  });

  it('works a checklist in the tdd workflow: told each phase and its test in $AGENT_LOOP_TDD_PHASE and $AGENT_LOOP_TDD_TEST', async () => {
    const sb = await createSandbox([issue('bd-1', 'Calculator', { description: 'Tests:\n- [ ] add two numbers\n' })]);
    try {
      await fs.writeFile(
        path.join(sb.repo, 'run-tests.sh'),
        '#!/bin/sh\nfailed=0\nfor t in tests/*.sh; do\n  [ -e "$t" ] || continue\n  n=$(basename "$t" .sh)\n  if out=$(sh "$t" 2>&1); then echo "PASSED $t::$n"; else echo "FAILED $t::$n - $out"; failed=1; fi\ndone\nexit $failed\n',
      );
      await fs.mkdir(path.join(sb.repo, 'tests'));
      await fs.writeFile(path.join(sb.repo, 'tests', 'README.md'), 'The tests of calc.sh.\n');
      await fs.writeFile(path.join(sb.repo, 'calc.sh'), '#!/bin/sh\necho 0\n');
      git(sb, 'add', '-A');
      commit(sb, 'a calculator that answers 0');
      // The fixer acts on the phase and names the test file from the test, as the contract gives them.
      const { agent, env } = await withExample(
        sb,
        [
          '#!/bin/sh',
          'echo "$AGENT_LOOP_TDD_PHASE $AGENT_LOOP_TDD_TEST" >> "$(dirname "$0")/phases.txt"',
          'name=$(echo "$AGENT_LOOP_TDD_TEST" | tr " " "_")',
          'case "$AGENT_LOOP_TDD_PHASE" in',
          `  RED) printf '#!/bin/sh\\n[ "$(sh calc.sh 2 3)" = 5 ] || { echo "calc.sh 2 3 gave $(sh calc.sh 2 3)"; exit 1; }\\n' > "tests/$name.sh";;`,
          `  GREEN) printf '#!/bin/sh\\necho $(($1 + $2))\\n' > calc.sh;;`,
          '  REFACTOR) ;;',
          '  *) exit 9;;',
          'esac',
          '',
        ].join('\n'),
      );
      const r = await runCli(
        sb,
        runArgs(agent, '--workflow', 'tdd', '--max-iterations', '6').map((a) =>
          a === 'sh check.sh' ? 'sh run-tests.sh' : a,
        ),
        { env },
      );
      expectExit(r, 0);
      expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', issuesClosed: ['bd-1'] });
      expect(readFileSync(path.join(sb.root, 'phases.txt'), 'utf8')).toBe(
        'RED add two numbers\nGREEN add two numbers\nREFACTOR add two numbers\n',
      );
      expect(r.stdout).toContain('iteration 1: RED for bd-1');
      expect(git(sb, 'show', 'main:tests/add_two_numbers.sh')).toContain('sh calc.sh 2 3');
    } finally {
      await sb.cleanup();
    }
  });
});
