/**
 * The wave machine (src/core/wave.ts): what run --parallel's coordinator decides, stepped here
 * with no I/O. Examples of each way a wave goes and a run ends, then a property: whatever the
 * world answers, the run ends once, and no job starts on a wave the checkpoint does not hold.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { type LoopState, type Notice, type Wave, initialLoopState } from '../../src/core/state.js';
import {
  type JobEnded,
  type WaveEffect,
  type WaveEvent,
  type WaveModel,
  initialWaveModel,
  step,
} from '../../src/core/wave.js';
import type { WaveCandidate } from '../../src/core/wavePlan.js';
import { jobState } from './waveFixtures.js';

const settings = {
  parallel: 2,
  maxIterations: 20,
  maxConsecutiveEscalations: 3,
  checkpointId: 'run-a',
  base: 'main',
};
const ready = (...ids: string[]): WaveCandidate[] => ids.map((id) => ({ id, title: `Title ${id}`, labels: [] }));
const NOW = '2026-01-01T00:00:00.000Z';
const kinds = (effects: readonly WaveEffect[]) => effects.map((e) => e.kind);
const of = <K extends WaveEffect['kind']>(effects: readonly WaveEffect[], kind: K) =>
  effects.find((e): e is Extract<WaveEffect, { kind: K }> => e.kind === kind);

/** Steps the machine through `events`, one after another: the last step's model and effects, and every effect asked. */
function walk(model: WaveModel, events: WaveEvent[]) {
  let m = model;
  let last: readonly WaveEffect[] = [];
  const all: WaveEffect[] = [];
  for (const event of events) {
    const stepped = step(m, event);
    m = stepped.model;
    last = stepped.effects;
    all.push(...last);
  }
  return { model: m, effects: last, all };
}

const opening: WaveEvent[] = [
  { type: 'started' },
  { type: 'postsSent', loop: initialLoopState(20), sent: false },
  { type: 'signalRead', aborted: false },
];
const fresh = (loop: LoopState = initialLoopState(20)) => initialWaveModel(loop, settings);
const started = (loop: LoopState = initialLoopState(20)): WaveEvent[] => [
  { type: 'started' },
  { type: 'postsSent', loop, sent: false },
  { type: 'signalRead', aborted: false },
];
const ended = (loop: LoopState | undefined, exitCode = 0): JobEnded => ({
  ...(loop ? { loop } : {}),
  exitCode,
  stderrTail: loop ? '' : 'agent-loop: the agent claude is not on PATH',
});

