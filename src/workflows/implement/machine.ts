/**
 * The implement workflow's iteration as a sub-machine of the core (src/core/iteration.ts), pure:
 * the cycle's issues read, what they must make pass (their agent-loop block, or the tests their
 * text names), the prompt, the agent's run, then what stepIteration (decide.ts) decides after each
 * observation. The core asks its effects (readCycleIssues, runAgent, readClosed, judge) and folds
 * its outcome into the loop state; the interpreter performs them (src/loop/effects/agent.ts, judge.ts).
 */
import type { CycleIssue, Effect, IterationOutcome } from '../../core/events.js';
import { log } from '../../core/events.js';
import { WORKFLOWS } from '../../core/cycle.js';
import { describeTargets } from '../../core/describe.js';
import { cycleInFlight } from '../../core/inFlight.js';
import {
  type IterationEffect,
  type IterationEvent,
  type IterationMachine,
  type IterationStart,
  type IterationStep,
  readingIssuesFirst,
} from '../../core/iteration.js';
import type { LoopState } from '../../core/state.js';
import { turnState } from '../../loop/turn.js';
import { failedIds } from '../../verdict/results.js';
import { targetsToCreate } from '../../verdict/judge.js';
import { type IssueTargets, issueTargets, joinIssueTexts } from '../../verdict/targets.js';
import {
  type IterationContext,
  type IterationEffect as DecideEffect,
  type IterationModel,
  cannotVerify,
  escalateUnverifiable,
  stepIteration,
} from './decide.js';
import { buildPrompt } from './prompt.js';

const WORKFLOW = WORKFLOWS.implement;

/** What the implement machine knows for the whole slice. */
export interface ImplementSettings {
  settings: IterationContext['settings'] & { plan?: string };
  agentName: string;
  /** The source can label an issue as needing no change for a person to close (GitHub). */
  canMarkNoChange: boolean;
  /** The source, in words (the prompt names where the issues live). */
  sourceHint: string;
}

/** The machine's model: the iteration's start, then (once the agent is to run) its context and decide.ts's model. */
interface Sub extends IterationStart {
  targets?: IssueTargets;
  ctx?: IterationContext;
  model?: IterationModel;
}

export function implementMachine(s: ImplementSettings): IterationMachine {
  return readingIssuesFirst<Sub>((sub, event) => stepImplement(s, sub, event));
}

function stepImplement(s: ImplementSettings, sub: Sub, event: IterationEvent): IterationStep {
  if (event.type === 'cycleIssuesRead') return issuesRead(s, sub, event.issues);
  const ctx = sub.ctx;
  if (!ctx || !sub.model) throw new Error(`agent-loop: an implement iteration got ${event.type} before its agent ran`);
  if (event.type === 'agentRan') {
    const turn = turnState(ctx.before, new Date(event.started), event.result);
    const at: IterationContext = { ...ctx, startedAt: event.started };
    const stepped = stepIteration(
      at,
      { state: ctx.before, record: turn.record },
      {
        type: 'agentRan',
        result: event.result,
        state: turn.state,
        record: turn.record,
        ...(event.moved ? { moved: event.moved } : {}),
        now: event.now,
        deniedEverything: event.deniedEverything,
      },
    );
    return answer(s, { ...sub, ctx: at }, stepped.model, stepped.effects);
  }
  if (event.type !== 'closedRead' && event.type !== 'judged')
    throw new Error(`agent-loop: an implement iteration does not ask for what answers ${event.type}`);
  const stepped = stepIteration(ctx, sub.model, event);
  return answer(s, sub, stepped.model, stepped.effects);
}

/**
 * The cycle's issues read: what they must make pass, as the cycle's first iteration read them (the
 * agent can edit its own issue in a beads file: until 2026-11-28 an agent that removed the test its
 * issue named, or its verify:, had the next iteration's verdict take no target, and the issue was
 * closed with nothing fixed); then the prompt and the agent's run, or an escalation when the
 * issue's agent-loop block cannot be read (nothing the agent did could be verified).
 */
function issuesRead(s: ImplementSettings, sub: Sub, issues: CycleIssue[]): IterationStep {
  const { settings } = s;
  const read = cycleInFlight(sub.before);
  const n = sub.before.iteration + 1;
  const targetsText = read.targetsText ?? joinIssueTexts(issues.map((i) => `${i.title}\n${i.body}`));
  const cycle = read.targetsText === undefined ? { ...read, targetsText } : read;
  const before: LoopState = cycle === read ? sub.before : { ...sub.before, currentCycle: cycle };
  const targets = issueTargets(targetsText, sub.baseline);
  const tag = `[iteration ${n}/${settings.maxIterations}]`;
  if (targets.unreadable) {
    const reason = cannotVerify(targets.unreadable);
    const said = `${tag} ${describeTargets(cycle)}: ${reason}. Escalated before any agent run.`;
    return finish(
      s,
      { ...sub, before },
      [log('error', 'issue.targets', said, { iteration: n })],
      escalateUnverifiable(settings, before, reason),
    );
  }
  const prompt = buildPrompt({
    issues,
    iteration: n,
    maxIterations: settings.maxIterations,
    testCommand: settings.testCommand,
    plan: settings.plan,
    lastFailure: cycle.lastFailure,
    sourceHint: s.sourceHint,
    ...(sub.baseline ? { failingBefore: failedIds(sub.baseline).filter((id) => !targets.tests.includes(id)) } : {}),
    proof: {
      test: targets.tests.length === 0 && targets.verify.length === 0,
      write: sub.baseline ? targetsToCreate(sub.baseline, targets.tests) : [],
    },
  });
  const ctx: IterationContext = {
    settings,
    agentName: s.agentName,
    before,
    targets,
    canMarkNoChange: s.canMarkNoChange,
    startedAt: 0,
  };
  const effects: Effect[] = [
    log('info', 'iteration.start', `${tag} ${describeTargets(cycle)} …`, {
      iteration: n,
      issueIds: cycle.issueIds,
      step: WORKFLOW[cycle.progress.index],
    }),
    { kind: 'runAgent', prompt, what: `the work of iteration ${n}` },
  ];
  return { sub: { ...sub, before, targets, ctx, model: { state: before, record: EMPTY_RECORD } }, effects };
}

/** decide.ts's effects as the core's: its `judge` with the targets and the baseline, its `finish` with the reason masked. */
function answer(s: ImplementSettings, sub: Sub, model: IterationModel, effects: DecideEffect[]): IterationStep {
  const out: IterationEffect[] = effects.map((e) => {
    if (e.kind === 'judge')
      return {
        kind: 'judge',
        targets: sub.targets as IssueTargets,
        ...(sub.baseline ? { baseline: sub.baseline } : {}),
      };
    if (e.kind === 'finish') return { kind: 'finish', outcome: e.outcome };
    return e;
  });
  return { sub: { ...sub, model }, effects: out };
}

function finish(s: ImplementSettings, sub: Sub, effects: Effect[], outcome: IterationOutcome): IterationStep {
  return { sub, effects: [...effects, { kind: 'finish', outcome: outcome }] };
}

/** No record before the agent ran (decide.ts's model gets the turn's). */
const EMPTY_RECORD: IterationModel['record'] = {
  n: 0,
  issueIds: [],
  startedAt: '',
  durationMs: 0,
  outcome: 'continuing',
  agent: { ok: true, exitCode: 0, signal: null, durationMs: 0 },
};
