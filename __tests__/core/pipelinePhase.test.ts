/**
 * One agent phase's attempts as a pure sub-machine (src/core/pipelinePhase.ts), and the plan's machine
 * that composes it with the pipeline's (src/core/plan.ts): no agent, no file, no clock.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { AgentFailure } from '../../src/failure/agentFailure.js';
import type { PhaseStep, PipelineSettings } from '../../src/core/pipeline.js';
import {
  type PhaseEffect,
  type PhaseEvent,
  type PhaseModel,
  type PhaseStart,
  RATE_LIMIT_BUDGET_MS,
  startPhase,
  stepPhase,
} from '../../src/core/pipelinePhase.js';
import { type PlanEffect, type PlanEvent, planModel, stepPlan } from '../../src/core/plan.js';

const START: PhaseStart = {
  phase: 'research',
  state: { pipeline: { goal: 'Build it' } },
  carried: [],
  runs: { iterations: 0, failedIterations: 0 },
};

/** Steps a phase from its start through `events`; the model, and every effect asked, in order. */
function phase(events: PhaseEvent[], settings: PipelineSettings = { maxRetries: 2, sinkWhere: 'bd' }, start = START) {
  const started = startPhase(start);
  let model: PhaseModel = started.model;
  const effects: PhaseEffect[] = [...started.effects];
  for (const event of events) {
    const stepped = stepPhase(model, event, settings);
    model = stepped.model;
    effects.push(...stepped.effects);
  }
  const kinds = effects.map((e) => (e.kind === 'log' ? `log ${e.event}` : e.kind));
  const end = effects.find((e) => e.kind === 'phaseEnded');
  return { model, effects, kinds, end: end?.kind === 'phaseEnded' ? end.end : undefined };
}

const opened: PhaseEvent = { type: 'phaseOpened' };
const prepared = (now = 0): PhaseEvent => ({
  type: 'attemptPrepared',
  prompt: 'the prompt',
  artifact: 'research.md',
  now,
});
const ok = (now = 0): PhaseEvent => ({ type: 'turnRan', now });
const failed = (failure: Omit<AgentFailure, 'message'>, now = 0): PhaseEvent => ({
  type: 'turnRan',
  now,
  failure: { ...failure, message: `simulated ${failure.reason}` },
});
const rateLimit = (retryAfterMs?: number) =>
  failed({ class: 'transient', reason: 'rate_limit', ...(retryAfterMs ? { retryAfterMs } : {}) });
const auth = () => failed({ class: 'permanent', reason: 'auth' });
const slept: PhaseEvent = { type: 'slept', interrupted: false };
const barrier = (problems: string[], now = 0): PhaseEvent => ({ type: 'artifactChecked', now, ok: false, problems });
const passed: PhaseEvent = { type: 'artifactChecked', now: 0, ok: true, value: 'the research' };

const turns = (effects: PhaseEffect[]) =>
  effects.flatMap((e) => (e.kind === 'agentTurn' ? [{ prompt: e.prompt, iteration: e.iteration }] : []));
const attemptLines = (effects: PhaseEffect[]) =>
  effects.flatMap((e) => (e.kind === 'log' && e.event === 'pipeline.attempt' ? [e.message] : []));