describe('the wave machine: a wave', () => {
  it('records a new wave in the checkpoint before any job starts, then runs its jobs from their start', () => {
    const { model, effects } = walk(fresh(), [
      ...opening,
      { type: 'readyRead', ready: ready('1', '2', '3'), now: NOW },
    ]);
    expect(kinds(effects)).toEqual(['recordWave', 'log']);
    const recorded = of(effects, 'recordWave')!;
    expect(recorded.wave).toMatchObject({ id: 'wave-1', startedAt: NOW });
    expect(recorded.wave.jobs.map((j) => j.issueId)).toEqual(['1', '2']);
    expect(recorded.loop.wave).toEqual(recorded.wave);
    expect(of(effects, 'log')).toMatchObject({ event: 'wave.start', message: expect.stringContaining('later: 3') });
    const next = step(model, { type: 'waveRecorded' });
    expect(next.effects).toEqual([{ kind: 'runJobs', wave: recorded.wave, resuming: false }]);
  });

  it("resumes the wave in flight (a killed coordinator's) before planning any, reading no issue", () => {
    const wave: Wave = { id: 'wave-3', startedAt: NOW, jobs: [{ issueId: '7', title: 'T', maxIterations: 4 }] };
    const loop = { ...initialLoopState(20), waves: 2, wave };
    const { effects } = walk(fresh(loop), started(loop));
    expect(effects).toEqual([{ kind: 'runJobs', wave, resuming: true }]);
  });

  it('only picks the issues of --issue', () => {
    const model = initialWaveModel(initialLoopState(20), { ...settings, issues: ['2'] });
    const { effects } = walk(model, [...opening, { type: 'readyRead', ready: ready('1', '2', '3'), now: NOW }]);
    expect(of(effects, 'recordWave')!.wave.jobs.map((j) => j.issueId)).toEqual(['2']);
  });

  it('lands the finished jobs, sums the wave into the loop, labels its escalations, says each row, saves, then clears the worktrees', () => {
    const first = walk(fresh(), [...opening, { type: 'readyRead', ready: ready('1', '2'), now: NOW }]);
    const wave = of(first.effects, 'recordWave')!.wave;
    const ends = [ended(jobState('1', 2, 'closed')), ended(jobState('2', 1, 'escalated'))];
    const jobs = walk(first.model, [
      { type: 'waveRecorded' },
      { type: 'jobsEnded', ends, baseTip: 'abc', aborted: false },
    ]);
    expect(jobs.effects).toEqual([{ kind: 'landJobs', wave, ends, baseTip: 'abc', waveNumber: 1 }]);
    const partials = ends.map((e, k) => ({ issueId: wave.jobs[k]!.issueId, loop: e.loop! }));
    const landed = step(jobs.model, { type: 'landed', partials, requeued: [] });
    expect(landed.effects).toEqual([{ kind: 'labelEscalations', escalations: [{ issueId: '2', note: '' }] }]);
    const labelled = step(landed.model, { type: 'labelled', failed: [], at: NOW });
    expect(kinds(labelled.effects)).toEqual(['log', 'log', 'save', 'clearWave']);
    const saved = of(labelled.effects, 'save')!;
    expect(saved.loop).toMatchObject({ waves: 1, iteration: 3, issuesClosed: ['1'], issuesEscalated: ['2'] });
    expect(saved.loop.wave).toBeUndefined();
    expect(of(labelled.effects, 'clearWave')).toEqual({ kind: 'clearWave', wave, keep: [], baseTip: 'abc' });
    // Cleared with no halt: the next wave, if the run was not told to stop.
    expect(step(labelled.model, { type: 'waveCleared', kept: [] }).effects).toEqual([{ kind: 'readSignal' }]);
  });

  it('an escalation not labelled on the base stays owed in the checkpoint saved with the wave', () => {
    const first = walk(fresh(), [...opening, { type: 'readyRead', ready: ready('2'), now: NOW }]);
    const wave = of(first.effects, 'recordWave')!.wave;
    const ends = [ended(jobState('2', 1, 'escalated'))];
    const { effects } = walk(first.model, [
      { type: 'waveRecorded' },
      { type: 'jobsEnded', ends, baseTip: 'abc', aborted: false },
      { type: 'landed', partials: [{ issueId: '2', loop: ends[0]!.loop! }], requeued: [] },
      { type: 'labelled', failed: [['2', 'your checkout is no longer on main']], at: NOW },
    ]);
    expect(wave.jobs).toHaveLength(1);
    const owed = of(effects, 'save')!.loop.notices;
    expect(owed).toEqual([
      expect.objectContaining({
        what: { kind: 'markEscalated', issueIds: ['2'], note: '' },
        lastError: 'your checkout is no longer on main',
      }),
    ]);
  });
});

