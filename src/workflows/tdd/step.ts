/**
 * The red/green/refactor workflow's iteration (--workflow tdd, seed 003), pure:
 * `stepTdd(context, model, event) → (model, effects)`, like the implement workflow's
 * (src/workflows/implement/decide.ts) and the engine's core (src/core/slice.ts). Events are what the
 * iteration observed (the cycle's newest git note, HEAD, whether work exists, a test run, the agent's
 * turn, the files a phase changed, a note written); effects are what to do next (log; read the
 * notes, HEAD, the work or the changed files; run the tests or the agent; commit, reset, write a
 * note; finish with the outcome). iteration.ts performs them. What a phase attempt means comes from
 * seed 003's table (decide.ts: a phase commit with its note, a retry with the failure as context, a
 * skipped test, a rolled-back refactoring, an abort that halts the run with the error type); the
 * agent's own failures from the retry policy table (rate limits back off without limit, network
 * timeouts are retried 3 times, anything else counts as a failed attempt of the phase). The
 * vocabulary is model.ts; the steps up to the agent's turn are start.ts, the ones after it
 * afterAgent.ts. No processes, files or clocks: every path is a unit test
 * (__tests__/workflows/tdd/step.test.ts).
 */
import {
  type CommitDecision,
  type Ending,
  type TddContext,
  type TddEvent,
  type TddModel,
  type TddStep,
  ask,
  finish,
} from './model.js';
import { afterAgent, afterTests, apply, commitPhase, end } from './afterAgent.js';
import { pickTestFile } from './phaseNote.js';
import { afterCheckHead, afterCheckTests, afterNotes, checkTests, phaseBase, runAgent, start } from './start.js';

export type { TddContext, TddEffect, TddEvent, TddModel, TddStage, TddStep } from './model.js';
export { initialTddModel } from './start.js';

export function stepTdd(ctx: TddContext, m: TddModel, e: TddEvent): TddStep {
  if (m.stage !== 'done') {
    if (e.type === 'interrupted') return finish(m, [], { state: m.before, interrupted: true });
    switch (m.stage) {
      case 'start':
        if (e.type === 'started') return start(ctx, m);
        break;
      case 'notes':
        if (e.type === 'notesRead') return afterNotes(ctx, m, e);
        break;
      case 'checkHead':
        if (e.type === 'headRead') return afterCheckHead(ctx, m, e.head);
        break;
      case 'checkWork':
        if (e.type === 'workRead') return e.changed ? checkTests(ctx, m) : phaseBase(ctx, m);
        break;
      case 'checkTests':
        if (e.type === 'testsRan') return afterCheckTests(ctx, m, e);
        break;
      case 'phaseBase':
        if (e.type === 'headRead') return runAgent(ctx, { ...m, tdd: { ...m.tdd, phaseBase: e.head } });
        break;
      case 'agent':
        if (e.type === 'agentRan') return afterAgent(ctx, m, e);
        break;
      case 'tests':
        if (e.type === 'testsRan') return afterTests(ctx, m, e);
        break;
      case 'changed':
        if (e.type === 'workRead') return apply(ctx, m, e.changed);
        break;
      case 'testFile':
        if (e.type === 'filesRead') return commitPhase(ctx, m, m.decision as CommitDecision, pickTestFile(e.files));
        break;
      case 'committed':
        if (e.type === 'headRead') {
          const ending = m.ending as Ending;
          return ask({ ...m, commit: e.head }, 'noted', [{ kind: 'writeNote', commit: e.head, note: ending.note }]);
        }
        break;
      case 'noted':
        if (e.type === 'noteWritten') return end(ctx, { ...m, now: e.now }, [], m.commit);
        break;
    }
  }
  throw new Error(`a tdd iteration waiting at '${m.stage}' cannot take '${e.type}'`);
}
