/**
 * Issue 43: an issue whose id cannot be a branch name (`agent-loop/<id>`: git check-ref-format's
 * rules) is skipped with a message naming it and what to do; the other issues are worked. Before,
 * git's raw refusal stopped every run at that issue.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import {
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

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

describe('an issue id that cannot be a branch name (issue 43)', () => {
  it.each([
    ['two dots', 'bad..id'],
    ['a .lock ending', 'fix.lock'],
    ['too long for a file name', `x${'y'.repeat(300)}`],
  ])('%s: skipped with a message, the other issue worked and merged', async (_what, badId) => {
    const sandbox = await createSandbox([
      issue(badId, 'Cannot be a branch', { priority: 0 }),
      issue('bd-1', 'Make the value good', { priority: 1 }),
    ]);
    sandboxes.push(sandbox);
    const agent = await writeAgent(sandbox, 'agent', `echo good > value.txt\n${DONE_REPORT}`);
    const r = await runCli(sandbox, runArgs(agent));
    expectExit(r, 0);
    const result = lastResult(r.stdout);
    expect(result.issuesClosed).toEqual(['bd-1']);
    expect(git(sandbox, 'show', 'main:value.txt')).toBe('good');
    const skipped = events(r.stdout).filter((e) => e.event === 'issue.unbranchable');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]?.message).toContain('cannot be a git branch name');
    expect(skipped[0]?.message).toContain('Rename it');
    expect(git(sandbox, 'branch', '--list', 'agent-loop/*')).not.toContain(badId.slice(0, 20));
  });
});