describe('the wave machine: how the run ends', () => {
  it('no issue left: said, then the checkpoint saved complete once', () => {
    const { effects } = walk(fresh(), [...opening, { type: 'readyRead', ready: [], now: NOW }]);
    expect(kinds(effects)).toEqual(['log', 'finish']);
    expect(of(effects, 'log')).toMatchObject({ event: 'parallel.done' });
    expect(of(effects, 'finish')).toMatchObject({ status: 'complete', errors: [], diagnostic: null });
  });

  it('told to stop between waves: ends continuing, the loop as it stands', () => {
    const { effects } = walk(fresh(), [
      { type: 'started' },
      { type: 'postsSent', loop: initialLoopState(20), sent: false },
      { type: 'signalRead', aborted: true },
    ]);
    expect(effects).toEqual([
      { kind: 'finish', status: 'continuing', loop: initialLoopState(20), errors: [], diagnostic: null },
    ]);
  });

  it('stopped while the jobs ran: the wave stays in the checkpoint, not landed', () => {
    const first = walk(fresh(), [...opening, { type: 'readyRead', ready: ready('1'), now: NOW }]);
    const { effects } = walk(first.model, [
      { type: 'waveRecorded' },
      { type: 'jobsEnded', ends: [ended(undefined, null as never)], baseTip: 'abc', aborted: true },
    ]);
    expect(kinds(effects)).toEqual(['finish']);
    expect(of(effects, 'finish')!.loop.wave?.id).toBe('wave-1');
  });

  it('no job could start: the worktrees cleared, the wave dropped from the checkpoint, the first stderr said (no result)', () => {
    const first = walk(fresh(), [...opening, { type: 'readyRead', ready: ready('1', '2'), now: NOW }]);
    const wave = of(first.effects, 'recordWave')!.wave;
    const jobs = walk(first.model, [
      { type: 'waveRecorded' },
      { type: 'jobsEnded', ends: [ended(undefined, 2), ended(undefined, 2)], baseTip: 'abc', aborted: false },
    ]);
    expect(jobs.effects).toEqual([{ kind: 'clearWave', wave, keep: [], baseTip: 'abc' }]);
    const { effects } = step(jobs.model, { type: 'waveCleared', kept: [] });
    expect(kinds(effects)).toEqual(['save', 'cannotStart']);
    expect(of(effects, 'save')!.loop.wave).toBeUndefined();
    expect(of(effects, 'cannotStart')!.stderr).toContain('not on PATH');
  });

  it('the base moved behind the coordinator: halts repository_moved with what to do, the wave kept unreduced', () => {
    const first = walk(fresh(), [...opening, { type: 'readyRead', ready: ready('1'), now: NOW }]);
    const moved = {
      reason: 'repository_moved' as const,
      message: 'REPOSITORY MOVED: main moved.',
      was: 'a'.repeat(40),
    };
    const { effects, all } = walk(first.model, [
      { type: 'waveRecorded' },
      { type: 'jobsEnded', ends: [ended(jobState('1', 2, 'closed'))], baseTip: 'abc', aborted: false },
      { type: 'landed', partials: [], requeued: [], moved },
    ]);
    expect(kinds(all)).not.toContain('clearWave');
    const halt = of(effects, 'recordHalt')!;
    expect(halt.loop.wave?.id).toBe('wave-1');
    expect(halt.end.halt.reason).toBe('repository_moved');
    expect(halt.end.halt.message).toContain('2 iteration(s) are not in the counts below yet');
    expect(halt.end.advice).toContain(`git reset --keep ${'a'.repeat(12)}`);
  });

  it("a job's halt about the run: its work kept before the worktrees go, the halt recorded with its state, then finish halted", () => {
    const first = walk(fresh(), [...opening, { type: 'readyRead', ready: ready('1', '2'), now: NOW }]);
    const wave = of(first.effects, 'recordWave')!.wave;
    const own = { ...jobState('1', 1, 'unfinished'), halt: { reason: 'agent_unavailable' as const, message: 'auth' } };
    const ends = [ended(own), ended(jobState('2', 1, 'closed'))];
    const partials = ends.map((e, k) => ({ issueId: wave.jobs[k]!.issueId, loop: e.loop! }));
    const labelled = walk(first.model, [
      { type: 'waveRecorded' },
      { type: 'jobsEnded', ends, baseTip: 'abc', aborted: false },
      { type: 'landed', partials, requeued: [] },
      { type: 'labelled', failed: [], at: NOW },
    ]);
    expect(of(labelled.effects, 'clearWave')!.keep).toEqual([{ issueId: '1', reason: 'agent_unavailable' }]);
    const kept = { note: 'its work is on agent-loop-halted/1', diagnostic: '# HALT' };
    const cleared = step(labelled.model, { type: 'waveCleared', kept: [['1', kept]] });
    const record = of(cleared.effects, 'recordHalt')!;
    expect(record.end).toMatchObject({
      halt: { reason: 'agent_unavailable', issueId: '1' },
      haltedJob: { loop: own, kept },
      keptNotes: [kept.note],
    });
    const told = { ...record.loop, halt: { reason: 'agent_unavailable' as const, message: '1: auth' } };
    const done = step(cleared.model, { type: 'haltRecorded', loop: told, diagnostic: '# HALT' });
    expect(done.effects).toEqual([
      { kind: 'finish', status: 'halted', loop: told, errors: ['1: auth'], diagnostic: '# HALT' },
    ]);
  });

  it('the planner finds a halt (no iteration left): recorded through the outbox before the end', () => {
    const spent = { ...initialLoopState(20), iteration: 20 };
    const { effects } = walk(fresh(spent), [...started(spent), { type: 'readyRead', ready: ready('1'), now: NOW }]);
    expect(of(effects, 'recordHalt')!.end.halt.reason).toBe('max_iterations');
  });
});

