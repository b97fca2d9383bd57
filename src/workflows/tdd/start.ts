/**
 * The red/green/refactor iteration up to the agent's turn, pure (step.ts dispatches to it): the
 * cycle's newest git note (a crash or a person's reset wins over the checkpoint), the test list
 * worked through, the phase's precondition when the branch changed since the engine last tested it
 * (a step back before any agent runs, issue 12), the commit the phase starts from, the prompt.
 */
import { log } from '../../core/events.js';
import { againstBaseline } from './baseline.js';
import { TDD_MAX_RETRIES, phaseStart } from './decide.js';
import {
  type TddContext,
  type TddEffect,
  type TddEvent,
  type TddModel,
  type TddStep,
  ask,
  cycleComplete,
  cycleOf,
  finish,
  n,
  runTestsOf,
  setTdd,
  tagOf,
} from './model.js';
import { DEFAULT_TEMPLATES, failureSection, renderPrompt } from './prompts.js';
import { initialTdd, resumeFromNote } from './resume.js';
import { nextPending, renderTestList } from './testList.js';

/** The model before the `started` event. */
export function initialTddModel(ctx: TddContext): TddModel {
  const cycle = cycleOf(ctx.before);
  return {
    stage: 'start',
    before: ctx.before,
    tdd: cycle.tdd ?? initialTdd(ctx.settings.plan ?? ctx.issue.body, ctx.issue.title),
    test: ctx.issue.title,
  };
}

/** The cycle's own commits may carry a newer note than the checkpoint knows. */
export function start(ctx: TddContext, m: TddModel): TddStep {
  const base = ctx.before.baseBranch;
  // Only this cycle's own commits: the base branch's history holds other issues' notes.
  if (ctx.git && base) return ask(m, 'notes', [{ kind: 'readNotes', range: `${base}..HEAD` }]);
  return afterSync(ctx, m, []);
}

export function afterNotes(ctx: TddContext, m: TddModel, e: Extract<TddEvent, { type: 'notesRead' }>): TddStep {
  const effects: TddEffect[] = e.invalid.map(({ commit, reason }) =>
    log('warn', 'tdd.note_invalid', `Ignored the git note on ${commit.slice(0, 12)}: ${reason}`),
  );
  const resumed = resumeFromNote(m.tdd, e.newest, cycleOf(ctx.before).baseTip);
  if (!resumed || !e.newest) return afterSync(ctx, m, effects);
  const { commit, note } = e.newest;
  effects.push(
    log(
      'info',
      'tdd.resumed',
      `Resuming the red/green/refactor workflow from the git note on ${commit.slice(0, 12)}: ${note.phase}` +
        ` done for "${note.current_test.description}", next ${note.next_phase}.`,
    ),
  );
  return afterSync(ctx, { ...m, tdd: resumed }, effects);
}

/** The test list is worked through, or the phase starts: its precondition first when the branch may have changed. */
function afterSync(ctx: TddContext, m: TddModel, effects: TddEffect[]): TddStep {
  let { before, tdd } = m;
  if (before.tddError) {
    // The run goes on after an abort (a person stepped in): the phase gets its attempts afresh.
    before = { ...before, tddError: undefined };
    tdd = { ...tdd, retries: 0, lastError: undefined };
  }
  if (nextPending(tdd.tests) === -1) {
    const done = cycleComplete(ctx, setTdd({ ...m, tdd }, before, {}));
    return finish({ ...m, before, tdd }, [...effects, ...done.effects], done.outcome);
  }
  if (tdd.tests[tdd.index]?.status !== 'pending') tdd = { ...tdd, index: nextPending(tdd.tests) };
  const next: TddModel = { ...m, before, tdd, test: tdd.tests[tdd.index]?.description ?? ctx.issue.title };
  // A phase that starts on a tree the engine did not test (the branch changed between runs) checks
  // its precondition first; a failed one is a step back, before any agent runs (issue 12).
  if (ctx.git && (tdd.phase === 'GREEN' || tdd.phase === 'REFACTOR') && tdd.retries === 0 && !tdd.phaseBase)
    return ask(next, 'checkHead', [...effects, { kind: 'readHead' }]);
  const step = phaseBase(ctx, next);
  return { ...step, effects: [...effects, ...step.effects] };
}

