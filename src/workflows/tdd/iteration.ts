/**
 * One iteration of the red/green/refactor workflow (--workflow tdd, seed 003): one agent run for
 * the current phase of the current test, the tests, then decide.ts's decision carried out: a phase
 * commit with its git note, a retry with the failure as context, a skipped test, a rolled-back
 * refactoring, or an abort that halts the run with the error type. Agent failures follow seed 003
 * too: rate limits back off without limit, network timeouts are retried 3 times, anything else
 * counts as a failed attempt of the phase.
 */
import { MiB, readInput } from '../../util/readInput.js';
import path from 'node:path';
import type { AgentResult } from '../../agents/types.js';
import type { SliceDeps, Workflow } from '../../loop/deps.js';
import type { TddTemplates } from './settings.js';
import type { IssueAction, IterationOutcome } from '../../core/events.js';
import { afterFailure, agentTurn, agentUnavailable } from '../../loop/turn.js';
import type { SuiteRun } from '../../verdict/results.js';
import { againstBaseline } from './baseline.js';
import {
  type CycleState,
  type IterationRecord,
  type LoopState,
  type TddCycle,
  appendHistory,
} from '../../core/state.js';
import { rfc3339 } from '../../util/clock.js';
import {
  type PhaseDecision,
  type PhaseError,
  type TestsSeen,
  TDD_MAX_RETRIES,
  decidePhase,
  phaseStart,
} from './decide.js';
import { type NotesGit, type TddNote, type TddPhase, newestNote, notesGit, writeNote } from './notes.js';
import { DEFAULT_TEMPLATES, failureSection, renderPrompt } from './prompts.js';
import { markTest, nextPending, parseTestList, renderTestList } from './testList.js';
import { failuresFromOutput } from '../../verdict/consoleFailures.js';
import { parseJUnitXml } from '../../verdict/junit.js';
import { summariseFailures } from '../../verdict/testReport.js';

/**
 * --workflow tdd: red/green/refactor per test of the issue's checklist, one issue per cycle;
 * `templates` (--tdd-prompts) replace the built-in prompts by phase.
 */
export function tddWorkflow(templates?: TddTemplates): Workflow {
  return {
    name: 'tdd',
    batches: false,
    iterate: (deps, state, baseline) => runTddIteration(deps, state, baseline, templates),
  };
}