describe('the wave machine: before the first wave', () => {
  it('the posts a killed run left: the loop saved once they are sent, not when there were none', () => {
    const sent = walk(fresh(), [{ type: 'started' }, { type: 'postsSent', loop: initialLoopState(20), sent: true }]);
    expect(kinds(sent.effects)).toEqual(['save', 'readSignal']);
    const none = walk(fresh(), [{ type: 'started' }, { type: 'postsSent', loop: initialLoopState(20), sent: false }]);
    expect(kinds(none.effects)).toEqual(['readSignal']);
  });

  it('the labels an earlier run owes are written first; those written are no longer owed', () => {
    const notice: Notice = {
      id: 'n1',
      what: { kind: 'markEscalated', issueIds: ['4'], note: 'tests failed' },
      recordedAt: NOW,
      attempts: 1,
    };
    const loop = { ...initialLoopState(20), notices: [notice] };
    const asked = walk(fresh(loop), [{ type: 'started' }, { type: 'postsSent', loop, sent: false }]);
    expect(kinds(asked.effects)).toEqual(['log', 'labelEscalations']);
    expect(of(asked.effects, 'log')).toMatchObject({ event: 'escalation.relabel' });
    const done = step(asked.model, { type: 'labelled', failed: [], at: NOW });
    expect(kinds(done.effects)).toEqual(['save', 'readSignal']);
    expect(of(done.effects, 'save')!.loop.notices).toEqual([]);
  });
});

/** A world that answers every effect from a script of job outcomes: how the property drives the machine. */
type Outcome = 'closed' | 'escalated' | 'unfinished' | 'cannot' | 'halts';
function answer(
  effect: WaveEffect,
  world: { outcomes: Outcome[]; labelFails: boolean; k: number },
): WaveEvent | undefined {
  switch (effect.kind) {
    case 'sendLeftPosts':
      return { type: 'postsSent', loop: effect.loop, sent: false };
    case 'readSignal':
      return { type: 'signalRead', aborted: false };
    case 'readReady':
      return { type: 'readyRead', ready: ready('1', '2', '3', '4', '5'), now: NOW };
    case 'recordWave':
      return { type: 'waveRecorded' };
    case 'runJobs':
      return {
        type: 'jobsEnded',
        ends: effect.wave.jobs.map((job) => {
          const outcome = world.outcomes[world.k++ % world.outcomes.length]!;
          if (outcome === 'cannot') return ended(undefined, 2);
          if (outcome !== 'halts') return ended(jobState(job.issueId, 1, outcome));
          const own = jobState(job.issueId, 1, 'unfinished');
          return ended({ ...own, halt: { reason: 'agent_unavailable', message: 'auth' } }, 1);
        }),
        baseTip: 'abc',
        aborted: false,
      };
    case 'landJobs':
      return {
        type: 'landed',
        partials: effect.wave.jobs.map((j, k) => ({
          issueId: j.issueId,
          ...(effect.ends[k]?.loop ? { loop: effect.ends[k]!.loop } : {}),
        })),
        requeued: [],
      };
    case 'labelEscalations':
      return {
        type: 'labelled',
        failed: world.labelFails ? effect.escalations.map((e) => [e.issueId, 'no']) : [],
        at: NOW,
      };
    case 'clearWave':
      return {
        type: 'waveCleared',
        kept: effect.keep.map((k) => [k.issueId, { note: 'kept' }]),
      };
    case 'recordHalt':
      return {
        type: 'haltRecorded',
        loop: { ...effect.loop, halt: { ...effect.end.halt } },
        diagnostic: '# HALT',
      };
    default:
      return undefined;
  }
}

