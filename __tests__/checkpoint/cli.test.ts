import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FileCheckpointStore, checkpointsDir } from '../../src/checkpoint/fileStore.js';
import { cleanupCommand } from '../../src/cli/cleanup.js';
import { readLoopProgress, statusCommand } from '../../src/cli/status.js';
import { initialLoopState } from '../../src/core/state.js';
import { FakeClock, ID_A, ID_B, ID_C, capture, removeDir, tempStateDir, writeRaw } from './fixtures.js';

const NOW = new Date('2026-11-30T12:00:00Z');

let stateDir: string;
let clock: FakeClock;
let store: FileCheckpointStore;

beforeEach(async () => {
  stateDir = await tempStateDir();
  clock = new FakeClock(NOW);
  store = new FileCheckpointStore(stateDir, { clock });
});

afterEach(async () => {
  await removeDir(stateDir);
});

/**
 * ID_A: implementation-failed 40 days ago, with loop progress and errors;
 * ID_B: implementation-complete 35 days ago;
 * ID_C: beads_integration-complete 2 days ago (the newest, so the one resumed).
 */
async function seed(): Promise<void> {
  clock.set('2026-10-21T12:00:00Z');
  await store.write({
    id: ID_A,
    phase: 'implementation-failed',
    state: {
      loop: {
        iteration: 100,
        maxIterations: 100,
        failedIterations: 60,
        successfulIterations: 40,
        issuesClosed: ['bd-1', 'bd-2'],
        issuesEscalated: ['bd-3'],
        currentCycle: { issueIds: ['bd-4', 'bd-5'] },
        halt: { reason: 'max iterations' },
      },
    },
    errors: ['Tests failed: 3 of 120 (npm test)', 'Max iterations (100) reached'],
  });
  clock.set('2026-10-26T12:00:00Z');
  await store.write({ id: ID_B, phase: 'implementation-complete', state: { loop: { iteration: 12 } } });
  clock.set('2026-11-28T12:00:00Z');
  await store.write({ id: ID_C, phase: 'beads_integration-complete', state: {} });
}

const exists = (id: string) =>
  fs.access(path.join(checkpointsDir(stateDir), `${id}.json`)).then(
    () => true,
    () => false,
  );