describe("an agent phase's attempts (issue 41: decided in the core)", () => {
  it('opens the phase, then prepares attempt 1 told what the resumed phase got wrong, and runs it as the next iteration', () => {
    const { effects } = phase([opened, prepared()], undefined, {
      ...START,
      carried: ['too short'],
      runs: { iterations: 4, failedIterations: 1 },
    });
    expect(effects).toEqual([
      { kind: 'openPhase', phase: 'research' },
      { kind: 'prepareAttempt', phase: 'research', state: START.state, problems: ['too short'] },
      {
        kind: 'log',
        level: 'info',
        event: 'pipeline.attempt',
        message: 'Phase research, attempt 1 of 3: the agent writes research.md …',
        data: { phase: 'research', attempt: 1 },
      },
      { kind: 'agentTurn', phase: 'research', prompt: 'the prompt', iteration: 5 },
    ]);
  });

  it('passes when the artifact passes its barrier: the value and the runs go to the pipeline', () => {
    const { kinds, end } = phase([opened, prepared(), ok(), passed]);
    expect(kinds).toEqual([
      'openPhase',
      'prepareAttempt',
      'log pipeline.attempt',
      'agentTurn',
      'checkArtifact',
      'phaseEnded',
    ]);
    expect(end).toEqual({
      type: 'phaseRan',
      ok: true,
      value: 'the research',
      runs: { iterations: 1, failedIterations: 0 },
    });
  });

  it('retries with what the barrier found, and fails the phase when the attempts (--max-retries + 1) are used up', () => {
    const { effects, end } = phase(
      [opened, prepared(1000), ok(), barrier(['too short'], 3500), prepared(), ok(), barrier(['no headings'])],
      { maxRetries: 1, sinkWhere: 'bd' },
    );
    expect(
      effects.filter((e) => e.kind === 'prepareAttempt').map((e) => e.kind === 'prepareAttempt' && e.problems),
    ).toEqual([[], ['too short']]);
    expect(effects.find((e) => e.kind === 'log' && e.event === 'pipeline.barrier')).toEqual({
      kind: 'log',
      level: 'warn',
      event: 'pipeline.barrier',
      message: 'Phase research, attempt 1 (2.5s): too short',
      data: { phase: 'research', attempt: 1, problems: ['too short'] },
    });
    expect(attemptLines(effects)).toEqual([
      'Phase research, attempt 1 of 2: the agent writes research.md …',
      'Phase research, attempt 2 of 2: the agent writes research.md …',
    ]);
    expect(end).toEqual({
      type: 'phaseRan',
      ok: false,
      problems: ['no headings'],
      runs: { iterations: 2, failedIterations: 0 },
    });
  });

  it('an agent failure is one of the attempts, and the next attempt is told how the agent failed', () => {
    const { effects } = phase([opened, prepared(), failed({ class: 'transient', reason: 'crash' })]);
    expect(effects.at(-1)).toEqual({
      kind: 'prepareAttempt',
      phase: 'research',
      state: START.state,
      problems: ['the agent failed: simulated crash (transient crash)'],
    });
  });

  it('waits out a rate limit as the policy says and runs the same attempt again: no attempt is used, every run its own iteration', () => {
    const { effects, model, end } = phase([
      opened,
      prepared(),
      rateLimit(30_000),
      slept,
      rateLimit(),
      slept,
      ok(),
      passed,
    ]);
    expect(effects.filter((e) => e.kind === 'sleep')).toEqual([
      { kind: 'sleep', ms: 30_000 },
      { kind: 'sleep', ms: 2_000 },
    ]);
    expect(effects.find((e) => e.kind === 'log' && e.event === 'pipeline.rate_limited')).toEqual({
      kind: 'log',
      level: 'warn',
      event: 'pipeline.rate_limited',
      message:
        'Phase research: the agent is rate limited (simulated rate_limit); waiting 30 s, then the same attempt again.',
      data: { phase: 'research', attempt: 1, waitMs: 30_000 },
    });
    expect(attemptLines(effects)).toHaveLength(1);
    expect(turns(effects)).toEqual([1, 2, 3].map((iteration) => ({ prompt: 'the prompt', iteration })));
    expect(model.waitedMs).toBe(32_000);
    expect(end).toEqual({
      type: 'phaseRan',
      ok: true,
      value: 'the research',
      runs: { iterations: 3, failedIterations: 2 },
    });
  });

  it('stops the phase, resumable, when waiting out the rate limit would take more than an hour', () => {
    const twentyMinutes = () => rateLimit(20 * 60_000);
    const { effects, end } = phase([
      opened,
      prepared(),
      ...[1, 2, 3].flatMap(() => [twentyMinutes(), slept]),
      twentyMinutes(),
    ]);
    expect(effects.filter((e) => e.kind === 'sleep')).toHaveLength(3);
    expect(RATE_LIMIT_BUDGET_MS).toBe(60 * 60_000);
    expect(end).toEqual({
      type: 'phaseRan',
      ok: false,
      problems: [
        'the agent stayed rate limited for 60 min of waiting (the phase waits at most 60 min): simulated rate_limit. Run agent-loop plan again once the limit resets: it resumes at this phase',
      ],
      runs: { iterations: 4, failedIterations: 4 },
    });
  });

  it('stops the phase after two environment failures in a row, with the advice, instead of spending its last attempt', () => {
    const { effects, end } = phase([opened, prepared(), auth(), prepared(), auth()]);
    expect(attemptLines(effects)).toHaveLength(2);
    expect(end).toMatchObject({ type: 'phaseRan', ok: false, runs: { iterations: 2, failedIterations: 2 } });
    expect(end?.type === 'phaseRan' && !end.ok && end.problems).toEqual([
      'the agent failed: simulated auth (permanent auth)',
      expect.stringContaining('check ANTHROPIC_API_KEY'),
    ]);
  });

  it('an agent run that does not fail resets the failure counters: an environment failure before it and one after are not two in a row', () => {
    const { effects, end } = phase(
      [opened, prepared(), auth(), prepared(), ok(), barrier(['too short']), prepared(), auth()],
      { maxRetries: 3, sinkWhere: 'bd' },
    );
    expect(end).toBeUndefined();
    expect(effects.at(-1)).toMatchObject({
      kind: 'prepareAttempt',
      problems: ['the agent failed: simulated auth (permanent auth)'],
    });
    expect(attemptLines(effects)).toHaveLength(3);
  });

  it('ends interrupted when the run is interrupted while a rate limit is waited out, or while the agent runs', () => {
    expect(phase([opened, prepared(), rateLimit(), { type: 'slept', interrupted: true }]).end).toEqual({
      type: 'interrupted',
    });
    const during = phase([opened, prepared(), { type: 'turnRan', now: 0, interrupted: true }]);
    expect(during.end).toEqual({ type: 'interrupted' });
    expect(during.kinds).not.toContain('checkArtifact');
  });
});

