/**
 * An escalated cycle of a beads file, on real git: a lying agent closes its own issue in
 * `.beads/issues.jsonl` and says it is done; its work is rejected until the cycle is escalated. The
 * escalation's wip: commit kept that closing: the next attempt (the label removed, as the halt says)
 * stopped on a conflict in the issues file, left on the cycle's branch, and the run after it read
 * the issue closed there and ended "complete" with nothing fixed.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { openGit } from '../../src/git/git.js';
import { BeadsFileSource } from '../../src/issues/beadsFile.js';
import { runSlice, type SliceDeps, type SliceSettings, type TestOutcome } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import type { SuiteRun } from '../../src/verdict/results.js';
import { implementWorkflow } from '../../src/workflows/index.js';
import { GIT_ENV, gitIn } from '../git/repo.js';
import { recordTip } from './recordedTip.js';
import { ManualClock, ScriptedAgent, type Step, done, sliceSettings } from '../../fakes/index.js';

const ISSUES = '.beads/issues.jsonl';
let repo: string;
let dirs: string[] = [];
const git = gitIn(() => repo);
beforeEach(async () => {
  repo = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-own-issue-'));
  dirs = [repo];
});
afterEach(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

const write = (file: string, text: string) => writeFileSync(path.join(repo, file), text);
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');
const record = (id: string, over: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    title: `fix ${id}`,
    description: 'a.txt must say ok: see suite::A',
    status: 'open',
    priority: 0,
    labels: [],
    ...over,
  });

/** main: bd-1 open (test suite::A: a.txt must say ok, it says broken) and bd-2, another issue, blocked. */
function repoWithIssue(): void {
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 't');
  git('config', 'user.email', 't@example.invalid');
  mkdirSync(path.join(repo, '.beads'));
  write(ISSUES, `${record('bd-1')}\n${record('bd-2', { status: 'blocked' })}\n`);
  write('a.txt', 'broken\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'bd-1 to do');
}

/** The suite: test A passes when a.txt says ok. */
async function suite(): Promise<TestOutcome> {
  const passed = read('a.txt').trim() === 'ok';
  const run: SuiteRun = {
    reader: 'junit',
    exitCode: passed ? 0 : 1,
    tests: { 'suite::A': passed ? 'passed' : 'failed' },
    groups: { suite: passed ? 'passed' : 'failed' },
    messages: {},
  };
  return { passed, exitCode: run.exitCode, durationMs: 10, tail: passed ? '1 passed' : '1 failed', run };
}

/** Some work that fixes nothing, and bd-1 closed in the issues file (sed 's/"status":"open"/"status":"closed"/' on its line). */
const closeOwn: Step = () => {
  write('attempt.txt', 'tried\n');
  write(
    ISSUES,
    read(ISSUES)
      .split('\n')
      .map((l) => (l.includes('"bd-1"') ? l.replace('"status":"open"', '"status":"closed"') : l))
      .join('\n'),
  );
  return done;
};
const fixes: Step = () => {
  write('a.txt', 'ok\n');
  return done;
};

/** A state directory of its own, removed after the test. */
function newStateDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-loop-own-issue-state-'));
  dirs.push(dir);
  return dir;
}