export async function runTddIteration(
  deps: SliceDeps,
  initial: LoopState,
  baseline?: SuiteRun,
  templates?: TddTemplates,
): Promise<IterationOutcome> {
  let before = initial;
  const { settings, logger, clock, source, agent, git } = deps;
  const notes = git ? notesGit(git.topLevel) : undefined;
  const cycle = before.currentCycle as CycleState;
  const [issueId = ''] = cycle.issueIds;
  const issue = (await source.get(issueId)) ?? { id: issueId, title: cycle.titles[0] ?? issueId, body: '' };
  let tdd = await syncWithNotes(
    deps,
    notes,
    before.baseBranch,
    cycle.tdd ?? initialTdd(settings.plan ?? issue.body, issue.title),
  );
  if (before.tddError) {
    // The run goes on after an abort (a person stepped in): the phase gets its attempts afresh.
    before = { ...before, tddError: undefined };
    tdd = { ...tdd, retries: 0, lastError: undefined };
  }
  const setTdd = (s: LoopState, patch: Partial<TddCycle>): LoopState => ({
    ...s,
    currentCycle: { ...(s.currentCycle as CycleState), tdd: { ...tdd, ...patch } },
  });
  if (nextPending(tdd.tests) === -1) return finishCycle(deps, setTdd(before, {}), issueId);
  if (tdd.tests[tdd.index]?.status !== 'pending') tdd = { ...tdd, index: nextPending(tdd.tests) };

  const n = before.iteration + 1;
  const test = tdd.tests[tdd.index]?.description ?? issue.title;
  const tag = `[iteration ${n}/${settings.maxIterations}] ${tdd.phase} ${tdd.round}`;
  const junit = settings.junitFile ? path.resolve(deps.cwd, settings.junitFile) : undefined;

  // A phase that starts on a tree the engine did not test (the branch changed between runs) checks
  // its precondition first; a failed one is a step back, before any agent runs (issue 12).
  if (git && (tdd.phase === 'GREEN' || tdd.phase === 'REFACTOR') && tdd.retries === 0 && !tdd.phaseBase) {
    const head = await git.head();
    if (tdd.lastCommit !== head || (await git.hasWorkSince(head))) {
      logger.info(
        'tdd.precondition',
        `${tag} the branch changed since the engine last tested it (${tdd.lastCommit?.slice(0, 12) ?? 'unknown'} → ${head.slice(0, 12)}): running the tests before ${tdd.phase} starts.`,
        { iteration: n, phase: tdd.phase },
      );
      const run = await deps.runTests(settings.testCommand, deps.signal, 'verify');
      if (deps.signal?.aborted) return { state: before, interrupted: true };
      const back = phaseStart(
        tdd.phase,
        againstBaseline(await testsSeen(run, junit), run.run, baseline),
        tdd.targetTests,
        test,
      );
      if (back) {
        const bounces = (tdd.bounces ?? 0) + 1;
        logger.warn('step.bounce', `${tag} precondition failed: ${back.error.message}; back to ${back.back}.`, {
          iteration: n,
          from: tdd.phase,
          to: back.back,
          bounces,
        });
        const state = setTdd(before, {
          phase: back.back,
          retries: 0,
          phaseBase: undefined,
          lastError: back.error,
          bounces,
        });
        if (bounces > settings.maxRetriesPerStep)
          return {
            state,
            escalate: {
              reason: `${bounces} step-back transitions (${tdd.phase} → ${back.back}): ${back.error.message}`,
              bounceLoop: true,
            },
          };
        return { state };
      }
    }
  }
  const phaseBase = tdd.phaseBase ?? (git ? await git.head() : undefined);
  tdd = { ...tdd, phaseBase };

  const template = templates?.[tdd.phase] ?? DEFAULT_TEMPLATES[tdd.phase];
  const prompt = (deps.redact ?? ((t: string) => t))(
    renderPrompt(template, {
      issue: `${issue.id}: ${issue.title}\n\n${issue.body.trim() || '(no description)'}`,
      test,
      tests: renderTestList(tdd.tests),
      testCommand: settings.testCommand,
      testFile: tdd.testFile || '(see the last commit)',
      failure: tdd.lastError ? failureSection(tdd.lastError.message, tdd.lastError.details) : '',
      attempt: `${tdd.retries + 1} of ${TDD_MAX_RETRIES + 1}`,
    }),
  );
  logger.info(
    'iteration.start',
    `${tag} ${issue.id} "${test}" (${tdd.phase === 'RED' ? 'test agent' : tdd.phase === 'GREEN' ? 'implementing agent' : 'refactor agent'}) …`,
    { iteration: n, issueIds: cycle.issueIds, phase: tdd.phase, test },
  );

  const turn = await agentTurn(deps, before, prompt, `the ${tdd.phase} work of iteration ${n}`);
  if (!turn) return { state: before, interrupted: true };
  const { result, record, started } = turn;
  let state: LoopState = { ...turn.state, currentCycle: { ...(turn.state.currentCycle as CycleState), tdd } };
  const close = (s: LoopState, outcome: IterationRecord['outcome'], decision: string, error?: PhaseError): LoopState =>
    appendHistory(s, {
      ...record,
      outcome,
      durationMs: clock.now().getTime() - started.getTime(),
      tdd: { phase: tdd.phase, test, decision, ...(error ? { error: error.type } : {}) },
    });
  // Moved behind the engine's back: the phase is not judged or committed.
  if (turn.moved) return { state: close(state, 'repository_moved', 'halt'), halt: turn.moved };
  const abort = async (s: LoopState, error: PhaseError, attempts: number): Promise<IterationOutcome> => {
    const tddError = { ...error, retry_count: attempts, timestamp: rfc3339(clock.now()) };
    let aborted = s;
    if (notes && git) {
      // The failed attempt is kept as a wip: commit of the cycle's branch, carrying the error's note
      // (never a note on the base branch's commit, where the next issue's cycle would find it).
      await git.commitAll(`wip: ${tdd.phase} aborted (${error.type}): ${test}`.slice(0, 120), { allowEmpty: true });
      const commit = await git.head();
      await writeNote(notes, commit, noteOf(tdd, test, tdd.phase, tdd.phase, 'FAIL', tddError));
      tdd = { ...tdd, lastCommit: commit };
      aborted = setTdd(s, { lastCommit: commit });
    }
    logger.error('tdd.aborted', `${tag} ${error.type}: ${error.message}. Commits and notes are kept for inspection.`, {
      iteration: n,
      type: error.type,
      phase: tdd.phase,
    });
    return {
      state: close({ ...aborted, tddError }, 'stuck', 'abort', error),
      halt: {
        reason: 'workflow_aborted',
        message: `TDD WORKFLOW ABORTED (${error.type}) at ${tdd.phase} for "${test}": ${error.message}`,
      },
    };
  };

  // The agent's own failures (seed 003: rate limits, network timeouts; anything else is a failed attempt).
  if (result.failure) {
    const failure = result.failure;
    // The same policy table and executor as the implement workflow; seed 003's abort is this workflow's "escalate".
    const counted = afterFailure(state, failure);
    const d = counted.decision;
    logger.event(
      'iteration.failed',
      failure.class === 'permanent' ? 'error' : 'warn',
      `${agent.displayName} iteration ${n} failed: ${failure.message} (${failure.class} ${failure.reason})`,
      { iteration: n, class: failure.class, reason: failure.reason, policy: d.kind },
    );
    state = counted.state;
    if (d.exhausted === 'halt')
      return { state: close(state, 'agent_failed', 'halt'), halt: agentUnavailable(d.attempts, failure) };
    if (d.kind === 'rate_limit') {
      logger.warn('tdd.rate_limited', `${tag} API_RATE_LIMIT: retry ${d.attempts} after the backoff.`);
      return {
        state: close(state, 'agent_failed', 'backoff', {
          type: 'API_RATE_LIMIT',
          message: failure.message,
          details: '',
        }),
        waitMs: d.waitMs,
      };
    }
    if (d.kind === 'timeout') {
      const error: PhaseError = {
        type: 'NETWORK_TIMEOUT',
        message: `${failure.message} (${d.attempts} attempts with the same timeout)`,
        details: result.outputTail.slice(-2000),
      };
      if (d.exhausted === 'escalate') return abort(state, error, d.attempts);
      return { state: close(state, 'agent_failed', 'retry', error) };
    }
    if (!d.countsTowardStep) return { state: close(state, 'agent_failed', 'retry') };
    const error: PhaseError = {
      type: 'WORKFLOW_ABORTED',
      message: `the ${tdd.phase} agent failed: ${failure.message}`,
      details: result.outputTail.slice(-2000),
    };
    if (tdd.retries >= TDD_MAX_RETRIES) return abort(state, error, tdd.retries + 1);
    state = setTdd(state, { retries: tdd.retries + 1, lastError: error });
    return { state: close(state, 'agent_failed', 'retry', error) };
  }
  state = {
    ...state,
    successfulIterations: state.successfulIterations + 1,
    environmentFailures: 0,
    currentCycle: { ...(state.currentCycle as CycleState), timeoutRetries: 0, rateLimitAttempts: 0 },
  };

  // The tests, and what they say about this phase.
  logger.info('tests.start', `${tag} running the tests: ${settings.testCommand}`, {
    iteration: n,
    command: settings.testCommand,
  });
  // The test command's runner removes a stale report before the run and reads the new one (src/loop/testGate.ts).
  const run = await deps.runTests(settings.testCommand, deps.signal, 'verify');
  if (deps.signal?.aborted) return { state: before, interrupted: true };
  record.tests = { passed: run.passed, exitCode: run.exitCode, durationMs: Math.round(run.durationMs) };
  state = { ...state, testsPassed: run.passed, ...(run.passed ? {} : { testFailures: state.testFailures + 1 }) };
  // Judged against the cycle's baseline when both runs are read per test: only new failures count (issue 12).
  const seen = againstBaseline(await testsSeen(run, junit), run.run, baseline);
  const decision = decidePhase({
    phase: tdd.phase,
    description: test,
    changed: git && phaseBase ? await git.hasWorkSince(phaseBase) : true,
    reportedDuplicate: isDuplicateReport(result),
    tests: seen,
    targetTests: tdd.targetTests,
    retries: tdd.retries,
  });
  return apply(decision);

  async function apply(d: PhaseDecision): Promise<IterationOutcome> {
    switch (d.kind) {
      case 'retry': {
        logger.warn(
          'tdd.retry',
          `${tag} ${d.error.type}: ${d.error.message}; the agent tries again with the failures.`,
          { iteration: n, type: d.error.type },
        );
        state = setTdd(state, { retries: tdd.retries + 1, lastError: d.error });
        return { state: close(state, 'tests_failed', 'retry', d.error) };
      }
      case 'abort':
        return abort(state, d.error, tdd.retries + 1);
      case 'skip': {
        if (git && phaseBase) await git.resetHard(phaseBase);
        logger.warn(
          'tdd.skipped',
          `${tag} ${d.error.type}: ${d.error.message}; "${test}" is marked ${d.mark} and skipped.`,
          { iteration: n, type: d.error.type },
        );
        return advance(markTest(tdd.tests, tdd.index, d.mark), 'continuing', 'skip', d.error);
      }
      case 'rollback': {
        if (git && phaseBase) {
          await git.resetHard(phaseBase);
          await git.commitAll(d.message, { allowEmpty: true });
          if (notes)
            await writeNote(
              notes,
              await git.head(),
              noteOf(tdd, test, 'REFACTOR', 'RED', 'PASS', {
                ...d.error,
                retry_count: tdd.retries + 1,
                timestamp: rfc3339(clock.now()),
              }),
            );
        }
        logger.warn(
          'tdd.rolled_back',
          `${tag} ${d.error.message}: the refactoring is rolled back to ${phaseBase?.slice(0, 12)}; committed "${d.message}".`,
          { iteration: n },
        );
        return advance(
          markTest(tdd.tests, tdd.index, 'done'),
          'continuing',
          'rollback',
          d.error,
          git ? await git.head() : undefined,
        );
      }
      case 'commit': {
        let testFile = tdd.testFile;
        let targetTests = tdd.targetTests;
        if (tdd.phase === 'RED') {
          targetTests = seen.failing;
          testFile = git && phaseBase ? pickTestFile(await git.changedFiles(phaseBase)) : '';
        }
        let commit: string | undefined;
        if (git) {
          await git.commitAll(d.message, { allowEmpty: true });
          commit = await git.head();
          if (notes)
            await writeNote(
              notes,
              commit,
              noteOf({ ...tdd, testFile }, test, tdd.phase, d.next === 'next-test' ? 'RED' : d.next, d.testResult),
            );
        }
        logger.info(
          'tdd.committed',
          `${tag} ${d.message}${commit ? ` (${commit.slice(0, 12)})` : ''}; next: ${d.next === 'next-test' ? 'the next test' : d.next}.`,
          { iteration: n, phase: tdd.phase, commit },
        );
        if (d.next === 'next-test')
          return advance(markTest(tdd.tests, tdd.index, 'done'), 'continuing', 'commit', undefined, commit);
        state = setTdd(state, {
          phase: d.next,
          retries: 0,
          phaseBase: undefined,
          lastError: undefined,
          targetTests,
          testFile,
          ...(commit ? { lastCommit: commit } : {}),
        });
        return { state: close(state, 'continuing', 'commit') };
      }
    }
  }

  /** On to the next pending test (RED of the next round), or the cycle is done. */
  async function advance(
    tests: TddCycle['tests'],
    outcome: IterationRecord['outcome'],
    decision: string,
    error?: PhaseError,
    commit?: string,
  ): Promise<IterationOutcome> {
    const next = nextPending(tests);
    state = setTdd(state, {
      tests,
      index: next === -1 ? tdd.index : next,
      phase: 'RED',
      round: tdd.round + 1,
      retries: 0,
      phaseBase: undefined,
      lastError: undefined,
      targetTests: [],
      testFile: '',
      ...(commit ? { lastCommit: commit } : {}),
    });
    if (next !== -1) return { state: close(state, outcome, decision, error) };
    const done = await finishCycle(deps, state, issueId);
    return { ...done, state: close(done.state, 'complete', decision, error) };
  }
}

