/**
 * Issue 41, one halt pipeline: the halts of run --parallel's coordinator and of the action's reduce
 * job go through the slice's (src/loop/effects/notices.ts): halt.md written once, masked, by the
 * state directory's writer; the Discord post recorded in the checkpoint's outbox with the halt
 * before it is tried, dropped once sent, and sent first by the next run when a killed run left it.
 * Real git (the coordinator's repository), a real Discord stand-in (e2e/support/discordServer.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parallelCommand } from '../../src/app/parallel.js';
import { reduceJob } from '../../src/action/reduceJob.js';
import type { ActionCore } from '../../src/action/actionCore.js';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { STAGE_KEY, runCheckpointPhase } from '../../src/checkpoint/phase.js';
import { buildDiagnostic } from '../../src/core/diagnostic.js';
import { type LoopState, type Notice, initialLoopState, parseLoopState } from '../../src/core/state.js';
import { renderMarkdown } from '../../src/report/diagnostic.js';
import { createRedactor } from '../../src/secrets/redact.js';
import type { Terms } from '../../src/config/surface.js';
import { type DiscordServer, startDiscordServer } from '../../e2e/support/discordServer.js';
import { load } from '../config/support.js';
import { ManualClock } from '../../fakes/index.js';

const CHECKPOINT = '0b6f1c52-6c1e-4c1a-9d3e-1f2a3b4c5d6e';
const SECRET = 'sekrit-in-the-output-1234';
const HALT = { reason: 'max_iterations' as const, message: 'Max iterations (2) reached' };

/** A clock whose sleeps (postToDiscord's backoff between failed attempts) let a test look at the state meanwhile. */
class WatchedClock extends ManualClock {
  constructor(private readonly onSleep: () => Promise<void>) {
    super();
  }
  override async sleep(ms: number) {
    await this.onSleep();
    await super.sleep(ms);
  }
}

let root: string;
let discord: DiscordServer;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-halt-pipeline-'));
  discord = await startDiscordServer();
});
afterEach(async () => {
  await discord.close();
  await fs.rm(root, { recursive: true, force: true });
});

/** The loop both drivers halt on: its 2 iterations used up, one issue still ready; the agent's last output holds a secret. */
function usedUp(): LoopState {
  return {
    ...initialLoopState(2),
    iteration: 2,
    successfulIterations: 2,
    lastAgentOutput: `the agent printed ${SECRET}`,
  };
}

/** `stateDir`'s checkpoint CHECKPOINT holding `loop`, as a run left it (continuing). */
async function leaveCheckpoint(stateDir: string, loop: LoopState): Promise<void> {
  const { phase, stage } = runCheckpointPhase('continuing');
  await new FileCheckpointStore(stateDir, { clock: new ManualClock() }).write({
    id: CHECKPOINT,
    phase,
    state: { [STAGE_KEY]: stage, loop },
  });
}

async function loopIn(stateDir: string): Promise<LoopState> {
  const checkpoint = await new FileCheckpointStore(stateDir, { clock: new ManualClock() }).load(CHECKPOINT);
  const loop = parseLoopState(checkpoint.state);
  if (typeof loop === 'string') throw new Error(loop);
  return loop;
}

/** What the slice's recordHalt writes for this halt of `loop` (src/loop/effects/notices.ts): the diagnostic rendered, masked. */
function sliceHaltFile(loop: LoopState, terms: Terms): string {
  const d = buildDiagnostic({ ...HALT, state: loop, checkpointId: CHECKPOINT, maxConsecutiveEscalations: 2, terms });
  return createRedactor([SECRET])(renderMarkdown(d));
}

/** run --parallel 2 in a git repository whose one issue is ready, on a checkpoint that holds `loop`. */
async function runParallel(loop: LoopState, clock: ManualClock, webhook: string, status = 'open') {
  const repo = path.join(root, 'repo');
  const stateDir = path.join(root, 'parallel-state');
  await fs.mkdir(path.join(repo, '.beads'), { recursive: true });
  const issue = { id: 'bd-1', title: 'Fix it', status, priority: 1, issue_type: 'task' };
  const at = { created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z' };
  await fs.writeFile(path.join(repo, '.beads', 'issues.jsonl'), `${JSON.stringify({ ...issue, ...at })}\n`);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: repo });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  await leaveCheckpoint(stateDir, loop);
  const flags = [
    '--max-iterations',
    '2',
    '--discord-webhook',
    webhook,
    '--agent',
    'command',
    '--agent-command',
    'true',
  ];
  const { options } = load(['run', '--parallel', '2', '--state-dir', stateDir, ...flags]);
  const out: string[] = [];
  const code = await parallelCommand(options, {
    cwd: repo,
    env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1' },
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
    clock,
    secrets: [SECRET],
    stateDir,
    self: ['false'],
    flags: new Map(),
  });
  return { code, stateDir, out: out.join('') };
}

