/**
 * A cycle on an earlier cycle's branch (escalated: its rejected work kept as a wip: commit), on real
 * git: the cycle continues that work, but its baseline is the base branch's tree, so that what the
 * earlier work broke is the cycle's to mend. Run on the branch's tree, the breakage counted as
 * "failing before any change": an agent that changed nothing had its issue closed and the breaking
 * change merged into main.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { openGit } from '../../src/git/git.js';
import { runSlice, type SliceDeps, type TestOutcome } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import type { SuiteRun } from '../../src/verdict/results.js';
import { implementWorkflow } from '../../src/workflows/index.js';
import { baselineCheckoutFile } from '../../src/safety/baselineCheckout.js';
import { GIT_ENV, gitIn } from '../git/repo.js';
import { recordTip } from './recordedTip.js';
import { ManualClock, MemorySource, ScriptedAgent, done, sliceSettings } from '../../fakes/index.js';

let repo: string;
let stateDir: string;
const git = gitIn(() => repo);
beforeEach(async () => {
  repo = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-earlier-'));
  stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-earlier-state-'));
});
afterEach(async () => {
  await fs.rm(repo, { recursive: true, force: true });
  await fs.rm(stateDir, { recursive: true, force: true });
});

/** The suite: test A passes when a.txt says ok, test B when b.txt does; read from the checkout as it is. */
async function suite(): Promise<TestOutcome> {
  const read = (f: string) => fs.readFile(path.join(repo, f), 'utf8').then((t) => t.trim());
  const tests = {
    'suite::A': (await read('a.txt')) === 'ok' ? 'passed' : 'failed',
    'suite::B': (await read('b.txt')) === 'ok' ? 'passed' : 'failed',
  } as const;
  const failing = Object.values(tests).includes('failed');
  const run: SuiteRun = {
    reader: 'junit',
    exitCode: failing ? 1 : 0,
    tests,
    groups: { suite: failing ? 'failed' : 'passed' },
    messages: {},
  };
  return { passed: !failing, exitCode: run.exitCode, durationMs: 10, tail: JSON.stringify(tests), run };
}

