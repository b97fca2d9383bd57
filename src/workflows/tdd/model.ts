/**
 * The vocabulary of the red/green/refactor iteration's step machine (step.ts): what it knows from
 * the start (the context), what it observes (events), what it asks for (effects), where it is (the
 * model), and the pieces every step uses: ask, finish, the iteration's record closed, the cycle's
 * tdd state patched, the cycle complete. Pure.
 */
import { cycleInFlight } from '../../core/inFlight.js';
import { closedByPullRequest } from '../../core/landing.js';
import type { AgentResult } from '../../agents/types.js';
import { type IssueAction, type IterationOutcome, type LogEffect, log } from '../../core/events.js';
import type { TreeFindings, TreeJudge } from '../../judge/judgeRun.js';
import type { Finding } from '../../judge/protectedPaths.js';
import {
  type CycleState,
  type IterationRecord,
  type LoopState,
  type TddCycle,
  appendHistory,
} from '../../core/state.js';
import type { SliceSettings, TestOutcome } from '../../loop/deps.js';
import type { AgentRan } from '../../loop/turn.js';
import type { SuiteRun } from '../../verdict/results.js';
import type { PhaseDecision, PhaseError, TestsSeen } from './decide.js';
import type { TddNote } from './notes.js';
import { treeJudge } from './judgeBase.js';
import type { TddTemplates } from './settings.js';

/** What an iteration knows from its start and never changes. */
export interface TddContext {
  settings: Pick<
    SliceSettings,
    'maxIterations' | 'maxRetriesPerStep' | 'testCommand' | 'onSuccess' | 'closeOnBranch' | 'plan' | 'terms'
  >;
  agentName: string;
  /** The loop state before the iteration. */
  before: LoopState;
  /** The cycle's issue (one per cycle); its labels and type say whether GREEN's commit is a fix. */
  issue: { id: string; title: string; body: string; labels: string[]; type?: string };
  /** There is git, and the notes with it: phases are committed and noted, failed attempts reset. */
  git: boolean;
  /** The suite's run before the cycle: only new failures count. */
  baseline?: SuiteRun;
  /** --tdd-prompts: the templates that replace the built-in prompts, by phase. */
  templates?: TddTemplates;
}

export type TddEvent =
  /** The iteration begins. */
  | { type: 'started' }
  /** Answers `readNotes`: the newest valid note of the cycle's branch, and the invalid ones skipped on the way. */
  | {
      type: 'notesRead';
      newest?: { commit: string; note: TddNote };
      invalid: { commit: string; reason: string }[];
    }
  /** Answers `readHead`. */
  | { type: 'headRead'; head: string }
  /** Answers `readWork`: anything changed since the commit (working tree or commits). */
  | { type: 'workRead'; changed: boolean }
  /**
   * Answers `runTests`: the run, and what it says (the JUnit report, else the output), not yet against
   * the baseline; in a judge tree, the agent's changes to protected paths (issue 42).
   */
  | ({ type: 'testsRan'; tests: TestOutcome; seen: TestsSeen; now: number } & TreeFindings)
  /**
   * Answers `runAgent`: the agent's turn is over (src/loop/turn.ts): its result, the state with the
   * iteration counted, the record so far; `moved` when the agent moved the repository.
   */
  | (AgentRan & {
      /** When the agent run started (epoch ms): the iteration's duration is counted from it. */
      startedAt: number;
    })
  /** Answers `readChangedFiles`. */
  | { type: 'filesRead'; files: string[] }
  /** Answers `writeNote`. */
  | { type: 'noteWritten'; now: number }
  /** The run was asked to stop while an effect ran. */
  | { type: 'interrupted' };

export type TddEffect =
  | LogEffect
  /** The newest note on `range` (the cycle's own commits); answered by `notesRead`. */
  | { kind: 'readNotes'; range: string }
  /** Answered by `headRead`. */
  | { kind: 'readHead' }
  /** Answered by `workRead`. */
  | { kind: 'readWork'; since: string }
  /** The test command, in a judge tree when `judge` (judgeBase.ts); answered by `testsRan` (or `interrupted`). */
  | { kind: 'runTests'; judge?: TreeJudge }
  /** One agent turn from `state` on `prompt` (masked by the interpreter); answered by `agentRan` (or `interrupted`). */
  | {
      kind: 'runAgent';
      state: LoopState;
      prompt: string;
      what: string;
      /** The phase and the checklist item's test: a command agent's $AGENT_LOOP_TDD_PHASE and $AGENT_LOOP_TDD_TEST. */
      tdd: { phase: 'RED' | 'GREEN' | 'REFACTOR'; test: string };
    }
  /** The files changed since the commit; answered by `filesRead`. */
  | { kind: 'readChangedFiles'; since: string }
  /** Commit everything (an empty commit too). Answered by nothing. */
  | { kind: 'commit'; message: string }
  /** `git reset --hard` to the commit. Answered by nothing. */
  | { kind: 'reset'; to: string }
  /** Put the note on the commit; answered by `noteWritten`. */
  | { kind: 'writeNote'; commit: string; note: TddNote }
  /** The iteration is over. */
  | { kind: 'finish'; outcome: IterationOutcome };

/** What the phase's end waits for once its commit is made: the commit's note written. */
export type Ending =
  | { kind: 'abort'; error: PhaseError; tddError: NonNullable<LoopState['tddError']>; note: TddNote }
  | { kind: 'rollback'; decision: Extract<PhaseDecision, { kind: 'rollback' }>; note: TddNote }
  | { kind: 'commit'; decision: CommitDecision; testFile: string; targetTests: string[]; note: TddNote };
