/**
 * The application layer (src/app/run.ts): prepareRun turns options and ports into a run, or into
 * every reason it cannot start, before anything runs; runPrepared runs one slice of it.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LandingSoFar, prepareRun, runCommand, runPrepared, type RunIO } from '../../src/app/run.js';
import { loadConfig } from '../../src/config/load.js';
import type { Options } from '../../src/config/options.js';
import { LOCK_FILE } from '../../src/safety/lock.js';
import { RUNTIME_DIR } from '../../src/safety/processes.js';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { initialLoopState } from '../../src/core/state.js';
import { ManualClock, MemorySource } from '../../fakes/index.js';
import { ListingError } from '../../src/issues/listing.js';

const lockFile = () => path.join(dir, '.state', RUNTIME_DIR, LOCK_FILE);

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-app-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** `dir` as a git repository on main whose beads file holds one open issue, bd-1, committed. */
async function oneIssueRepo(): Promise<void> {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir });
  git('init', '-q', '-b', 'main');
  await fs.mkdir(path.join(dir, '.beads'));
  await fs.writeFile(
    path.join(dir, '.beads', 'issues.jsonl'),
    `${JSON.stringify({ id: 'bd-1', title: 'Fix it', status: 'open', priority: 1, issue_type: 'task', created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z' })}\n`,
  );
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
}

function options(flags: Record<string, string | true>): Options {
  return loadConfig({ command: 'run', flags: new Map(Object.entries(flags)), env: {} }).options;
}

function io(over: Partial<RunIO> = {}): RunIO & { out: string[] } {
  const out: string[] = [];
  return {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' },
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
    clock: new ManualClock(),
    secrets: [],
    stateDir: path.join(dir, '.state'),
    out,
    ...over,
  };
}

describe('prepareRun', () => {
  it('hands back every reason the run cannot start, typed, and holds no lock', async () => {
    const r = await prepareRun(options({ agent: 'claude', json: true }), io({ env: { PATH: dir, HOME: dir } }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.code).sort()).toEqual(['agent_not_on_path', 'invalid_input', 'invalid_input']);
    expect(r.problems.map((p) => p.message).join('\n')).toMatch(/--test-command: none given and none detected/);
    expect(existsSync(lockFile())).toBe(false);
  });

  it('a prepared run holds its session until runPrepared has run it; nothing ran before', async () => {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    await fs.mkdir(path.join(dir, '.beads'));
    await fs.writeFile(path.join(dir, '.beads', 'issues.jsonl'), '');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir });
    git('add', '-A');
    git('commit', '-q', '-m', 'init', '--allow-empty');
    const ports = io();
    const r = await prepareRun(
      options({
        agent: 'command',
        'agent-command': 'false',
        'test-command': 'true',
        'issues-file': '.beads/issues.jsonl',
      }),
      ports,
    );
    if (!r.ok) throw new Error(r.problems.map((p) => p.message).join('\n'));
    expect(r.run.deps.settings.testCommand).toBe('true');
    expect(ports.out).toEqual([]);
    expect(existsSync(lockFile())).toBe(true);
    expect(await runPrepared(r.run, ports)).toBe(0);
    expect(existsSync(lockFile())).toBe(false);
    expect(ports.out.join('')).toContain('No ready issues left');
  });
});

