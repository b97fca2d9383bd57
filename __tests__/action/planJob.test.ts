/**
 * Fan-out (issue 16), the plan job with a fake issue source: the issues claimed before the matrix
 * goes out, and an issue lost to another run planning at the same moment replaced by the next one.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inputEnv, loadActionConfig } from '../../src/action/inputs.js';
import type { ActionCore } from '../../src/action/actionCore.js';
import { type WaveSource, planJob } from '../../src/action/planJob.js';
import { ESCALATED_LABEL, type Issue } from '../../src/issues/types.js';
import { ManualClock } from '../../fakes/index.js';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { type LoopState, type OutboxEntry, initialLoopState } from '../../src/core/state.js';
import { outboxKey } from '../../src/core/waveOutbox.js';
import { cycle } from '../core/fixtures.js';
import { ListingError } from '../../src/issues/listing.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const issue = (n: number): Issue => ({
  id: String(n),
  title: `Issue ${n}`,
  body: '',
  status: 'open',
  labels: ['agent-loop'],
  dependencies: [],
});

function fakeCore() {
  const outputs: Record<string, string> = {};
  const log: string[] = [];
  const core: ActionCore = {
    setSecret: () => {},
    setOutput: (name, value) => void (outputs[name] = value),
    setFailed: (m) => void log.push(`failed: ${m}`),
    error: (m) => void log.push(`error: ${m}`),
    warning: (m) => void log.push(`warning: ${m}`),
    notice: (m) => void log.push(`notice: ${m}`),
    info: (m) => void log.push(m),
    saveState: () => {},
    writeSummary: async () => {},
  };
  return { core, outputs, log };
}

async function plan(source: WaveSource, parallel: number, loop?: LoopState) {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'plan-job-'));
  dirs.push(stateDir);
  const clock = new ManualClock();
  if (loop)
    await new FileCheckpointStore(stateDir, { clock }).write({
      id: '3b241101-e2bb-4255-8caf-4136c566a962',
      phase: 'beads_integration-complete',
      state: { loop },
    });
  const { options } = loadActionConfig(
    {
      [inputEnv('parallel')]: String(parallel),
      [inputEnv('max-iterations')]: '10',
      [inputEnv('fan-out')]: 'plan',
      [inputEnv('agent')]: 'command',
      [inputEnv('agent-command')]: './a.sh',
    },
    () => {
      throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    },
  );
  const { core, outputs, log } = fakeCore();
  await planJob({ core, options, stateDir, clock, redact: (t) => t, runId: 'github-5-1', source });
  return { outputs, log };
}

describe('the plan job', () => {
  it('claims each issue of the wave, then outputs the matrix and the wave with their shares', async () => {
    const claims: string[] = [];
    const source: WaveSource = {
      ready: async () => [1, 2, 3].map(issue),
      claim: async (id) => (claims.push(id), { won: true, adopted: [] }),
      releaseClaim: async () => {},
      importState: () => {},
    };
    const { outputs } = await plan(source, 2);
    expect(claims).toEqual(['1', '2']);
    expect(JSON.parse(outputs.matrix!)).toEqual({ include: [{ issue: '1' }, { issue: '2' }] });
    expect(JSON.parse(outputs.wave!)).toMatchObject({
      id: 'github-5-1',
      resumed: false,
      jobs: [
        { issueId: '1', maxIterations: 5 },
        { issueId: '2', maxIterations: 5 },
      ],
    });
    expect(outputs.jobs).toBe('2');
  });

  it('an issue another run claimed at the same moment is replaced by the next ready one', async () => {
    const claims: string[] = [];
    const source: WaveSource = {
      ready: async () => [1, 2, 3, 4].map(issue),
      claim: async (id) => (
        claims.push(id),
        id === '1'
          ? { won: false, holder: { run: 'github-6-1', checkpoint: 'other', expires: '2026-11-21T11:05:00Z' } }
          : { won: true, adopted: [] }
      ),
      releaseClaim: async () => {},
      importState: () => {},
    };
    const { outputs, log } = await plan(source, 2);
    expect(claims).toEqual(['1', '2', '3']);
    expect(JSON.parse(outputs.matrix!)).toEqual({ include: [{ issue: '2' }, { issue: '3' }] });
    expect(log).toContain('agent-loop plan: #1 was claimed by run github-6-1 meanwhile; left to it.');
  });

  it('GitHub failing mid-claims (after its retries): the plan fails, letting go of the claims it won', async () => {
    const claims: string[] = [];
    const released: string[] = [];
    const source: WaveSource = {
      ready: async () => [1, 2, 3].map(issue),
      claim: async (id) => {
        claims.push(id);
        if (id === '2') throw new Error('GitHub answered 502 Bad Gateway (after 3 retries)');
        return { won: true, adopted: [] };
      },
      releaseClaim: async (id) => void released.push(id),
      importState: () => {},
    };
    await expect(plan(source, 3)).rejects.toThrow(/502/);
    expect(claims).toEqual(['1', '2']);
    // No wave goes out, so no reduce releases them: left, they would hold the issues for the lease.
    expect(released).toEqual(['1']);
  });

  it('a new halt found before any job (only escalated issues): no job, the halt handed to the reduce as a wave to record', async () => {
    const source: WaveSource = {
      ready: async () => [{ ...issue(1), labels: ['agent-loop', ESCALATED_LABEL] }],
      claim: async () => ({ won: true, adopted: [] }),
      releaseClaim: async () => {},
      importState: () => {},
    };
    const { outputs } = await plan(source, 4);
    expect(outputs).toMatchObject({
      jobs: '0',
      matrix: '{"include":[]}',
      status: 'halted',
      'halt-reason': 'all_escalated',
    });
    const wave = JSON.parse(outputs.wave!);
    expect(wave).toMatchObject({
      jobs: [],
      halt: { reason: 'all_escalated' },
      checkpoint: outputs['checkpoint-id'] || wave.checkpoint,
    });
    expect(wave.halt.message).toMatch(/ALL ISSUES ESCALATED/);
  });

  it('nothing ready: no wave, an empty matrix, status complete', async () => {
    const source: WaveSource = {
      ready: async () => [],
      claim: async () => ({ won: true, adopted: [] }),
      releaseClaim: async () => {},
      importState: () => {},
    };
    const { outputs } = await plan(source, 4);
    expect(outputs).toMatchObject({ jobs: '0', matrix: '{"include":[]}', wave: '', status: 'complete' });
  });

  describe('issue 40: issues GitHub does not list (502 after the retries)', () => {
    const unlisted: WaveSource = {
      ready: async () => {
        throw new ListingError(
          'listing the open issues labelled agent-loop in o/r',
          502,
          'GitHub failed while listing open issues labelled agent-loop in o/r (502 Server Error), also on retrying.',
        );
      },
      claim: async () => {
        throw new Error('no claim may be taken');
      },
      releaseClaim: async () => {},
      importState: () => {},
    };
    const landed: LoopState = { ...initialLoopState(10), iteration: 3, costUsd: 0.5, issuesClosed: ['1', '2'] };

    it("no wave and status deferred, never complete: one warning naming what failed; this run's counts 0, the loop's as they were", async () => {
      const { outputs, log } = await plan(unlisted, 4, landed);
      expect(outputs).toMatchObject({
        status: 'deferred',
        jobs: '0',
        wave: '',
        matrix: '{"include":[]}',
        iterations: '0',
        'cost-usd': '0.0000',
        'loop-iterations': '3',
        'loop-issues-closed': '1,2',
        'loop-cost-usd': '0.5000',
      });
      expect(log.filter((l) => l.startsWith('warning:'))).toEqual([
        'warning: agent-loop deferred: GitHub failed while listing open issues labelled agent-loop in o/r (502 Server Error), also on retrying. No wave was planned and nothing was started or lost; the next run lists the issues again.',
      ]);
    });

    it('a halt that stands still stands: the failed listing does not lift it, nor hide it behind deferred', async () => {
      const halted = {
        ...landed,
        halt: { reason: 'all_escalated' as const, message: 'ALL ISSUES ESCALATED: 1', at: 'x' },
      };
      const { outputs } = await plan(unlisted, 4, halted);
      expect(outputs).toMatchObject({ status: 'halted', 'halt-reason': 'all_escalated', jobs: '0' });
    });
  });

  describe("with an escalated issue's label a work job could not send (GitHub refused it)", () => {
    const owed = {
      id: 'markEscalated-3-2026-01-01T00:00:00Z-0',
      what: { kind: 'markEscalated' as const, issueIds: ['2'], note: 'stuck', releaseClaims: true },
      recordedAt: '2026-01-01T00:00:00Z',
      attempts: 1,
      lastError: 'secondary rate limit',
    };
    const loop: LoopState = {
      ...initialLoopState(10),
      iteration: 3,
      issuesEscalated: ['2'],
      escalations: [
        { issueIds: ['2'], titles: ['2'], iteration: 3, steps: ['implement'], reason: 'r', at: 'x', note: 'stuck' },
      ],
      notices: [owed],
    };
    const source = (claims: string[], ready = [1, 2, 3]): WaveSource => ({
      ready: async () => ready.map(issue),
      claim: async (id) => (claims.push(id), { won: true, adopted: [] }),
      releaseClaim: async () => {},
      importState: () => {},
    });

    it("the wave's landing job sends it (before the fix: no job ever did), and the issue is not worked again", async () => {
      const claims: string[] = [];
      const { outputs, log } = await plan(source(claims), 2, loop);
      expect(claims).toEqual(['1', '3']);
      expect(JSON.parse(outputs.matrix!)).toEqual({ include: [{ issue: 'outbox' }, { issue: '1' }, { issue: '3' }] });
      expect(JSON.parse(outputs.wave!)).toMatchObject({ landing: [owed.id] });
      expect(log.join('\n')).toMatch(/1 notice\(s\) of earlier waves still to send .*#2.*secondary rate limit/);
    });

    it('with nothing else to do, a wave of the landing job alone, while the notice has failed fewer than 3 times; then the halt', async () => {
      const { outputs } = await plan(source([], [2]), 2, loop);
      expect(JSON.parse(outputs.matrix!)).toEqual({ include: [{ issue: 'outbox' }] });
      expect(JSON.parse(outputs.wave!)).toMatchObject({ jobs: [], landing: [owed.id] });
      const tried = { ...loop, notices: [{ ...owed, attempts: 3 }] };
      const again = await plan(source([], [2]), 2, tried);
      expect(JSON.parse(again.outputs.wave!)).toMatchObject({ jobs: [], halt: { reason: 'all_escalated' } });
    });
  });

  describe('with finished work of an earlier wave still to land (its push failed)', () => {
    const unlanded: OutboxEntry = {
      kind: 'finishCycle',
      cycle: cycle(['2'], { branch: 'agent-loop/issue-2' }),
      noChange: false,
      iteration: 3,
      recordedAt: '2026-01-01T00:00:00Z',
      attempts: 1,
      lastError: 'HTTP 502',
    };
    const loop: LoopState = { ...initialLoopState(10), iteration: 3, outbox: [unlanded] };
    const source = (claims: string[], ready = [1, 2, 3]): WaveSource => ({
      ready: async () => ready.map(issue),
      claim: async (id) => (claims.push(id), { won: true, adopted: [] }),
      releaseClaim: async () => {},
      importState: () => {},
    });

    it('the wave gets a landing job (matrix entry outbox) for it, and its issue is not worked again', async () => {
      const claims: string[] = [];
      const { outputs, log } = await plan(source(claims), 2, loop);
      expect(claims).toEqual(['1', '3']);
      expect(JSON.parse(outputs.matrix!)).toEqual({ include: [{ issue: 'outbox' }, { issue: '1' }, { issue: '3' }] });
      expect(outputs.jobs).toBe('3');
      expect(JSON.parse(outputs.wave!)).toMatchObject({ landing: [outboxKey(unlanded)] });
      expect(log.join('\n')).toMatch(/1 finished cycle\(s\) of earlier waves still to land \(#2\).*landing job/);
    });

    it('with nothing else to work the wave is the landing job alone', async () => {
      const claims: string[] = [];
      const { outputs } = await plan(source(claims, [2]), 2, loop);
      expect(claims).toEqual([]);
      expect(JSON.parse(outputs.matrix!)).toEqual({ include: [{ issue: 'outbox' }] });
      expect(outputs).toMatchObject({ jobs: '1', status: 'continuing' });
      expect(JSON.parse(outputs.wave!)).toMatchObject({ jobs: [], landing: [outboxKey(unlanded)] });
    });

    it('while its next attempt waits out a backoff: no landing job, and the wave says so instead of complete', async () => {
      const later = { ...loop, outbox: [{ ...unlanded, notBefore: '2999-01-01T00:00:00Z' }] };
      const { outputs, log } = await plan(source([], [2]), 2, later);
      expect(outputs).toMatchObject({ jobs: '0', wave: '', matrix: '{"include":[]}' });
      expect(outputs.status).not.toBe('complete');
      expect(log.join('\n')).toMatch(/next attempt is due at 2999-01-01T00:00:00Z \(last failure: HTTP 502\)/);
    });
  });
});