/** What an agent run comes to in a generated phase: its artifact passes or not, or the agent fails (a rate limit's retry-after in minutes). */
type Run = { ok: boolean } | { reason: 'crash' | 'auth' } | { rateLimitMinutes: number };

/** Answers every effect of a phase from `script` (a run that passes once the script is spent) until it ends. */
function answered(script: Run[], maxRetries: number) {
  const settings: PipelineSettings = { maxRetries, sinkWhere: 'bd' };
  let { model, effects } = startPhase(START);
  const asked: PhaseEffect[] = [...effects];
  for (let now = 0, guard = 0; guard < 500; guard++) {
    const effect = effects.at(-1);
    let event: PhaseEvent;
    if (!effect || effect.kind === 'phaseEnded') break;
    if (effect.kind === 'openPhase') event = opened;
    else if (effect.kind === 'prepareAttempt') event = prepared(now);
    else if (effect.kind === 'sleep') {
      now += effect.ms;
      event = slept;
    } else if (effect.kind === 'checkArtifact') {
      const run = script.shift();
      event = run && 'ok' in run && !run.ok ? barrier(['too short'], now) : passed;
    } else {
      const run = script[0] ?? { ok: true };
      if ('rateLimitMinutes' in run) script.shift();
      if ('reason' in run) script.shift();
      event =
        'rateLimitMinutes' in run
          ? rateLimit(run.rateLimitMinutes * 60_000)
          : 'reason' in run
            ? failed({ class: run.reason === 'auth' ? 'permanent' : 'transient', reason: run.reason })
            : ok(now);
    }
    ({ model, effects } = stepPhase(model, event, settings));
    asked.push(...effects);
  }
  return asked;
}

