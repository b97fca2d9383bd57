/**
 * Issue 42: the configuration comes from the maintainer only. A cycle halts with the checkout left on
 * its branch, where the agent committed its own `.agent-loop.yml` (a test command that passes
 * anything); the run that resumes it reads the base branch's file, says so, and judges with the
 * maintainer's test command. On the old code the resumed run read the agent's file and ran its command.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  type Sandbox,
  DONE_REPORT,
  TEST_COMMAND,
  bareRunArgs,
  commit,
  createSandbox,
  events,
  git,
  lastResult,
  runCli,
  writeAgent,
} from './helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

/** `run --json` with the test command left to the configuration file. */
const args = (agent: string, ...extra: string[]) =>
  bareRunArgs(agent, '--issues-file', './.beads/issues.jsonl', ...extra);

const FORGED = 'echo forged-by-the-agent';

describe('issue 42: the configuration file as the base branch has it', () => {
  it('a run resumed on a halted cycle’s branch reads the base’s .agent-loop.yml, not the one the agent committed there', async () => {
    const sb = await createSandbox();
    sandboxes.push(sb);
    await fs.writeFile(path.join(sb.repo, '.agent-loop.yml'), `test-command: ${TEST_COMMAND}\n`);
    git(sb, 'add', '.agent-loop.yml');
    commit(sb, 'the maintainer’s configuration');
    // First turn: the agent commits a configuration whose test command passes anything, and says it is not done.
    const rewriter = await writeAgent(
      sb,
      'rewriter',
      `printf 'test-command: ${FORGED}\\n' > .agent-loop.yml
git add .agent-loop.yml && git commit -q -m 'config'
printf '\`\`\`yaml\\nwork_remaining: the value\\nrequires_continuation: true\\nstuck_detected: false\\nsummary: partial\\n\`\`\`\\n'`,
    );
    const first = await runCli(sb, args(rewriter, '--max-iterations', '1'));
    expect(lastResult(first.stdout)).toMatchObject({ status: 'halted', haltReason: 'max_iterations' });
    expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-1');
    expect(await fs.readFile(path.join(sb.repo, '.agent-loop.yml'), 'utf8')).toContain(FORGED);

    const fixer = await writeAgent(sb, 'fixer', `echo good > value.txt\n${DONE_REPORT}`);
    const again = await runCli(sb, args(fixer, '--max-iterations', '2', '--resume-halted'));
    expect(again.stderr).toContain(
      ".agent-loop.yml on the checked-out branch agent-loop/bd-1 differs from the base branch main's: the run reads main's",
    );
    const commands = events(again.stdout)
      .filter((e) => e.event === 'tests.start')
      .map((e) => (e as { command?: string }).command);
    expect(commands.length).toBeGreaterThan(0);
    // Before the fix: the agent's `echo forged-by-the-agent` judged the work.
    expect(new Set(commands)).toEqual(new Set([TEST_COMMAND]));
    // The change to the configuration is itself a finding: held for a person, never merged.
    const result = lastResult(again.stdout);
    expect(result.issuesClosed).toEqual([]);
    expect(git(sb, 'show', 'main:.agent-loop.yml')).toBe(`test-command: ${TEST_COMMAND}`);
  });
});