describe('runCommand: a halt stands (issue 14)', () => {
  const gitIn = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir });
  const lines = (out: string[]) =>
    out
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => (l.startsWith('{') ? (JSON.parse(l) as Record<string, unknown>) : { stderr: l }));

  it('a later run stops at once (no agent, nothing written), new commits on the base branch lift a red-suite halt, --resume-halted lifts any', async () => {
    await oneIssueRepo();
    const count = path.join(os.tmpdir(), `agent-loop-count-${path.basename(dir)}`);
    const flags = {
      agent: 'command',
      'agent-command': `echo ran >> ${count}`,
      // Fails with nothing readable per test: the run halts baseline_unreadable before any agent runs.
      'test-command': 'false',
      'state-dir': '.state',
      json: true as const,
    };
    const run = async (extra: Record<string, string | true> = {}) => {
      const ports = io();
      const code = await runCommand(options({ ...flags, ...extra }), ports);
      const events = lines(ports.out);
      return { code, events, result: events.at(-1) as Record<string, unknown> };
    };
    try {
      const first = await run();
      expect(first.code).toBe(1);
      expect(first.result).toMatchObject({ status: 'halted', haltReason: 'baseline_unreadable', standing: null });
      const checkpoints = path.join(dir, '.state', 'checkpoints');
      const file = path.join(checkpoints, `${String(first.result.checkpointId)}.json`);
      const written = await fs.readFile(file, 'utf8');
      const halt = (JSON.parse(written) as { state: { loop: { halt: Record<string, string> } } }).state.loop.halt;
      expect(halt).toMatchObject({ reason: 'baseline_unreadable', at: expect.stringMatching(/Z$/) });
      expect(halt.baseTip).toBe(gitIn('rev-parse', 'main').toString().trim());

      const quiet = await run();
      expect(quiet.code).toBe(1);
      expect(quiet.result).toMatchObject({
        status: 'halted',
        haltReason: 'baseline_unreadable',
        checkpointId: first.result.checkpointId,
        sliceIterations: 0,
        diagnostic: null,
        standing: { since: halt.at, resume: ['explicit', 'base_commits', 'fresh'] },
      });
      expect(quiet.events.slice(0, -1).map((e) => e.event)).toEqual(['run.still_halted']); // then the result
      expect(String(quiet.events[0]?.message)).toContain(
        "To resume: once the cause is fixed, run agent-loop run --resume-halted with the halted run's other options; commit a fix to main",
      );
      expect(await fs.readFile(file, 'utf8')).toBe(written); // nothing written
      expect(await fs.readdir(checkpoints)).toHaveLength(1);
      expect(existsSync(lockFile())).toBe(false);

      // A commit on main: the cause may be fixed, the run resumes by itself (and halts again here).
      // No agent worked on the cycle: the halt gave it up and checked main out again (issue 40), where the fix goes.
      expect(gitIn('branch', '--show-current').toString().trim()).toBe('main');
      expect(gitIn('branch', '--list', 'agent-loop/*').toString().trim()).toBe('');
      gitIn('checkout', '-q', 'main');
      await fs.writeFile(path.join(dir, 'README'), 'x\n');
      gitIn('add', 'README');
      gitIn('commit', '-q', '-m', 'a fix, perhaps');
      const lifted = await run();

      expect(lifted.events.find((e) => e.event === 'run.halt_lifted')?.message).toMatch(
        /^Resuming the halted run: the base branch main has new commits since the halt \(\w{7} → \w{7}\)\.$/,
      );
      expect(lifted.result).toMatchObject({ haltReason: 'baseline_unreadable', standing: null });
      expect((await run()).result.standing).not.toBeNull();

      const asked = await run({ 'resume-halted': true });
      expect(asked.events.find((e) => e.event === 'run.halt_lifted')?.message).toBe(
        'Resuming the halted run: asked to resume it.',
      );
      expect(asked.result).toMatchObject({ checkpointId: first.result.checkpointId, standing: null });
      gitIn('checkout', '-q', 'main');
      const fresh = await run({ fresh: true });
      expect(fresh.result.checkpointId).not.toBe(first.result.checkpointId);
      expect(existsSync(count)).toBe(false); // the agent never ran: the suite cannot be judged
    } finally {
      await fs.rm(count, { force: true });
    }
  });
});

describe('runCommand: the preflight (issue 40)', () => {
  const lines = (out: string[]) =>
    out
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('asked once the run has work, before install-agent: its refusal halts publish_refused with no agent installed or run, recorded as a halt; a standing halt does not ask it, resuming asks again; once it passes, the agent is installed and runs', async () => {
    await oneIssueRepo();
    const count = path.join(os.tmpdir(), `agent-loop-preflight-${path.basename(dir)}`);
    const asked: LandingSoFar[] = [];
    let installs = 0;
    let refusal: { message: string; advice: string } | undefined = {
      message: 'GitHub will refuse it',
      advice: 'Allow it, then resume the run (resume: true).',
    };
    const run = async (extra: Record<string, string | true> = {}) => {
      const ports = io();
      const code = await runCommand(
        options({
          agent: 'command',
          'agent-command': `echo ran >> ${count}`,
          'test-command': 'true',
          'max-iterations': '1',
          'state-dir': '.state',
          json: true,
          ...extra,
        }),
        {
          ...ports,
          preflight: async (seen) => (asked.push(seen), refusal),
          installAgent: async () => (installs++, { env: ports.env }),
        },
      );
      return { code, result: lines(ports.out).at(-1) as Record<string, unknown> };
    };
    try {
      const refused = await run();
      expect(refused.code).toBe(1);
      expect(refused.result).toMatchObject({
        status: 'halted',
        haltReason: 'publish_refused',
        iterations: 0,
        error: 'PUBLISH REFUSED: GitHub will refuse it',
        standing: null,
      });
      expect(asked).toEqual([{ base: 'main', landed: { pullRequests: 0, issuesClosed: 0 } }]);
      expect(installs).toBe(0);
      expect(existsSync(count)).toBe(false);

      const standing = await run();
      expect(standing.result).toMatchObject({ haltReason: 'publish_refused', standing: expect.anything() });
      expect(asked).toHaveLength(1);

      const again = await run({ 'resume-halted': true });
      expect(again.result).toMatchObject({ haltReason: 'publish_refused', iterations: 0, standing: null });
      expect(asked).toHaveLength(2);
      expect([installs, existsSync(count)]).toEqual([0, false]);

      refusal = undefined;
      const passed = await run({ 'resume-halted': true });
      expect(passed.result).toMatchObject({ iterations: 1 });
      expect(asked).toHaveLength(3);
      expect(installs).toBe(1);
      expect(await fs.readFile(count, 'utf8')).toBe('ran\n');
    } finally {
      await fs.rm(count, { force: true });
    }
  });

  it('an idle run does not ask it', async () => {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    await fs.mkdir(path.join(dir, '.beads'));
    await fs.writeFile(path.join(dir, '.beads', 'issues.jsonl'), '');
    let asked = 0;
    const code = await runCommand(
      options({ agent: 'command', 'agent-command': 'true', 'test-command': 'true', 'state-dir': '.state' }),
      { ...io(), preflight: async () => void asked++ },
    );
    expect(code).toBe(0);
    expect(asked).toBe(0);
  });
});