/** main: A fails (pre-existing), B passes; agent-loop/bd-1: an escalated cycle's wip: that breaks B. */
function repoWithEarlierBranch(): void {
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 't');
  git('config', 'user.email', 't@example.invalid');
  git('commit', '-q', '--allow-empty', '-m', 'root');
  write('a.txt', 'broken\n');
  write('b.txt', 'ok\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'A fails, B passes');
  git('switch', '-q', '-c', 'agent-loop/bd-1');
  write('b.txt', 'broken by the earlier attempt\n');
  git('commit', '-q', '-am', 'wip: bd-1 escalated: stuck');
  git('switch', '-q', 'main');
  // main moves on after the escalation: the new cycle merges it into the branch.
  write('c.txt', 'later\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'later work on main');
}
const write = (file: string, text: string) => writeFileSync(path.join(repo, file), text);

/** A slice on bd-1 whose suite writes `text` to `file` as it runs the first time (the baseline, on main's tree). */
async function sliceWhereBaselineWrites(file: string, text: string) {
  markerDuring.length = 0;
  const agent = new ScriptedAgent([done]);
  const { result } = await slice(agent, MemorySource.of('bd-1'), undefined, (run) => {
    if (run === 1) write(file, text);
  });
  return { result, agent };
}

/** Whether the detached-checkout marker was there at each test run (the baseline's is the first). */
const markerDuring: boolean[] = [];

async function slice(
  agent: ScriptedAgent,
  source: MemorySource,
  signal?: AbortController,
  suiteWrites?: (run: number) => void,
) {
  const clock = new ManualClock();
  const lines: string[] = [];
  const deps: SliceDeps = {
    settings: sliceSettings({ testCommand: 'the suite' }),
    workflow: implementWorkflow,
    cwd: repo,
    stateDir,
    source,
    agent,
    clock,
    logger: createLogger({ json: true, write: (s) => lines.push(s), clock, redact: createRedactor([]) }),
    store: new FileCheckpointStore(stateDir, { clock }),
    git: await openGit(repo, GIT_ENV),
    runTests: async () => {
      markerDuring.push(existsSync(baselineCheckoutFile(stateDir)));
      const outcome = await suite();
      suiteWrites?.(markerDuring.length);
      // Killed while the suite runs (SIGTERM): the run is dropped, the checkpoint kept.
      signal?.abort();
      return outcome;
    },
    ...(signal ? { signal: signal.signal } : {}),
  };
  await recordTip(deps.store, deps.settings.maxIterations, 'agent-loop/bd-1', git('rev-parse', 'agent-loop/bd-1'));
  const result = await runSlice(deps);
  return { result, events: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("a cycle on an earlier cycle's branch: its baseline is the base branch's tree", () => {
  it("the earlier wip: that broke test B is the cycle's failure (not closed, not merged); A, failing on main, stays pre-existing", async () => {
    repoWithEarlierBranch();
    const mainBefore = git('rev-parse', 'main');
    const source = MemorySource.of('bd-1');
    // The agent changes nothing and says it is done, three times over.
    const agent = new ScriptedAgent([done]);
    const { result, events } = await slice(agent, source);

    // Not closed, nothing merged: main as it was, B still passing on it; the work kept on the branch.
    expect(source.closedWith).toEqual({});
    expect(source.issues[0]).toMatchObject({ status: 'open', labels: ['agent-loop:escalated'] });
    expect(result).toMatchObject({ status: 'halted', haltReason: 'all_escalated' });
    expect(git('rev-parse', 'main')).toBe(mainBefore);
    expect(git('show', 'main:b.txt')).toBe('ok');
    expect(git('show', 'agent-loop/bd-1:b.txt')).toBe('broken by the earlier attempt');
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('main');
    // While the checkout was detached for the baseline, the marker said where it was (a run killed
    // then is put back by the next: src/safety/baselineCheckout.ts); gone once the branch was back.
    expect(markerDuring[0]).toBe(true);
    expect(markerDuring.slice(1).every((m) => !m)).toBe(true);
    expect(existsSync(baselineCheckoutFile(stateDir))).toBe(false);
    // The baseline ran on main's tree (A failing, B passing), the branch checked out again after.
    const said = (event: string) => events.filter((e) => e.event === event).map((e) => String(e.message));
    expect(said('tests.baseline')).toEqual([
      expect.stringMatching(
        /^Running the tests on main as this cycle found it first .*agent-loop\/bd-1 holds an earlier cycle's work/,
      ),
      'Baseline: 2 test(s) read (junit), 1 failing before any change: suite::A (0.0s).',
    ]);
    // Every verdict blames B on the cycle; A stays pre-existing.
    const rejected = events.filter((e) => e.event === 'tests.failed');
    expect(rejected.length).toBeGreaterThan(0);
    for (const e of rejected) expect(e.broken).toEqual(['suite::B']);
    expect(agent.requests.length).toBe(rejected.length);
  });

  it("a run killed during that baseline: the next run resumes the cycle on its branch and runs the baseline on main's tree again", async () => {
    repoWithEarlierBranch();
    const source = MemorySource.of('bd-1');
    const agent = new ScriptedAgent([done]);
    const killed = await slice(agent, source, new AbortController());
    expect(killed.result).toMatchObject({ status: 'continuing' });
    expect(agent.requests).toHaveLength(0);
    // Left on the cycle's branch (merged with main), not on the commit the baseline ran on.
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-1');

    const { result, events } = await slice(agent, source);
    expect(source.closedWith).toEqual({});
    expect(result).toMatchObject({ status: 'halted', haltReason: 'all_escalated' });
    expect(git('show', 'main:b.txt')).toBe('ok');
    const baseline = events.filter((e) => e.event === 'tests.baseline').map((e) => String(e.message));
    expect(baseline.at(-1)).toBe('Baseline: 2 test(s) read (junit), 1 failing before any change: suite::A (0.0s).');
    for (const e of events.filter((x) => x.event === 'tests.failed')) expect(e.broken).toEqual(['suite::B']);
  });

  it('a suite that rewrites a tracked file during that baseline: the file is put back, the branch checked out again, the run goes on', async () => {
    repoWithEarlierBranch();
    // b.txt differs between main and the branch: a change to it made git refuse the switch back.
    const { result, agent } = await sliceWhereBaselineWrites('b.txt', 'rewritten by the suite\n');
    expect(result).toMatchObject({ status: 'halted', haltReason: 'all_escalated' });
    expect(agent.requests.length).toBeGreaterThan(0);
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git('show', 'agent-loop/bd-1:b.txt')).toBe('broken by the earlier attempt');
    expect(git('log', '--all', '-p', '--format=')).not.toContain('rewritten by the suite');
  });

  it('a suite that writes a file the branch tracks and the base tip does not, during that baseline: the branch is checked out again over it', async () => {
    repoWithEarlierBranch();
    git('switch', '-q', 'agent-loop/bd-1');
    write('report.txt', 'the earlier attempt\n');
    git('add', 'report.txt');
    git('commit', '-q', '-m', 'wip: report');
    git('switch', '-q', 'main');
    const { result, agent } = await sliceWhereBaselineWrites('report.txt', 'written by the suite\n');
    expect(result).toMatchObject({ status: 'halted', haltReason: 'all_escalated' });
    expect(agent.requests.length).toBeGreaterThan(0);
    expect(git('log', '--all', '-p', '--format=')).not.toContain('written by the suite');
  });

  it("that baseline's switch back throws away only what the suite changed: a person's edit git was told to leave alone (assume-unchanged) stays", async () => {
    repoWithEarlierBranch();
    // local.txt, on main and on the branch alike: the person's own edit to it is hidden from git status.
    write('local.txt', 'shared\n');
    git('add', 'local.txt');
    git('commit', '-q', '-m', 'local.txt');
    git('switch', '-q', 'agent-loop/bd-1');
    git('merge', '-q', '--no-edit', 'main');
    git('switch', '-q', 'main');
    write('local.txt', 'my own settings\n');
    git('update-index', '--assume-unchanged', 'local.txt');
    await sliceWhereBaselineWrites('b.txt', 'rewritten by the suite\n');
    expect(markerDuring[0]).toBe(true); // the baseline ran on the base tip, checked out for it
    expect(await fs.readFile(path.join(repo, 'local.txt'), 'utf8')).toBe('my own settings\n');
    expect(git('log', '--all', '-p', '--format=')).not.toContain('rewritten by the suite');
  });
});