/** The action's reduce of a wave with no job that carries the halt its plan found, into a checkpoint that holds `loop`. */
async function runReduce(loop: LoopState, clock: ManualClock, webhook: string, halt: typeof HALT | null = HALT) {
  const stateDir = path.join(root, 'reduce-state');
  await leaveCheckpoint(stateDir, loop);
  const said: string[] = [];
  const core: ActionCore = {
    setSecret: () => {},
    setOutput: () => {},
    setFailed: (m) => said.push(`failed: ${m}`),
    error: (m) => said.push(`error: ${m}`),
    warning: (m) => said.push(`warning: ${m}`),
    notice: () => {},
    info: (m) => said.push(`info: ${m}`),
    saveState: () => {},
    writeSummary: async () => {},
  };
  const { options } = load(['run', '--max-iterations', '2', '--discord-webhook', webhook]);
  await reduceJob({
    core,
    options,
    stateDir,
    clock,
    redact: createRedactor([SECRET]),
    runId: 'github-900-1',
    wave: {
      id: 'github-900-1',
      startedAt: '2026-11-21T10:00:00.000Z',
      checkpoint: CHECKPOINT,
      resumed: true,
      jobs: [],
      ...(halt ? { halt } : {}),
    },
    fetchPartial: async () => false,
    refs: { scope: 'scope', runId: 900, attempt: 1, repository: 'o/r' },
    scratch: path.join(root, 'scratch'),
  });
  return { stateDir, said: said.join('\n') };
}

describe('one halt pipeline (issue 41): run --parallel and the reduce job halt as the slice does', () => {
  it("each writes halt.md as the slice's recordHalt does (the halt's diagnostic rendered once, masked) and posts it once", async () => {
    const parallel = await runParallel(usedUp(), new ManualClock(), discord.url());
    expect(parallel.code).toBe(1);
    const reduce = await runReduce(usedUp(), new ManualClock(), discord.url());

    const parallelLoop = await loopIn(parallel.stateDir);
    const reduceLoop = await loopIn(reduce.stateDir);
    const parallelFile = await fs.readFile(path.join(parallel.stateDir, 'halt.md'), 'utf8');
    const reduceFile = await fs.readFile(path.join(reduce.stateDir, 'halt.md'), 'utf8');
    expect(parallelFile).toBe(sliceHaltFile(parallelLoop, 'cli'));
    expect(reduceFile).toBe(sliceHaltFile(reduceLoop, 'action'));
    // The same halt.md but for the surface's words, which each renders in its own.
    expect(parallelLoop.halt).toEqual(reduceLoop.halt);
    expect(parallelFile.split('\n').length).toBe(reduceFile.split('\n').length);
    for (const file of [parallelFile, reduceFile]) {
      expect(file).toContain('the agent printed');
      expect(file).not.toContain(SECRET);
    }
    // One post each, and the outbox empty after it.
    expect(discord.received).toHaveLength(2);
    expect(parallelLoop.notices).toEqual([]);
    expect(reduceLoop.notices).toEqual([]);
    expect(parallel.out).toMatch(/Posted the halt diagnostic to Discord \(1 attempt\)/);
    expect(reduce.said).toMatch(/info: agent-loop reduce: Posted the halt diagnostic to Discord \(1 attempt\)/);
  });

  it("with the webhook down, each one's post is in the checkpoint's outbox, saved with the halt, while it is tried; failed, it is a warning and leaves the outbox (as the slice's)", async () => {
    for (const run of [runParallel, runReduce]) {
      const stateDir = path.join(root, run === runParallel ? 'parallel-state' : 'reduce-state');
      const seen: Array<{ halt?: string; notices: Notice[] }> = [];
      const clock = new WatchedClock(async () => {
        const loop = await loopIn(stateDir);
        seen.push({ halt: loop.halt?.reason, notices: loop.notices });
      });
      discord.failNext(100, '502');
      const before = discord.requests.length;
      const r = await run(usedUp(), clock, discord.url());

      expect(discord.requests.length - before).toBe(6);
      expect(discord.received).toEqual([]);
      expect(seen).toHaveLength(5);
      for (const state of seen) {
        expect(state.halt).toBe('max_iterations');
        expect(state.notices).toMatchObject([
          { what: { kind: 'notify', diagnostic: { reason: 'max_iterations' } }, attempts: 0 },
        ]);
      }
      expect('out' in r ? r.out : r.said).toMatch(/Could not post the halt diagnostic to the Discord webhook/);
      expect((await loopIn(stateDir)).notices).toEqual([]);
      expect(await fs.readFile(path.join(stateDir, 'halt.md'), 'utf8')).toContain('Max iterations (2) reached');
    }
  });

  it('a post a killed coordinator or reduce left in the outbox is posted by the next run first, then dropped', async () => {
    const earlier = buildDiagnostic({
      reason: 'failure_loop',
      message: 'FAILURE LOOP DETECTED: earlier',
      state: initialLoopState(5),
      checkpointId: CHECKPOINT,
      maxConsecutiveEscalations: 2,
      terms: 'cli',
    });
    const left: Notice = {
      id: 'notify-2-2026-11-20T09:00:00Z-0',
      what: { kind: 'notify', diagnostic: { ...earlier } },
      recordedAt: '2026-11-20T09:00:00Z',
      attempts: 0,
    };
    // No halt this time: the loop has iterations left and nothing ready (parallel) or an empty wave (reduce).
    const loop: LoopState = { ...initialLoopState(5), notices: [left] };
    const parallel = await runParallel(loop, new ManualClock(), discord.url(), 'closed');
    expect(parallel.code).toBe(0);
    expect(discord.received).toHaveLength(1);
    expect((await loopIn(parallel.stateDir)).notices).toEqual([]);

    const reduce = await runReduce(loop, new ManualClock(), discord.url(), null);
    expect(discord.received).toHaveLength(2);
    expect(JSON.stringify(discord.received)).toMatch(/FAILURE LOOP DETECTED: earlier/);
    expect((await loopIn(reduce.stateDir)).notices).toEqual([]);
  });
});