describe('REQ_018.2.8 REQ_018.5.9 status', () => {
  it('issue 40: a halted checkpoint is not promised as resumed: a run would find it halted, and the way out is named', async () => {
    clock.set('2026-11-28T12:00:00Z');
    await store.write({
      id: ID_A,
      phase: 'implementation-failed',
      state: {
        loop: { ...initialLoopState(100), iteration: 3, halt: { reason: 'failure_loop', message: 'FAILURE LOOP' } },
      },
    });
    const { out, text } = capture();
    expect(await statusCommand({ stateDir, json: false }, { store, now: NOW, out })).toBe(0);
    expect(text()).not.toContain('would resume from');
    expect(text()).toContain(
      `would find ${ID_A} halted and run nothing, until its cause changes (see its halt diagnostic, halt.md) or it is resumed with \`--resume-halted\` and the options of the halted run`,
    );
  });

  it('prints each checkpoint newest first with phase, timestamp, age, loop progress and errors, and marks the one resumed', async () => {
    await seed();
    const corrupt = await writeRaw(stateDir, 'c0ffee00-1234-4abc-bdef-0123456789aa.json', '{"id": ');
    const { out, lines, text } = capture();
    expect(await statusCommand({ stateDir, json: false }, { store, now: NOW, out })).toBe(0);

    expect(lines[0]).toBe(`Checkpoints in ${checkpointsDir(stateDir)} (3, newest first):`);
    const order = [ID_C, ID_B, ID_A].map((id) => lines.findIndex((line) => line.startsWith(id)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(lines).toContain(`${ID_C}  ← would be resumed`);
    expect(lines).toContain(ID_A);
    expect(lines.filter((line) => line.includes('← would be resumed'))).toHaveLength(1);

    // Seed 001's phases (issue 41), each with the run's stage in words beside it (issue 15).
    expect(text()).toContain(
      '  phase:      beads_integration-complete\n  stage:      working (work remains: a run goes on from here)',
    );
    expect(text()).toContain('  phase:      implementation-complete\n  stage:      complete (nothing left to do)');
    expect(text()).toContain(
      '  phase:      implementation-failed\n  stage:      halted (halted on purpose: a run resumes here once the cause is fixed)',
    );
    expect(text()).toContain('  timestamp:  2026-10-21T12:00:00Z');
    expect(text()).toContain('  age:        40.0 days');
    expect(text()).toContain('  age:        2.0 days');
    expect(text()).toContain('  iteration:  100 of 100');
    // Only the agent's side recorded (no history, no test counters): nothing is called successful.
    expect(text()).toContain('  iterations: 40 agent runs succeeded, 60 agent runs failed (no test verdicts recorded)');
    expect(text()).toContain('  closed:     2 (bd-1, bd-2)');
    expect(text()).toContain('  escalated:  1 (bd-3)');
    expect(text()).toContain('  in cycle:   2 (bd-4, bd-5)');
    expect(text()).toContain('  halted:     max iterations');
    expect(text()).toContain('  errors:\n    - Tests failed: 3 of 120 (npm test)\n    - Max iterations (100) reached');
    expect(text()).toContain(`  warning:    checkpoint ${ID_C} has an empty state`);
    expect(text()).toContain(`would resume from ${ID_C} (working)`);
    expect(lines.find((line) => line.startsWith('skipped '))).toMatch(
      new RegExp(`^skipped ${corrupt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid JSON at line 1, column 8`),
    );
  });

  it('prints the age with one decimal', async () => {
    clock.set('2026-11-29T00:00:00Z');
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { loop: {} } });
    const { out, text } = capture();
    await statusCommand({ stateDir, json: false }, { store, now: NOW, out });
    expect(text()).toContain('  age:        1.5 days');
  });

  it('says a checkpoint dated after now is dated in the future, rather than printing a negative age', async () => {
    clock.set('2026-12-02T12:00:00Z');
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { loop: {} } });
    const { out, text } = capture();
    await statusCommand({ stateDir, json: false }, { store, now: NOW, out });
    expect(text()).toContain('  age:        dated 2.0 days in the future');
    expect(text()).not.toContain('-2.0');
  });

  it('says where it looked and how a checkpoint gets created when there are none', async () => {
    const { out, lines } = capture();
    expect(await statusCommand({ stateDir, json: false }, { store, now: NOW, out })).toBe(0);
    expect(lines[0]).toBe(`No checkpoints in ${stateDir}/checkpoints.`);
    expect(lines[1]).toContain(`agent-loop run --state-dir ${stateDir}`);
  });

  it('says nothing is resumable when every checkpoint is complete', async () => {
    await store.write({ id: ID_B, phase: 'implementation-complete', state: { loop: {} } });
    const { out, text } = capture();
    await statusCommand({ stateDir, json: false }, { store, now: NOW, out });
    expect(text()).not.toContain('← would be resumed');
    expect(text()).toContain('Nothing to resume');
  });

  it('prints one JSON object with the checkpoints, the one resumed, and the skipped files', async () => {
    await seed();
    const corrupt = await writeRaw(stateDir, 'latest.json', '{}');
    const { out, lines } = capture();
    expect(await statusCommand({ stateDir, json: true }, { store, now: NOW, out })).toBe(0);
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0] as string);
    expect(result.stateDir).toBe(stateDir);
    expect(result.resumable).toBe(ID_C);
    expect(result.checkpoints.map((cp: { id: string }) => cp.id)).toEqual([ID_C, ID_B, ID_A]);
    expect(result.checkpoints[2]).toEqual({
      id: ID_A,
      phase: 'implementation-failed',
      stage: 'halted',
      writtenAs: null,
      timestamp: '2026-10-21T12:00:00Z',
      ageDays: 40,
      errors: ['Tests failed: 3 of 120 (npm test)', 'Max iterations (100) reached'],
      resumable: true,
      wouldResume: false,
      // Issue 43: its phase is resumable, but run skips it, and says why as the text output does.
      runSkips: 'state.loop is not a valid loop state (version: Invalid input: expected 1)',
      resumeAt: 'implementation',
      loop: {
        iteration: 100,
        maxIterations: 100,
        failedIterations: 60,
        successfulIterations: 40,
        issuesClosed: ['bd-1', 'bd-2'],
        issuesEscalated: ['bd-3'],
        currentCycleIssueIds: ['bd-4', 'bd-5'],
        haltReason: 'max iterations',
        haltMessage: null,
        consecutiveEscalations: null,
        totalEscalations: null,
        rateLimitedUntil: null,
        preexistingFailures: null,
        issuesNoChange: null,
        testFailures: null,
        outcomes: null,
      },
      pipeline: null,
      warnings: [],
    });
    expect(result.checkpoints[0]).toMatchObject({
      id: ID_C,
      wouldResume: true,
      resumable: true,
      runSkips: null,
      loop: null,
      errors: [],
    });
    expect(result.checkpoints[1]).toMatchObject({ id: ID_B, wouldResume: false, resumable: false, resumeAt: null });
    expect(result.invalid).toEqual([
      { path: corrupt, reason: expect.stringContaining('the file name is not <uuid-v4>.json') },
    ]);
  });

  it('prints an empty JSON listing when there are no checkpoints', async () => {
    const { out, lines } = capture();
    await statusCommand({ stateDir, json: true }, { store, now: NOW, out });
    expect(JSON.parse(lines[0] as string)).toEqual({ stateDir, resumable: null, checkpoints: [], invalid: [] });
  });

  it('issue 42: the held issues with why, when the checkpoint has any well-formed; none otherwise', () => {
    const held = readLoopProgress({
      loop: { issuesHeld: [{ id: '7', reason: 'tests-changed' }, { id: 8 }, 'x'] },
    });
    expect(held?.issuesHeld).toEqual([{ id: '7', reason: 'tests-changed' }]);
    expect(readLoopProgress({ loop: { issuesHeld: [] } })).not.toHaveProperty('issuesHeld');
    expect(readLoopProgress({ loop: {} })).not.toHaveProperty('issuesHeld');
  });

  it('reads loop progress defensively: wrong types and missing fields become null', () => {
    expect(readLoopProgress({})).toBeUndefined();
    expect(readLoopProgress({ loop: [] })).toBeUndefined();
    expect(
      readLoopProgress({ loop: { iteration: '3', issuesClosed: 'bd-1', currentCycle: 'x', halt: { reason: 4 } } }),
    ).toEqual({
      iteration: null,
      maxIterations: null,
      failedIterations: null,
      successfulIterations: null,
      issuesClosed: null,
      issuesEscalated: null,
      currentCycleIssueIds: null,
      haltReason: null,
      haltMessage: null,
      consecutiveEscalations: null,
      totalEscalations: null,
      rateLimitedUntil: null,
      preexistingFailures: null,
      issuesNoChange: null,
      testFailures: null,
      outcomes: null,
    });
    expect(readLoopProgress({ loop: { issuesClosed: ['bd-1', 42, null, { id: 1 }] } })?.issuesClosed).toEqual([
      'bd-1',
      '42',
    ]);
  });
});