/** One run of the CLI's engine (a slice, merge on success) with its own state directory. */
async function run(agent: ScriptedAgent, settings: Partial<SliceSettings> = {}, stateDir = newStateDir()) {
  const clock = new ManualClock();
  const lines: string[] = [];
  const deps: SliceDeps = {
    settings: sliceSettings({ testCommand: 'the suite', maxIterationsPerIssue: 0, ...settings }),
    workflow: implementWorkflow,
    cwd: repo,
    stateDir,
    source: new BeadsFileSource({ file: ISSUES, cwd: repo }),
    agent,
    clock,
    logger: createLogger({ json: true, write: (s) => lines.push(s), clock, redact: createRedactor([]) }),
    store: new FileCheckpointStore(stateDir, { clock }),
    git: await openGit(repo, GIT_ENV),
    runTests: suite,
  };
  const result = await runSlice(deps);
  return { result, events: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const statusOf = (text: string, id: string) =>
  (text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { id: string; status: string; labels: string[] })
    .find((r) => r.id === id) ?? { status: 'gone', labels: [] }) as { status: string; labels: string[] };

/**
 * bd-1 escalated by a lying agent (its wip: on agent-loop/bd-1), then its label removed and committed, as
 * the halt says; the state directory the run kept (the escalation's wip: tip is recorded there).
 */
async function escalatedThenUnlabelled(): Promise<string> {
  repoWithIssue();
  const stateDir = newStateDir();
  await run(new ScriptedAgent([closeOwn]), {}, stateDir);
  write(ISSUES, read(ISSUES).replace('"labels":["agent-loop:escalated"]', '"labels":[]'));
  git('commit', '-q', '-am', 'retry bd-1');
  return stateDir;
}

describe("an escalated cycle's wip: commit does not hold the agent's closing of its own issue", () => {
  it('the lying agent closes bd-1: rejected, escalated, and bd-1 is open on its wip: branch and on main (labelled)', async () => {
    repoWithIssue();
    const { result, events } = await run(new ScriptedAgent([closeOwn]));

    expect(result).toMatchObject({ status: 'halted', haltReason: 'all_escalated', issuesClosed: [] });
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('main');
    // The work is kept as wip:, without the closing.
    expect(git('log', '-1', '--format=%s', 'agent-loop/bd-1')).toMatch(/^wip: bd-1 escalated/);
    expect(git('show', 'agent-loop/bd-1:attempt.txt')).toBe('tried');
    const onBranch = git('show', `agent-loop/bd-1:${ISSUES}`);
    expect(statusOf(onBranch, 'bd-1').status).toBe('open');
    // Put back as it was when the cycle began: its line unchanged since main's, the other issue untouched.
    expect(onBranch.split('\n')).toEqual([record('bd-1'), record('bd-2', { status: 'blocked' })]);
    expect(statusOf(read(ISSUES), 'bd-1')).toMatchObject({ status: 'open', labels: ['agent-loop:escalated'] });
    expect(events.filter((e) => e.event === 'issue.reinstated').map((e) => e.issueId)).toEqual(['bd-1']);
  });

  it('an escalation that halts leaves the branch checked out with its edits: bd-1 open there, and labelled', async () => {
    repoWithIssue();
    const { result } = await run(new ScriptedAgent([closeOwn]), { maxConsecutiveEscalations: 1 });

    expect(result).toMatchObject({ status: 'halted', haltReason: 'failure_loop' });
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-1');
    expect(read('attempt.txt')).toBe('tried\n');
    expect(statusOf(read(ISSUES), 'bd-1')).toMatchObject({ status: 'open', labels: ['agent-loop:escalated'] });
  });

  it('tried again with the label removed, an honest agent continues on the wip: branch, merged with main, and bd-1 is closed with its fix', async () => {
    const stateDir = await escalatedThenUnlabelled();

    const { result } = await run(new ScriptedAgent([fixes]), {}, stateDir);
    expect(result).toMatchObject({ issuesClosed: ['bd-1'] });
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git('show', 'main:a.txt')).toBe('ok');
    expect(statusOf(git('show', `main:${ISSUES}`), 'bd-1').status).toBe('closed');
    expect(statusOf(git('show', `main:${ISSUES}`), 'bd-2').status).toBe('blocked');
  });
});

describe('issue 42: an earlier cycle branch is continued only at the tip agent-loop left it at', () => {
  it('a commit someone added on top of the wip: branch: moved aside whole, the cycle starts from main, nothing of it merged', async () => {
    const stateDir = await escalatedThenUnlabelled();
    git('switch', '-q', 'agent-loop/bd-1');
    write('planted.txt', 'planted\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'not agent-loop');
    const planted = git('rev-parse', 'HEAD');
    git('switch', '-q', 'main');

    const { result, events } = await run(new ScriptedAgent([fixes]), {}, stateDir);
    expect(result).toMatchObject({ issuesClosed: ['bd-1'] });
    expect(git('ls-tree', '--name-only', 'main')).not.toContain('planted.txt');
    expect(git('show', 'main:a.txt')).toBe('ok');
    const aside = `agent-loop-untrusted/bd-1-${planted.slice(0, 12)}`;
    expect(git('rev-parse', aside)).toBe(planted);
    expect(events.filter((e) => e.event === 'git.foreign_branch').map((e) => e.movedTo)).toEqual([aside]);
  });
});

describe('the base merged into an earlier cycle branch conflicts', () => {
  it('the run stops on main, where it started, and says so', async () => {
    repoWithIssue();
    // An earlier attempt's wip: and a later change on main to the same line.
    git('switch', '-q', '-c', 'agent-loop/bd-1');
    write('notes.txt', 'the earlier attempt\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'wip: bd-1 escalated: stuck');
    git('switch', '-q', 'main');
    write('notes.txt', 'written on main since\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'main moves on');
    const mainTip = git('rev-parse', 'main');
    const branchTip = git('rev-parse', 'agent-loop/bd-1');
    const stateDir = newStateDir();
    await recordTip(new FileCheckpointStore(stateDir, { clock: new ManualClock() }), 100, 'agent-loop/bd-1', branchTip);

    const agent = new ScriptedAgent([fixes]);
    await expect(run(agent, {}, stateDir)).rejects.toThrow(
      /^merging main into agent-loop\/bd-1 conflicts in notes\.txt; the merge was undone \(git merge --abort\) and main is checked out again, as the run found it\. Merge main into agent-loop\/bd-1 by hand/,
    );
    expect(agent.requests).toHaveLength(0);
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git('status', '--porcelain')).toBe('');
    expect(git('rev-parse', 'main')).toBe(mainTip);
    expect(git('rev-parse', 'agent-loop/bd-1')).toBe(branchTip);
  });
});