function initialTdd(text: string, title: string): TddCycle {
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
 * phase after the last successful commit". A note newer than the checkpoint's last commit means a
 * run died between writing them: the note wins.
 */
async function syncWithNotes(
  deps: SliceDeps,
  notes: NotesGit | undefined,
  base: string | undefined,
  tdd: TddCycle,
): Promise<TddCycle> {
  if (!notes || !base) return tdd;
  // Only this cycle's own commits: the base branch's history holds other issues' notes.
  const newest = await newestNote(notes, `${base}..HEAD`, {
    onInvalid: (commit, reason) =>
      deps.logger.warn('tdd.note_invalid', `Ignored the git note on ${commit.slice(0, 12)}: ${reason}`),
  });
  // The newest note of the cycle's branch is the truth: after a crash between the commit and the
  // checkpoint, and after a person reset the branch by hand.
  if (!newest || newest.commit === tdd.lastCommit) return tdd;
  const { note } = newest;
  let tests = tdd.tests;
  let index = tests.findIndex((t) => t.description === note.current_test.description);
  if (index === -1) {
    tests = [...tests, { description: note.current_test.description, status: 'pending' }];
    index = tests.length - 1;
  }
  if (note.phase === 'REFACTOR' && note.next_phase === 'RED') tests = markTest(tests, index, 'done');
  const resumed: TddCycle = {
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
  };
  deps.logger.info(
    'tdd.resumed',
    `Resuming the red/green/refactor workflow from the git note on ${newest.commit.slice(0, 12)}: ${note.phase} done for "${note.current_test.description}", next ${note.next_phase}.`,
  );
  return resumed;
}

/** Closes the issue unless a pull request will (as the implement workflow does). */
async function finishCycle(deps: SliceDeps, state: LoopState, issueId: string): Promise<IterationOutcome> {
  const tests = state.currentCycle?.tdd?.tests ?? [];
  const skipped = tests.filter((t) => t.status === 'problematic' || t.status === 'duplicate');
  const how = `${tests.length - skipped.length} of ${tests.length} test(s) done (red, green, refactor)${skipped.length ? `; skipped: ${skipped.map((t) => `"${t.description}" (${t.status})`).join(', ')}` : ''}`;
  const issueActions: IssueAction[] =
    deps.settings.onSuccess === 'pull-request'
      ? []
      : [
          {
            kind: 'close',
            id: issueId,
            note: `agent-loop: red/green/refactor finished at iteration ${state.iteration}: ${how}`,
          },
        ];
  deps.logger.info('cycle.complete', `${issueId}: the test list is worked through: ${how}.`, {
    issueIds: [issueId],
    skipped: skipped.length,
  });
  return {
    state: {
      ...state,
      consecutiveEscalations: 0,
      issuesClosed: [...state.issuesClosed.filter((id) => id !== issueId), issueId],
      completedIterations: [...state.completedIterations, state.iteration],
    },
    cycleDone: true,
    issueActions,
  };
}

async function testsSeen(run: { passed: boolean; tail: string }, junit: string | undefined): Promise<TestsSeen> {
  const xml = junit
    ? (() => {
        try {
          return readInput(junit, 64 * MiB);
        } catch {
          return undefined;
        }
      })()
    : undefined;
  if (xml !== undefined) {
    const report = parseJUnitXml(xml);
    const failing = report.failed.map((f) =>
      f.classname && !f.name.startsWith(f.classname) ? `${f.classname} › ${f.name}` : f.name,
    );
    // A run that failed with no failing testcase in the report: it did not compile, or nothing ran
    // (jest-junit leaves a suite that fails to compile out of the report).
    return {
      passed: run.passed,
      failing,
      compileError: !run.passed && report.failed.length === 0,
      summary: report.failed.length > 0 ? summariseFailures(report) : run.tail.slice(-4000),
    };
  }
  const failures = run.passed ? [] : failuresFromOutput(run.tail);
  return {
    passed: run.passed,
    failing: failures.map((f) => f.name),
    compileError: !run.passed && failures.length === 0,
    summary:
      failures.length > 0
        ? `${failures.length} failing test(s):\n${failures
            .slice(0, 10)
            .map((f) => `- ${f.name}: ${f.message.split('\n')[0]}`)
            .join('\n')}\n\n${run.tail.slice(-2000)}`
        : run.tail.slice(-4000),
  };
}

function isDuplicateReport(result: AgentResult): boolean {
  const value = result.report?.fields.duplicate_test;
  return value === true || value === 'true';
}

/** The test file among the files RED changed: a path that looks like a test, else the first. */
function pickTestFile(files: string[]): string {
  return (
    files.find((f) =>
      /(^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]+\.py$|_test\.go$/i.test(f),
    ) ??
    files[0] ??
    ''
  );
}

function noteOf(
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
