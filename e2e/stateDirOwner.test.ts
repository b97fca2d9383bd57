/**
 * Issue 43: a state directory is bound to one repository. Two repositories sharing one --state-dir
 * resumed each other's checkpoints (repo B worked repo A's issue inside B); now the second is
 * refused before any agent runs, naming the state directory, both identities and what to do.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Sandbox,
  createSandbox,
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

describe('a state directory bound to one repository (issue 43)', () => {
  it("repo B is refused repo A's state directory, A's cycle is left to A, and A goes on with it", async () => {
    const a = await createSandbox([issue('bd-1', 'Make the value good in A')]);
    const b = await createSandbox([issue('bd-7', 'Something else in B')]);
    sandboxes.push(a, b);
    const shared = path.join(a.root, 'shared-state');
    // A's agent works without finishing: its cycle (bd-1) is in flight in the checkpoint.
    const slow = await writeAgent(a, 'slow', 'echo half >> notes.txt\necho "work_remaining: more"\n');
    const first = await runCli(a, runArgs(slow, '--state-dir', shared, '--slice-iterations', '1'));
    expectExit(first, 0);
    expect(lastResult(first.stdout).status).toBe('continuing');

    const marker = path.join(b.root, 'agent-ran');
    const agentB = await writeAgent(b, 'agent', `touch ${marker}\necho good > value.txt\n`);
    const r = await runCli(b, runArgs(agentB, '--state-dir', shared));
    expectExit(r, 2);
    expect(r.stderr).toContain(`the state directory ${shared} belongs to another repository`);
    expect(r.stderr).toContain(`root commit ${git(a, 'rev-list', '--max-parents=0', 'HEAD').slice(0, 12)}`);
    expect(r.stderr).toContain('Give this repository its own state directory');
    expect(existsSync(marker)).toBe(false);
    expect(git(b, 'branch', '--list', 'agent-loop/*')).toBe('');
    // A's identity, as recorded at its first run: its root commit (no origin in this sandbox).
    expect(JSON.parse(readFileSync(path.join(shared, 'repository.json'), 'utf8'))).toEqual({
      roots: [git(a, 'rev-list', '--max-parents=0', 'HEAD')],
    });

    // A still resumes its own cycle from it (the agent that never finishes gets it escalated: exit 1).
    const again = await runCli(a, runArgs(slow, '--state-dir', shared, '--slice-iterations', '1'));
    expect(again.stderr).not.toContain('belongs to another repository');
    expect(lastResult(again.stdout).checkpointId).toBe(lastResult(first.stdout).checkpointId);
  });

  it("repo B (A's fork: same commits, another origin) is refused A's state directory after A halted, never told A's halt", async () => {
    const a = await createSandbox([issue('bd-1', 'Make the value good in A')]);
    // B is A's fork: the same commits and issue (so A's halt would stand for it), another origin.
    const b = await createSandbox([issue('bd-1', 'Make the value good in A')]);
    git(a, 'remote', 'add', 'origin', 'https://github.com/octo/widgets.git');
    git(b, 'remote', 'add', 'origin', 'https://github.com/fork/widgets.git');
    expect(git(b, 'rev-parse', 'HEAD')).toBe(git(a, 'rev-parse', 'HEAD'));
    sandboxes.push(a, b);
    const shared = path.join(a.root, 'shared-state');
    const failing = await writeAgent(a, 'failing', 'echo "no luck"\n');
    const halted = await runCli(a, runArgs(failing, '--state-dir', shared, '--max-consecutive-escalations', '1'));
    expect(lastResult(halted.stdout).status).toBe('halted');

    const agentB = await writeAgent(b, 'agent', 'echo good > value.txt\n');
    const r = await runCli(b, runArgs(agentB, '--state-dir', shared));
    expectExit(r, 2);
    expect(r.stderr).toContain(`the state directory ${shared} belongs to another repository`);
    expect(r.stdout + r.stderr).not.toMatch(/STILL HALTED/i);
  });
});
