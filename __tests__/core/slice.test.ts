/**
 * The engine's pure core (src/core/slice.ts) driven event by event: no processes, files or clocks.
 * Each test feeds what happened and checks what the core asks for next; the last block checks the
 * protocol itself over every event in many states.
 */
import { describe, expect, it } from '@jest/globals';
import {
  type BaselineDelta,
  type Effect,
  type Event,
  ITERATION_FIELDS,
  type IterationOutcome,
} from '../../src/core/events.js';
import { emptyRun } from '../../src/verdict/results.js';
import {
  type CoreConfig,
  type SliceModel,
  cycleProgress,
  haltPosted,
  initialModel,
  selectTargets,
  step as coreStep,
} from '../../src/core/slice.js';
import { type LoopState, type Notice, type OutboxEntry, initialLoopState } from '../../src/core/state.js';
import { cycle, finishing, stubMachine } from './fixtures.js';

const T0 = Date.parse('2026-11-25T10:00:00Z');

function config(over: Partial<CoreConfig['settings']> = {}, rest: Partial<CoreConfig> = {}): CoreConfig {
  return {
    settings: { maxIterations: 10, batch: false, maxConsecutiveEscalations: 2, ...over },
    checkpointId: 'cp-1',
    publishes: false,
    branches: true,
    machine: stubMachine,
    ...rest,
  };
}

const kinds = (effects: Effect[]) => effects.map((e) => (e.kind === 'log' ? `log:${e.event}` : e.kind));
const find = <K extends Effect['kind']>(effects: Effect[], kind: K) =>
  effects.find((e): e is Extract<Effect, { kind: K }> => e.kind === kind);

function model(loop: Partial<LoopState> = {}, over: Partial<SliceModel> = {}): SliceModel {
  return { ...initialModel({ ...initialLoopState(10), baseBranch: 'main', ...loop }, T0), ...over };
}

/** What a test tells the core: an event, or the workflow's iteration finishing (`finished`). */
type Told = Event | { finishes: IterationOutcome; now: number };

/**
 * The workflow's iteration finishes with this outcome, ended at `now`: an iteration of the stub
 * machine (fixtures.ts) in flight on the loop as the core then holds it finishes at its next event
 * (the cycle's issues read), and the core folds what it changed of the parts an iteration writes
 * (those of `state`) into the loop, as for a workflow's machine.
 */
const finished = (outcome: Partial<IterationOutcome> & { state: LoopState }, now = T0): Told => ({
  finishes: outcome,
  now,
});

/** The model and event that tell the core `t`. */
function toldAs(m: SliceModel, t: Told): [SliceModel, Event] {
  if (!('finishes' in t)) return [m, t];
  const { state, ...rest } = t.finishes;
  const written = Object.fromEntries(ITERATION_FIELDS.map((k) => [k, state[k]]));
  const outcome = { ...rest, state: { ...m.loop, ...written } as LoopState };
  return [finishing(m, outcome), { type: 'cycleIssuesRead', issues: [], now: t.now }];
}

/**
 * The core's step with a halted loop's reads (src/core/haltReads.ts) answered at once, nothing read:
 * its effects around them, as one step. The reads' own tests ('a halt's reads') use the core's step.
 */
function step(before: SliceModel, t: Told, cfg: CoreConfig) {
  let s = coreStep(...toldAs(before, t), cfg);
  const effects: Effect[] = [];
  for (
    let last = s.effects.at(-1);
    last?.kind === 'readBaseTip' || last?.kind === 'readLeftIssues';
    last = s.effects.at(-1)
  ) {
    effects.push(...s.effects.slice(0, -1));
    s = coreStep(s.model, last.kind === 'readBaseTip' ? { type: 'baseTipRead' } : { type: 'leftIssuesRead' }, cfg);
  }
  return { model: s.model, effects: [...effects, ...s.effects] };
}

/** Feeds events in order; returns the last step. */
function run(m: SliceModel, cfg: CoreConfig, ...events: Told[]) {
  let s = { model: m, effects: [] as Effect[] };
  for (const e of events) s = step(s.model, e, cfg);
  return s;
}

const ready = (...ids: string[]) => ids.map((id) => ({ id, title: `Title ${id}`, labels: [] as string[] }));
/** An escalation record of one issue, with the fingerprint it was worked at. */
const escalatedAt = (iteration: number, id: string, fingerprint: string) => ({
  issueIds: [id],
  titles: [],
  iteration,
  steps: [],
  reason: 'r',
  at: '',
  note: '',
  fingerprints: { [id]: fingerprint },
});
const tick = (now = T0): Event => ({ type: 'tick', now, aborted: false });
/** A baseline that gives no verdict: red, and not read per test. */
const unreadable: BaselineDelta = { key: 'k', source: 'ran', run: emptyRun(1) };

describe('the core: picking the work', () => {
  it('opens a cycle on the first ready issue, on its own branch; all of them with --batch', () => {
    const one = run(model(), config(), tick(), { type: 'issuesRead', ready: ready('a-1', 'a-2') });
    expect(kinds(one.effects)).toEqual(['openCycle']);
    expect(find(one.effects, 'openCycle')?.cycle).toMatchObject({
      issueIds: ['a-1'],
      branch: 'agent-loop/a-1',
      startedAtIteration: 1,
    });
    const batch = run(model(), config({ batch: true }), tick(), { type: 'issuesRead', ready: ready('a-1', 'a-2') });
    expect(find(batch.effects, 'openCycle')?.cycle).toMatchObject({
      issueIds: ['a-1', 'a-2'],
      branch: 'agent-loop/batch-a-1-and-1-more',
    });
    const noGit = run(model(), config({}, { branches: false }), tick(), { type: 'issuesRead', ready: ready('a-1') });
    expect(find(noGit.effects, 'openCycle')?.cycle.branch).toBeUndefined();
  });

  it('skips issues closed, left unchanged or escalated in this run, and those labelled escalated', () => {
    const loop = {
      ...initialLoopState(10),
      issuesClosed: ['a-1'],
      issuesNoChange: ['a-2'],
      escalations: [{ issueIds: ['a-3'], titles: [], iteration: 5, steps: [], reason: 'r', at: '', note: '' }],
    } as LoopState;
    const issues = [...ready('a-1', 'a-2', 'a-3'), { id: 'a-4', title: '', labels: ['agent-loop:escalated'] }];
    expect(selectTargets(issues, loop, true, 4)).toEqual({ targets: [], escalated: ['a-3', 'a-4'] });
    // An escalation of an earlier slice counts only through its label.
    expect(selectTargets(issues, loop, true, 5).targets.map((i) => i.id)).toEqual(['a-3']);
    expect(selectTargets(ready('a-5', 'a-6'), loop, false, 0, ['a-6']).targets.map((i) => i.id)).toEqual(['a-6']);
  });

  it('issue 14: an escalated issue edited since its escalation (its fingerprint changed) is tried again, said in the log; unedited, or in this slice, it stays skipped', () => {
    const loop = {
      ...initialLoopState(10),
      escalations: [
        escalatedAt(3, 'a-1', 'old'),
        { issueIds: ['a-2'], titles: [], iteration: 4, steps: [], reason: 'r', at: '', note: '' },
      ],
    } as LoopState;
    const labelled = (id: string, fingerprint?: string) => ({
      id,
      title: `Title ${id}`,
      labels: ['agent-loop:escalated'],
      ...(fingerprint ? { fingerprint } : {}),
    });
    // a-1 unedited; a-2 escalated by an older version (no fingerprint recorded): both skipped.
    expect(selectTargets([labelled('a-1', 'old'), labelled('a-2', 'any')], loop, true, 4)).toEqual({
      targets: [],
      escalated: ['a-1', 'a-2'],
    });
    expect(selectTargets([labelled('a-1')], loop, true, 4).targets).toEqual([]);
    // Edited: a target again, from the next slice on (not within the slice that escalated it).
    expect(selectTargets([labelled('a-1', 'new')], loop, true, 2).targets.map((i) => i.id)).toEqual([]);
    expect(selectTargets([labelled('a-1', 'new')], loop, true, 4).targets.map((i) => i.id)).toEqual(['a-1']);

    const opened = run(model(loop, { sliceStartIteration: 4 }), config(), tick(), {
      type: 'issuesRead',
      ready: [labelled('a-1', 'new')],
    });
    expect(kinds(opened.effects)).toEqual(['log:issue.edited', 'openCycle']);
    expect(find(opened.effects, 'openCycle')?.cycle.fingerprints).toEqual({ 'a-1': 'new' });
  });

  it('issue 14: where the label does not outlast the runner (beads in the action), the checkpoint’s escalations stand in for it; an edit still lifts it', () => {
    const loop = {
      ...initialLoopState(10),
      escalations: [escalatedAt(3, 'a-1', 'f')],
    } as LoopState;
    const unlabelled = (fingerprint: string) => [{ id: 'a-1', title: 't', labels: [], fingerprint }];
    expect(selectTargets(unlabelled('f'), loop, true, 4).targets.map((i) => i.id)).toEqual(['a-1']);
    expect(selectTargets(unlabelled('f'), loop, true, 4, undefined, true)).toEqual({ targets: [], escalated: ['a-1'] });
    expect(selectTargets(unlabelled('g'), loop, true, 4, undefined, true).targets.map((i) => i.id)).toEqual(['a-1']);
  });

  it('issue 14: an escalation records the fingerprints its cycle started with', () => {
    const m = model({ currentCycle: { ...cycle(), fingerprints: { 'a-1': 'f1' } }, iteration: 4 });
    const s = step(m, finished({ state: m.loop, escalate: { reason: 'stuck', bounceLoop: false } }), config());
    expect(s.model.loop.escalations.at(-1)?.fingerprints).toEqual({ 'a-1': 'f1' });
  });

  it('issue 40: issues (or their open pull requests) that cannot be listed defer the slice, never complete it: saved as it is, nothing started, the next run lists them again', () => {
    const failed = {
      what: 'listing the open pull requests of octo/widgets',
      status: 502,
      message: 'GitHub failed while listing the open pull requests (502 Server Error), also on retrying.',
    };
    const m = model({ iteration: 3, issuesClosed: ['a-0'] });
    const s = run(m, config({}, { publishes: true }), tick(), { type: 'issuesUnlisted', failed });
    expect(kinds(s.effects)).toEqual(['log:run.deferred', 'save', 'done']);
    expect(find(s.effects, 'done')).toEqual({ kind: 'done', status: 'deferred', interrupted: false });
    expect(find(s.effects, 'save')).toMatchObject({ status: 'deferred', loop: m.loop });
    const said = find(s.effects, 'log');
    expect(said).toMatchObject({ level: 'warn', data: { what: failed.what, status: 502 } });
    expect(said?.message).toBe(
      'Deferred: GitHub failed while listing the open pull requests (502 Server Error), also on retrying. No issue is started on an incomplete list; the checkpoint keeps what this run did, and the next run lists the issues again.',
    );
    expect(s.model.loop).toEqual(m.loop);
  });

  it('with no ready issue: checks the source, then completes; halts when only escalated issues remain', () => {
    const empty = run(model(), config(), tick(), { type: 'issuesRead', ready: [] });
    expect(kinds(empty.effects)).toEqual(['checkSource']);
    const done = step(empty.model, { type: 'sourceChecked' }, config());
    expect(kinds(done.effects)).toEqual(['log:run.complete', 'save', 'done']);
    expect(find(done.effects, 'done')).toEqual({ kind: 'done', status: 'complete', interrupted: false });

    const garbled = step(
      empty.model,
      { type: 'sourceChecked', unreadable: { reason: 'source_unreadable', message: 'ISSUES UNREADABLE: x' } },
      config(),
    );
    expect(find(garbled.effects, 'done')?.status).toBe('halted');
    expect(garbled.model.loop.halt?.reason).toBe('source_unreadable');

    const escalated = run(model(), config(), tick(), {
      type: 'issuesRead',
      ready: [{ id: 'a-1', title: 't', labels: ['agent-loop:escalated'] }],
    });
    expect(kinds(escalated.effects)).toEqual(['recordHalt', 'save', 'sendNotice', 'done']);
    expect(find(escalated.effects, 'recordHalt')?.halt.message).toBe(
      'ALL ISSUES ESCALATED: only escalated issues remain (a-1)',
    );
  });
});

