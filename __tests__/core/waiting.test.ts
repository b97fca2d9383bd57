/**
 * Ready issues whose work already waits (src/core/waiting.ts): the core decides what the listing
 * looks up (finished branches only with nothing published and work left on its branch, never the
 * cycle in flight's), leaves the issues held by an open pull request or a finished branch, and tells
 * each once per slice.
 */
import { describe, expect, it } from '@jest/globals';
import type { Effect } from '../../src/core/events.js';
import { type CoreConfig, type SliceModel, initialModel, step } from '../../src/core/slice.js';
import { type LoopState, initialLoopState } from '../../src/core/state.js';
import { cycle, stubMachine } from './fixtures.js';

const T0 = Date.parse('2026-11-29T10:00:00Z');
const config = (rest: Partial<CoreConfig> = {}): CoreConfig => ({
  settings: { maxIterations: 10, batch: false, maxConsecutiveEscalations: 2 },
  checkpointId: 'cp-1',
  publishes: false,
  branches: true,
  landing: 'branch',
  machine: stubMachine,
  ...rest,
});
const model = (loop: Partial<LoopState> = {}): SliceModel =>
  initialModel({ ...initialLoopState(10), baseBranch: 'main', ...loop }, T0);
const logs = (effects: Effect[]) => effects.flatMap((e) => (e.kind === 'log' ? [e.event] : []));
const ready = (...ids: string[]) => ids.map((id) => ({ id, title: `issue ${id}`, labels: [] }));
const opened = (effects: Effect[]) =>
  effects.flatMap((e) => (e.kind === 'claimIssues' || e.kind === 'openCycle' ? [e] : []));

describe('what the listing looks up', () => {
  it('finished branches with nothing published and work left on its branch, never the cycle in flight', () => {
    const top = step(model({ currentCycle: undefined }), { type: 'tick', now: T0, aborted: false }, config());
    expect(top.effects).toEqual([{ kind: 'readIssues', finishedBranches: { except: [] } }]);
  });

  it('no branch lookup where work is published, merged, or there is no repository', () => {
    for (const rest of [{ publishes: true }, { landing: 'merge' as const }, { branches: false }]) {
      const top = step(model(), { type: 'tick', now: T0, aborted: false }, config(rest));
      expect(top.effects).toEqual([{ kind: 'readIssues' }]);
    }
  });
});

describe('issues whose work waits', () => {
  it('an issue in an open pull request and one finished on its branch are left, each told once in the slice', () => {
    const event = {
      type: 'issuesRead' as const,
      ready: ready('a-1', 'a-2', 'a-3'),
      inReview: [{ id: 'a-1', number: 7, url: 'https://github.com/o/r/pull/7' }],
      onBranch: [{ id: 'a-2', branch: 'agent-loop/a-2' }],
    };
    const first = step(model(), event, config());
    expect(logs(first.effects)).toEqual(['issue.in_review', 'issue.on_branch']);
    const said = first.effects.filter((e) => e.kind === 'log').map((e) => (e as { message: string }).message);
    expect(said[0]).toBe(
      'Skipping a-1: its pull request #7 (https://github.com/o/r/pull/7) is open. Merge it (the issue is closed ' +
        'on its branch), or close it and delete its branch to have agent-loop work on the issue again.',
    );
    expect(said[1]).toContain('Skipping a-2: its work is finished on agent-loop/a-2, which is not merged into main');
    // The cycle opened is for a-3 only.
    expect(JSON.stringify(opened(first.effects))).toContain('a-3');
    expect(JSON.stringify(opened(first.effects))).not.toMatch(/a-1|a-2/);
    // Read again in the same slice: left again, not told again.
    const again = step({ ...first.model, next: undefined }, event, config());
    expect(logs(again.effects)).not.toContain('issue.in_review');
    expect(logs(again.effects)).not.toContain('issue.on_branch');
  });

  it("the cycle in flight is not left for its own branch: it is the core's to resume", () => {
    const m = model({ currentCycle: cycle(['a-1']) });
    const left = step(
      m,
      { type: 'issuesRead', ready: ready('a-1'), onBranch: [{ id: 'a-1', branch: 'agent-loop/a-1' }] },
      config(),
    );
    expect(logs(left.effects)).not.toContain('issue.on_branch');
  });
});
