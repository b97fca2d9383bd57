/** Halted stays halted (src/core/haltGate.ts): which changes of a halt's cause resume the run by themselves. */
import { describe, expect, it } from '@jest/globals';
import { haltGate, owedLabels } from '../../src/core/haltGate.js';
import { describeResumeWay, resumeWays } from '../../src/core/resumeWays.js';
import { type HaltReason, type LoopState, initialLoopState } from '../../src/core/state.js';
import { ESCALATED_LABEL } from '../../src/issues/types.js';

const TIP = 'a'.repeat(40);
const halted = (reason: HaltReason, over: Partial<LoopState> = {}): LoopState => ({
  ...initialLoopState(10),
  iteration: 10,
  baseBranch: 'main',
  halt: { reason, message: 'x', at: '2026-11-25T03:00:00Z', baseTip: TIP },
  ...over,
});
const escalation = (ids: string[], iteration: number) => ({
  iteration,
  issueIds: ids,
  titles: ids,
  reason: 'r',
  at: '2026-11-25T02:00:00Z',
  note: 'n',
  steps: [],
});
const issue = (id: string, escalated = false) => ({
  id,
  title: id,
  labels: escalated ? ['agent-loop', ESCALATED_LABEL] : ['agent-loop'],
});
const seen = { maxIterations: 10 };