describe('the core: bounds', () => {
  const withCycle = (loop: Partial<LoopState>) => model({ currentCycle: cycle(), ...loop });

  it('halts at the run’s iteration cap and at the budget, before any agent run', () => {
    const cap = run(withCycle({ iteration: 10 }), config(), tick());
    expect(find(cap.effects, 'recordHalt')?.halt).toEqual({
      reason: 'max_iterations',
      message: 'Max iterations (10) reached',
    });
    const budget = run(withCycle({ costUsd: 5 }), config({ maxCostUsd: 5 }), tick());
    expect(find(budget.effects, 'recordHalt')?.halt.reason).toBe('budget');
    expect(find(budget.effects, 'save')?.status).toBe('halted');
  });

  it('a wave job’s share used up is the job’s end, not the run’s halt; other halts, and a serial run’s, are the run’s', () => {
    const job = config({}, { waveJob: true });
    const share = run(withCycle({ iteration: 10 }), job, tick());
    expect(find(share.effects, 'recordHalt')).toMatchObject({ halt: { reason: 'max_iterations' }, jobLocal: true });
    const m = withCycle({});
    const moved = step(m, finished({ state: m.loop, halt: { reason: 'repository_moved', message: 'moved' } }), job);
    expect(find(moved.effects, 'recordHalt')?.halt.reason).toBe('repository_moved');
    expect(find(moved.effects, 'recordHalt')?.jobLocal).toBeUndefined();
    const serial = run(withCycle({ iteration: 10 }), config(), tick());
    expect(find(serial.effects, 'recordHalt')?.jobLocal).toBeUndefined();
  });

  it('ends the slice (continuing) at its iteration bound and at its deadline', () => {
    const m = withCycle({ iteration: 3 });
    const byCount = run({ ...m, sliceStartIteration: 1 }, config({ sliceIterations: 2 }), tick());
    expect(kinds(byCount.effects)).toEqual(['log:slice.end', 'save', 'done']);
    expect(find(byCount.effects, 'done')?.status).toBe('continuing');
    const byTime = run(m, config({ sliceMinutes: 1 }, { deadline: T0 + 60_000 }), tick(T0 + 60_000));
    expect(find(byTime.effects, 'log')?.message).toBe(
      'Slice time bound reached (1 min): checkpoint cp-1 continues next run.',
    );
  });

  it('a run asked to stop ends continuing and interrupted', () => {
    const s = step(withCycle({}), { type: 'tick', now: T0, aborted: true }, config());
    expect(find(s.effects, 'done')).toEqual({ kind: 'done', status: 'continuing', interrupted: true });
  });

  it('pushes the cycle in flight at a slice’s end where work is published', () => {
    const s = run(
      { ...withCycle({ iteration: 2 }), sliceStartIteration: 0 },
      config({ sliceIterations: 2 }, { publishes: true }),
      tick(),
    );
    expect(find(s.effects, 'keepOpenCycle')).toEqual({
      kind: 'keepOpenCycle',
      branch: 'agent-loop/a-1',
      message: 'wip: a-1 (slice ended at iteration 2)',
    });
    const local = run(
      { ...withCycle({ iteration: 2 }), sliceStartIteration: 0 },
      config({ sliceIterations: 2 }),
      tick(),
    );
    expect(find(local.effects, 'keepOpenCycle')).toBeUndefined();
  });

  it('pushes the cycle in flight when a bound halts the run (a wave job’s share used up), not on other halts', () => {
    const published = config({ maxIterations: 2 }, { publishes: true });
    const s = run(withCycle({ iteration: 2 }), published, tick());
    expect(find(s.effects, 'recordHalt')?.halt.reason).toBe('max_iterations');
    expect(find(s.effects, 'keepOpenCycle')).toEqual({
      kind: 'keepOpenCycle',
      branch: 'agent-loop/a-1',
      message: 'wip: a-1 (max_iterations reached at iteration 2)',
    });
    const budget = run(withCycle({ costUsd: 5 }), config({ maxCostUsd: 5 }, { publishes: true }), tick());
    expect(find(budget.effects, 'keepOpenCycle')?.message).toMatch(/^wip: a-1 \(budget reached/);
  });
});

describe('the core: one cycle', () => {
  it('records the cycle before its first agent run, then the baseline, then the iteration', () => {
    const opened = step(model(), { type: 'cycleOpened', cycle: cycle(['a-1'], { iterations: 0 }) }, config());
    expect(kinds(opened.effects)).toEqual(['save', 'log:cycle.start', 'runBaseline']);
    expect(find(opened.effects, 'save')?.loop.currentCycle?.issueIds).toEqual(['a-1']);
    const b = step(opened.model, { type: 'baselineRan', baseline: { key: 'k', source: 'none' } }, config());
    // The new baseline key is saved before the agent runs.
    expect(kinds(b.effects)).toEqual(['save', 'readCycleIssues']);
    const again = step(b.model, { type: 'baselineRan', baseline: { key: 'k', source: 'none' } }, config());
    expect(kinds(again.effects)).toEqual(['readCycleIssues']);
  });

  it('a resumed cycle checks out its branch once per slice', () => {
    const m = model({ currentCycle: cycle() });
    const first = step(m, tick(), config());
    expect(kinds(first.effects)).toEqual(['enterCycleBranch', 'runBaseline']);
    expect(kinds(step(first.model, tick(), config()).effects)).toEqual(['runBaseline']);
  });

  it('a baseline that halts ends the slice; one interrupted keeps the state as it was', () => {
    const m = model({ currentCycle: cycle() });
    const halted = step(m, { type: 'baselineRan', baseline: unreadable }, config());
    expect(find(halted.effects, 'done')?.status).toBe('halted');
    const stopped = step(m, { type: 'baselineRan', interrupted: true }, config());
    expect(stopped.model.loop.iteration).toBe(0);
    expect(find(stopped.effects, 'done')?.interrupted).toBe(true);
  });

  it('a finished cycle: the lane is checked, the source too, then it is merged and the next issue read', () => {
    const c = cycle();
    const m = model({ currentCycle: c }, { cycle: c });
    const after = { ...m.loop, iteration: 1, issuesClosed: ['a-1'] };
    const s1 = step(m, finished({ state: after, cycleDone: true }), config());
    expect(kinds(s1.effects)).toEqual(['verifyLane', 'checkSource']);
    expect(find(s1.effects, 'verifyLane')?.what).toBe('go on after iteration 1');
    const s2 = step(s1.model, { type: 'sourceChecked' }, config());
    // Record before act: the iteration and the finished cycle, in the outbox, are saved before the merge.
    expect(kinds(s2.effects)).toEqual(['save', 'finishCycle']);
    expect(find(s2.effects, 'finishCycle')).toEqual({ kind: 'finishCycle', cycle: c, noChange: false });
    const saved = find(s2.effects, 'save')?.loop;
    expect(saved?.iteration).toBe(1);
    expect(saved?.currentCycle).toBeUndefined();
    expect(saved?.outbox).toEqual([
      { kind: 'finishCycle', cycle: c, noChange: false, iteration: 1, recordedAt: expect.any(String), attempts: 0 },
    ]);
    const pr = { issueIds: ['a-1'], number: 7, url: 'u', reused: false, iteration: 1 };
    const s3 = step(s2.model, { type: 'cycleFinished', published: pr }, config());
    expect(kinds(s3.effects)).toEqual(['save', 'next']);
    expect(s3.model.loop.currentCycle).toBeUndefined();
    expect(s3.model.loop.pullRequests).toEqual([pr]);
    expect(find(s3.effects, 'save')?.loop.outbox).toEqual([]);
  });

  it('issue 14: the issues a finished cycle closes or labels go into the outbox with its work, and are performed by its landing before the commit', () => {
    const c = cycle();
    const m = model({ currentCycle: c }, { cycle: c });
    const actions = [
      { kind: 'close' as const, id: 'a-1', note: 'agent-loop: accepted at iteration 1' },
      { kind: 'markNoChange' as const, id: 'a-2', note: 'no change was needed', close: false },
    ];
    const s = step(m, finished({ state: m.loop, cycleDone: true, issueActions: actions }), config());
    // Nothing is done to the issues before the iteration is saved (a kill there ran the agent again).
    expect(kinds(s.effects)).toEqual(['verifyLane', 'checkSource']);
    const landing = step(s.model, { type: 'sourceChecked' }, config());
    expect(kinds(landing.effects)).toEqual(['save', 'finishCycle']);
    expect(find(landing.effects, 'save')?.loop.outbox[0]?.issueActions).toEqual(actions);
    expect(find(landing.effects, 'finishCycle')?.issueActions).toEqual(actions);
    // Where work is published the commit comes first: the actions go with it, and are done once it is recorded.
    const published = step(s.model, { type: 'sourceChecked' }, config({}, { publishes: true }));
    expect(find(published.effects, 'commitCycle')?.issueActions).toEqual(actions);
    const committed = step(published.model, { type: 'cycleCommitted', tip: 'abc', committed: true }, config());
    expect(find(committed.effects, 'save')?.loop.outbox[0]?.issueActions).toBeUndefined();
    expect(find(committed.effects, 'finishCycle')?.issueActions).toBeUndefined();
    // A later run lands an entry whose actions are still to do: they go with the landing.
    const resumed = run(model({ outbox: [find(landing.effects, 'save')!.loop.outbox[0]!] }), config(), {
      type: 'started',
      now: T0,
    });
    expect(find(resumed.effects, 'finishCycle')).toMatchObject({ resumed: true, issueActions: actions });
    // An iteration's halt that carries actions (no cycle to land) still does them at once.
    const halted = step(
      m,
      finished({ state: m.loop, issueActions: actions, halt: { reason: 'stuck', message: 'stuck' } }),
      config(),
    );
    expect(find(halted.effects, 'updateIssues')?.actions).toEqual(actions);
  });

  it('issue 42: a cycle held for a person lands as held (never merged), its issues not closed, not picked again', () => {
    const c = cycle(['a-1']);
    const m = model({ currentCycle: c }, { cycle: c });
    const held = { reason: 'tests-changed' as const, why: 'it changed tests/test_a.py', paths: ['tests/test_a.py'] };
    const mark = { kind: 'markHeld' as const, id: 'a-1', note: 'held', label: 'agent-loop:tests-changed' };
    const after = { ...m.loop, iteration: 1, issuesHeld: [{ id: 'a-1', reason: 'tests-changed' as const }] };
    const s = run(m, config(), finished({ state: after, cycleDone: true, held, issueActions: [mark] }), {
      type: 'sourceChecked',
    });
    expect(find(s.effects, 'finishCycle')).toEqual({
      kind: 'finishCycle',
      cycle: c,
      noChange: false,
      issueActions: [mark],
      held,
    });
    expect(find(s.effects, 'save')?.loop.outbox[0]).toMatchObject({ held, issueActions: [mark] });
    // Where work is published: committed first (the issue marked before), then landed as held (a draft pull request).
    const published = run(m, config({}, {}), finished({ state: after, cycleDone: true, held, issueActions: [mark] }));
    const commit = step(published.model, { type: 'sourceChecked' }, config({}, { publishes: true }));
    expect(find(commit.effects, 'commitCycle')?.issueActions).toEqual([mark]);
    const landing = step(commit.model, { type: 'cycleCommitted', tip: 'abc', committed: true }, config());
    expect(find(landing.effects, 'finishCycle')).toMatchObject({ held, tip: 'abc' });
    const pr = { issueIds: ['a-1'], number: 7, url: 'u', reused: false, iteration: 1 };
    const landed = step(landing.model, { type: 'cycleFinished', published: pr }, config());
    expect(landed.model.loop.issuesClosed).toEqual([]);
    expect(landed.model.loop.pullRequests).toEqual([pr]);
    expect(landed.model.loop.issuesHeld).toEqual([{ id: 'a-1', reason: 'tests-changed' }]);
    // Not picked again by this loop; not an escalation either (no all_escalated halt when only it is left).
    expect(selectTargets(ready('a-1', 'a-2'), landed.model.loop, false, 0).targets.map((i) => i.id)).toEqual(['a-2']);
    const next = step(landed.model, { type: 'issuesRead', ready: ready('a-1') }, config());
    expect(kinds(next.effects)).toEqual(['checkSource']);
  });

  it('a cycle that needed no change is dropped, not merged', () => {
    const c = cycle();
    const m = model({ currentCycle: c }, { cycle: c });
    const s = run(m, config(), finished({ state: m.loop, cycleDone: true, noChange: true }), { type: 'sourceChecked' });
    expect(find(s.effects, 'finishCycle')).toEqual({ kind: 'finishCycle', cycle: c, noChange: true });
  });

  it('where beads issues are closed on the published branch, a cycle that needed no change lands like any other', () => {
    // Its issue's close changed the repository's issues file: a change to commit and land, not a branch to drop.
    const c = cycle();
    const m = model({ currentCycle: c }, { cycle: c });
    const s = run(m, config({ closeOnBranch: true }), finished({ state: m.loop, cycleDone: true, noChange: true }), {
      type: 'sourceChecked',
    });
    expect(find(s.effects, 'finishCycle')).toEqual({ kind: 'finishCycle', cycle: c, noChange: false });
    expect(s.model.loop.outbox?.at(-1)?.noChange).toBe(false);
  });

  it('a contract violation goes to errors.jsonl; an iteration’s halt ends the slice', () => {
    const m = model({ currentCycle: cycle() });
    const s = step(
      m,
      finished({ state: m.loop, violation: { x: 1 }, halt: { reason: 'repository_moved', message: 'moved' } }),
      config(),
    );
    expect(kinds(s.effects)).toEqual(['appendError', 'recordHalt', 'save', 'sendNotice', 'done']);
    expect(s.model.errors).toEqual(['moved']);
  });
});

describe('the core: escalation and failure loops', () => {
  const escalating = (consecutive: number, cfg: CoreConfig, bounceLoop = false) => {
    const m = model({ currentCycle: cycle(), iteration: 4, consecutiveEscalations: consecutive });
    return step(m, finished({ state: m.loop, escalate: { reason: 'tests kept failing', bounceLoop } }), cfg);
  };

  it('an escalation below the limit shelves the cycle’s work, labels the issue and goes on', () => {
    const s = escalating(0, config());
    expect(kinds(s.effects)).toEqual([
      'verifyLane',
      'log:cycle.escalated',
      'save',
      'shelveCycle',
      'sendNotice',
      'save',
      'next',
    ]);
    expect(find(s.effects, 'sendNotice')?.notice.what).toMatchObject({ kind: 'markEscalated', issueIds: ['a-1'] });
    expect((find(s.effects, 'sendNotice')?.notice.what as { note: string }).note).toBe(
      'agent-loop escalated this issue at iteration 4 (2026-11-25T10:00:00Z): tests kept failing. Remove the agent-loop:escalated label to let agent-loop try it again.',
    );
    expect(s.model.loop).toMatchObject({ consecutiveEscalations: 1, totalEscalations: 1, issuesEscalated: ['a-1'] });
    expect(s.model.loop.currentCycle).toBeUndefined();
  });

  it('reaching the limit halts as a failure loop; locally the branch is left for inspection (parked)', () => {
    const s = escalating(1, config());
    expect(kinds(s.effects)).toEqual([
      'verifyLane',
      'log:cycle.escalated',
      'recordHalt',
      'save',
      'sendNotice',
      'sendNotice',
      'done',
    ]);
    // One save records the escalation, its notice, the halt and its Discord post, before any is sent.
    const saved = find(s.effects, 'save')!;
    expect(saved.status).toBe('halted');
    expect(saved.loop.halt?.reason).toBe('failure_loop');
    expect(saved.loop.notices.map((n) => n.what.kind)).toEqual(['markEscalated', 'notify']);
    expect(find(s.effects, 'recordHalt')?.halt.message).toBe(
      'FAILURE LOOP DETECTED: 2 consecutive escalations (issues a-1); last: tests kept failing',
    );
    expect(s.model.loop.parkedBranch).toBe('agent-loop/a-1');
  });

  it('where work is published a halting escalation still shelves (pushes) the branch', () => {
    const s = escalating(1, config({}, { publishes: true }));
    expect(find(s.effects, 'shelveCycle')?.halting).toBe(true);
    // The wip: push comes after the halt's save: a run killed during it does not work the cycle again.
    expect(kinds(s.effects).slice(-5)).toEqual(['save', 'shelveCycle', 'sendNotice', 'sendNotice', 'done']);
    expect(s.model.loop.parkedBranch).toBeUndefined();
  });

  it('a cycle that kept stepping back halts as a bounce loop at once', () => {
    const s = escalating(0, config(), true);
    expect(find(s.effects, 'recordHalt')?.halt.reason).toBe('bounce_loop');
  });
});

describe('the core: rate limits', () => {
  it('waits within the slice, saving before and after', () => {
    const m = model({ currentCycle: cycle() });
    const s = step(m, finished({ state: m.loop, waitMs: 30_000 }), config());
    expect(kinds(s.effects)).toEqual(['verifyLane', 'log:rate.limited', 'save', 'sleep']);
    const woke = step(s.model, { type: 'woke', now: T0 + 30_000 }, config());
    expect(kinds(woke.effects)).toEqual(['save', 'next']);
  });

  it('a window past the slice’s end is recorded (rounded up to the second) and the slice ends', () => {
    const m = model({ currentCycle: cycle() });
    const s = step(m, finished({ state: m.loop, waitMs: 90_500 }), config({}, { deadline: T0 + 60_000 }));
    expect(s.model.loop.rateLimitedUntil).toBe('2026-11-25T10:01:31Z');
    expect(find(s.effects, 'done')?.status).toBe('continuing');
  });

  it('the next slice waits out a carried window, or ends at once when it outlasts the slice', () => {
    const m = model({ rateLimitedUntil: '2026-11-25T10:00:30Z' });
    const wait = step(m, { type: 'started', now: T0 }, config());
    expect(find(wait.effects, 'sleep')?.ms).toBe(30_000);
    const woke = step(wait.model, { type: 'woke', now: T0 + 30_000 }, config());
    expect(woke.effects).toEqual([{ kind: 'next' }]);
    expect(woke.model.loop.rateLimitedUntil).toBeUndefined();
    const over = step(m, { type: 'started', now: T0 }, config({}, { deadline: T0 + 10_000 }));
    expect(kinds(over.effects)).toEqual(['log:rate.limited', 'save', 'done']);
  });
});

describe('the core: refusals and crashes', () => {
  it('git refusing halts with the reason; an unexplained crash is re-thrown', () => {
    const moved = step(model(), { type: 'refused', reason: 'repository_moved', message: 'HEAD moved' }, config());
    expect(find(moved.effects, 'recordHalt')?.halt.message).toBe('REPOSITORY MOVED: HEAD moved');
    const secret = step(model(), { type: 'refused', reason: 'secret_in_change', message: 'a token' }, config());
    expect(find(secret.effects, 'recordHalt')?.halt.message).toBe('SECRET IN CHANGE: a token; nothing was committed');
    expect(step(model(), { type: 'crashed' }, config()).effects).toEqual([{ kind: 'rethrow' }]);
  });
});

describe('the core: the outbox (finished work still to land)', () => {
  const entry = (over: Partial<OutboxEntry> = {}): OutboxEntry => ({
    kind: 'finishCycle',
    cycle: cycle(),
    noChange: false,
    iteration: 3,
    recordedAt: '2026-11-25T09:00:00Z',
    attempts: 0,
    ...over,
  });
  const started: Event = { type: 'started', now: T0 };

  it('a slice that opens with recorded work lands it first: no issue is read and no agent runs before', () => {
    const e = entry();
    const s = run(model({ outbox: [e] }), config({}, { publishes: true }), started);
    expect(kinds(s.effects)).toEqual(['log:cycle.landing', 'finishCycle']);
    expect(find(s.effects, 'finishCycle')).toEqual({
      kind: 'finishCycle',
      cycle: e.cycle,
      noChange: false,
      resumed: true,
    });
    const landed = step(s.model, { type: 'cycleFinished' }, config({}, { publishes: true }));
    expect(kinds(landed.effects)).toEqual(['save', 'next']);
    expect(find(landed.effects, 'save')?.loop.outbox).toEqual([]);
  });

  it('issue 40: a landing refused before any agent ran halts publish_refused as the slice starts, after the earlier notices and before the recorded work or an issue read; the work stays recorded', () => {
    const e = entry();
    const notice: Notice = {
      id: 'n-1',
      what: { kind: 'markEscalated', issueIds: ['a-9'], note: 'n' },
      recordedAt: '2026-11-25T09:00:00Z',
      attempts: 0,
    };
    const refused = { message: 'GitHub does not let GitHub Actions open pull requests', advice: 'Allow it.' };
    const cfg = config({ refusedBeforehand: refused }, { publishes: true });
    const s = run(model({ outbox: [e], notices: [notice] }), cfg, started);
    expect(kinds(s.effects)).toEqual(['sendNotice', 'recordHalt', 'save', 'sendNotice', 'done']);
    expect(find(s.effects, 'recordHalt')?.halt).toEqual({
      reason: 'publish_refused',
      message: 'PUBLISH REFUSED: GitHub does not let GitHub Actions open pull requests',
      advice: 'Allow it.',
    });
    expect(find(s.effects, 'save')).toMatchObject({ status: 'halted', loop: { outbox: [e], iteration: 0 } });
    expect(find(s.effects, 'done')).toEqual({ kind: 'done', status: 'halted', interrupted: false });
  });

  it('where work is published, the finished work is committed and its commit recorded before anything is pushed; a later landing carries it', () => {
    const c = cycle();
    const m = model({ currentCycle: c }, { cycle: c });
    const publishes = config({}, { publishes: true });
    const s1 = run(m, publishes, finished({ state: { ...m.loop, iteration: 1 }, cycleDone: true }), {
      type: 'sourceChecked',
    });
    expect(kinds(s1.effects)).toEqual(['save', 'commitCycle']);
    const tip = 'c'.repeat(40);
    const s2 = step(s1.model, { type: 'cycleCommitted', tip, committed: true }, publishes);
    expect(kinds(s2.effects)).toEqual(['save', 'finishCycle']);
    expect(find(s2.effects, 'save')?.loop.outbox).toMatchObject([{ tip, committed: true }]);
    expect(find(s2.effects, 'finishCycle')).toEqual({
      kind: 'finishCycle',
      cycle: c,
      noChange: false,
      tip,
      committed: true,
    });
    // Refused: the entry keeps its commit for the next run, which lands only a branch holding it.
    const refused = step(s2.model, { type: 'cycleFinished', failed: { class: 'refused', message: 'm' } }, publishes);
    const kept = find(refused.effects, 'save')?.loop.outbox[0];
    expect(kept).toMatchObject({ tip, attempts: 1 });
    const next = run(model({ outbox: [kept!] }), publishes, started);
    expect(find(next.effects, 'finishCycle')).toEqual({
      kind: 'finishCycle',
      cycle: c,
      noChange: false,
      resumed: true,
      tip,
      committed: true,
    });
  });

  it('issue 14: where work is published, its issues count as closed only once it has landed; a refused landing reports none closed, the later landing closes them', () => {
    const c = cycle();
    const m = model({ currentCycle: c }, { cycle: c });
    const publishes = config({}, { publishes: true });
    // The workflow closed the issue in the source and counted it.
    const done = { ...m.loop, iteration: 1, issuesClosed: [...c.issueIds] };
    const s1 = run(
      m,
      publishes,
      finished({ state: done, cycleDone: true }),
      { type: 'sourceChecked' },
      {
        type: 'cycleCommitted',
        tip: 'c'.repeat(40),
        committed: true,
      },
    );
    expect(find(s1.effects, 'save')?.loop).toMatchObject({ issuesClosed: [], outbox: [{ closes: c.issueIds }] });
    const refused = step(s1.model, { type: 'cycleFinished', failed: { class: 'refused', message: 'm' } }, publishes);
    const halted = find(refused.effects, 'save')?.loop;
    expect(halted?.issuesClosed).toEqual([]);
    const landed = run(model({ outbox: halted!.outbox, issuesClosed: [] }), publishes, started, {
      type: 'cycleFinished',
    });
    expect(find(landed.effects, 'save')?.loop).toMatchObject({ issuesClosed: c.issueIds, outbox: [] });
    // Where nothing is published (a local merge), the issues count as closed at once, as before.
    const local = run(m, config(), finished({ state: done, cycleDone: true }), { type: 'sourceChecked' });
    expect(find(local.effects, 'save')?.loop.issuesClosed).toEqual(c.issueIds);
  });

  it('recorded work whose next attempt is not due yet ends the slice at once, continuing', () => {
    const s = run(
      model({ outbox: [entry({ attempts: 2, notBefore: '2026-11-25T10:05:00Z', lastError: '502' })] }),
      config(),
      started,
    );
    expect(kinds(s.effects)).toEqual(['log:cycle.landing_later', 'save', 'done']);
    expect(find(s.effects, 'done')?.status).toBe('continuing');
  });

  it('a refusal halts publish_refused with the advice; the work stays in the outbox, counted', () => {
    const s = run(model({ outbox: [entry()] }), config(), started, {
      type: 'cycleFinished',
      failed: { class: 'refused', message: 'no pull requests from Actions', advice: 'tick the box' },
    });
    expect(find(s.effects, 'recordHalt')?.halt).toEqual({
      reason: 'publish_refused',
      message: 'PUBLISH REFUSED: no pull requests from Actions',
      advice: 'tick the box',
    });
    expect(find(s.effects, 'save')?.loop.outbox).toMatchObject([
      { attempts: 1, lastError: 'no pull requests from Actions' },
    ]);
    expect(find(s.effects, 'done')?.status).toBe('halted');
  });

  it('a refusal of git while landing this slice’s cycle (a secret in its commit) puts the cycle back in flight: nothing of it was committed', () => {
    const c = cycle();
    const m = model({ currentCycle: c }, { cycle: c });
    const s = run(
      m,
      config({}, { publishes: true }),
      finished({ state: { ...m.loop, iteration: 1 }, cycleDone: true }),
      { type: 'sourceChecked' },
      {
        type: 'refused',
        reason: 'secret_in_change',
        message: 'a.txt',
      },
    );
    expect(find(s.effects, 'recordHalt')?.halt.reason).toBe('secret_in_change');
    const saved = find(s.effects, 'save')?.loop;
    expect(saved?.outbox).toEqual([]);
    expect(saved?.currentCycle).toEqual(c);
    // A landing resumed from an earlier run keeps its entry.
    const resumed = run(
      model({ outbox: [entry()] }),
      config(),
      { type: 'started', now: T0 },
      {
        type: 'refused',
        reason: 'repository_moved',
        message: 'm',
      },
    );
    expect(find(resumed.effects, 'save')?.loop.outbox).toHaveLength(1);
  });

  it('a transient failure backs off by the landing policy: 1 minute, then 2, 4 …', () => {
    const fail: Event = { type: 'cycleFinished', failed: { class: 'transient', message: '502' } };
    const first = run(model({ outbox: [entry()] }), config(), started, fail);
    expect(find(first.effects, 'save')?.loop.outbox).toMatchObject([
      { attempts: 1, notBefore: '2026-11-25T10:01:00Z' },
    ]);
    const third = run(model({ outbox: [entry({ attempts: 2 })] }), config(), started, fail);
    expect(find(third.effects, 'save')?.loop.outbox).toMatchObject([
      { attempts: 3, notBefore: '2026-11-25T10:04:00Z' },
    ]);
    expect(find(third.effects, 'done')?.status).toBe('continuing');
  });

  it('the 30th transient failure in a row halts publish_refused, saying what kept failing; the entry stays, its row started over', () => {
    const fail: Event = { type: 'cycleFinished', failed: { class: 'transient', message: 'HTTP 502 Bad Gateway' } };
    const before = run(model({ outbox: [entry({ attempts: 28, transientFailures: 28 })] }), config(), started, fail);
    expect(find(before.effects, 'done')?.status).toBe('continuing');
    expect(find(before.effects, 'save')?.loop.outbox).toMatchObject([
      { attempts: 29, transientFailures: 29, notBefore: '2026-11-25T11:00:00Z' },
    ]);
    const last = run(
      model({ outbox: [entry({ attempts: 29, transientFailures: 29, notBefore: '2026-11-25T09:00:00Z' })] }),
      config(),
      started,
      fail,
    );
    const halt = find(last.effects, 'recordHalt')?.halt;
    expect(halt?.reason).toBe('publish_refused');
    expect(halt?.message).toMatch(/^PUBLISH FAILING: .* failed 30 times in a row, .*the last: HTTP 502 Bad Gateway$/);
    expect(halt?.advice).toMatch(/^Check the remote's status .*Resumed, the landing is tried again/);
    // How to resume is the diagnostic's, from the halt's ways, in the CLI's words (the default).
    const diagnostic = find(last.effects, 'recordHalt')?.diagnostic;
    expect(diagnostic?.resume).toEqual(['explicit', 'fresh']);
    expect(diagnostic?.advice).toContain(
      "Later runs stay halted until it is resumed: once the cause is fixed, run agent-loop run --resume-halted with the halted run's other options; or start over with --fresh",
    );
    expect(find(last.effects, 'done')?.status).toBe('halted');
    const [kept] = find(last.effects, 'save')?.loop.outbox ?? [];
    expect(kept).toMatchObject({ attempts: 30, lastError: 'HTTP 502 Bad Gateway' });
    expect(kept?.transientFailures).toBeUndefined();
    expect(kept?.notBefore).toBeUndefined();
  });

  it('a refusal starts the row of transient failures over: fixed and resumed, one 502 is not the 30th in a row', () => {
    const refused = run(model({ outbox: [entry({ attempts: 29, transientFailures: 29 })] }), config(), started, {
      type: 'cycleFinished',
      failed: { class: 'refused', message: 'Resource not accessible by integration', advice: 'contents: write' },
    });
    const [kept] = find(refused.effects, 'save')?.loop.outbox ?? [];
    expect(kept).toMatchObject({ attempts: 30 });
    expect(kept?.transientFailures).toBeUndefined();
    const fail: Event = { type: 'cycleFinished', failed: { class: 'transient', message: 'HTTP 502 Bad Gateway' } };
    const resumed = run(model({ outbox: [kept!] }), config(), started, fail);
    expect(find(resumed.effects, 'done')?.status).toBe('continuing');
    expect(find(resumed.effects, 'save')?.loop.outbox).toMatchObject([{ attempts: 31, transientFailures: 1 }]);
  });
});

describe('the core: notices (issue 14: the escalation label and comment, the Discord post)', () => {
  const started: Event = { type: 'started', now: T0 };
  const escalated = () => {
    const m = model({ currentCycle: cycle(), iteration: 4 });
    return step(m, finished({ state: m.loop, escalate: { reason: 'stuck', bounceLoop: false } }), config());
  };

  it('an escalation is recorded in the outbox and saved before it is sent; done, it leaves at the next save', () => {
    const s = escalated();
    const sent = find(s.effects, 'sendNotice')!.notice;
    // Saved before the wip: push and the label: a run killed in either never works the cycle again.
    expect(kinds(s.effects).slice(2, 5)).toEqual(['save', 'shelveCycle', 'sendNotice']);
    expect(find(s.effects, 'save')?.loop).toMatchObject({ notices: [sent], currentCycle: undefined });
    const done = step(s.model, { type: 'noticesSent', results: [{ id: sent.id, done: true }] }, config());
    expect(kinds(done.effects)).toEqual(['save']);
    expect(find(done.effects, 'save')?.loop.notices).toEqual([]);
  });

  it('a notice not done stays, counted, and the next slice sends it first, before anything else', () => {
    const s = escalated();
    const sent = find(s.effects, 'sendNotice')!.notice;
    const kept = step(
      s.model,
      { type: 'noticesSent', results: [{ id: sent.id, done: false, error: '502' }] },
      config(),
    );
    const loop = find(kept.effects, 'save')!.loop;
    expect(loop.notices).toEqual([{ ...sent, attempts: 1, lastError: '502' }]);
    const next = run(model({ notices: loop.notices }), config(), started);
    expect(kinds(next.effects)).toEqual(['sendNotice', 'next']);
    // Sent once per slice: a landing that ends and starts over does not send it again.
    expect(next.model.noticesResent).toBe(true);
    expect(kinds(step(next.model, started, config()).effects)).toEqual(['next']);
  });

  it('a halt records its Discord post with the halt, then sends it; the save after keeps the halted status', () => {
    const s = run(model(), config(), tick(), {
      type: 'issuesRead',
      ready: [{ id: 'a-1', title: 't', labels: ['agent-loop:escalated'] }],
    });
    const save = find(s.effects, 'save')!;
    expect(save.status).toBe('halted');
    expect(save.loop.halt?.reason).toBe('all_escalated');
    const post = find(s.effects, 'sendNotice')!.notice;
    expect(post.what).toMatchObject({ kind: 'notify', diagnostic: { reason: 'all_escalated' } });
    expect(save.loop.notices).toEqual([post]);
    const done = step(s.model, { type: 'noticesSent', results: [{ id: post.id, done: true }] }, config());
    expect(find(done.effects, 'save')).toMatchObject({ status: 'halted', loop: { notices: [] } });
  });
});

describe('the core: claims and leases (issue 14)', () => {
  const LEASE = 65 * 60_000;
  const leased = (over: Partial<CoreConfig['settings']> = {}, rest: Partial<CoreConfig> = {}) =>
    config(over, { publishes: true, leaseMs: LEASE, ...rest });
  const claimedBy = { run: 'github-9-1', expires: '2026-11-25T10:30:00Z' };

  it('a claim this loop’s own checkpoint holds (a run of it killed after claiming) is taken on in place, not skipped; the checkpoint is saved before any claim', () => {
    const own = { run: 'github-8-1', expires: '2026-11-25T10:30:00Z', checkpoint: 'cp-1' };
    const s = run(model(), leased(), tick(), { type: 'issuesRead', ready: [{ ...ready('a-1')[0]!, claimedBy: own }] });
    expect(kinds(s.effects)).toEqual(['save', 'claimIssues']);
    expect(find(s.effects, 'claimIssues')).toMatchObject({ issueIds: ['a-1'], resuming: true });
    const other = { ...own, checkpoint: 'cp-2' };
    const skipped = run(model(), leased(), tick(), {
      type: 'issuesRead',
      ready: [{ ...ready('a-1')[0]!, claimedBy: other }],
    });
    expect(kinds(skipped.effects)).toEqual(['log:claim.skipped', 'checkSource']);
  });

  it('claims a new cycle’s issues before it opens, leased until now + the lease; won, the cycle opens', () => {
    const s = run(model(), leased(), tick(), { type: 'issuesRead', ready: ready('a-1') });
    expect(kinds(s.effects)).toEqual(['save', 'claimIssues']);
    expect(find(s.effects, 'claimIssues')).toEqual({
      kind: 'claimIssues',
      issueIds: ['a-1'],
      expires: '2026-11-25T11:05:00Z',
      resuming: false,
      progress: { state: 'working', iterations: 0 },
    });
    const won = step(s.model, { type: 'claimed', adopted: [] }, leased());
    expect(kinds(won.effects)).toEqual(['openCycle']);
    expect(won.model.claimHeld).toBe(true);
  });

  it('without leases (a source with no claims: beads) nothing is claimed, renewed or released', () => {
    const s = run(model(), config(), tick(), { type: 'issuesRead', ready: ready('a-1') });
    expect(kinds(s.effects)).toEqual(['openCycle']);
    const m = model({ currentCycle: cycle() });
    expect(kinds(run(m, config(), tick()).effects)).toEqual(['enterCycleBranch', 'runBaseline']);
  });

  it('an issue another run’s live claim holds is skipped, logged once per slice, and counted; the next free one is worked', () => {
    const listed = [{ ...ready('a-1')[0]!, claimedBy }, ...ready('a-2')];
    const s = run(model(), leased(), tick(), { type: 'issuesRead', ready: listed });
    expect(kinds(s.effects)).toEqual(['log:claim.skipped', 'save', 'claimIssues']);
    expect(find(s.effects, 'log')?.message).toBe(
      'Skipped a-1: run github-9-1 is working on it (its lease runs until 2026-11-25T10:30:00Z); it is left to that run.',
    );
    expect(find(s.effects, 'claimIssues')?.issueIds).toEqual(['a-2']);
    expect(s.model.claimedElsewhere).toEqual(['a-1']);
    const again = step(
      { ...s.model, claimHeld: false, claiming: undefined },
      { type: 'issuesRead', ready: listed },
      leased(),
    );
    expect(kinds(again.effects)).toEqual(['save', 'claimIssues']); // not logged twice
  });

  it('only claimed issues left: the run completes saying so, and halts as all escalated only when none is claimed', () => {
    const listed = [
      { ...ready('a-1')[0]!, claimedBy },
      { id: 'a-2', title: 't', labels: ['agent-loop:escalated'] },
    ];
    const s = run(model(), leased(), tick(), { type: 'issuesRead', ready: listed });
    expect(kinds(s.effects)).toEqual(['log:claim.skipped', 'checkSource']);
    const done = step(s.model, { type: 'sourceChecked' }, leased());
    expect(find(done.effects, 'done')?.status).toBe('complete');
    expect(find(done.effects, 'log')?.message).toBe(
      'No ready issue left for this run: 1 being worked by other runs (0 closed by the loop so far).',
    );
  });

  it('a claim lost to an older one leaves the issue to that run and reads the issues again, skipping it', () => {
    const s = run(model(), leased(), tick(), { type: 'issuesRead', ready: ready('a-1', 'a-2') });
    const lost = step(s.model, { type: 'claimed', lost: { id: 'a-1', ...claimedBy }, adopted: [] }, leased());
    expect(kinds(lost.effects)).toEqual(['log:claim.lost', 'next']);
    expect(lost.model.next).toBeUndefined();
    const reread = run(lost.model, leased(), tick(), { type: 'issuesRead', ready: ready('a-1', 'a-2') });
    expect(find(reread.effects, 'claimIssues')?.issueIds).toEqual(['a-2']);
  });

  it('taking over an expired claim (its run died) is logged: the dead run’s branch and pull request are continued', () => {
    const s = run(model(), leased(), tick(), { type: 'issuesRead', ready: ready('a-1') });
    const took = step(s.model, { type: 'claimed', adopted: ['github-8-1'] }, leased());
    expect(kinds(took.effects)).toEqual(['log:claim.adopted', 'openCycle']);
    expect(find(took.effects, 'log')?.message).toContain('Took over a-1 from run github-8-1');
  });

  it('a cycle in flight from an earlier slice is claimed again (resuming) before its branch is entered, then renewed once per iteration', () => {
    const m = model({ currentCycle: cycle(), iteration: 2 });
    const s = run(m, leased(), tick());
    expect(kinds(s.effects)).toEqual(['claimIssues']);
    expect(find(s.effects, 'claimIssues')?.resuming).toBe(true);
    const won = step(s.model, { type: 'claimed', adopted: [] }, leased());
    expect(kinds(won.effects)).toEqual(['enterCycleBranch', 'runBaseline']); // claimed just now: no renewal
    const later = { ...won.model, loop: { ...won.model.loop, iteration: 3 } };
    const next = step(later, tick(T0 + 600_000), leased());
    // The renewal is answered before the iteration goes on (the branch is entered already).
    expect(kinds(next.effects)).toEqual(['holdClaim']);
    expect(find(next.effects, 'holdClaim')).toEqual({
      kind: 'holdClaim',
      issueIds: ['a-1'],
      expires: '2026-11-25T11:15:00Z',
      progress: { state: 'working', iterations: 3 },
    });
    const held = step(next.model, { type: 'claimed', adopted: [] }, leased());
    expect(kinds(held.effects)).toEqual(['runBaseline']);
    expect(held.model.claimRenewedAt).toBe(3);
  });

  it('a renewal that finds the claim taken over (this loop’s lease ran out during a long iteration) drops the cycle before the agent runs again', () => {
    const m = model(
      { currentCycle: cycle(), iteration: 3 },
      { claimHeld: true, claimRenewedAt: 2, onCycleBranch: true },
    );
    const s = step(m, tick(T0 + 600_000), leased());
    expect(kinds(s.effects)).toEqual(['holdClaim']);
    const lost = step(s.model, { type: 'claimed', lost: { id: 'a-1', ...claimedBy }, adopted: [] }, leased());
    expect(kinds(lost.effects)).toEqual(['log:claim.lost', 'save', 'next']);
    expect(find(lost.effects, 'save')?.loop.currentCycle).toBeUndefined();
    expect(lost.model.claimedElsewhere).toEqual(['a-1']);
  });

  it('a resumed cycle whose claim another run took over after the lease expired is dropped from the checkpoint, its issue left', () => {
    const s = run(model({ currentCycle: cycle() }), leased(), tick());
    const lost = step(s.model, { type: 'claimed', lost: { id: 'a-1', ...claimedBy }, adopted: [] }, leased());
    expect(kinds(lost.effects)).toEqual(['log:claim.lost', 'save', 'next']);
    expect(lost.model.loop.currentCycle).toBeUndefined();
    expect(find(lost.effects, 'save')?.loop.currentCycle).toBeUndefined();
    expect(lost.model.claimedElsewhere).toEqual(['a-1']);
  });

  it('a rate-limit wait within the slice renews the claim first, until the wait’s end plus a lease', () => {
    const m = model({ currentCycle: cycle(), iteration: 4 }, { claimHeld: true, claimRenewedAt: 4 });
    const s = step(m, finished({ state: m.loop, waitMs: 2 * 3_600_000 }), leased());
    expect(kinds(s.effects)).toEqual(['verifyLane', 'log:rate.limited', 'save', 'renewClaim', 'sleep']);
    expect(find(s.effects, 'renewClaim')?.expires).toBe('2026-11-25T13:05:00Z');
  });

  it('the claim is released when the cycle lands or (with the escalation notice) is escalated; kept (until it expires) when the slice ends with the cycle in flight', () => {
    const m = model({ currentCycle: cycle(), iteration: 4 }, { claimHeld: true, claimRenewedAt: 4 });
    const escalated = step(m, finished({ state: m.loop, escalate: { reason: 'r', bounceLoop: false } }), leased());
    // The escalation's release is part of its notice (saved before it is sent), after the label: a run
    // killed before the release leaves it to the next run, which sends the notice again.
    expect(kinds(escalated.effects)).not.toContain('releaseClaim');
    expect(find(escalated.effects, 'sendNotice')?.notice.what).toMatchObject({
      kind: 'markEscalated',
      releaseClaims: true,
    });
    expect(escalated.model.loop.notices.map((n) => n.what)).toEqual([
      expect.objectContaining({ kind: 'markEscalated', releaseClaims: true }),
    ]);
    expect(escalated.model.claimHeld).toBe(false);
    const unleased = step(m, finished({ state: m.loop, escalate: { reason: 'r', bounceLoop: false } }), config());
    expect(find(unleased.effects, 'sendNotice')?.notice.what).not.toHaveProperty('releaseClaims');

    const entry: OutboxEntry = {
      kind: 'finishCycle',
      cycle: cycle(),
      noChange: false,
      iteration: 4,
      recordedAt: '',
      attempts: 0,
    };
    const landing = model({ outbox: [entry] }, { claimHeld: true, landing: { entry, resumed: false } });
    const landed = step(landing, { type: 'cycleFinished' }, leased());
    expect(find(landed.effects, 'releaseClaim')).toEqual({
      kind: 'releaseClaim',
      issueIds: ['a-1'],
      at: '2026-11-25T10:00:00Z',
      progress: { state: 'done', iterations: 4 },
    });
    const transient = step(landing, { type: 'cycleFinished', failed: { class: 'transient', message: 'm' } }, leased());
    expect(find(transient.effects, 'releaseClaim')).toBeUndefined();

    const ending = run(
      model({ currentCycle: cycle(), iteration: 3 }, { claimHeld: true }),
      leased({ sliceIterations: 1 }, {}),
      tick(),
    );
    expect(kinds(ending.effects)).not.toContain('releaseClaim');
  });

  describe('issue 15: the claim comment is the progress comment', () => {
    const spent = (n: number, costUsd?: number): LoopState['history'][number] => ({
      n,
      issueIds: ['a-1'],
      startedAt: '2026-11-25T09:00:00Z',
      durationMs: 1,
      outcome: 'continuing',
      agent: { ok: true, exitCode: 0, signal: null, durationMs: 1, ...(costUsd !== undefined ? { costUsd } : {}) },
    });
    // Iteration 1 was an earlier cycle's; this cycle started at iteration 2.
    const history = [spent(1, 5), spent(2, 0.25), spent(3), spent(4, 0.5)];
    const mine = cycle(['a-1'], { startedAtIteration: 2 });

    it("cycleProgress counts the cycle's own iterations and what the agent reported spending on them", () => {
      const loop = { ...initialLoopState(10), history };
      expect(cycleProgress(loop, mine, 4)).toEqual({ iterations: 3, costUsd: 0.75 });
      expect(cycleProgress(loop, mine, 3)).toEqual({ iterations: 2, costUsd: 0.25 });
      // Opened, no iteration yet; no spend reported: none told.
      expect(cycleProgress(loop, mine, 1)).toEqual({ iterations: 0 });
    });

    it('each renewal before an iteration tells the iterations and spend so far', () => {
      const m = model({ currentCycle: mine, iteration: 4, history }, { claimHeld: true, claimRenewedAt: 3 });
      const s = step(m, tick(T0 + 600_000), leased());
      expect(find(s.effects, 'holdClaim')?.progress).toEqual({ state: 'working', iterations: 3, costUsd: 0.75 });
      const waiting = step({ ...m, claimRenewedAt: 4 }, finished({ state: m.loop, waitMs: 60_000 }), leased());
      expect(find(waiting.effects, 'renewClaim')?.progress).toEqual({ state: 'working', iterations: 3, costUsd: 0.75 });
    });

    it('the release says how the cycle ended: its pull request (opened or updated), no change needed, lost', () => {
      const entry: OutboxEntry = {
        kind: 'finishCycle',
        cycle: mine,
        noChange: false,
        iteration: 4,
        recordedAt: '',
        attempts: 0,
      };
      const landing = model({ outbox: [entry], history }, { claimHeld: true, landing: { entry, resumed: false } });
      const published = {
        issueIds: ['a-1'],
        number: 21,
        url: 'https://github.com/o/r/pull/21',
        reused: true,
        iteration: 4,
      };
      const opened = step(landing, { type: 'cycleFinished', published }, leased());
      expect(find(opened.effects, 'releaseClaim')?.progress).toEqual({
        state: 'pull_request',
        iterations: 3,
        costUsd: 0.75,
        pullRequest: { number: 21, url: 'https://github.com/o/r/pull/21', reused: true },
      });
      const none = { ...entry, noChange: true };
      const noChange = step(
        model({ outbox: [none], history }, { claimHeld: true, landing: { entry: none, resumed: false } }),
        { type: 'cycleFinished' },
        leased(),
      );
      expect(find(noChange.effects, 'releaseClaim')?.progress).toMatchObject({ state: 'no_change', iterations: 3 });
      const lost = step(landing, { type: 'cycleFinished', failed: { class: 'lost', message: 'gone' } }, leased());
      expect(find(lost.effects, 'releaseClaim')?.progress).toMatchObject({ state: 'lost', iterations: 3 });
    });

    it("the escalation's notice carries the cycle's iterations and spend for the release after its label", () => {
      const m = model({ currentCycle: mine, iteration: 4, history }, { claimHeld: true, claimRenewedAt: 4 });
      const escalated = step(m, finished({ state: m.loop, escalate: { reason: 'r', bounceLoop: false } }), leased());
      expect(find(escalated.effects, 'sendNotice')?.notice.what).toMatchObject({
        kind: 'markEscalated',
        releaseClaims: true,
        progress: { iterations: 3, costUsd: 0.75 },
      });
    });
  });
});

describe('the core: the protocol, over every event in many states', () => {
  const ASKING = new Set([
    'next',
    'sleep',
    'readIssues',
    'checkSource',
    'openCycle',
    'runBaseline',
    'readCycleIssues',
    'runAgent',
    'readClosed',
    'judge',
    'readNotes',
    'readHead',
    'readWork',
    'readChangedFiles',
    'runTests',
    'writeNote',
    'commitCycle',
    'finishCycle',
    'claimIssues',
    'holdClaim',
  ]);
  const ENDING = new Set(['done', 'rethrow']);
  const states: SliceModel[] = [];
  const pending: OutboxEntry = {
    kind: 'finishCycle',
    cycle: cycle(),
    noChange: false,
    iteration: 3,
    recordedAt: '2026-11-25T09:00:00Z',
    attempts: 1,
    notBefore: '2026-11-25T10:00:10Z',
  };
  const notice: Notice = {
    id: 'markEscalated-2-x-0',
    what: { kind: 'markEscalated', issueIds: ['a-0'], note: 'n' },
    recordedAt: '2026-11-25T09:00:00Z',
    attempts: 0,
  };
  for (const iteration of [0, 3, 10])
    for (const withCycle of [false, true])
      for (const consecutive of [0, 1])
        for (const checking of [undefined, 'end', 'finishCycle'] as const)
          states.push(
            model(
              {
                iteration,
                consecutiveEscalations: consecutive,
                ...(withCycle ? { currentCycle: cycle() } : {}),
                rateLimitedUntil: iteration === 3 ? '2026-11-25T10:00:30Z' : undefined,
                ...(iteration === 10 ? { outbox: [pending], notices: [notice] } : {}),
              },
              {
                checking,
                // Claims (issue 14): held, or a claim pending for a new cycle or the resumed one.
                ...(consecutive === 1
                  ? { claimHeld: true, claimRenewedAt: iteration }
                  : { claiming: withCycle ? ('resumed' as const) : ('new' as const), next: ready('a-1') }),
                ...(withCycle ? { cycle: cycle(), outcome: { delta: {} } } : {}),
                ...(iteration === 10 && withCycle ? { landing: { entry: pending, resumed: true } } : {}),
              },
            ),
          );
  const events = (m: SliceModel): Told[] => [
    { type: 'started', now: T0 },
    tick(),
    { type: 'tick', now: T0, aborted: true },
    { type: 'woke', now: T0 },
    { type: 'issuesRead', ready: [] },
    { type: 'issuesRead', ready: ready('a-1') },
    { type: 'sourceChecked' },
    { type: 'sourceChecked', unreadable: { reason: 'source_unreadable', message: 'x' } },
    { type: 'cycleOpened', cycle: cycle() },
    { type: 'baselineRan', baseline: { key: 'k', source: 'seen' } },
    finished({ state: m.loop }),
    finished({ state: m.loop, cycleDone: true }),
    finished({ state: m.loop, escalate: { reason: 'r', bounceLoop: false } }),
    finished({ state: m.loop, waitMs: 1000 }),
    { type: 'cycleCommitted', tip: 'c'.repeat(40), committed: true },
    { type: 'cycleCommitted', committed: false },
    { type: 'cycleFinished' },
    { type: 'cycleFinished', failed: { class: 'refused', message: 'm', advice: 'a' } },
    { type: 'cycleFinished', failed: { class: 'transient', message: 'm' } },
    { type: 'cycleFinished', failed: { class: 'lost', message: 'm' } },
    { type: 'refused', reason: 'repository_moved', message: 'm' },
    { type: 'crashed' },
    { type: 'claimed', adopted: ['github-1-1'] },
    { type: 'claimed', lost: { id: 'a-1', run: 'github-1-1', expires: '2026-11-25T11:00:00Z' }, adopted: [] },
    { type: 'issuesRead', ready: [{ ...ready('a-1')[0]!, claimedBy: { run: 'r', expires: '2026-11-25T11:00:00Z' } }] },
    { type: 'issuesUnlisted', failed: { what: 'listing the open pull requests of o/r', status: 502, message: 'm' } },
  ];
  const configs = [
    config(),
    config({ sliceIterations: 1, maxCostUsd: 1 }, { publishes: true, deadline: T0 + 1 }),
    config({}, { publishes: true, leaseMs: 65 * 60_000 }),
  ];

  it('every step asks at most one thing and asks it last; a slice’s end is its last effect, after a save', () => {
    let steps = 0;
    for (const cfg of configs)
      for (const m of states)
        for (const e of events(m)) {
          const { effects } = step(m, e, cfg);
          steps++;
          expect(effects.length).toBeGreaterThan(0);
          const asking = effects.filter((x) => ASKING.has(x.kind) || ENDING.has(x.kind));
          expect(asking.length).toBe(1);
          expect(effects.at(-1)).toBe(asking[0]);
          if (effects.at(-1)?.kind === 'done') expect(effects.some((x) => x.kind === 'save')).toBe(true);
          const halt = find(effects, 'recordHalt');
          if (halt) expect(find(effects, 'done')?.status).toBe('halted');
          // Record before act: a notice is sent after a save that holds it (or was recorded by an earlier run).
          effects.forEach((x, i) => {
            if (x.kind !== 'sendNotice' || m.loop.notices.some((n) => n.id === x.notice.id)) return;
            const saved = effects.slice(0, i).filter((y) => y.kind === 'save');
            expect(saved.at(-1)?.loop.notices.map((n) => n.id)).toContain(x.notice.id);
          });
        }
    expect(steps).toBe(3 * 36 * 26);
  });

  it('a halted loop’s reads (src/core/haltReads.ts): each asked alone and last, and every halted save holds what was read', () => {
    const tip = 'f'.repeat(40);
    const issues = { 'a-1': 'digest' };
    let held = 0;
    for (const cfg of configs)
      for (const m of states)
        for (const e of events(m)) {
          let s = coreStep(...toldAs(m, e), cfg);
          const effects: Effect[] = [];
          for (;;) {
            const asking = s.effects.filter(
              (x) => ASKING.has(x.kind) || ENDING.has(x.kind) || x.kind.startsWith('read'),
            );
            expect(asking.length).toBeLessThanOrEqual(1);
            if (asking.length) expect(s.effects.at(-1)).toBe(asking[0]);
            effects.push(...s.effects);
            const last = s.effects.at(-1);
            if (last?.kind !== 'readBaseTip' && last?.kind !== 'readLeftIssues') break;
            held++;
            expect(s.model.pendingSave?.save.loop.halt).toBeDefined();
            s = coreStep(
              s.model,
              last.kind === 'readBaseTip' ? { type: 'baseTipRead', tip } : { type: 'leftIssuesRead', issues },
              cfg,
            );
          }
          expect(s.model.pendingSave).toBeUndefined();
          for (const x of effects) {
            if (x.kind !== 'save' || !x.loop.halt) continue;
            expect(x.loop.halt.baseTip).toBe(tip);
            if (!cfg.publishes && (x.loop.parkedBranch ?? x.loop.currentCycle?.branch))
              expect(x.loop.halt.issues).toEqual(issues);
            else expect(x.loop.halt.issues).toBeUndefined();
          }
        }
    expect(held).toBeGreaterThan(0);
  });
});

describe('the core: a checklist item ticked as its test is done (issue 15)', () => {
  const item = { kind: 'tick' as const, id: 'a-1', item: 'adds two numbers' };

  it('is a notice: saved in the checkpoint before it is sent, then dropped once done', () => {
    const m = model({ currentCycle: cycle(), iteration: 4 });
    const s = step(m, finished({ state: m.loop, issueActions: [item] }), config());
    const sent = find(s.effects, 'sendNotice')!.notice;
    expect(sent.what).toEqual(item);
    const at = kinds(s.effects);
    expect(at.indexOf('save')).toBeLessThan(at.indexOf('sendNotice'));
    expect(find(s.effects, 'save')?.loop.notices).toEqual([sent]);
    expect(at).not.toContain('updateIssues');
    const done = step(s.model, { type: 'noticesSent', results: [{ id: sent.id, done: true }] }, config());
    expect(s.model.loop.notices).toHaveLength(1);
    expect(done.model.loop.notices).toEqual([]);
  });

  it("with the cycle's last test, it travels with the finished work in the outbox, before the close", () => {
    const c = cycle();
    const m = model({ currentCycle: c, iteration: 4 }, { cycle: c });
    const close = { kind: 'close' as const, id: 'a-1', note: 'done' };
    const s = run(m, config(), finished({ state: m.loop, cycleDone: true, issueActions: [item, close] }), {
      type: 'sourceChecked',
    });
    expect(s.model.loop.notices).toEqual([]);
    expect(find(s.effects, 'save')?.loop.outbox[0]?.issueActions).toEqual([item, close]);
    expect(find(s.effects, 'finishCycle')?.issueActions).toEqual([item, close]);
  });
});

describe('the core: a halt whose advice is followed (issue 40)', () => {
  const allEscalated: Event = {
    type: 'issuesRead',
    ready: [{ id: 'a-1', title: 't', labels: ['agent-loop:escalated'] }],
  };

  it('resumed by hand, a halt before any agent ran (only escalated issues left) is not posted to Discord again, and the log says why where a webhook is set', () => {
    const byHand = run(model(), config({ resumedByHand: true, posts: true }), tick(), allEscalated);
    expect(kinds(byHand.effects)).toEqual(['recordHalt', 'save', 'log:discord.skipped', 'done']);
    expect(find(byHand.effects, 'save')).toMatchObject({ status: 'halted', loop: { notices: [] } });
    expect(find(byHand.effects, 'log')?.message).toBe(
      'Not posted to Discord: this run was resumed by hand (--resume-halted) and halted before any agent ran, so whoever resumed it reads the halt here; Discord was told of the halt it resumed.',
    );
    const inAction = run(model(), config({ resumedByHand: true, posts: true, terms: 'action' }), tick(), allEscalated);
    expect(find(inAction.effects, 'log')?.message).toContain('resumed by hand (resume: true)');
    // No webhook: nothing to say.
    expect(kinds(run(model(), config({ resumedByHand: true }), tick(), allEscalated).effects)).toEqual([
      'recordHalt',
      'save',
      'done',
    ]);
  });

  it('posted as before when the run was not resumed by hand, or when an agent ran in it', () => {
    expect(kinds(run(model(), config({ posts: true }), tick(), allEscalated).effects)).toEqual([
      'recordHalt',
      'save',
      'sendNotice',
      'done',
    ]);
    // One agent run in this slice (iteration 1 of a slice that started at 0): its halt is news.
    const worked = model({ iteration: 1 }, { sliceStartIteration: 0 });
    expect(haltPosted(worked, { ...config().settings, resumedByHand: true })).toBe(true);
    expect(haltPosted(model({ iteration: 1 }), { ...config().settings, resumedByHand: true })).toBe(false);
    const after = run(worked, config({ resumedByHand: true, posts: true }), tick(), allEscalated);
    expect(find(after.effects, 'sendNotice')?.notice.what).toMatchObject({ kind: 'notify' });
  });

  it('a baseline halt before any agent worked on the cycle gives it up: the base branch checked out again, nothing left in flight, the diagnostic naming its issue', () => {
    const c = cycle(['a-1'], { iterations: 0, startedAtIteration: 1 });
    const m = model({ currentCycle: c }, { cycle: c });
    const halted = step(m, { type: 'baselineRan', baseline: unreadable }, config());
    expect(kinds(halted.effects)).toEqual(['leaveCycle', 'recordHalt', 'save', 'sendNotice', 'done']);
    expect(find(halted.effects, 'leaveCycle')).toEqual({ kind: 'leaveCycle', branch: 'agent-loop/a-1' });
    expect(find(halted.effects, 'save')?.loop.currentCycle).toBeUndefined();
    expect(find(halted.effects, 'recordHalt')?.diagnostic.issues).toEqual([{ id: 'a-1', title: 'Title a-1' }]);
    // An agent worked on it (a resumed cycle whose baseline had to be run again): kept, as it was.
    const worked = model({ currentCycle: c, iteration: 1 }, { cycle: c });
    const kept = step(worked, { type: 'baselineRan', baseline: unreadable }, config());
    expect(kinds(kept.effects)).not.toContain('leaveCycle');
    expect(find(kept.effects, 'save')?.loop.currentCycle).toEqual(c);
  });

  it('a change refused while it lands (a secret), or an issues file left unreadable before the cycle is recorded: its issues are not counted closed (nothing was committed), the run that lands it counts them', () => {
    const c = cycle();
    const m = model({ currentCycle: c }, { cycle: c });
    const judged = { ...m.loop, iteration: 1, issuesClosed: ['a-1'] };
    const secret = run(
      m,
      config(),
      finished({ state: judged, cycleDone: true }),
      { type: 'sourceChecked' },
      {
        type: 'refused',
        reason: 'secret_in_change',
        message: 'a.txt',
      },
    );
    expect(find(secret.effects, 'save')?.loop).toMatchObject({ currentCycle: c, issuesClosed: [] });
    const garbled = run(m, config(), finished({ state: judged, cycleDone: true }), {
      type: 'sourceChecked',
      unreadable: { reason: 'source_unreadable', message: 'ISSUES UNREADABLE: x' },
    });
    expect(find(garbled.effects, 'recordHalt')?.halt.reason).toBe('source_unreadable');
    expect(find(garbled.effects, 'save')?.loop.issuesClosed).toEqual([]);
  });
});