describe('issue 15: status words the iterations as they went', () => {
  const record = (n: number, outcome: string, agentOk = outcome !== 'agent_failed') => ({
    n,
    issueIds: ['bd-1'],
    startedAt: '2026-11-30T11:00:00Z',
    durationMs: 1000,
    outcome,
    agent: { ok: agentOk, exitCode: agentOk ? 0 : 1, signal: null, durationMs: 900 },
  });
  const loopOf = (history: object[], extra: object = {}) => ({
    iteration: history.length,
    maxIterations: 8,
    failedIterations: history.filter((r) => (r as { outcome: string }).outcome === 'agent_failed').length,
    successfulIterations: history.filter((r) => (r as { outcome: string }).outcome !== 'agent_failed').length,
    testFailures: history.filter((r) => (r as { outcome: string }).outcome === 'tests_failed').length,
    completedIterations: [],
    history,
    compactedIterations: 0,
    ...extra,
  });

  it('8 agent runs that succeeded and 8 test gates that failed: none of them called successful', async () => {
    const history = Array.from({ length: 8 }, (_, i) => record(i + 1, 'tests_failed'));
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { loop: loopOf(history) } });
    const { out, text } = capture();
    await statusCommand({ stateDir, json: false }, { store, now: NOW, out });
    expect(text()).toContain(
      '  iterations: 8: 0 passed their tests, 8 failed their tests (agent ran), 0 agent runs failed',
    );
    expect(text()).not.toMatch(/successful/);
  });

  it('tells passed, failed tests, failed agent runs and the iterations with no verdict apart', async () => {
    const outcomes = ['agent_failed', 'continuing', 'tests_failed', 'complete', 'no_change', 'stuck', 'continuing'];
    await store.write({
      id: ID_A,
      phase: 'implementation-failed',
      state: { loop: loopOf(outcomes.map((o, i) => record(i + 1, o))) },
    });
    const { out, text } = capture();
    await statusCommand({ stateDir, json: false }, { store, now: NOW, out });
    expect(text()).toContain(
      '  iterations: 7: 2 passed their tests, 1 failed their tests (agent ran), 1 agent run failed, 3 with no test verdict (agent ran: 2 continuing, 1 stuck)',
    );

    const json = capture();
    await statusCommand({ stateDir, json: true }, { store, now: NOW, out: json.out });
    const loop = JSON.parse(json.lines[0] as string).checkpoints[0].loop;
    // The fields of before are kept; outcomes and testFailures are added.
    expect(loop).toMatchObject({ successfulIterations: 6, failedIterations: 1, testFailures: 1 });
    expect(loop.outcomes).toEqual({
      from: 'history',
      total: 7,
      passedTests: 2,
      failedTests: 1,
      agentFailed: 1,
      noVerdict: 3,
      byOutcome: { agent_failed: 1, continuing: 2, tests_failed: 1, complete: 1, no_change: 1, stuck: 1 },
    });
  });

  it('issue 40: the issues that needed no change, those closed and those left open for a person', async () => {
    const loop = loopOf([record(1, 'no_change'), record(2, 'no_change')], {
      issuesClosed: ['bd-1'],
      issuesNoChange: ['bd-1', '12'],
    });
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { loop } });
    const { out, text } = capture();
    await statusCommand({ stateDir, json: false }, { store, now: NOW, out });
    expect(text()).toContain('  no change:  2: bd-1 (closed); 12 (labelled agent-loop:no-change, left open)');
  });

  it("with the history compacted, counts from the run's counters and says so", async () => {
    const loop = loopOf([record(601, 'complete')], {
      iteration: 601,
      successfulIterations: 500,
      failedIterations: 101,
      testFailures: 450,
      completedIterations: [3, 90, 601],
      compactedIterations: 600,
    });
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { loop } });
    const { out, text } = capture();
    await statusCommand({ stateDir, json: false }, { store, now: NOW, out });
    expect(text()).toContain(
      "  iterations: 601 (from the run's counters): 3 passed their tests, 450 failed their tests (agent ran), 101 agent runs failed, 47 with no test verdict (agent ran)",
    );
  });
});