describe('haltGate', () => {
  it('a halt stands when nothing it depends on changed', () => {
    for (const reason of ['all_escalated', 'failure_loop', 'baseline_unreadable', 'max_iterations', 'budget'] as const)
      expect([
        reason,
        haltGate(halted(reason, { costUsd: 5 }), { ...seen, maxCostUsd: 5, baseTip: TIP, ready: [issue('1', true)] }),
      ]).toEqual([reason, { stands: true }]);
  });

  it('halts that need a person stand whatever changed: the base branch, the issues, the limits', () => {
    for (const reason of [
      'repository_moved',
      'secret_in_change',
      'publish_refused',
      'agent_unavailable',
      'stuck',
      'bounce_loop',
      'contract_violation',
      'source_unreadable',
      'workflow_aborted',
    ] as const)
      expect([
        reason,
        haltGate(halted(reason), { maxIterations: 500, baseTip: 'b'.repeat(40), ready: [issue('9')] }),
      ]).toEqual([reason, { stands: true }]);
  });

  it('issue 14: all_escalated and failure_loop resume once an escalated issue was edited (its title or body changed since)', () => {
    const record = { ...escalation(['1'], 9), fingerprints: { '1': 'before' } };
    const edited = { ...issue('1', true), fingerprint: 'after' };
    const same = { ...issue('1', true), fingerprint: 'before' };
    for (const reason of ['all_escalated', 'failure_loop'] as const) {
      const loop = halted(reason, { escalations: [record], consecutiveEscalations: 1 });
      expect(haltGate(loop, { ...seen, ready: [same] })).toEqual({ stands: true });
      expect(haltGate(loop, { ...seen, ready: [edited] })).toEqual({
        stands: false,
        because: '1 was edited since the escalation',
      });
    }
  });

  it('issue 40: bounce_loop resumes once its own issue is clarified (edited) or its label removed, as its advice says; not for another issue', () => {
    const record = { ...escalation(['1'], 9), fingerprints: { '1': 'before' } };
    const loop = halted('bounce_loop', { escalations: [escalation(['7'], 4), record], consecutiveEscalations: 2 });
    const same = { ...issue('1', true), fingerprint: 'before' };
    expect(haltGate(loop, { ...seen, ready: [same, issue('7'), issue('9')] })).toEqual({ stands: true });
    expect(haltGate(loop, { ...seen, ready: [{ ...same, fingerprint: 'after' }] })).toEqual({
      stands: false,
      because: '1 was edited since the escalation',
    });
    expect(haltGate(loop, { ...seen, ready: [issue('1')] })).toEqual({
      stands: false,
      because: '1 is no longer escalated',
    });
  });

  it('issue 14: where the label does not outlast the runner (beads in the action), an escalated issue without it does not lift the halt', () => {
    const loop = halted('all_escalated', { escalations: [{ ...escalation(['1'], 9), fingerprints: { '1': 'f' } }] });
    const unlabelled = { ...issue('1'), fingerprint: 'f' };
    expect(haltGate(loop, { ...seen, ready: [unlabelled], labelsDoNotLast: true })).toEqual({ stands: true });
    expect(haltGate(loop, { ...seen, ready: [unlabelled] }).stands).toBe(false);
  });

  it('all_escalated resumes once an issue is ready without the escalated label (removed, or a new one)', () => {
    const loop = halted('all_escalated', { escalations: [escalation(['1'], 9)] });
    expect(haltGate(loop, { ...seen, ready: [issue('1', true)] })).toEqual({ stands: true });
    expect(haltGate(loop, { ...seen, ready: [issue('1')] })).toEqual({
      stands: false,
      because: '1 is no longer escalated',
    });
    // A new issue is said to be new, not "no longer escalated".
    expect(haltGate(loop, { ...seen, ready: [issue('1', true), issue('2')] })).toEqual({
      stands: false,
      because: '2 is ready and never escalated',
    });
    expect(haltGate(loop, { ...seen, ready: [issue('1'), issue('2'), issue('3')] })).toEqual({
      stands: false,
      because: '1 is no longer escalated; 2, 3 are ready and never escalated',
    });
    // Closed in this run, or found already satisfied: not work.
    expect(haltGate({ ...loop, issuesClosed: ['2'] }, { ...seen, ready: [issue('1', true), issue('2')] })).toEqual({
      stands: true,
    });
  });

  it('issue 14: an escalation whose label a killed run left to send (a notice) keeps its issue escalated: the halt stands', () => {
    const notice = {
      id: 'markEscalated-9-x-0',
      what: { kind: 'markEscalated' as const, issueIds: ['1'], note: 'n' },
      recordedAt: '2026-11-25T02:00:00Z',
      attempts: 0,
    };
    for (const reason of ['all_escalated', 'failure_loop'] as const) {
      const loop = halted(reason, {
        consecutiveEscalations: 1,
        escalations: [escalation(['1'], 9)],
        notices: [notice],
      });
      expect([reason, haltGate(loop, { ...seen, ready: [issue('1')] })]).toEqual([reason, { stands: true }]);
    }
  });

  it('failure_loop resumes on new commits on the base branch, or once an issue of the loop loses its label; other ready issues do not lift it', () => {
    const loop = halted('failure_loop', {
      consecutiveEscalations: 2,
      escalations: [escalation(['1'], 3), escalation(['2'], 5), escalation(['3'], 9)],
    });
    // Issue 1's escalation is older than the loop: it and a fresh issue 4 being ready change nothing.
    expect(
      haltGate(loop, { ...seen, baseTip: TIP, ready: [issue('1'), issue('2', true), issue('3', true), issue('4')] }),
    ).toEqual({
      stands: true,
    });
    expect(haltGate(loop, { ...seen, baseTip: TIP, ready: [issue('2'), issue('3', true)] })).toEqual({
      stands: false,
      because: '2 is no longer escalated',
    });
    expect(haltGate(loop, { ...seen, baseTip: 'b'.repeat(40), ready: [] })).toEqual({
      stands: false,
      because: 'the base branch main has new commits since the halt (aaaaaaa → bbbbbbb)',
    });
    // A halt recorded without the tip (an older checkpoint) is not lifted by a tip it cannot compare.
    const { baseTip: _, ...old } = loop.halt!;
    expect(haltGate({ ...loop, halt: old }, { ...seen, baseTip: 'b'.repeat(40) })).toEqual({ stands: true });
  });

  it('max_iterations and budget resume once the limit is above what was spent', () => {
    expect(haltGate(halted('max_iterations'), { maxIterations: 11 })).toEqual({
      stands: false,
      because: 'the iteration limit is now 11, above the 10 agent run(s) used',
    });
    const spent = halted('budget', { costUsd: 5 });
    expect(haltGate(spent, { ...seen, maxCostUsd: 5 })).toEqual({ stands: true });
    expect(haltGate(spent, { ...seen, maxCostUsd: 6 })).toMatchObject({ stands: false });
    expect(haltGate(spent, seen)).toEqual({ stands: false, because: 'the spend cap is no longer set' });
  });

  it("names the ways to resume each halt, in the CLI's flags or the action's inputs", () => {
    expect(resumeWays(halted('publish_refused').halt!)).toEqual(['explicit', 'fresh']);
    expect(resumeWays(halted('failure_loop').halt!)).toEqual(['explicit', 'unlabel', 'base_commits', 'fresh']);
    // A limit's halt is lifted by raising the limit: resumed as it is, it would halt again at once.
    expect(resumeWays(halted('max_iterations').halt!)).toEqual(['max_iterations', 'fresh']);
    expect(resumeWays(halted('budget').halt!)).toEqual(['budget', 'fresh']);
    expect(describeResumeWay('explicit', 'cli')).toBe(
      "once the cause is fixed, run agent-loop run --resume-halted with the halted run's other options",
    );
    expect(describeResumeWay('explicit', 'action')).toContain('with the input resume: true');
    expect(describeResumeWay('budget', 'action')).toContain('the input max-cost-usd');
    // The CLI's base branch is the local one (issue 40): a fix is committed there; the action's is pushed.
    expect(describeResumeWay('base_commits', 'cli', 'trunk')).toBe(
      'commit a fix to trunk: the next run resumes by itself',
    );
    expect(describeResumeWay('base_commits', 'action', 'trunk')).toBe(
      'push a fix to trunk: the next run resumes by itself',
    );
  });

  it('issue 40: only escalated issues left, an issue is the one way (resumed by hand or started over, the same labels halt again at once); a bounce loop is lifted by its issue too', () => {
    expect(resumeWays(halted('all_escalated').halt!)).toEqual(['unlabel']);
    expect(resumeWays(halted('bounce_loop').halt!)).toEqual(['explicit', 'unlabel', 'fresh']);
  });
});

