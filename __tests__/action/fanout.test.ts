/**
 * Fan-out in the action (issue 16): the wave handed from the plan job to the work and reduce jobs,
 * the partial states' names, and the reduce's one summary for the wave.
 */
import { describe, expect, it } from '@jest/globals';
import { carriedOf, matrixJobs, parseWave, partialOf, waveMatrix } from '../../src/action/waveHandoff.js';
import { pullRequestLink, unchangedWaveOutputs, waveOutputs, waveSummary } from '../../src/action/waveSummary.js';
import { ACTION_OUTPUTS } from '../../src/action/manifest.js';
import { reduceWave } from '../../src/core/waveReduce.js';
import { cliVocabulary } from '../../e2e/support/vocabulary.js';
import { initialLoopState } from '../../src/core/state.js';
import type { WaveReduction } from '../../src/core/waveReduce.js';
import { artifactName, cacheKey, cacheKeyPrefix, stateScope } from '../../src/persist/stateNames.js';
import { pullRequest as pr } from '../core/fixtures.js';

const CHECKPOINT = '0b6f1c52-6c1e-4c1a-9d3e-1f2a3b4c5d6e';
/** The fan-out plan's own outputs, which no other job sets. */
const PLAN_ONLY = ['matrix', 'wave', 'jobs'];
const wave = {
  id: 'github-900-1',
  startedAt: '2026-11-27T08:00:00.000Z',
  checkpoint: CHECKPOINT,
  resumed: true,
  jobs: [
    { issueId: '3', title: 'Three', maxIterations: 5 },
    { issueId: '4', title: 'Four: a | pipe', maxIterations: 5, maxCostUsd: 1.5 },
  ],
};