describe('the wave machine: property', () => {
  it('whatever the jobs do, the run ends once, and no job starts on a wave the checkpoint does not hold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<Outcome>('closed', 'escalated', 'unfinished', 'cannot', 'halts'), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.boolean(),
        (outcomes, labelFails) => {
          const world = { outcomes, labelFails, k: 0 };
          let model = fresh();
          let event: WaveEvent | undefined = { type: 'started' };
          let recorded: string | undefined;
          const ends: string[] = [];
          for (let n = 0; event && n < 500; n++) {
            const stepped = step(model, event);
            model = stepped.model;
            event = undefined;
            for (const effect of stepped.effects) {
              if (effect.kind === 'recordWave') recorded = effect.wave.id;
              if (effect.kind === 'runJobs') expect(effect.resuming || effect.wave.id === recorded).toBe(true);
              if (effect.kind === 'finish' || effect.kind === 'cannotStart') ends.push(effect.kind);
              event = answer(effect, world) ?? event;
            }
          }
          expect(ends).toHaveLength(1);
          expect(event).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("the wave machine: the action's reduce job, started from what the matrix jobs left", () => {
  const handed = (ids: string[]) => ({
    id: 'github-1-1',
    startedAt: NOW,
    jobs: ids.map((id) => ({ issueId: id, title: `Title ${id}`, maxIterations: 5 })),
  });
  const LATER = '2026-01-01T01:00:00.000Z';

  it('sums the jobs into the loop, sends the posts a killed reduce left, saves, hands the issues over, then reports', () => {
    const wave = handed(['1', '2']);
    const partials = [
      { issueId: '1', loop: jobState('1', 2, 'closed') },
      { issueId: '2', loop: jobState('2', 3, 'unfinished') },
    ];
    const first = step(fresh(), { type: 'jobsReported', wave, partials, now: LATER });
    expect(kinds(first.effects)).toEqual(['sendLeftPosts']);
    const loop = of(first.effects, 'sendLeftPosts')!.loop;
    expect(loop).toMatchObject({ waves: 1, iteration: 5, issuesClosed: ['1'], maxIterations: 20 });
    const saved = step(first.model, { type: 'postsSent', loop, sent: false });
    expect(saved.effects).toEqual([
      { kind: 'save', status: 'continuing', loop },
      {
        kind: 'handOver',
        loop,
        rows: expect.arrayContaining([expect.objectContaining({ issueId: '2', outcome: 'unfinished' })]),
      },
    ]);
    const end = step(saved.model, { type: 'waveCleared', kept: [] });
    expect(end.effects).toEqual([
      expect.objectContaining({
        kind: 'finish',
        status: 'continuing',
        loop,
        errors: [],
        reduced: expect.objectContaining({ main: initialLoopState(20) }),
      }),
    ]);
  });

  it("a wave with no job carries its plan's halt: recorded through the outbox (stamped now), saved halted, reported failed", () => {
    const wave = { ...handed([]), halt: { reason: 'max_iterations' as const, message: 'no iteration left' } };
    const first = step(fresh(), { type: 'jobsReported', wave, partials: [], now: LATER });
    const loop = of(first.effects, 'sendLeftPosts')!.loop;
    expect(loop.halt).toEqual({ reason: 'max_iterations', message: 'no iteration left', at: LATER });
    const told = step(first.model, { type: 'postsSent', loop, sent: false });
    expect(told.effects).toEqual([
      {
        kind: 'recordHalt',
        loop,
        end: { kind: 'halted', halt: { reason: 'max_iterations', message: 'no iteration left' } },
      },
    ]);
    const recorded = { ...loop, notices: [] };
    const saved = step(told.model, { type: 'haltRecorded', loop: recorded, diagnostic: '# HALT' });
    expect(kinds(saved.effects)).toEqual(['save', 'handOver']);
    expect(of(saved.effects, 'save')).toEqual({ kind: 'save', status: 'halted', loop: recorded });
    const end = step(saved.model, { type: 'waveCleared', kept: [] });
    expect(of(end.effects, 'finish')).toMatchObject({ status: 'halted', errors: ['no iteration left'] });
  });

  it("another run's halt recorded while this wave ran stands (said), and is not told again", () => {
    const main = { ...initialLoopState(20), halt: { reason: 'stuck' as const, message: 'x', at: LATER } };
    const first = step(fresh(main), {
      type: 'jobsReported',
      wave: handed(['1']),
      partials: [{ issueId: '1', loop: jobState('1', 1, 'closed') }],
      now: LATER,
    });
    expect(of(first.effects, 'log')).toMatchObject({
      level: 'warn',
      message: expect.stringContaining('another run halted the loop (stuck)'),
    });
    const loop = of(first.effects, 'sendLeftPosts')!.loop;
    expect(loop.halt).toEqual(main.halt);
    expect(kinds(step(first.model, { type: 'postsSent', loop, sent: false }).effects)).toEqual(['save', 'handOver']);
  });

  it('a landing job that left no state: said, its entries left for a later wave', () => {
    const wave = { ...handed([]), landing: ['k1'] };
    const first = step(fresh(), { type: 'jobsReported', wave, partials: [], now: LATER });
    expect(of(first.effects, 'log')).toMatchObject({
      message: expect.stringContaining('landing job: the landing job left no state'),
    });
  });
});
