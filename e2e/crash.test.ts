/**
 * Crash safety: SIGKILL the CLI at 20 moments of a multi-iteration run — while the agent runs,
 * while the test command runs, and while the checkpoint is being written — and check after each
 * kill that `agent-loop status` reads every checkpoint, and that the next run resumes having lost
 * at most the iteration that was in flight, never a recorded one.
 *
 * The scripted agent and test command behave as a pure function of the iteration number (see
 * crashHelpers.ts), so whatever the kills, the finished run must have exactly the history the
 * plan dictates. The kill moments come from a seeded PRNG: the seed is in the test's name, and
 * CRASH_SEED=<seed> replays a schedule. The run works in a plain directory; CRASH_GIT=1 makes it a
 * git repository, so that resuming also has to find its way back to the cycle's branch.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BOUNDARY_EVENTS,
  CLI,
  CliRun,
  ISSUE_IDS,
  type CheckpointFile,
  type HistoryRecord,
  type Workspace,
  createWorkspace,
  killLeftovers,
  mulberry32,
  randInt,
  readCheckpointDir,
  readMarks,
  readOnlyCheckpoint,
  gitOutput,
  runStatus,
  shuffle,
  simulatePlan,
  spinMicros,
  waitFor,
  watchWrite,
} from './crashHelpers.js';
import { campaign } from './campaign/tally.js';

/** The campaign's `crash` category: each seeded kill is a case; it holds when the state after it verifies. */
const tally = campaign('crash');

const SEED =
  process.env.CRASH_SEED !== undefined ? Number(process.env.CRASH_SEED) : Math.floor(Math.random() * 2 ** 31);
const KILLS = 20;
const PLAN = simulatePlan(ISSUE_IDS);
/** Iterations the whole run takes, kills or not. */
const TOTAL = PLAN.length;

type Aim =
  | { phase: 'agent'; n: number }
  | { phase: 'tests'; n: number }
  /** After iteration n's closing event: a busy wait of `micros`, or until the temp file of the write appears. */
  | { phase: 'write'; mode: 'delay'; n: number; micros: number }
  | { phase: 'write'; mode: 'temp'; n: number }
  /** The checkpoint write a run does when it starts: as soon as its temp file appears. */
  | { phase: 'write'; mode: 'start' };

interface KillRecord {
  k: number;
  aim: string;
  hit: string;
  recordedBefore: number;
  recordedAfter: number;
  tempsLeft: number;
  leftovers: number;
  /** For kills aimed at a write: whether the probe saw its temp file before the kill. */
  sawTemp: boolean;
}

const describeAim = (aim: Aim): string =>
  aim.phase === 'write'
    ? aim.mode === 'start'
      ? 'write at slice start'
      : `write after #${aim.n} (${aim.mode === 'delay' ? `${aim.micros} µs` : 'temp file'})`
    : `${aim.phase} #${aim.n}`;

const linux = process.platform === 'linux';

