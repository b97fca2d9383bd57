/**
 * What a phase's end reads and writes (afterAgent.ts): whether the agent reported a duplicate test,
 * which of the files RED changed is the test file, and the phase commit's git note (seed 003). Pure.
 */
import type { AgentResult } from '../../agents/types.js';
import type { TddCycle } from '../../core/state.js';
import type { TddNote, TddPhase } from './notes.js';

export function isDuplicateReport(result: AgentResult): boolean {
  const value = result.report?.fields.duplicate_test;
  return value === true || value === 'true';
}

/** The test file among the files RED changed: a path that looks like a test, else the first. */
export function pickTestFile(files: string[]): string {
  return (
    files.find((f) =>
      /(^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]+\.py$|_test\.go$/i.test(f),
    ) ??
    files[0] ??
    ''
  );
}

export function noteOf(
  tdd: TddCycle,
  test: string,
  phase: TddPhase,
  next: TddPhase,
  result: 'PASS' | 'FAIL',
  error?: TddNote['error'],
): TddNote {
  return {
    phase,
    next_phase: next,
    cycle: tdd.round,
    current_test: { description: test, test_file: tdd.testFile },
    test_result: result,
    ...(error ? { error: { ...error, type: error.type as NonNullable<TddNote['error']>['type'] } } : {}),
  };
}
