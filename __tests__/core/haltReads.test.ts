/**
 * What a halt keeps of the world as it is saved (src/core/haltReads.ts): the core asks for the base
 * branch's tip and, where the halt leaves a cycle's branch checked out, the issues as it leaves them,
 * before each save of a halted loop (the one after its notices too), holds the save meanwhile, and
 * puts what was read in the halt. The handler only writes.
 */
import { describe, expect, it } from '@jest/globals';
import type { Effect, Event } from '../../src/core/events.js';
import { type CoreConfig, type SliceModel, initialModel, step } from '../../src/core/slice.js';
import { type LoopState, initialLoopState } from '../../src/core/state.js';
import { cycle, finishing, stubMachine } from './fixtures.js';

const T0 = Date.parse('2026-11-25T10:00:00Z');
const TIP = 'a'.repeat(40);
const LABELLED = 'b'.repeat(40);

const config = (rest: Partial<CoreConfig> = {}): CoreConfig => ({
  settings: { maxIterations: 10, batch: false, maxConsecutiveEscalations: 2 },
  checkpointId: 'cp-1',
  publishes: false,
  branches: true,
  machine: stubMachine,
  ...rest,
});
const model = (loop: Partial<LoopState> = {}): SliceModel =>
  initialModel({ ...initialLoopState(10), baseBranch: 'main', ...loop }, T0);
const kinds = (effects: Effect[]) => effects.map((e) => (e.kind === 'log' ? `log:${e.event}` : e.kind));
const find = <K extends Effect['kind']>(effects: Effect[], kind: K) =>
  effects.find((e): e is Extract<Effect, { kind: K }> => e.kind === kind);
const saved = (effects: Effect[]) => find(effects, 'save')!.loop;

/** Only escalated issues are ready: the slice halts (all_escalated) at once, no cycle left checked out. */
const allEscalated = (cfg = config()) =>
  step(model(), { type: 'issuesRead', ready: [{ id: 'a-1', title: 't', labels: ['agent-loop:escalated'] }] }, cfg);

/** The cycle's escalation reaches the limit (2 in a row): a failure loop halts, its label still to send. */
const failureLoop = (cfg = config()) => {
  const m = model({ currentCycle: cycle(), iteration: 4, consecutiveEscalations: 1 });
  const told: Event = { type: 'cycleIssuesRead', issues: [], now: T0 };
  return step(finishing(m, { state: m.loop, escalate: { reason: 'stuck', bounceLoop: false } }), told, cfg);
};