describe('REQ_018.3.7 cleanup', () => {
  it('deletes checkpoints older than the limit, keeps the newest resumable one, and leaves invalid files', async () => {
    await seed();
    const corrupt = await writeRaw(stateDir, `${'9f1c2d3e-4b5a-4c6d-9e8f-0a1b2c3d4e50'}.json`, 'not json');
    const { out, lines } = capture();
    expect(
      await cleanupCommand({ stateDir, olderThanDays: 30, all: false, dryRun: false }, { store, now: NOW, out }),
    ).toBe(0);
    expect([await exists(ID_A), await exists(ID_B), await exists(ID_C)]).toEqual([false, false, true]);
    await expect(fs.access(corrupt)).resolves.toBeUndefined();
    expect(lines).toContain(`deleted ${ID_B} (implementation-complete, 35.0 days old)`);
    expect(lines).toContain(`deleted ${ID_A} (implementation-failed, 40.0 days old)`);
    expect(lines.find((line) => line.startsWith(`kept ${ID_C}`))).toContain('newest resumable checkpoint');
    expect(
      lines.find((line) =>
        line.startsWith(
          `left ${corrupt} (not a valid checkpoint, so cleanup does not touch it; remove it by hand if it is not needed): invalid JSON`,
        ),
      ),
    ).toBeDefined();
    expect(lines[lines.length - 1]).toBe(`Deleted 2 of 3 checkpoints in ${checkpointsDir(stateDir)}, kept 1.`);
  });

  it('keeps the newest resumable checkpoint even when it is older than the limit, and says why', async () => {
    await seed();
    await store.delete(ID_C);
    const { out, lines } = capture();
    await cleanupCommand({ stateDir, olderThanDays: 30, all: false, dryRun: false }, { store, now: NOW, out });
    expect([await exists(ID_A), await exists(ID_B)]).toEqual([true, false]);
    expect(lines).toContain(
      `kept ${ID_A} (implementation-failed, 40.0 days old): older than 30 days, but it is the newest resumable checkpoint, the one \`agent-loop run\` would resume; pass --all to delete it too`,
    );
  });

  it('with --all deletes every checkpoint, the resumable one included', async () => {
    await seed();
    const { out, lines } = capture();
    expect(await cleanupCommand({ stateDir, all: true, dryRun: false }, { store, now: NOW, out })).toBe(0);
    expect([await exists(ID_A), await exists(ID_B), await exists(ID_C)]).toEqual([false, false, false]);
    expect(lines.some((line) => line.startsWith('kept'))).toBe(false);
    expect(lines[lines.length - 1]).toBe(`Deleted 3 of 3 checkpoints in ${checkpointsDir(stateDir)}, kept 0.`);
  });

  it('a dry run deletes nothing and says what it would delete', async () => {
    await seed();
    const before = (await fs.readdir(checkpointsDir(stateDir))).sort();
    const { out, lines } = capture();
    expect(await cleanupCommand({ stateDir, all: true, dryRun: true }, { store, now: NOW, out })).toBe(0);
    expect((await fs.readdir(checkpointsDir(stateDir))).sort()).toEqual(before);
    expect(lines).toContain(`would delete ${ID_A} (implementation-failed, 40.0 days old)`);
    expect(lines.some((line) => line.startsWith('deleted'))).toBe(false);
    expect(lines[lines.length - 1]).toBe(
      `Dry run: would delete 3 of 3 checkpoints in ${checkpointsDir(stateDir)}, keeping 0; nothing was deleted.`,
    );
  });

  it('reports in JSON when asked', async () => {
    await seed();
    const { out, lines } = capture();
    await cleanupCommand(
      { stateDir, olderThanDays: 30, all: false, dryRun: true, json: true },
      { store, now: NOW, out },
    );
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0] as string);
    expect(result).toMatchObject({
      stateDir,
      dryRun: true,
      deleted: [],
      failed: [],
      keptNewestResumable: ID_C,
      invalid: [],
    });
    expect(result.wouldDelete.map((cp: { id: string }) => cp.id)).toEqual([ID_B, ID_A]);
    expect(result.kept.map((cp: { id: string }) => cp.id)).toEqual([ID_C]);
    expect(await exists(ID_A)).toBe(true);
  });

  it('exits 2 and names what is expected without --older-than or --all, or with a bad day count', async () => {
    await seed();
    const first = capture();
    expect(await cleanupCommand({ stateDir, all: false, dryRun: false }, { store, now: NOW, out: first.out })).toBe(2);
    expect(first.lines).toEqual([
      'agent-loop cleanup: say which checkpoints to delete: --older-than DAYS (keeps the newest resumable one) or --all',
    ]);
    const second = capture();
    expect(
      await cleanupCommand(
        { stateDir, olderThanDays: -3, all: false, dryRun: false },
        { store, now: NOW, out: second.out },
      ),
    ).toBe(2);
    expect(second.lines[0]).toContain(
      '--older-than must be a number of days, 0 or more (e.g. --older-than 30); got -3',
    );
    expect([await exists(ID_A), await exists(ID_B), await exists(ID_C)]).toEqual([true, true, true]);
  });
});