export type CommitDecision = Extract<PhaseDecision, { kind: 'commit' }>;

/**
 * Which event the model waits for: `started`; `notesRead`; the precondition's `headRead`,
 * `workRead` and `testsRan`; `headRead` for the phase's base; `agentRan`; the phase's `testsRan`;
 * `workRead` (changed since the base); `filesRead` (RED's test file); `headRead` after the commit;
 * `noteWritten`. `done`: none, the iteration finished.
 */
export type TddStage =
  | 'start'
  | 'notes'
  | 'checkHead'
  | 'checkWork'
  | 'checkTests'
  | 'phaseBase'
  | 'agent'
  | 'tests'
  | 'changed'
  | 'testFile'
  | 'committed'
  | 'noted'
  | 'done';

export interface TddModel {
  stage: TddStage;
  /** The loop state before the iteration, a previous abort's error cleared: what an interrupted iteration gives back. */
  before: LoopState;
  /** The cycle's red/green/refactor state as the iteration found it (its phase, round and test stay). */
  tdd: TddCycle;
  /** The test the iteration works on. */
  test: string;
  /** After the agent ran: the state, the record, the result, when it started, the last time seen. */
  state?: LoopState;
  record?: IterationRecord;
  result?: AgentResult;
  startedAt?: number;
  now?: number;
  /** HEAD when the phase's precondition is checked. */
  head?: string;
  /** The phase's test run against the baseline. */
  seen?: TestsSeen;
  /** Issue 42: the phase's changes to paths the maintainer owns, as the judge tree found them (with the links it removed). */
  found?: { findings: Finding[]; removedLinks: string[] };
  /** Seed 003's decision to commit the phase, waiting for the files RED changed. */
  decision?: CommitDecision;
  ending?: Ending;
  /** The commit the phase's end made. */
  commit?: string;
}

export type TddStep = { model: TddModel; effects: TddEffect[] };

/** The phase's test run: in a judge tree of the phase's judge base where git is (issue 42, judgeBase.ts). */
export function runTestsOf(ctx: TddContext, tdd: TddCycle): TddEffect {
  const judge = treeJudge(tdd, { git: ctx.git, baseTip: cycleOf(ctx.before).baseTip, issueBody: ctx.issue.body });
  return judge ? { kind: 'runTests', judge } : { kind: 'runTests' };
}

export const cycleOf = (s: LoopState): CycleState => cycleInFlight(s);
export const n = (ctx: TddContext) => ctx.before.iteration + 1;
export const tagOf = (ctx: TddContext, m: TddModel) =>
  `[iteration ${n(ctx)}/${ctx.settings.maxIterations}] ${m.tdd.phase} ${m.tdd.round}`;
/** `s` with the cycle's tdd state: the iteration's, patched. */
export const setTdd = (m: TddModel, s: LoopState, patch: Partial<TddCycle>): LoopState => ({
  ...s,
  currentCycle: { ...cycleOf(s), tdd: { ...m.tdd, ...patch } },
});
/** The state after the agent ran. */
export const stateOf = (m: TddModel): LoopState => m.state as LoopState;

export const finish = (model: TddModel, effects: TddEffect[], outcome: IterationOutcome): TddStep => ({
  model: { ...model, stage: 'done' },
  effects: [...effects, { kind: 'finish', outcome }],
});
export const ask = (model: TddModel, stage: TddStage, effects: TddEffect[]): TddStep => ({
  model: { ...model, stage },
  effects,
});

/** The iteration's record appended to the history: its outcome, duration and what the phase came to. */
export function close(
  m: TddModel,
  s: LoopState,
  outcome: IterationRecord['outcome'],
  decision: string,
  error?: PhaseError,
): LoopState {
  return appendHistory(s, {
    ...(m.record as IterationRecord),
    outcome,
    durationMs: (m.now as number) - (m.startedAt as number),
    tdd: { phase: m.tdd.phase, test: m.test, decision, ...(error ? { error: error.type } : {}) },
  });
}

/** The test list is worked through: the issue closes, unless a pull request will (as in the implement workflow). */
export function cycleComplete(ctx: TddContext, state: LoopState): { effects: TddEffect[]; outcome: IterationOutcome } {
  const [issueId = ''] = cycleOf(ctx.before).issueIds;
  const tests = state.currentCycle?.tdd?.tests ?? [];
  const skipped = tests.filter((t) => t.status === 'problematic' || t.status === 'duplicate');
  const skippedText = skipped.length
    ? `; skipped: ${skipped.map((t) => `"${t.description}" (${t.status})`).join(', ')}`
    : '';
  const how = `${tests.length - skipped.length} of ${tests.length} test(s) done (red, green, refactor)${skippedText}`;
  const issueActions: IssueAction[] = closedByPullRequest(ctx.settings)
    ? []
    : [
        {
          kind: 'close',
          id: issueId,
          note: `agent-loop: red/green/refactor finished at iteration ${state.iteration}: ${how}`,
        },
      ];
  return {
    effects: [
      log('info', 'cycle.complete', `${issueId}: the test list is worked through: ${how}.`, {
        issueIds: [issueId],
        skipped: skipped.length,
      }),
    ],
    outcome: {
      state: {
        ...state,
        consecutiveEscalations: 0,
        issuesClosed: [...state.issuesClosed.filter((id) => id !== issueId), issueId],
        completedIterations: [...state.completedIterations, state.iteration],
      },
      cycleDone: true,
      issueActions,
    },
  };
}
