/**
 * One iteration of the red/green/refactor workflow (--workflow tdd, seed 003), performed: one agent
 * run for the current phase of the current test, the tests, then the phase's commit with its git
 * note, a retry, a skipped test, a rolled-back refactoring or an abort. What to do after each
 * observation is decided by stepTdd (step.ts, pure); this file only performs its effects (log; read
 * the notes, HEAD, the work, the changed files; run the tests and the agent; commit, reset, write a
 * note) and feeds back what happened.
 */
import { MiB, readInput } from '../../util/readInput.js';
import path from 'node:path';
import type { SliceDeps, TestOutcome, Workflow } from '../../loop/deps.js';
import type { TddTemplates } from './settings.js';
import type { IterationOutcome } from '../../core/events.js';
import { agentRan, agentTurn } from '../../loop/turn.js';
import { interpret } from '../../loop/interpret.js';
import type { SuiteRun } from '../../verdict/results.js';
import type { CycleState, LoopState } from '../../core/state.js';
import type { TestsSeen } from './decide.js';
import { newestNote, notesGit, writeNote } from './notes.js';
import { type TddContext, type TddEffect, type TddEvent, type TddModel, initialTddModel, stepTdd } from './step.js';
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
    // The step the cycle in flight runs next, as the run's stage in its checkpoint (state.stage).
    stage: (state) => {
      const phase = state.currentCycle?.tdd?.phase;
      return phase === 'RED' ? 'red' : phase === 'GREEN' ? 'green' : phase === 'REFACTOR' ? 'refactor' : undefined;
    },
  };
}

export async function runTddIteration(
  deps: SliceDeps,
  before: LoopState,
  baseline?: SuiteRun,
  templates?: TddTemplates,
): Promise<IterationOutcome> {
  const { settings, logger, clock, source, git } = deps;
  // The environment is the process's (gitRunner's default); the commit author the run was given.
  const notes = git ? notesGit(git.topLevel, undefined, git.author) : undefined;
  const cycle = before.currentCycle as CycleState;
  const [issueId = ''] = cycle.issueIds;
  const issue = (await source.get(issueId)) ?? {
    id: issueId,
    title: cycle.titles[0] ?? issueId,
    body: '',
    labels: [],
    type: undefined,
  };
  const junit = settings.junitFile ? path.resolve(deps.cwd, settings.junitFile) : undefined;
  const ctx: TddContext = {
    settings,
    agentName: deps.agent.displayName,
    before,
    issue: {
      id: issue.id,
      title: issue.title,
      body: issue.body,
      labels: issue.labels,
      ...(issue.type ? { type: issue.type } : {}),
    },
    git: git !== undefined,
    ...(baseline ? { baseline } : {}),
    ...(templates ? { templates } : {}),
  };
  const repo = () => {
    if (!git || !notes) throw new Error('a tdd iteration asked for git where there is none');
    return { git, notes };
  };

  const perform = async (effect: TddEffect): Promise<TddEvent | IterationOutcome | undefined> => {
    switch (effect.kind) {
      case 'log':
        logger[effect.level](effect.event, effect.message, effect.data);
        return undefined;
      case 'readNotes': {
        const invalid: { commit: string; reason: string }[] = [];
        const newest = await newestNote(repo().notes, effect.range, {
          onInvalid: (commit, reason) => invalid.push({ commit, reason }),
        });
        return { type: 'notesRead', ...(newest ? { newest } : {}), invalid };
      }
      case 'readHead':
        return { type: 'headRead', head: await repo().git.head() };
      case 'readWork':
        return { type: 'workRead', changed: await repo().git.hasWorkSince(effect.since) };
      case 'readChangedFiles':
        return { type: 'filesRead', files: await repo().git.changedFiles(effect.since) };
      case 'runTests': {
        // The test command's runner removes a stale report before the run and reads the new one (src/loop/testGate.ts).
        const tests = await deps.runTests(settings.testCommand, deps.signal, 'verify');
        if (deps.signal?.aborted) return { type: 'interrupted' };
        return { type: 'testsRan', tests, seen: await testsSeen(tests, junit), now: clock.now().getTime() };
      }
      case 'runAgent': {
        // The previous failure's output goes back to the agent: masked where it entered the engine.
        const turn = await agentTurn(deps, effect.state, effect.prompt, effect.what, effect.tdd);
        if (!turn) return { type: 'interrupted' };
        return { ...agentRan(turn, clock.now().getTime()), startedAt: turn.started.getTime() };
      }
      case 'commit':
        await repo().git.commitAll(effect.message, { allowEmpty: true });
        return undefined;
      case 'reset':
        await repo().git.resetHard(effect.to);
        return undefined;
      case 'writeNote':
        await writeNote(repo().notes, effect.commit, effect.note);
        return { type: 'noteWritten', now: clock.now().getTime() };
      case 'finish':
        return effect.outcome;
    }
  };
  return interpret<TddModel, TddEvent, TddEffect, IterationOutcome>(
    (model, event) => stepTdd(ctx, model, event),
    { model: initialTddModel(ctx), event: { type: 'started' } },
    perform,
    'a tdd iteration',
  );
}

/** What a test run says: the failing tests by name (the JUnit report, else the runner's output). */
async function testsSeen(run: TestOutcome, junit: string | undefined): Promise<TestsSeen> {
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
