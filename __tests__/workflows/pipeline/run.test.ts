/** runPipeline with an in-process agent and an issue sink that assigns its own ids (as bd does). */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Agent, AgentRunRequest } from '../../../src/agents/types.js';
import { FileCheckpointStore } from '../../../src/checkpoint/fileStore.js';
import type { PhaseIssueRequest } from '../../../src/workflows/pipeline/beadsCreate.js';
import { runPipeline } from '../../../src/workflows/pipeline/run.js';
import { readPipelineProgress } from '../../../src/cli/status.js';
import { createLogger } from '../../../src/report/logger.js';
import { ManualClock } from '../../../fakes/index.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pipeline-run-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Writes each phase's artifact where its prompt says. */
const agent: Agent = {
  displayName: 'scripted',
  async run(req: AgentRunRequest) {
    const artifact = /\n(\/\S*\/pipeline\/\S*)\n/.exec(req.prompt)?.[1] as string;
    const text = (title: string) => `# ${title}\n\n${'A line long enough to pass the barrier. '.repeat(8)}\n`;
    if (req.prompt.includes('You are the research agent')) await fs.writeFile(artifact, text('Research'));
    else if (req.prompt.includes('You are the decomposition agent'))
      await fs.writeFile(artifact, JSON.stringify({ goal: 'g', components: [{ name: 'a', description: 'does a' }] }));
    else if (req.prompt.includes('You are the planning agent')) await fs.writeFile(artifact, text('Plan'));
    else {
      await fs.mkdir(artifact, { recursive: true });
      await fs.writeFile(path.join(artifact, '01-first.md'), text('First'));
      await fs.writeFile(path.join(artifact, '02-second.md'), text('Second'));
    }
    return { ok: true, exitCode: 0, signal: null, durationMs: 1, outputTail: '' };
  },
};

describe('runPipeline', () => {
  it('records the ids a sink assigns (bd) next to the planned keys, and implements the real ids in phase order', async () => {
    const requests: PhaseIssueRequest[] = [];
    const sink = {
      where: 'bd',
      async createPhaseIssues(request: PhaseIssueRequest) {
        requests.push(request);
        const planned = request.phases.map((p) => `${request.prefix}-p0${p.number}`);
        await request.onPlanned?.(planned);
        return {
          planned,
          created: planned,
          alreadyPresent: [],
          ids: Object.fromEntries(planned.map((k, i) => [k, `bd-${i + 10}`])),
        };
      },
    };
    const implemented: string[][] = [];
    const clock = new ManualClock();
    const store = new FileCheckpointStore(path.join(dir, 'state'), { clock });
    const code = await runPipeline({
      goal: 'Build it',
      cwd: dir,
      stateDir: path.join(dir, 'state'),
      sink,
      agent,
      store,
      clock,
      redact: (t) => t,
      logger: createLogger({ json: true, write: () => undefined, clock, redact: (t) => t }),
      maxRetries: 1,
      agentTimeoutMs: 60_000,
      fresh: false,
      implement: async (_id, ids) => {
        implemented.push(ids);
        return 0;
      },
    });
    expect(code).toBe(0);
    expect(requests[0]?.phases.map((p) => p.title)).toEqual(['Phase 1: First', 'Phase 2: Second']);
    expect(implemented).toEqual([['bd-10', 'bd-11']]);
    const [cp] = (await store.list()).checkpoints;
    expect(cp?.phase).toBe('beads_integration-complete');
    const keys = (cp?.state.beads_data as { planned: string[] }).planned;
    expect(cp?.state.beads_data).toEqual({
      file: 'bd',
      planned: keys,
      created: keys,
      alreadyPresent: [],
      ids: { [keys[0] as string]: 'bd-10', [keys[1] as string]: 'bd-11' },
    });
    expect(readPipelineProgress(cp!)?.phases[4]?.detail).toBe(`issues bd-10 (${keys[0]}), bd-11 (${keys[1]})`);
  });
});