describe("an agent phase's attempts, over generated runs", () => {
  it('always ends; never more than --max-retries + 1 attempts nor an hour of waiting; each run the next iteration, each failure counted', () => {
    const run = fc.oneof(
      fc.boolean().map((ok) => ({ ok })),
      fc.constantFrom('crash' as const, 'auth' as const).map((reason) => ({ reason })),
      fc.integer({ min: 0, max: 40 }).map((rateLimitMinutes) => ({ rateLimitMinutes })),
    );
    fc.assert(
      fc.property(fc.array(run, { maxLength: 12 }), fc.integer({ min: 0, max: 3 }), (script, maxRetries) => {
        const failures = script.filter((r) => !('ok' in r)).length;
        const effects = answered([...script], maxRetries);
        const end = effects.at(-1);
        expect(end?.kind).toBe('phaseEnded');
        const attempts = effects.filter((e) => e.kind === 'prepareAttempt').length;
        expect(attempts).toBeLessThanOrEqual(maxRetries + 1);
        const waited = effects.reduce((sum, e) => sum + (e.kind === 'sleep' ? e.ms : 0), 0);
        expect(waited).toBeLessThanOrEqual(RATE_LIMIT_BUDGET_MS);
        const iterations = turns(effects).map((t) => t.iteration);
        expect(iterations).toEqual(iterations.map((_, i) => i + 1));
        if (end?.kind !== 'phaseEnded' || end.end.type !== 'phaseRan') throw new Error('no phaseRan');
        expect(end.end.runs.iterations).toBe(iterations.length);
        expect(end.end.runs.failedIterations).toBeLessThanOrEqual(failures);
        // An agent run that does not fail is followed by its barrier; a failed one never is.
        const ranOk = effects.filter((e, i) => e.kind === 'agentTurn' && effects[i + 1]?.kind === 'checkArtifact');
        expect(ranOk.length + end.end.runs.failedIterations).toBe(iterations.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the plan's machine: the pipeline with its agent phases as sub-machines", () => {
  const PHASES: PhaseStep[] = [
    { name: 'research', runner: 'agent', stateKey: 'research_output', kind: 'markdown' },
    { name: 'beads_integration', runner: 'code', stateKey: 'beads_data' },
  ];
  const SETTINGS: PipelineSettings = { maxRetries: 0, sinkWhere: 'bd' };
  const started: PlanEvent = {
    type: 'pipelineStarted',
    opened: { id: 'cp1', state: { pipeline: { goal: 'g' } }, resumeAt: 'research', resumed: false, errors: [] },
  };

  function plan(events: PlanEvent[]): PlanEffect[][] {
    let model = planModel(PHASES);
    return events.map((event) => {
      const stepped = stepPlan(model, event, SETTINGS);
      model = stepped.model;
      return stepped.effects;
    });
  }
  const kinds = (effects: PlanEffect[] | undefined) => effects?.map((e) => e.kind);

  it("starts the phase's sub-machine where the pipeline asks for the phase, and hands its end back to the pipeline", () => {
    const steps = plan([started, { type: 'phaseOpened' }, prepared(), ok(), passed]);
    expect(kinds(steps[0])).toEqual(['log', 'openPhase']);
    expect(kinds(steps[4])).toEqual(['writeBoundary', 'log', 'integrate']);
    expect(steps[4]?.[0]).toMatchObject({
      phase: 'research-complete',
      state: { research_output: 'the research', pipeline: { iterations: 1, failedIterations: 0 } },
    });
  });

  it('a phase that fails ends the pipeline with its -failed boundary and exit code 1', () => {
    const steps = plan([started, { type: 'phaseOpened' }, prepared(), ok(), barrier(['too short'])]);
    expect(kinds(steps[4])).toEqual(['log', 'writeBoundary', 'log', 'end']);
    expect(steps[4]?.[1]).toMatchObject({ phase: 'research-failed', errors: ['too short'] });
    expect(steps[4]?.at(-1)).toEqual({ kind: 'end', code: 1 });
  });

  it('an interruption before the phase, or during a wait, ends the run with 130 and writes nothing', () => {
    expect(plan([started, { type: 'interrupted' }])[1]).toEqual([{ kind: 'end', code: 130 }]);
    const waiting = plan([
      started,
      { type: 'phaseOpened' },
      prepared(),
      rateLimit(),
      { type: 'slept', interrupted: true },
    ]);
    expect(waiting.at(-1)).toEqual([{ kind: 'end', code: 130 }]);
  });

  it('refuses an event of a phase when none is in progress', () => {
    expect(() => plan([{ type: 'phaseOpened' }])).toThrow('phaseOpened with no pipeline phase in progress');
  });
});