describe('runCommand: idle runs (issue 14)', () => {
  const gitIn = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir });
  const issuesFile = () => path.join(dir, '.beads', 'issues.jsonl');
  const bead = (id: string) =>
    `${JSON.stringify({ id, title: `Fix ${id}`, status: 'open', priority: 1, issue_type: 'task', created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z' })}\n`;

  /** runCommand with `flags` (and `over` of the ports), counting the agent's installs: its exit code, log events and result. */
  const runner = (flags: Record<string, string | true>, over: Partial<RunIO> = {}) => {
    const installs: number[] = [];
    const run = async () => {
      const ports = io({
        ...over,
        installAgent: async () => {
          installs.push(1);
          return { env: ports.env };
        },
      });
      const code = await runCommand(options(flags), ports);
      const events = ports.out
        .join('')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      return { code, events, result: events.at(-1) as Record<string, unknown> };
    };
    return { run, installs };
  };

  it('nothing to do: no checkpoint written, no agent installed or prepared, no lock; the result says complete with the newest checkpoint', async () => {
    gitIn('init', '-q', '-b', 'main');
    await fs.mkdir(path.join(dir, '.beads'));
    await fs.writeFile(issuesFile(), '');
    gitIn('add', '-A');
    gitIn('commit', '-q', '-m', 'init', '--allow-empty');
    const flags = {
      agent: 'command',
      // The agent closes its issue in the beads file (the completion check) and says it is done.
      'agent-command': `sed -i 's/"status":"open"/"status":"closed"/' .beads/issues.jsonl`,
      'test-command': 'true',
      'state-dir': '.state',
      // A suite of `true` shows no fix (issue 42): this tests idle runs, so such work lands as before.
      'accept-unverified': true as const,
      json: true as const,
    };
    const { run, installs } = runner(flags);
    const checkpoints = path.join(dir, '.state', 'checkpoints');
    const files = async () => (await fs.readdir(checkpoints).catch(() => [])).sort();

    const empty = await run();
    expect(empty.code).toBe(0);
    expect(empty.result).toMatchObject({ status: 'complete', idle: true, checkpointId: '', iterations: 0 });
    expect(empty.events.slice(0, -1).map((e) => e.event)).toEqual(['run.idle']);
    expect(String(empty.events[0]?.message)).toMatch(/^Nothing to do: no ready issue in beads file/);
    expect(await files()).toEqual([]);
    expect(installs).toEqual([]);
    expect(existsSync(lockFile())).toBe(false);

    // An issue: the run installs the agent (once) and works it.
    await fs.writeFile(issuesFile(), bead('bd-1'));
    gitIn('add', '-A');
    gitIn('commit', '-q', '-m', 'an issue');
    const worked = await run();
    expect(worked.result).toMatchObject({ status: 'complete', idle: false, issuesClosed: ['bd-1'] });
    expect(installs).toEqual([1]);
    const id = String(worked.result.checkpointId);
    const file = path.join(checkpoints, `${id}.json`);
    const written = await fs.readFile(file, 'utf8');

    // Nothing left: the finished checkpoint is reported, left byte for byte as it was, and no new one appears.
    const idle = await run();
    // This run did nothing (issue 40): its own counts are 0, the loop's stand.
    expect(idle.result).toMatchObject({
      status: 'complete',
      idle: true,
      checkpointId: id,
      iterations: 0,
      issuesClosed: [],
      loop: { iterations: 1, issuesClosed: ['bd-1'] },
    });
    expect(String(idle.events[0]?.message)).toContain(`Checkpoint ${id} is left as it was`);
    expect(await files()).toEqual([`${id}.json`]);
    expect(await fs.readFile(file, 'utf8')).toBe(written);
    expect(installs).toEqual([1]);
  });

  it('issue 40: issues that cannot be listed (GitHub answered 404): deferred, exit 75, nothing written, installed or locked, never complete; once they can, the next run works them', async () => {
    gitIn('init', '-q', '-b', 'main');
    gitIn('commit', '-q', '-m', 'init', '--allow-empty');
    const issues = MemorySource.of('1');
    let down = true;
    const unlisted = new ListingError(
      'listing the open issues labelled agent-loop in octo/widgets',
      404,
      'Not found while listing open issues labelled agent-loop in octo/widgets (404 Not Found): check that octo/widgets exists and that the `github-token` input can read it.',
    );
    const source = {
      ...issues,
      description: 'GitHub issues of octo/widgets labelled agent-loop',
      ready: async () => {
        if (down) throw unlisted;
        return issues.ready();
      },
      get: (id: string) => issues.get(id),
      close: (id: string, reason: string) => issues.close(id, reason),
      markEscalated: (id: string, note: string) => issues.markEscalated(id, note),
    };
    const flags = {
      agent: 'command',
      'agent-command': `printf 'work_remaining: 0\\nrequires_continuation: false\\n'`,
      'test-command': 'true',
      'state-dir': '.state',
      json: true as const,
    };
    const { run, installs } = runner(flags, { source: () => source });
    const files = async () => (await fs.readdir(path.join(dir, '.state', 'checkpoints')).catch(() => [])).sort();

    const deferred = await run();
    expect(deferred.code).toBe(75);
    expect(deferred.result).toMatchObject({
      status: 'deferred',
      deferred: { what: 'listing the open issues labelled agent-loop in octo/widgets', status: 404 },
      unchanged: true,
      idle: false,
      iterations: 0,
      issuesClosed: [],
    });
    expect(deferred.events.slice(0, -1).map((e) => [e.event, e.level])).toEqual([['run.deferred', 'warn']]);
    expect(String(deferred.events[0]?.message)).toMatch(
      /^Deferred: Not found while listing open issues .*\(404 Not Found\).*No issue was started and nothing was written; the next run lists the issues again\.$/,
    );
    expect(await files()).toEqual([]);
    expect(installs).toEqual([]);
    expect(existsSync(lockFile())).toBe(false);

    // GitHub answers again: the issue is worked.
    down = false;
    const worked = await run();
    expect(worked.code).toBe(0);
    expect(worked.result).toMatchObject({ status: 'complete', deferred: null, iterations: 1 });
    expect(installs).toEqual([1]);
    expect(await files()).toHaveLength(1);
  });

  it('an all_escalated halt whose label the source refused says so: the issue has no label to remove, and the resuming run writes it', async () => {
    await oneIssueRepo();
    const store = new FileCheckpointStore(path.join(dir, '.state'), { clock: new ManualClock() });
    const at = '2026-11-25T02:00:00Z';
    await store.write({
      id: '0b7c4f8e-2d5a-4c1e-9f3b-6a1d2e3f4a5b',
      phase: 'implementation-failed',
      state: {
        loop: {
          ...initialLoopState(10),
          iteration: 3,
          baseBranch: 'main',
          halt: { reason: 'all_escalated', message: 'Every ready issue is escalated', at },
          escalations: [
            { iteration: 3, issueIds: ['bd-1'], titles: ['Fix it'], reason: 'stuck', at, note: 'n', steps: [] },
          ],
          totalEscalations: 1,
          notices: [
            {
              id: 'markEscalated-3-bd-1-0',
              what: { kind: 'markEscalated', issueIds: ['bd-1'], note: 'n' },
              recordedAt: at,
              attempts: 1,
              lastError: 'could not write .beads/issues.jsonl: EROFS',
            },
          ],
        },
      },
    });
    const ports = io();
    const code = await runCommand(
      options({ agent: 'command', 'agent-command': 'true', 'test-command': 'true', 'state-dir': '.state', json: true }),
      ports,
    );
    expect(code).toBe(1);
    const still = ports.out
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e.event === 'run.still_halted');
    expect(String(still?.message)).toMatch(
      /To resume: .*remove the agent-loop:escalated label.*\. bd-1 has no agent-loop:escalated label yet \(writing it failed: could not write \.beads\/issues\.jsonl: EROFS\); the run that resumes writes it first, and until then it counts as escalated \(edit it to have it tried again\)\.$/,
    );
  });
});