(linux ? describe : describe.skip)('crash safety under SIGKILL', () => {
  let ws: Workspace;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it with \`node scripts/bundle.mjs\``);
    ws = await createWorkspace(ISSUE_IDS, TOTAL + 10, { git: process.env.CRASH_GIT === '1' });
  });

  afterAll(async () => {
    if (!ws) return;
    await killLeftovers(ws.token);
    await ws.cleanup();
  });

  it(`loses at most the in-flight iteration, never a recorded one, over ${KILLS} kills (seed ${SEED})`, async () => {
    const rand = mulberry32(SEED);
    const phases = shuffle(rand, [
      ...Array<'agent'>(7).fill('agent'),
      ...Array<'tests'>(7).fill('tests'),
      ...Array<'write'>(6).fill('write'),
    ]);
    /** Every history record ever seen in a checkpoint, by iteration: it must never change. */
    const ledger = new Map<number, HistoryRecord>();
    const kills: KillRecord[] = [];
    let recorded = 0;
    let checkpointId: string | undefined;
    let resumesChecked = 0;

    /**
     * What every look at the state dir must show, after a kill or a finished run. `before`: what was
     * recorded just before the kill (none for a run that finished on its own).
     */
    const verifyState = (
      run: CliRun,
      before: { iteration: number } | undefined,
      context: string,
    ): CheckpointFile | undefined => {
      try {
        // `status` reads every checkpoint without error; temp files are never taken for checkpoints.
        const status = runStatus(ws);
        expect(status.code).toBe(0);
        expect(status.json.invalid).toEqual([]);
        const dir = readCheckpointDir(ws.checkpointsDir); // throws when a checkpoint does not parse
        expect(dir.others).toEqual([]);
        expect(status.json.checkpoints.map((c) => c.id).sort()).toEqual(dir.checkpoints.map((c) => c.id).sort());
        // One run, one checkpoint: a resumed run writes the same id and never starts another.
        expect(dir.checkpoints.length).toBeLessThanOrEqual(1);
        if (checkpointId !== undefined) expect(dir.checkpoints[0]?.id).toBe(checkpointId);
        const cp = dir.checkpoints[0];
        const R = cp?.state.loop.iteration ?? 0;
        if (cp) expect(status.json.checkpoints[0]?.loop?.iteration).toBe(R);
        // Seed 001's phase on disk at every kill point (issue 41), the run's stage in the state.
        if (cp)
          expect([cp.phase, cp.state.stage]).toEqual(
            cp.phase === 'implementation-complete' ? [cp.phase, 'complete'] : ['beads_integration-complete', 'working'],
          );
        if (cp && cp.phase !== 'implementation-complete') expect(status.json.resumable).toBe(cp.id);

        // Never lose a recorded iteration; at most the one in flight was recorded since.
        expect(R).toBeGreaterThanOrEqual(recorded);
        if (before) {
          expect(R).toBeGreaterThanOrEqual(before.iteration);
          expect(R).toBeLessThanOrEqual(before.iteration + 1);
        }
        // The events agree: an iteration is recorded after its closing event and before the next one starts.
        const started = run.maxIteration('iteration.start');
        const ended = run.maxIteration(BOUNDARY_EVENTS);
        if (started > ended) expect(R).toBe(started - 1);
        else if (ended > 0) expect([ended - 1, ended]).toContain(R);
        else expect(R).toBe(recorded);

        // The history of recorded iterations is complete, as planned, and never rewritten.
        const history = cp?.state.loop.history ?? [];
        expect(history.map((h) => h.n)).toEqual(Array.from({ length: R }, (_, i) => i + 1));
        for (const h of history) {
          const planned = PLAN[h.n - 1];
          expect({ n: h.n, issueIds: h.issueIds, outcome: h.outcome }).toEqual({
            n: h.n,
            issueIds: [planned?.issueId],
            outcome: planned?.outcome,
          });
          const seen = ledger.get(h.n);
          if (seen) expect(h).toEqual(seen);
          else ledger.set(h.n, structuredClone(h));
        }

        // The marks log: every recorded iteration really ran; nothing beyond the in-flight one started.
        const marks = readMarks(ws);
        const startedMarks = marks.filter((m) => m.kind === 'agent-start' || m.kind === 'tests-start').map((m) => m.n);
        expect(Math.max(0, ...startedMarks)).toBeLessThanOrEqual(R + 1);
        for (let n = 1; n <= R; n++) {
          const step = PLAN[n - 1]?.step;
          expect(marks.some((m) => m.kind === 'agent-end' && m.n === n && m.detail === step)).toBe(true);
          if (step === 'done-pass' || step === 'done-fail') {
            expect(
              marks.some(
                (m) => m.kind === 'tests-end' && m.n === n && m.detail === (step === 'done-pass' ? 'pass' : 'fail'),
              ),
            ).toBe(true);
          }
        }

        // This run resumed where the previous one was recorded to have stopped.
        expect(
          run.events.filter(
            (e) => e.event === 'checkpoint.invalid' || e.event === 'run.halted' || e.event === 'run.error',
          ),
        ).toEqual([]);
        const runStart = run.find('run.start');
        if (runStart) {
          expect(runStart.iteration).toBe(recorded);
          expect(runStart.resumed).toBe(checkpointId !== undefined);
          if (checkpointId !== undefined) expect(runStart.checkpointId).toBe(checkpointId);
          resumesChecked++;
        }
        const firstStart = run.find('iteration.start');
        if (firstStart) expect(firstStart.iteration).toBe(recorded + 1);

        recorded = R;
        checkpointId = cp?.id ?? checkpointId;
        return cp;
      } catch (error) {
        const e = error as Error;
        e.message = `seed ${SEED}, ${context} (recorded before: ${recorded}; ${run.describe()}):\n${e.message}`;
        throw e;
      }
    };

    const hold = path.join(ws.marks, 'hold');
    const started = Date.now();

    for (let k = 1; k <= KILLS; k++) {
      // Where to aim, from what is recorded now.
      const phase = phases[k - 1] as Aim['phase'];
      const nextTests = PLAN.filter((p) => p.n > recorded && p.step.startsWith('done')).slice(0, 2);
      const chooseAim = (): Aim => {
        if (phase === 'agent') return { phase, n: Math.min(recorded + randInt(rand, 1, 3), TOTAL) };
        if (phase === 'tests' && nextTests.length > 0)
          return { phase, n: (nextTests[randInt(rand, 0, nextTests.length - 1)] as { n: number }).n };
        const roll = rand();
        const n = Math.min(recorded + randInt(rand, 1, 2), TOTAL - 1);
        if (roll < 0.2 || n <= recorded) return { phase: 'write', mode: 'start' };
        return roll < 0.6
          ? { phase: 'write', mode: 'delay', n, micros: randInt(rand, 0, 2500) }
          : { phase: 'write', mode: 'temp', n };
      };
      const aim = chooseAim();

      const tempsBefore = new Set(readCheckpointDir(ws.checkpointsDir).temps);
      const snapshot = () => {
        const cp = readOnlyCheckpoint(ws.checkpointsDir);
        return { iteration: cp?.state.loop.iteration ?? 0, slices: cp?.state.loop.slices ?? 0 };
      };
      let before = snapshot();
      if (aim.phase !== 'write') writeFileSync(hold, `${aim.phase} ${aim.n}`);
      const run = new CliRun(ws);
      let fired = false;
      let sawTemp = false;

      if (aim.phase === 'agent' || aim.phase === 'tests') {
        const held = path.join(ws.marks, `held-${aim.phase}-${aim.n}`);
        await waitFor(`the ${aim.phase} of iteration ${aim.n} to hold`, () => existsSync(held), { run });
        before = snapshot();
        run.kill();
        fired = true;
        rmSync(held);
      } else if (aim.mode === 'start') {
        // The run's first act is to rewrite the checkpoint it resumes: kill as soon as that write shows.
        const watch = watchWrite(ws.checkpointsDir, tempsBefore);
        const deadline = process.hrtime.bigint() + 15_000_000_000n;
        while (!fired && process.hrtime.bigint() < deadline) {
          const seen = watch();
          if (seen) {
            sawTemp = seen === 'temp';
            run.kill();
            fired = true;
          }
        }
      } else {
        const target = aim;
        let watch: ReturnType<typeof watchWrite> | undefined;
        run.onEvent = (event) => {
          if (fired) return;
          // What is recorded when iteration n has started (or later, as events arrive late): seen before the kill.
          if (event.event === 'iteration.start' && event.iteration === target.n) {
            before = snapshot();
            watch = watchWrite(ws.checkpointsDir, tempsBefore);
          }
          if (!(event.event && BOUNDARY_EVENTS.has(event.event) && event.iteration === target.n)) return;
          if (target.mode === 'delay' || !watch) spinMicros(target.mode === 'delay' ? target.micros : 0);
          else {
            const deadline = process.hrtime.bigint() + 200_000_000n;
            let seen: ReturnType<ReturnType<typeof watchWrite>>;
            while (!seen && process.hrtime.bigint() < deadline) seen = watch();
            sawTemp = seen === 'temp';
          }
          run.kill();
          fired = true;
        };
        await waitFor(`the closing event of iteration ${target.n}`, () => fired, { run });
      }
      rmSync(hold, { force: true });
      const exit = await run.closed;
      const leftovers = await killLeftovers(ws.token);
      if (!fired || exit.signal !== 'SIGKILL') {
        throw new Error(
          `seed ${SEED}, kill #${k} (${describeAim(aim)}): the run was not killed (exit ${exit.code}, ${exit.signal}; ${run.describe()})`,
        );
      }

      const recordedBefore = recorded;
      let cp: ReturnType<typeof verifyState>;
      try {
        cp = verifyState(run, before, `kill #${k} (${describeAim(aim)})`);
      } catch (error) {
        tally.record(`kill #${k} (${describeAim(aim)})`, false);
        throw error;
      }
      tally.record(`kill #${k} (${describeAim(aim)})`, true);
      const R = recorded;
      const tempsLeft = readCheckpointDir(ws.checkpointsDir).temps.filter((t) => !tempsBefore.has(t)).length;

      // Which phase the kill actually hit.
      let hit: string;
      if (aim.phase !== 'write') hit = aim.phase;
      else if (aim.mode === 'start') {
        hit =
          tempsLeft > 0
            ? 'write: temp file left'
            : (cp?.state.loop.slices ?? 0) > before.slices
              ? 'write: after rename'
              : 'startup (before the write)';
      } else if (tempsLeft > 0) hit = 'write: temp file left';
      else if (R === aim.n - 1) hit = 'write: before the temp file';
      else if (run.maxIteration('iteration.start') > aim.n) hit = 'agent (next iteration)';
      else hit = 'write: after rename';
      kills.push({ k, aim: describeAim(aim), hit, recordedBefore, recordedAfter: R, tempsLeft, leftovers, sawTemp });
    }

    // Finally a run without a kill goes to the end.
    const finalRun = new CliRun(ws);
    const exit = await finalRun.closed;
    expect(await killLeftovers(ws.token)).toBe(0);
    const last = verifyState(finalRun, undefined, 'the final run');
    expect({ code: exit.code, stderr: finalRun.stderr, unparsed: finalRun.unparsed }).toEqual({
      code: 0,
      stderr: '',
      unparsed: [],
    });
    const result = finalRun.result;
    expect(result).toBeDefined();
    // The loop's totals over every run the kills left (issue 40: the result's own counts are the last run's).
    expect(result).toMatchObject({
      status: 'complete',
      checkpointId,
      loop: {
        iterations: TOTAL,
        failedIterations: PLAN.filter((p) => p.step === 'fail').length,
        successfulIterations: PLAN.filter((p) => p.step !== 'fail').length,
        testFailures: PLAN.filter((p) => p.step === 'done-fail').length,
        issuesClosed: ISSUE_IDS,
        completedIterations: PLAN.filter((p) => p.step === 'done-pass').map((p) => p.n),
      },
    });
    expect([last?.phase, last?.state.stage]).toEqual(['implementation-complete', 'complete']);
    expect(last?.state.loop.iteration).toBe(TOTAL);
    const status = runStatus(ws).json;
    expect(status.resumable).toBeNull();
    expect(
      status.checkpoints.map((c) => ({ id: c.id, phase: c.phase, stage: c.stage, iteration: c.loop?.iteration })),
    ).toEqual([{ id: checkpointId, phase: 'implementation-complete', stage: 'complete', iteration: TOTAL }]);
    const beads = readFileSync(path.join(ws.work, '.beads', 'issues.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(beads.map((b) => b.status)).toEqual(ISSUE_IDS.map(() => 'closed'));
    if (ws.git) {
      // The base branch is checked out again, every cycle branch merged and deleted, nothing left over.
      expect(gitOutput(ws, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
      expect(gitOutput(ws, 'branch', '--list', 'agent-loop/*')).toBe('');
      expect(gitOutput(ws, 'status', '--porcelain')).toBe('');
    }
    // Every resumed run was checked against the checkpoint it resumed.
    expect(resumesChecked).toBeGreaterThanOrEqual(
      KILLS + 1 - kills.filter((x) => x.aim === 'write at slice start').length,
    );
    // The held kills hit what they aimed at.
    expect(kills.filter((x) => x.aim.startsWith('agent')).every((x) => x.hit === 'agent')).toBe(true);
    expect(kills.filter((x) => x.aim.startsWith('tests')).every((x) => x.hit === 'tests')).toBe(true);

    const agentRuns = readMarks(ws).filter((m) => m.kind === 'agent-start');
    const reruns = agentRuns.length - TOTAL;
    // A re-run iteration is one that was in flight at a kill: at most one per kill.
    expect(reruns).toBeGreaterThanOrEqual(0);
    expect(reruns).toBeLessThanOrEqual(KILLS);
    const byHit = new Map<string, number>();
    for (const x of kills) byHit.set(x.hit, (byHit.get(x.hit) ?? 0) + 1);
    console.log(
      [
        `crash test, seed ${SEED}: ${KILLS} kills, ${TOTAL} iterations recorded in the end, ${reruns} agent runs repeated, ${Date.now() - started} ms`,
        `hits: ${[...byHit].map(([h, c]) => `${h} ${c}`).join('; ')}`,
        ...kills.map(
          (x) =>
            `  #${String(x.k).padStart(2)} aim ${x.aim.padEnd(30)} hit ${x.hit.padEnd(28)} recorded ${x.recordedBefore} → ${x.recordedAfter}${x.sawTemp ? ', temp file seen' : ''}${x.tempsLeft ? `, ${x.tempsLeft} temp file left` : ''}${x.leftovers ? `, ${x.leftovers} leftover processes killed` : ''}`,
        ),
      ].join('\n'),
    );
  }, 120_000);
});
