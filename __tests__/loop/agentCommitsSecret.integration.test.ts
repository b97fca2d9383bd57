/**
 * The agent's own commits are scanned for secrets before a cycle's work is committed, merged or
 * pushed, on real git. An agent that committed a token itself, then removed it in a second commit,
 * left a final tree and diff without it: the run merged the branch, and the token was in main's
 * history (in a diff and in a commit's subject), or pushed with the pull request's branch.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { promises as fs, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { type Git, openGit } from '../../src/git/git.js';
import type { CyclePublisher, CycleWork } from '../../src/loop/publish.js';
import { runSlice, type SliceDeps, type SliceSettings } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import { secretDetector } from '../../src/safety/secretScan.js';
import { implementWorkflow } from '../../src/workflows/index.js';
import { GIT_ENV, gitIn } from '../git/repo.js';
import { ManualClock, MemorySource, ScriptedAgent, type Step, done, sliceSettings } from '../../fakes/index.js';

/** Built here, so that no token shape stands in the repository's own files. */
const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4)}`.slice(0, 40);

let repo: string;
let remote: string;
let stateDir: string;
const git = gitIn(() => repo);
beforeEach(async () => {
  repo = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-commits-'));
  remote = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-commits-remote-'));
  stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-commits-state-'));
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote], { env: GIT_ENV });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 't');
  git('config', 'user.email', 't@example.invalid');
  writeFileSync(path.join(repo, 'a.txt'), 'ok\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'root');
  git('remote', 'add', 'origin', remote);
});
afterEach(async () => {
  for (const dir of [repo, remote, stateDir]) await fs.rm(dir, { recursive: true, force: true });
});

/** An agent step that runs `commands` (git, in the repository) as the agent's shell would, then says it is done. */
const agentRunning =
  (...commands: Array<string[] | (() => void)>): Step =>
  () => {
    for (const c of commands)
      if (typeof c === 'function') c();
      else git(...c);
    return done;
  };
const write = (file: string, text: string) => () => writeFileSync(path.join(repo, file), text);

/** A publisher pushing to the bare `remote` for real, recording what it was asked. */
function pushingPublisher(g: Git, asked: string[]): CyclePublisher {
  return {
    description: 'pull requests to test/repo',
    fetchBranch: (branch) => g.fetchBranch('origin', branch),
    async keep(branch) {
      asked.push(`keep ${branch}`);
      await g.push('origin', branch);
    },
    async publish(work: CycleWork) {
      asked.push(`publish ${work.branch}`);
      await g.push('origin', work.branch);
      return { number: 1, url: 'https://github.com/test/repo/pull/1', reused: false };
    },
    async stash(branch) {
      asked.push(`stash ${branch}`);
    },
  };
}

async function slice(steps: Step[], settings: Partial<SliceSettings> = {}, publish = false) {
  const clock = new ManualClock();
  const lines: string[] = [];
  const g = (await openGit(repo, GIT_ENV, { holdsSecret: secretDetector([]) })) as Git;
  const asked: string[] = [];
  const deps: SliceDeps = {
    settings: sliceSettings({ testCommand: 'the suite', ...settings }),
    workflow: implementWorkflow,
    cwd: repo,
    stateDir,
    source: MemorySource.of('bd-1'),
    agent: new ScriptedAgent(steps),
    clock,
    logger: createLogger({ json: true, write: (s) => lines.push(s), clock, redact: createRedactor([]) }),
    store: new FileCheckpointStore(stateDir, { clock }),
    git: g,
    ...(publish ? { publisher: pushingPublisher(g, asked) } : {}),
    runTests: async () => ({ passed: true, exitCode: 0, durationMs: 5, tail: 'ok' }),
  };
  const result = await runSlice(deps);
  return { result, asked, output: lines.join('\n') };
}

const pushed = () => execFileSync('git', ['ls-remote', '--heads', remote], { env: GIT_ENV }).toString().trim();

describe("the agent's own commits are scanned for secrets before its work lands", () => {
  it('a token committed, then removed in a second commit: halted secret_in_change naming the commit and file, main unchanged', async () => {
    const mainBefore = git('rev-parse', 'main');
    const { result, output } = await slice([
      agentRunning(
        write('leak.py', `TOKEN = "${TOKEN}"\n`),
        ['add', 'leak.py'],
        ['commit', '-q', '-m', 'add leak.py'],
        ['rm', '-q', 'leak.py'],
        ['commit', '-q', '-m', 'cleanup'],
      ),
    ]);

    expect(result).toMatchObject({ status: 'halted', haltReason: 'secret_in_change' });
    const leaking = git('log', '--format=%h', '-1', 'agent-loop/bd-1~1');
    expect(result.error).toContain('leak.py');
    expect(result.error).toContain(leaking.slice(0, 7));
    expect(git('rev-parse', 'main')).toBe(mainBefore);
    expect(git('log', '-p', 'main')).not.toContain(TOKEN);
    // Never the secret, in the result or the log.
    expect(JSON.stringify(result) + output).not.toContain(TOKEN);
  });

  it('a token only in the message of a commit (onSuccess pull-request): halted secret_in_change, nothing pushed', async () => {
    const mainBefore = git('rev-parse', 'main');
    const { result, asked, output } = await slice(
      [agentRunning(write('b.txt', 'fine\n'), ['add', 'b.txt'], ['commit', '-q', '-m', `add ${TOKEN}`])],
      { onSuccess: 'pull-request' },
      true,
    );

    expect(result).toMatchObject({ status: 'halted', haltReason: 'secret_in_change' });
    expect(result.error).toContain('its message');
    expect(asked).toEqual([]);
    expect(pushed()).toBe('');
    expect(git('rev-parse', 'main')).toBe(mainBefore);
    expect(JSON.stringify(result) + output).not.toContain(TOKEN);
  });

  it("the agent's own commits without a secret are kept: merged into main with the cycle's work", async () => {
    const { result } = await slice([
      agentRunning(write('b.txt', 'one\n'), ['add', 'b.txt'], ['commit', '-q', '-m', 'agent: b.txt']),
    ]);

    expect(result.status).toBe('complete');
    expect(git('log', '--format=%s', 'main')).toContain('agent: b.txt');
    expect(git('show', 'main:b.txt')).toBe('one');
  });

  it('a token the base branch held already, moved by an agent commit, is not one the change adds', async () => {
    writeFileSync(path.join(repo, 'fixture.txt'), `${TOKEN}\n`);
    git('add', 'fixture.txt');
    git('commit', '-q', '-m', 'a fixture');
    const { result } = await slice([agentRunning(['mv', 'fixture.txt', 'moved.txt'], ['commit', '-q', '-m', 'move'])]);

    expect(result.status).toBe('complete');
    expect(git('show', 'main:moved.txt')).toBe(TOKEN);
  });
});