describe('the wave handed between the jobs', () => {
  it("the plan's matrix is one entry per job's issue; an empty wave runs no job", () => {
    expect(JSON.parse(waveMatrix(wave))).toEqual({ include: [{ issue: '3' }, { issue: '4' }] });
    expect(waveMatrix({ jobs: [] })).toBe('{"include":[]}');
  });

  it('a wave that lands earlier work has the landing job first in its matrix, counted among its jobs', () => {
    const landing = { ...wave, landing: ['k1'] };
    expect(JSON.parse(waveMatrix(landing))).toEqual({ include: [{ issue: 'outbox' }, { issue: '3' }, { issue: '4' }] });
    expect(matrixJobs(landing)).toBe(3);
    expect(matrixJobs({ jobs: [], landing: ['k1'] })).toBe(1);
    expect(matrixJobs({ jobs: [], landing: [] })).toBe(0);
    expect(parseWave(JSON.stringify(landing))).toEqual(landing);
  });

  it("a job's carried counts travel in the wave, and its work job's cycle starts from them; a job without any starts from 0", () => {
    const counted = {
      ...wave,
      jobs: [wave.jobs[0], { ...wave.jobs[1], counts: { unfinishedRuns: 7, silentIterations: 2 } }],
    };
    const read = parseWave(JSON.stringify(counted));
    if (typeof read === 'string') throw new Error(read);
    expect(carriedOf(read, '4')).toEqual({ carried: { issueId: '4', unfinishedRuns: 7, silentIterations: 2 } });
    expect(carriedOf(read, '3')).toEqual({});
  });

  it('the wave input reads back what the plan wrote, and says what is wrong otherwise', () => {
    expect(parseWave(JSON.stringify(wave))).toEqual(wave);
    // A wave from a plan that did not say (resumed absent): the reduce looks for its checkpoint.
    expect(parseWave(JSON.stringify({ ...wave, resumed: undefined }))).toMatchObject({ resumed: true });
    expect(parseWave('')).toMatch(/the input wave is empty: pass the plan job's wave output/);
    expect(parseWave('{')).toMatch(/the input wave is not JSON/);
    expect(parseWave('{"id":"x"}')).toMatch(/the input wave is not a wave \(startedAt: /);
  });

  it("a job's partial state has a lineage of its own: never under the loop's cache prefix or artifact, one per issue", () => {
    const scope = stateScope('refs/heads/main', 'agent-loop');
    const partial = partialOf(scope, wave, '3');
    expect(cacheKey(partial, 900, 1)).toBe(`agent-loop-wave-github-900-1-3-${scope}-900-1`);
    expect(cacheKey(partial, 900, 1).startsWith(cacheKeyPrefix(scope))).toBe(false);
    expect(artifactName(partial)).not.toBe(artifactName(scope));
    expect(partialOf(scope, wave, '4')).not.toBe(partial);
    expect(cacheKey(partialOf(scope, wave, '4'), 900, 1).startsWith(cacheKeyPrefix(partial))).toBe(false);
  });
});

describe("the reduce's summary and outputs", () => {
  const loop = {
    ...initialLoopState(100),
    iteration: 7,
    successfulIterations: 6,
    failedIterations: 1,
    costUsd: 0.75,
    waves: 2,
    issuesClosed: ['1', '3'],
  };
  const reduction: WaveReduction = {
    loop,
    rows: [
      {
        issueId: '3',
        title: 'Three',
        outcome: 'closed',
        iterations: 2,
        first: 6,
        last: 7,
        costUsd: 0.5,
        startedAt: '2026-11-27T08:00:05.000Z',
        durationMs: 61_000,
        pullRequest: 'https://github.com/o/r/pull/9',
      },
      { issueId: '4', title: 'Four: a | pipe', outcome: 'lost', iterations: 0, costUsd: 0, durationMs: 0 },
    ],
  };

  it('one row per issue, linked, and a gantt of the jobs', () => {
    const text = waveSummary(wave, loop, reduction, {
      checkpointId: CHECKPOINT,
      issueLinks: { serverUrl: 'https://github.com', repository: 'o/r' },
    });
    expect(text).toContain('## 🔀 agent-loop: wave 2, 2 jobs in parallel');
    expect(text).toContain(
      '| [#3](https://github.com/o/r/issues/3) Three | done | 2 (#6–#7) | $0.5000 | 61.0s | [#9](https://github.com/o/r/pull/9) |',
    );
    expect(text).toMatch(/^\| \[#4\]\(.*\) Four: a \\\| pipe \| lost: the job died before it saved/m);
    expect(text).toContain('```mermaid\ngantt');
    expect(text).toContain(`  3 · closed : done, ${Date.parse('2026-11-27T08:00:05.000Z')}, 61000ms`);
    // A lost job has no iteration: it is drawn at the wave's start.
    expect(text).toContain(`  4 · lost : crit, ${Date.parse(wave.startedAt)}, 1ms`);
    expect(text).toContain(`Checkpoint \`${CHECKPOINT}\`: the next wave goes on from it.`);
  });

  it('a halt heads the summary', () => {
    const halted = { ...reduction, halt: { reason: 'failure_loop' as const, message: 'FAILURE LOOP DETECTED: 2' } };
    const text = waveSummary(wave, loop, halted, { checkpointId: CHECKPOINT });
    expect(text).toMatch(/^## 🛑 agent-loop: wave 2 halted \(failure_loop\)\n\n\*\*FAILURE LOOP DETECTED: 2\*\*/);
    // How to resume it, in the action's words only (issue 40).
    expect(text).toContain(
      `Checkpoint \`${CHECKPOINT}\`: later runs stay halted until it is resumed: once the cause is fixed, run the workflow by hand (workflow_dispatch) with the input resume: true; remove the agent-loop:escalated label`,
    );
    expect(cliVocabulary(text)).toEqual([]);
  });

  it("issue 40: the outputs are this workflow run's wave (issues-closed, pull-requests and kin); the loop's totals are loop-…", () => {
    // The loop as the reduce restored it: 5 iterations, issue 1 landed by an earlier run as pull request #8.
    const before = {
      ...initialLoopState(100),
      iteration: 5,
      successfulIterations: 5,
      costUsd: 0.25,
      waves: 1,
      issuesClosed: ['1'],
      pullRequests: [pr(8, '1', 5)],
    };
    // The wave: issue 3's job ran 2 iterations (one agent failure) and opened #9; issue 4's job was lost.
    const record = (n: number, ok: boolean) => ({
      n,
      issueIds: ['3'],
      startedAt: '2026-11-27T08:00:05.000Z',
      durationMs: 1000,
      outcome: ok ? ('complete' as const) : ('agent_failed' as const),
      agent: { ok, exitCode: ok ? 0 : 1, signal: null, durationMs: 1000, costUsd: 0.25 },
      ...(ok ? { tests: { passed: true, exitCode: 0, durationMs: 10 } } : {}),
    });
    const job3 = {
      ...initialLoopState(5),
      iteration: 2,
      successfulIterations: 1,
      failedIterations: 1,
      costUsd: 0.5,
      testsPassed: true,
      issuesClosed: ['3'],
      pullRequests: [pr(9, '3', 2)],
      completedIterations: [2],
      history: [record(1, false), record(2, true)],
    };
    const reduced = reduceWave(before, wave, [{ issueId: '3', loop: job3 }, { issueId: '4' }], {
      maxIterations: 100,
      maxConsecutiveEscalations: 2,
    });
    const out = waveOutputs(before, reduced.loop, reduced, CHECKPOINT);
    expect(out).toMatchObject({
      status: 'continuing',
      iterations: '2',
      'successful-iterations': '1',
      'failed-iterations': '1',
      'issues-closed': '3',
      'issues-escalated': '',
      'pull-requests': 'https://github.com/o/r/pull/9',
      'cost-usd': '0.5000',
      'loop-iterations': '7',
      'loop-issues-closed': '1,3',
      'loop-pull-requests': 'https://github.com/o/r/pull/8,https://github.com/o/r/pull/9',
      'loop-cost-usd': '0.7500',
      'checkpoint-id': CHECKPOINT,
    });
    expect(JSON.parse(out['result-json']!)).toMatchObject({
      iterations: 2,
      issuesClosed: ['3'],
      loop: { iterations: 7, issuesClosed: ['1', '3'] },
    });
    // Exactly the outputs of a step (action.yml's, less the plan's own).
    expect(Object.keys(out)).toEqual(ACTION_OUTPUTS.map((o) => o.name).filter((n) => !PLAN_ONLY.includes(n)));
    // A halt found by the reduce is its status; the counts stay the wave's.
    const halted = { ...reduced, halt: { reason: 'failure_loop' as const, message: 'FAILURE LOOP DETECTED: 2' } };
    expect(waveOutputs(before, reduced.loop, halted, CHECKPOINT)).toMatchObject({
      status: 'halted',
      'halt-reason': 'failure_loop',
      'issues-closed': '3',
      'loop-issues-closed': '1,3',
    });
    // A re-run reduce (its wave reduced before) adds nothing: this run's outputs are empty, the loop's stand.
    const again = unchangedWaveOutputs(reduced.loop, CHECKPOINT);
    expect(again).toMatchObject({
      iterations: '0',
      'issues-closed': '',
      'pull-requests': '',
      'cost-usd': '0.0000',
      'loop-iterations': '7',
      'loop-issues-closed': '1,3',
    });
    expect(Object.keys(again)).toEqual(Object.keys(out));
  });

  it('links a pull request as Markdown, [#n](url); a URL of another layout is its own text, nothing in it ends the link or the cell', () => {
    expect(pullRequestLink('https://github.com/o/r/pull/12')).toBe('[#12](https://github.com/o/r/pull/12)');
    expect(pullRequestLink('https://ghe.example/o/r/merge_requests/(3)|x')).toBe(
      '[https://ghe.example/o/r/merge_requests/%283%29%7Cx](https://ghe.example/o/r/merge_requests/%283%29%7Cx)',
    );
  });

  it('a wave that landed earlier work says how much in its summary; one that only landed shows no table', () => {
    const ctx = { checkpointId: CHECKPOINT, landing: { landed: 1, left: 1, problem: undefined } };
    expect(waveSummary(wave, loop, reduction, ctx)).toContain(
      'Earlier work: 1 finished cycle(s) landed by the landing job, 1 still to land.',
    );
    const alone = waveSummary({ ...wave, jobs: [] }, loop, { loop, rows: [] }, ctx);
    expect(alone).toContain('Earlier work: 1 finished cycle(s) landed');
    expect(alone).not.toContain('| issue |');
    expect(alone).not.toContain('mermaid');
  });
});