export function afterCheckHead(ctx: TddContext, m: TddModel, head: string): TddStep {
  if (m.tdd.lastCommit !== head) return checkTests(ctx, { ...m, head });
  return ask({ ...m, head }, 'checkWork', [{ kind: 'readWork', since: head }]);
}

export function checkTests(ctx: TddContext, m: TddModel): TddStep {
  const { tdd } = m;
  const head = m.head as string;
  return ask(m, 'checkTests', [
    log(
      'info',
      'tdd.precondition',
      `${tagOf(ctx, m)} the branch changed since the engine last tested it (${tdd.lastCommit?.slice(0, 12) ?? 'unknown'}` +
        ` → ${head.slice(0, 12)}): running the tests before ${tdd.phase} starts.`,
      { iteration: n(ctx), phase: tdd.phase },
    ),
    runTestsOf(ctx, tdd),
  ]);
}

export function afterCheckTests(ctx: TddContext, m: TddModel, e: Extract<TddEvent, { type: 'testsRan' }>): TddStep {
  const { tdd } = m;
  const targets = tdd.phase === 'RED' ? [] : tdd.targetTests;
  const back = phaseStart(
    tdd.phase,
    againstBaseline(e.seen, e.tests.run, ctx.baseline, targets),
    tdd.targetTests,
    m.test,
  );
  if (!back) return phaseBase(ctx, m);
  const bounces = (tdd.bounces ?? 0) + 1;
  const state = setTdd(m, m.before, {
    phase: back.back,
    retries: 0,
    phaseBase: undefined,
    lastError: back.error,
    bounces,
  });
  return finish(
    m,
    [
      log('warn', 'step.bounce', `${tagOf(ctx, m)} precondition failed: ${back.error.message}; back to ${back.back}.`, {
        iteration: n(ctx),
        from: tdd.phase,
        to: back.back,
        bounces,
      }),
    ],
    bounces > ctx.settings.maxRetriesPerStep
      ? {
          state,
          escalate: {
            reason: `${bounces} step-back transitions (${tdd.phase} → ${back.back}): ${back.error.message}`,
            bounceLoop: true,
          },
        }
      : { state },
  );
}

/** The commit the phase starts from (its rollback target): kept across its attempts. */
export function phaseBase(ctx: TddContext, m: TddModel): TddStep {
  if (m.tdd.phaseBase === undefined && ctx.git) return ask(m, 'phaseBase', [{ kind: 'readHead' }]);
  return runAgent(ctx, { ...m, tdd: { ...m.tdd, phaseBase: m.tdd.phaseBase } });
}

export function runAgent(ctx: TddContext, m: TddModel): TddStep {
  const { tdd, test } = m;
  const { issue, settings } = ctx;
  const template = ctx.templates?.[tdd.phase] ?? DEFAULT_TEMPLATES[tdd.phase];
  const prompt = renderPrompt(template, {
    issue: `${issue.id}: ${issue.title}\n\n${issue.body.trim() || '(no description)'}`,
    test,
    tests: renderTestList(tdd.tests),
    testCommand: settings.testCommand,
    testFile: tdd.testFile || '(see the last commit)',
    failure: tdd.lastError ? failureSection(tdd.lastError.message, tdd.lastError.details) : '',
    attempt: `${tdd.retries + 1} of ${TDD_MAX_RETRIES + 1}`,
  });
  const role = tdd.phase === 'RED' ? 'test agent' : tdd.phase === 'GREEN' ? 'implementing agent' : 'refactor agent';
  return ask(m, 'agent', [
    log('info', 'iteration.start', `${tagOf(ctx, m)} ${issue.id} "${test}" (${role}) …`, {
      iteration: n(ctx),
      issueIds: cycleOf(ctx.before).issueIds,
      phase: tdd.phase,
      test,
    }),
    {
      kind: 'runAgent',
      state: m.before,
      prompt,
      what: `the ${tdd.phase} work of iteration ${n(ctx)}`,
      tdd: { phase: tdd.phase, test },
    },
  ]);
}
