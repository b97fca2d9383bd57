/**
 * One table of halt reasons (issue 41, src/core/haltReasons.ts): each reason's row is complete in
 * the words of each surface, and every list of reasons the code keeps is the table's, so a new
 * reason is one row.
 */
import { describe, expect, it } from '@jest/globals';
import { HALT_REASON_HELP, renderHaltReasonTable } from '../../src/cli/help.js';
import { type Terms, surface } from '../../src/config/surface.js';
import { buildDiagnostic } from '../../src/core/diagnostic.js';
import { haltGate } from '../../src/core/haltGate.js';
import {
  HALT_REASONS,
  type HaltReason,
  type HaltReasonRow,
  HaltReasons,
  JOB_LOCAL_HALTS,
  LIMIT_HALTS,
  NEEDS_BASE_TIP,
  NEEDS_ISSUES,
} from '../../src/core/haltReasons.js';
import { exitCodeFor } from '../../src/core/result.js';
import { resumeWays } from '../../src/core/resumeWays.js';
import { type LoopState, LoopStateSchema, initialLoopState, parseLoopState } from '../../src/core/state.js';
import { actionVocabulary, cliVocabulary } from '../../e2e/support/vocabulary.js';

const reasons = Object.keys(HALT_REASONS) as HaltReason[];
const otherWords: Record<Terms, (text: string) => string[]> = { cli: actionVocabulary, action: cliVocabulary };
const where = (keep: (row: HaltReasonRow) => boolean) => reasons.filter((r) => keep(HALT_REASONS[r]));
const sorted = (list: Iterable<string>) => [...list].sort();

const halted = (reason: HaltReason, baseTip?: string): LoopState => ({
  ...initialLoopState(5),
  iteration: 5,
  baseBranch: 'main',
  halt: { reason, message: 'HALTED', ...(baseTip ? { baseTip } : {}) },
});

describe('the table of halt reasons (issue 41)', () => {
  it.each<Terms>(['cli', 'action'])('has a complete row for every reason, in the words of %s only', (terms) => {
    const say = surface(terms);
    for (const reason of reasons) {
      const row = HALT_REASONS[reason];
      const texts = [row.loopType, row.help(say), row.advice(say), ...(row.onResume ? [row.onResume] : [])];
      expect([reason, texts.filter((t) => t.trim() === '')]).toEqual([reason, []]);
      expect([reason, texts.flatMap(otherWords[terms])]).toEqual([reason, []]);
      // The README's and --help's exit codes name 1 for every halt: a reason with another code needs its own line there.
      expect([reason, row.exitCode]).toEqual([reason, 1]);
      // Something resumes every halt, and a way is named once.
      const ways = resumeWays({ reason });
      expect([reason, ways.length > 0, new Set(ways).size]).toEqual([reason, true, ways.length]);
    }
  });

  it("is the state's list of reasons: the zod enum accepts each of them and nothing else", () => {
    expect(HaltReasons).toEqual(reasons);
    expect(LoopStateSchema.shape.halt.unwrap().shape.reason.options).toEqual(reasons);
    for (const reason of reasons)
      expect([reason, typeof parseLoopState({ loop: halted(reason) })]).toEqual([reason, 'object']);
    expect(parseLoopState({ loop: halted('no_such_reason' as HaltReason) })).toMatch(
      /^state.loop is not a valid loop state \(halt.reason: /,
    );
  });

  it('is every derived list: job-local halts, what lifts a halt by itself, the limits, the help and the exit codes', () => {
    expect(sorted(JOB_LOCAL_HALTS)).toEqual(sorted(where((row) => row.jobLocal)));
    expect(sorted(NEEDS_BASE_TIP)).toEqual(sorted(where((row) => row.resume.liftedBy.includes('base_commits'))));
    expect(sorted(NEEDS_ISSUES)).toEqual(sorted(where((row) => row.resume.liftedBy.includes('unlabel'))));
    expect(sorted(LIMIT_HALTS)).toEqual(
      sorted(where((row) => row.resume.liftedBy.some((l) => l === 'max_iterations' || l === 'budget'))),
    );
    expect(HALT_REASON_HELP).toEqual(Object.fromEntries(reasons.map((r) => [r, HALT_REASONS[r].help(surface('cli'))])));
    expect(renderHaltReasonTable().split('\n').slice(2)).toEqual(
      reasons.map((r) => `| \`${r}\` | ${HALT_REASONS[r].help(surface('cli'))} |`),
    );
    for (const reason of reasons) {
      const { byHand, liftedBy, startOver } = HALT_REASONS[reason].resume;
      expect([reason, resumeWays({ reason })]).toEqual([
        reason,
        [...(byHand ? ['explicit'] : []), ...liftedBy, ...(startOver ? ['fresh'] : [])],
      ]);
      expect([reason, exitCodeFor({ status: 'halted', haltReason: reason })]).toEqual([
        reason,
        HALT_REASONS[reason].exitCode,
      ]);
      const d = buildDiagnostic({
        reason,
        message: 'HALTED',
        state: halted(reason),
        checkpointId: 'c',
        maxConsecutiveEscalations: 2,
        terms: 'action',
      });
      expect([reason, d.loopType, d.advice.startsWith(HALT_REASONS[reason].advice(surface('action')))]).toEqual([
        reason,
        HALT_REASONS[reason].loopType,
        true,
      ]);
    }
  });

  it('holds the decisions as they stood before the table (issues 14, 16, 40)', () => {
    expect(sorted(JOB_LOCAL_HALTS)).toEqual(['all_escalated', 'budget', 'failure_loop', 'max_iterations']);
    expect(sorted(NEEDS_BASE_TIP)).toEqual(['baseline_unreadable', 'failure_loop']);
    expect(sorted(NEEDS_ISSUES)).toEqual(['all_escalated', 'bounce_loop', 'failure_loop']);
    expect(sorted(LIMIT_HALTS)).toEqual(['budget', 'max_iterations']);
  });

  it('lifts a standing halt by itself only for the causes its row names (haltGate)', () => {
    const unchanged = { maxIterations: 5, maxCostUsd: 0, baseTip: 'a'.repeat(40) };
    const changes = {
      max_iterations: { ...unchanged, maxIterations: 6 },
      budget: { ...unchanged, maxCostUsd: 1 },
      base_commits: { ...unchanged, baseTip: 'b'.repeat(40) },
    } as const;
    for (const reason of reasons) {
      const loop = halted(reason, unchanged.baseTip);
      expect([reason, haltGate(loop, unchanged).stands]).toEqual([reason, true]);
      for (const [cause, seen] of Object.entries(changes)) {
        const lifts = (HALT_REASONS[reason].resume.liftedBy as readonly string[]).includes(cause);
        expect([reason, cause, haltGate(loop, seen).stands]).toEqual([reason, cause, !lifts]);
      }
    }
  });
});