describe("issue 41: checkpoints with the phase names of versions for issues 15 to 40 (a run's stage as its phase)", () => {
  const ID_D = '0b7c4f8e-2d5a-4c1e-9f3b-6a1d2e3f4a5b';
  /** ID_A halted 40 days ago, ID_B complete 35, ID_C red 20, ID_D working 2 (the newest: the one resumed). */
  async function older(): Promise<void> {
    const loop = (iteration: number, halt?: object) => ({
      ...initialLoopState(100),
      iteration,
      ...(halt ? { halt } : {}),
    });
    const at = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString().replace('.000Z', 'Z');
    const cps: [string, string, number, object][] = [
      [ID_A, 'halted', 40, { loop: loop(7, { reason: 'failure_loop', message: 'FAILURE LOOP' }) }],
      [ID_B, 'complete', 35, { loop: loop(12) }],
      [ID_C, 'red', 20, { loop: loop(3) }],
      [ID_D, 'working', 2, { loop: loop(5) }],
    ];
    let sequence = 0;
    for (const [id, phase, days, state] of cps)
      await writeRaw(stateDir, `${id}.json`, { id, phase, timestamp: at(days), sequence: ++sequence, state });
  }

  it("status lists them with seed 001's phase, the stage as written, and the one a run resumes as before", async () => {
    await older();
    const { out, text } = capture();
    expect(await statusCommand({ stateDir, json: false }, { store, now: NOW, out })).toBe(0);
    expect(text()).toContain(`Checkpoints in ${checkpointsDir(stateDir)} (4, newest first):`);
    expect(text()).toContain(
      '  phase:      implementation-failed (written as halted by an older version)\n  stage:      halted (halted on purpose: a run resumes here once the cause is fixed)',
    );
    expect(text()).toContain(
      '  phase:      implementation-complete (written as complete by an older version)\n  stage:      complete (nothing left to do)',
    );
    expect(text()).toContain(
      '  phase:      beads_integration-complete (written as red by an older version)\n  stage:      red (work remains: the next test is to be written (--workflow tdd))',
    );
    expect(text()).toContain(`${ID_D}  ← would be resumed`);
    expect(text()).toContain(`would resume from ${ID_D} (working)`);

    const json = capture();
    await statusCommand({ stateDir, json: true }, { store, now: NOW, out: json.out });
    const result = JSON.parse(json.lines[0] as string);
    expect(result.resumable).toBe(ID_D);
    const rows = result.checkpoints.map((cp: Record<string, unknown>) => [
      cp.id,
      cp.phase,
      cp.stage,
      cp.writtenAs,
      cp.resumable,
      cp.resumeAt,
    ]);
    expect(rows).toEqual([
      [ID_D, 'beads_integration-complete', 'working', 'working', true, 'implementation'],
      [ID_C, 'beads_integration-complete', 'red', 'red', true, 'implementation'],
      [ID_B, 'implementation-complete', 'complete', 'complete', false, null],
      [ID_A, 'implementation-failed', 'halted', 'halted', true, 'implementation'],
    ]);
  });

  it('status: a halted one, the newest, is found halted as before', async () => {
    await writeRaw(stateDir, `${ID_A}.json`, {
      id: ID_A,
      phase: 'halted',
      timestamp: '2026-11-30T11:00:00Z',
      sequence: 1,
      state: {
        loop: { ...initialLoopState(100), iteration: 3, halt: { reason: 'failure_loop', message: 'FAILURE LOOP' } },
      },
    });
    const { out, text } = capture();
    await statusCommand({ stateDir, json: false }, { store, now: NOW, out });
    expect(text()).toContain(`would find ${ID_A} halted and run nothing`);
  });

  it('cleanup removes the old ones and keeps the newest resumable one, as before', async () => {
    await older();
    const { out } = capture();
    expect(
      await cleanupCommand({ stateDir, olderThanDays: 10, all: false, dryRun: false }, { store, now: NOW, out }),
    ).toBe(0);
    expect(await Promise.all([ID_A, ID_B, ID_C, ID_D].map(exists))).toEqual([false, false, false, true]);
    expect(await cleanupCommand({ stateDir, all: true, dryRun: false }, { store, now: NOW, out })).toBe(0);
    expect(await exists(ID_D)).toBe(false);
  });
});