describe('owedLabels: what a standing halt says of escalated issues it left unlabelled', () => {
  const notice = (ids: string[], attempts: number, lastError?: string) => ({
    id: `markEscalated-${ids.join('-')}`,
    what: { kind: 'markEscalated' as const, issueIds: ids, note: 'n' },
    recordedAt: '2026-11-25T02:00:00Z',
    attempts,
    ...(lastError ? { lastError } : {}),
  });
  it('nothing when every label was written (no notice, or only other notices)', () => {
    expect(owedLabels(halted('all_escalated'))).toBeUndefined();
    const tick = { id: 't', what: { kind: 'tick' as const, id: '1', item: 'x' }, recordedAt: 'x', attempts: 1 };
    expect(owedLabels(halted('all_escalated', { notices: [tick] }))).toBeUndefined();
  });
  it("names the issues, the source's last refusal, and that the resuming run writes them (not: remove the label)", () => {
    const loop = halted('all_escalated', {
      notices: [notice(['7'], 2, '403 Resource not accessible by integration'), notice(['8'], 1)],
    });
    expect(owedLabels(loop)).toBe(
      `7, 8 have no ${ESCALATED_LABEL} label yet (writing it failed: 403 Resource not accessible by integration); the run that resumes writes it first, and until then they count as escalated (edit them to have them tried again).`,
    );
  });
  it('says a run ended before writing it when no attempt failed (a killed run)', () => {
    expect(owedLabels(halted('failure_loop', { notices: [notice(['3'], 0)] }))).toMatch(
      /^3 has no .* label yet \(a run ended before writing it\); .* until then it counts as escalated \(edit it to have it tried again\)\.$/,
    );
  });
});
