/**
 * Where a red/green/refactor cycle starts: its test list (the checklist, or --plan), or,
 * after a crash or a person's reset, the newest git note on the cycle's branch. Pure.
 */
import type { TddCycle } from '../../core/state.js';
import type { TddNote } from './notes.js';
import { markTest, nextPending, parseTestList } from './testList.js';
import { judgeBaseOf } from './judgeBase.js';

/** A new cycle: RED of the first pending test of `text`'s checklist (or one test, the title). */
export function initialTdd(text: string, title: string): TddCycle {
  const tests = parseTestList(text, title);
  return {
    tests,
    index: Math.max(0, nextPending(tests)),
    phase: 'RED',
    round: 1,
    retries: 0,
    targetTests: [],
    testFile: '',
  };
}

/**
 * Seed 003: "On restart, automatically detect last known state from Git Notes; resume from the next
 * phase after the last successful commit". The newest note of the cycle's branch is the truth: after
 * a crash between the commit and the checkpoint, and after a person reset the branch by hand (an
 * abort's wip: commit resumed from keeps the commit before it as what the phases are judged by:
 * `baseTip`, the cycle's base, when there was none).
 * undefined: nothing to resume (no note, or the note on the checkpoint's last commit).
 */
export function resumeFromNote(
  tdd: TddCycle,
  newest: { commit: string; note: TddNote } | undefined,
  baseTip?: string,
): TddCycle | undefined {
  if (!newest || newest.commit === tdd.lastCommit) return undefined;
  const { note } = newest;
  let tests = tdd.tests;
  let index = tests.findIndex((t) => t.description === note.current_test.description);
  if (index === -1) {
    tests = [...tests, { description: note.current_test.description, status: 'pending' }];
    index = tests.length - 1;
  }
  if (note.phase === 'REFACTOR' && note.next_phase === 'RED') tests = markTest(tests, index, 'done');
  return {
    ...tdd,
    tests,
    index: note.next_phase === 'RED' ? Math.max(0, nextPending(tests)) : index,
    phase: note.next_phase,
    round: note.next_phase === 'RED' && note.phase === 'REFACTOR' ? note.cycle + 1 : note.cycle,
    retries: 0,
    phaseBase: undefined,
    lastError: undefined,
    testFile: note.current_test.test_file,
    lastCommit: newest.commit,
    // Issue 42: a phase commit is what later phases are judged by; an abort's wip: commit (its note's error, its phase next) is not.
    judgeBase: note.error && note.next_phase === note.phase ? judgeBaseOf(tdd, baseTip) : undefined,
  };
}
