/**
 * The red/green/refactor workflow's iteration as a sub-machine of the core (src/core/iteration.ts),
 * pure: the cycle's issue read, then what stepTdd (step.ts) decides after each observation. Its
 * effects are the core's (readNotes, readHead, readWork, readChangedFiles, runTests, runAgent,
 * commit, reset, writeNote), performed by the interpreter's handlers (src/loop/effects/); the core
 * folds its outcome into the loop state.
 */
import type { CycleIssue } from '../../core/events.js';
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
import { type TddContext, type TddEffect, type TddEvent, type TddModel, initialTddModel, stepTdd } from './step.js';
import type { TddTemplates } from './settings.js';

/** What the tdd machine knows for the whole slice. */
export interface TddSettings {
  settings: TddContext['settings'];
  agentName: string;
  /** There is git (phases are committed and noted). */
  git: boolean;
  templates?: TddTemplates;
}

/** The machine's model: the iteration's start, then its context and step.ts's model (with the state the agent runs from). */
interface Sub extends IterationStart {
  ctx?: TddContext;
  model?: TddModel;
  /** The state the pending agent run started from (its `runAgent`). */
  from?: LoopState;
}

export function tddMachine(s: TddSettings): IterationMachine {
  return readingIssuesFirst<Sub>((sub, event) => stepMachine(s, sub, event));
}

function stepMachine(s: TddSettings, sub: Sub, event: IterationEvent): IterationStep {
  if (event.type === 'cycleIssuesRead') {
    const ctx = context(s, sub, event.issues);
    return answer(s, { ...sub, ctx }, stepTdd(ctx, initialTddModel(ctx), { type: 'started' }));
  }
  const { ctx, model } = sub;
  if (!ctx || !model) throw new Error(`agent-loop: a tdd iteration got ${event.type} before it started`);
  return answer(s, sub, stepTdd(ctx, model, tddEvent(sub, event)));
}

/** The core's event as step.ts observes it: the agent's run counted from the state it started from. */
function tddEvent(sub: Sub, event: Exclude<IterationEvent, { type: 'cycleIssuesRead' }>): TddEvent {
  if (event.type === 'agentRan') {
    const turn = turnState(sub.from ?? sub.before, new Date(event.started), event.result);
    return {
      type: 'agentRan',
      result: event.result,
      state: turn.state,
      record: turn.record,
      ...(event.moved ? { moved: event.moved } : {}),
      now: event.now,
      startedAt: event.started,
    };
  }
  if (event.type === 'closedRead' || event.type === 'judged')
    throw new Error(`agent-loop: a tdd iteration does not ask for what answers ${event.type}`);
  return event;
}

/** The iteration's context: the cycle's one issue (its labels and type say whether GREEN's commit is a fix). */
function context(s: TddSettings, sub: Sub, issues: CycleIssue[]): TddContext {
  const [first] = cycleIssue(sub.before, issues);
  return {
    settings: s.settings,
    agentName: s.agentName,
    before: sub.before,
    issue: {
      id: first.id,
      title: first.title,
      body: first.body,
      labels: [...(first.labels ?? [])],
      ...(first.type ? { type: first.type } : {}),
    },
    git: s.git,
    ...(sub.baseline ? { baseline: sub.baseline } : {}),
    ...(s.templates ? { templates: s.templates } : {}),
  };
}

function cycleIssue(before: LoopState, issues: CycleIssue[]): [CycleIssue] {
  const id = before.currentCycle?.issueIds[0] ?? '';
  return [issues.find((i) => i.id === id) ?? { id, title: before.currentCycle?.titles[0] ?? id, body: '' }];
}

/** step.ts's effects as the core's: `runAgent` without its state (kept here for its answer), `finish` with the reason masked. */
function answer(s: TddSettings, sub: Sub, stepped: { model: TddModel; effects: TddEffect[] }): IterationStep {
  let from = sub.from;
  const effects: IterationEffect[] = stepped.effects.map((e) => {
    if (e.kind === 'runAgent') {
      from = e.state;
      return { kind: 'runAgent', prompt: e.prompt, what: e.what, tdd: e.tdd };
    }
    if (e.kind === 'finish') return { kind: 'finish', outcome: e.outcome };
    return e;
  });
  return { sub: { ...sub, model: stepped.model, ...(from ? { from } : {}) }, effects };
}