describe("a halt's reads, asked by the core before each save of a halted loop", () => {
  it('the save is held while the base tip is read, then saved with it; what followed it comes after', () => {
    const asked = allEscalated();
    expect(kinds(asked.effects)).toEqual(['recordHalt', 'readBaseTip']);
    expect(find(asked.effects, 'readBaseTip')).toEqual({ kind: 'readBaseTip', branch: 'main' });
    expect(asked.model.pendingSave?.save.status).toBe('halted');
    expect(kinds(asked.model.pendingSave?.rest ?? [])).toEqual(['sendNotice', 'done']);

    const read = step(asked.model, { type: 'baseTipRead', tip: TIP }, config());
    expect(kinds(read.effects)).toEqual(['save', 'sendNotice', 'done']);
    expect(saved(read.effects).halt).toMatchObject({ reason: 'all_escalated', baseTip: TIP });
    // In the halt itself: the model holds what the checkpoint does.
    expect(read.model.loop.halt?.baseTip).toBe(TIP);
    expect(read.model.pendingSave).toBeUndefined();
  });

  it('a tip that cannot be read leaves the halt without one', () => {
    const read = step(allEscalated().model, { type: 'baseTipRead' }, config());
    expect(kinds(read.effects)).toEqual(['save', 'sendNotice', 'done']);
    expect(saved(read.effects).halt).not.toHaveProperty('baseTip');
  });

  it('read again before the save after the notices: the escalation label’s own commit lands on the base between the two', () => {
    const publishing = config({ publishes: true });
    const halted = failureLoop(publishing);
    expect(kinds(halted.effects)).toEqual(['verifyLane', 'log:cycle.escalated', 'recordHalt', 'readBaseTip']);
    // Where work is published nothing is left checked out: the tip only.
    const first = step(halted.model, { type: 'baseTipRead', tip: TIP }, publishing);
    expect(kinds(first.effects)).toEqual(['save', 'shelveCycle', 'sendNotice', 'sendNotice', 'done']);
    expect(saved(first.effects).halt?.baseTip).toBe(TIP);

    const results = saved(first.effects).notices.map((n) => ({ id: n.id, done: true }));
    const told = step(first.model, { type: 'noticesSent', results }, publishing);
    expect(kinds(told.effects)).toEqual(['readBaseTip']);
    const again = step(told.model, { type: 'baseTipRead', tip: LABELLED }, publishing);
    expect(kinds(again.effects)).toEqual(['save']);
    expect(saved(again.effects)).toMatchObject({ notices: [], halt: { reason: 'failure_loop', baseTip: LABELLED } });
  });

  it('a halt that leaves the cycle’s branch checked out (the CLI) keeps the issues as it leaves them there, read after the tip, at each save', () => {
    const halted = failureLoop();
    const first = step(halted.model, { type: 'baseTipRead', tip: TIP }, config());
    expect(first.effects).toEqual([{ kind: 'readLeftIssues', branch: 'agent-loop/a-1' }]);
    const left = step(first.model, { type: 'leftIssuesRead', issues: { 'a-1': 'd1' } }, config());
    expect(kinds(left.effects)).toEqual(['save', 'sendNotice', 'sendNotice', 'done']);
    expect(saved(left.effects).halt).toMatchObject({ baseTip: TIP, issues: { 'a-1': 'd1' } });
    expect(left.model.loop.halt).toMatchObject({ baseTip: TIP, issues: { 'a-1': 'd1' } });

    // After the label: both read again; issues that cannot be read now are left out.
    const results = saved(left.effects).notices.map((n) => ({ id: n.id, done: true }));
    const told = step(left.model, { type: 'noticesSent', results }, config());
    const tip = step(told.model, { type: 'baseTipRead', tip: TIP }, config());
    expect(kinds(tip.effects)).toEqual(['readLeftIssues']);
    const last = step(tip.model, { type: 'leftIssuesRead' }, config());
    expect(kinds(last.effects)).toEqual(['save']);
    expect(saved(last.effects).halt).toMatchObject({ baseTip: TIP });
    expect(saved(last.effects).halt).not.toHaveProperty('issues');
  });

  it('nothing is read for a loop that is not halted, nor without a repository', () => {
    const m = model({ currentCycle: cycle(), iteration: 4 });
    const told: Event = { type: 'cycleIssuesRead', issues: [], now: T0 };
    const escalated = step(
      finishing(m, { state: m.loop, escalate: { reason: 'stuck', bounceLoop: false } }),
      told,
      config(),
    );
    // An escalation that does not halt: both its saves as they are, and it goes on.
    expect(kinds(escalated.effects).filter((k) => k === 'save' || k.startsWith('read'))).toEqual(['save', 'save']);
    expect(escalated.effects.at(-1)).toEqual({ kind: 'next' });
    expect(escalated.model.pendingSave).toBeUndefined();

    const noGit = allEscalated(config({ branches: false }));
    expect(kinds(noGit.effects)).toEqual(['recordHalt', 'save', 'sendNotice', 'done']);
    expect(saved(noGit.effects).halt).not.toHaveProperty('baseTip');
  });

  it('a save held and never let go (the slice crashed first) is dropped at the next step', () => {
    const held = allEscalated().model;
    const crashed = step(held, { type: 'crashed' }, config());
    expect(kinds(crashed.effects)).toEqual(['rethrow']);
    expect(crashed.model.pendingSave).toBeUndefined();
    expect(() => step(crashed.model, { type: 'baseTipRead', tip: TIP }, config())).toThrow(/holds no save/);
  });
});