describe('the planning pipeline runs its agent through the one agent turn and the failure policy (issue 13)', () => {
  async function plan(failures: Array<{ class: 'transient' | 'permanent'; reason: string; retryAfterMs?: number }>) {
    const runs: number[] = [];
    const flaky: Agent = {
      displayName: 'flaky',
      async run(req) {
        runs.push(req.iteration);
        const failure = failures.shift();
        if (failure) {
          return {
            ok: false,
            exitCode: 1,
            signal: null,
            durationMs: 1,
            outputTail: '',
            failure: { ...failure, message: `simulated ${failure.reason}` },
          };
        }
        return agent.run(req);
      },
    };
    const clock = new ManualClock();
    const lines: string[] = [];
    const store = new FileCheckpointStore(path.join(dir, 'state'), { clock });
    const code = await runPipeline({
      goal: 'Build it',
      cwd: dir,
      stateDir: path.join(dir, 'state'),
      sink: {
        where: 'memory',
        async createPhaseIssues(request: PhaseIssueRequest) {
          const planned = request.phases.map((p) => `${request.prefix}-p0${p.number}`);
          return { planned, created: planned, alreadyPresent: [] };
        },
      },
      agent: flaky,
      store,
      clock,
      redact: (t) => t,
      logger: createLogger({ json: true, write: (s) => lines.push(s), clock, redact: (t) => t }),
      maxRetries: 2,
      agentTimeoutMs: 60_000,
      fresh: false,
      implement: async () => 0,
    });
    const attempts = (phase: string) =>
      lines.filter((l) => l.includes('"event":"pipeline.attempt"') && l.includes(`"phase":"${phase}"`)).length;
    return { code, runs, clock, log: lines.join(''), attempts, store };
  }

  it('waits out a rate limit as the policy says and retries the same attempt: no attempt is used up', async () => {
    const { code, runs, clock, log, attempts } = await plan([
      { class: 'transient', reason: 'rate_limit', retryAfterMs: 30_000 },
      { class: 'transient', reason: 'rate_limit' },
    ]);
    expect(code).toBe(0);
    // research ran three times as attempt 1 (two rate limits, then the artifact); every later phase once.
    // Each run is an iteration of its own (issue 15).
    expect(attempts('research')).toBe(1);
    expect(runs).toEqual([1, 2, 3, 4, 5, 6]);
    expect(clock.sleeps).toEqual([30_000, 2_000]);
    expect(log).toContain('pipeline.rate_limited');
  });

  it('stops the phase, resumable, when the rate limit outlasts an hour of waiting: never waits forever', async () => {
    const always = Array.from({ length: 50 }, () => ({
      class: 'transient' as const,
      reason: 'rate_limit',
      retryAfterMs: 20 * 60_000,
    }));
    const { code, runs, clock, log, attempts } = await plan(always);
    expect(code).not.toBe(0);
    expect(attempts('research')).toBe(1);
    expect(runs).toEqual([1, 2, 3, 4]);
    expect(clock.sleeps).toEqual([20 * 60_000, 20 * 60_000, 20 * 60_000]);
    expect(log).toContain('stayed rate limited for 60 min');
  });

  it('stops the phase after two environment failures in a row, with the advice, instead of spending its last attempt', async () => {
    const { code, runs, log } = await plan([
      { class: 'permanent', reason: 'auth' },
      { class: 'permanent', reason: 'auth' },
    ]);
    expect(code).not.toBe(0);
    expect(runs).toEqual([1, 2]);
    expect(log).toContain('check ANTHROPIC_API_KEY');
  });

  it('counts any other agent failure as one of the phase attempts, as before', async () => {
    const { code, runs, attempts } = await plan([{ class: 'transient', reason: 'crash' }]);
    expect(code).toBe(0);
    expect(attempts('research')).toBe(2);
    expect(runs.slice(0, 2)).toEqual([1, 2]);
  });

  it('gives every agent run of every phase its own AGENT_LOOP_ITERATION, and keeps the count in the checkpoint for the loop (issue 15)', async () => {
    const { code, runs, store } = await plan([{ class: 'transient', reason: 'crash' }]);
    expect(code).toBe(0);
    // research twice (a crash, then the artifact), then decomposition, planning, phase_decomposition.
    expect(runs).toEqual([1, 2, 3, 4, 5]);
    const [cp] = (await store.list()).checkpoints;
    expect(cp?.state.pipeline).toEqual({ goal: 'Build it', iterations: 5, failedIterations: 1 });
  });
});
