/** The planning pipeline as a pure machine (src/core/pipeline.ts): which phase runs, what each boundary writes, how it ends. */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  type OpenedPipeline,
  type PhaseStep,
  type PipelineEffect,
  type PipelineEvent,
  type PipelineModel,
  type PipelineSettings,
  type PipelineState,
  pipelineModel,
  plannedBoundary,
  step,
} from '../../src/core/pipeline.js';
import type { PipelinePhase } from '../../src/checkpoint/types.js';

const PHASES: PhaseStep[] = [
  { name: 'research', runner: 'agent', stateKey: 'research_output', kind: 'markdown' },
  { name: 'decomposition', runner: 'agent', stateKey: 'decomposition_result', kind: 'decomposition' },
  { name: 'planning', runner: 'agent', stateKey: 'planning_output', kind: 'markdown' },
  { name: 'phase_decomposition', runner: 'agent', stateKey: 'phase_files', kind: 'phase-files' },
  { name: 'beads_integration', runner: 'code', stateKey: 'beads_data' },
];
const SETTINGS: PipelineSettings = { maxRetries: 2, sinkWhere: 'bd' };

const opened = (over: Partial<OpenedPipeline> = {}): OpenedPipeline => ({
  id: 'cp1',
  state: { pipeline: { goal: 'Build it' } },
  resumeAt: 'research',
  resumed: false,
  errors: [],
  ...over,
});

/** Steps the machine through `events` from a fresh model; the model and the effects of each step. */
function run(events: PipelineEvent[]): { model: PipelineModel; steps: PipelineEffect[][] } {
  let model = pipelineModel(PHASES);
  const steps: PipelineEffect[][] = [];
  for (const event of events) {
    const stepped = step(model, event, SETTINGS);
    model = stepped.model;
    steps.push([...stepped.effects]);
  }
  return { model, steps };
}

const kinds = (effects: PipelineEffect[]) => effects.map((e) => e.kind);
const ran = (runs: number, value: unknown): PipelineEvent => ({
  type: 'phaseRan',
  ok: true,
  value,
  runs: { iterations: runs, failedIterations: 0 },
});

describe('the planning pipeline machine (issue 41)', () => {
  it('a new pipeline logs its start and runs research first, with the goal and no findings', () => {
    const { steps } = run([{ type: 'pipelineStarted', opened: opened() }]);
    expect(steps[0]).toEqual([
      {
        kind: 'log',
        level: 'info',
        event: 'pipeline.start',
        message: 'Starting pipeline cp1: Build it',
        data: { checkpointId: 'cp1', phase: 'research', resumed: false },
      },
      {
        kind: 'runPhase',
        phase: 'research',
        state: { pipeline: { goal: 'Build it' } },
        carried: [],
        runs: { iterations: 0, failedIterations: 0 },
      },
    ]);
  });

  it('resumes at the failed phase, telling its first attempt what was wrong, and counts the runs on from the checkpoint', () => {
    const state: PipelineState = { pipeline: { goal: 'g', iterations: 4, failedIterations: 1 }, research_output: 'r' };
    const { steps } = run([
      {
        type: 'pipelineStarted',
        opened: opened({ state, resumeAt: 'planning', resumed: true, errors: ['too short'] }),
      },
      ran(5, 'the plan'),
    ]);
    expect(steps[0]?.[0]).toMatchObject({ message: 'Resuming pipeline cp1 at planning: g' });
    expect(steps[0]?.[1]).toMatchObject({
      kind: 'runPhase',
      phase: 'planning',
      carried: ['too short'],
      runs: { iterations: 4, failedIterations: 1 },
    });
    // The findings are told once: the next phase starts clean.
    expect(steps[1]?.[2]).toMatchObject({ kind: 'runPhase', phase: 'phase_decomposition', carried: [] });
  });

  it('a phase that passes its barrier writes <phase>-complete with its state key and the runs so far, then runs the next', () => {
    const { steps, model } = run([
      { type: 'pipelineStarted', opened: opened() },
      ran(2, { goal: 'g', components: [{ name: 'a' }, { name: 'b' }] }),
    ]);
    // research is first; its value here is the decomposition's shape only to read the log's count.
    expect(kinds(steps[1]!)).toEqual(['writeBoundary', 'log', 'runPhase']);
    expect(steps[1]?.[0]).toEqual({
      kind: 'writeBoundary',
      id: 'cp1',
      phase: 'research-complete',
      state: {
        pipeline: { goal: 'Build it', iterations: 2, failedIterations: 0 },
        research_output: { goal: 'g', components: [{ name: 'a' }, { name: 'b' }] },
      },
    });
    expect(steps[1]?.[2]).toMatchObject({ phase: 'decomposition', runs: { iterations: 2 } });
    expect(model.at).toBe(1);
  });

  it("a phase's complete line says what its artifact holds: characters, components, phase files", () => {
    const { steps } = run([
      { type: 'pipelineStarted', opened: opened() },
      ran(1, 'x'.repeat(250)),
      ran(2, { goal: 'g', components: [{}, {}, {}] }),
      ran(3, 'plan'),
      ran(4, [{}, {}]),
    ]);
    const lines = steps.slice(1).map((s) => (s[1] as { message: string }).message);
    expect(lines).toEqual([
      'Phase research complete: 250 characters.',
      'Phase decomposition complete: 3 component(s).',
      'Phase planning complete: 4 characters.',
      'Phase phase_decomposition complete: 2 phase file(s).',
    ]);
  });

  it('a phase that fails writes <phase>-failed with its findings, logs how to go on, and ends with exit code 1', () => {
    const { steps } = run([
      { type: 'pipelineStarted', opened: opened() },
      { type: 'phaseRan', ok: false, problems: ['no file', 'too short'], runs: { iterations: 3, failedIterations: 1 } },
    ]);
    expect(steps[1]).toEqual([
      {
        kind: 'writeBoundary',
        id: 'cp1',
        phase: 'research-failed',
        state: { pipeline: { goal: 'Build it', iterations: 3, failedIterations: 1 } },
        errors: ['no file', 'too short'],
      },
      {
        kind: 'log',
        level: 'error',
        event: 'pipeline.failed',
        message: expect.stringMatching(/^Phase research failed after 3 attempts; checkpoint cp1 \(research-failed\)/),
        data: { phase: 'research', problems: ['no file', 'too short'] },
      },
      { kind: 'end', code: 1 },
    ]);
  });

  it('an interrupted run ends with 130 and writes nothing', () => {
    const { steps } = run([{ type: 'pipelineStarted', opened: opened() }, { type: 'interrupted' }]);
    expect(steps[1]).toEqual([{ kind: 'end', code: 130 }]);
  });

  it('beads_integration records the planned keys first, then the created issues, and implements their real ids in phase order', () => {
    const state: PipelineState = { pipeline: { goal: 'g', iterations: 4, failedIterations: 0 }, phase_files: [] };
    const started = run([
      { type: 'pipelineStarted', opened: opened({ state, resumeAt: 'beads_integration', resumed: true }) },
    ]);
    const integrate = started.steps[0]?.[1];
    expect(integrate).toEqual({
      kind: 'integrate',
      id: 'cp1',
      where: 'bd',
      state,
      runs: { iterations: 4, failedIterations: 0 },
    });
    if (integrate?.kind !== 'integrate') throw new Error('no integrate');
    expect(plannedBoundary(integrate, ['k1', 'k2'])).toEqual({
      kind: 'writeBoundary',
      id: 'cp1',
      phase: 'phase_decomposition-complete',
      state: { ...state, beads_data: { file: 'bd', planned: ['k1', 'k2'] } },
    });
    const data = {
      file: 'bd',
      planned: ['k1', 'k2'],
      created: ['k1'],
      alreadyPresent: ['k2'],
      ids: { k1: 'bd-1', k2: 'bd-2' },
    };
    const done = step(started.model, { type: 'phasesIntegrated', ok: true, data, planned: ['k1', 'k2'] }, SETTINGS);
    expect(done.effects).toEqual([
      {
        kind: 'writeBoundary',
        id: 'cp1',
        phase: 'beads_integration-complete',
        state: { ...state, beads_data: data },
      },
      {
        kind: 'log',
        level: 'info',
        event: 'pipeline.phase',
        message: 'Phase beads_integration complete: 1 issue(s) created in bd (bd-1, bd-2); 1 were there already.',
        data: { phase: 'beads_integration', ...data },
      },
      {
        kind: 'log',
        level: 'info',
        event: 'pipeline.implementation',
        message: 'Implementation: the loop on bd-1, bd-2 (checkpoint cp1).',
        data: { issueIds: ['bd-1', 'bd-2'] },
      },
      { kind: 'implement', id: 'cp1', issueIds: ['bd-1', 'bd-2'] },
    ]);
    expect(step(done.model, { type: 'implemented', code: 3 }, SETTINGS).effects).toEqual([{ kind: 'end', code: 3 }]);
  });

  it('a failed integration keeps the keys it planned in its -failed boundary, and a rerun hands them to the sink again', () => {
    const state: PipelineState = { pipeline: { goal: 'g' }, phase_files: [] };
    const started = run([
      { type: 'pipelineStarted', opened: opened({ state, resumeAt: 'beads_integration', resumed: true }) },
    ]);
    const failed = step(
      started.model,
      { type: 'phasesIntegrated', ok: false, problems: ['bd broke'], planned: ['k1'] },
      SETTINGS,
    );
    expect(failed.effects).toEqual([
      {
        kind: 'writeBoundary',
        id: 'cp1',
        phase: 'beads_integration-failed',
        state: {
          ...state,
          pipeline: { goal: 'g', iterations: 0, failedIterations: 0 },
          beads_data: { file: 'bd', planned: ['k1'] },
        },
        errors: ['bd broke'],
      },
      {
        kind: 'log',
        level: 'error',
        event: 'pipeline.failed',
        message: 'Phase beads_integration failed: bd broke. Run agent-loop plan again to retry it.',
        data: { phase: 'beads_integration', problems: ['bd broke'] },
      },
      { kind: 'end', code: 1 },
    ]);
    const again = run([
      {
        type: 'pipelineStarted',
        opened: opened({ state: failed.model.state, resumeAt: 'beads_integration', resumed: true }),
      },
    ]);
    expect(again.steps[0]?.[1]).toMatchObject({ kind: 'integrate', existing: ['k1'] });
  });

  it('a finished pipeline (resumed at implementation) runs no phase: the loop goes on with its issues', () => {
    const state: PipelineState = { pipeline: { goal: 'g' }, beads_data: { file: 'f', planned: ['a', 'b'] } };
    const { steps } = run([
      { type: 'pipelineStarted', opened: opened({ state, resumeAt: 'implementation', resumed: true }) },
    ]);
    expect(kinds(steps[0]!)).toEqual(['log', 'log', 'implement']);
    expect(steps[0]?.[2]).toEqual({ kind: 'implement', id: 'cp1', issueIds: ['a', 'b'] });
  });

  it('with no issues planned, implementation says so', () => {
    const { steps } = run([{ type: 'pipelineStarted', opened: opened({ resumeAt: 'implementation', resumed: true }) }]);
    expect(steps[0]?.[1]).toMatchObject({ message: 'Implementation: the loop on no issues (checkpoint cp1).' });
  });
});

/** A value of each agent phase's artifact, as the barrier gives it. */
const VALUES: Record<string, unknown> = {
  research: 'r',
  decomposition: { goal: 'g', components: [{}] },
  planning: 'p',
  phase_decomposition: [{}],
};

/** One phase's outcome in a generated run. */
type Outcome = 'ok' | 'failed' | 'interrupted';

describe('the planning pipeline machine, over generated runs', () => {
  it('writes the boundaries of the phases from the resume point on, in order, and ends as the first phase that did not pass says', () => {
    const resumable: PipelinePhase[] = [...PHASES.map((p) => p.name), 'implementation'];
    fc.assert(
      fc.property(
        fc.constantFrom(...resumable),
        fc.array(fc.constantFrom<Outcome>('ok', 'ok', 'failed', 'interrupted'), { minLength: 5, maxLength: 5 }),
        fc.integer({ min: 0, max: 2 }),
        (resumeAt, outcomes, implemented) => {
          let { model, effects } = step(
            pipelineModel(PHASES),
            { type: 'pipelineStarted', opened: opened({ resumeAt }) },
            SETTINGS,
          );
          const written: string[] = [];
          const ranPhases: string[] = [];
          let code: number | undefined;
          for (let guard = 0; code === undefined && guard < 20; guard++) {
            let answer: PipelineEvent | undefined;
            for (const effect of effects) {
              if (effect.kind === 'writeBoundary') written.push(effect.phase);
              if (effect.kind === 'end') code = effect.code;
              if (effect.kind === 'implement') answer = { type: 'implemented', code: implemented };
              if (effect.kind === 'runPhase' || effect.kind === 'integrate') {
                const name = effect.kind === 'runPhase' ? effect.phase : 'beads_integration';
                ranPhases.push(name);
                const outcome = outcomes[PHASES.findIndex((p) => p.name === name)];
                const runs = { iterations: ranPhases.length, failedIterations: 0 };
                if (outcome === 'interrupted') answer = { type: 'interrupted' };
                else if (effect.kind === 'integrate')
                  answer =
                    outcome === 'ok'
                      ? {
                          type: 'phasesIntegrated',
                          ok: true,
                          data: { file: 'bd', planned: ['k'], created: ['k'], alreadyPresent: [] },
                        }
                      : { type: 'phasesIntegrated', ok: false, problems: ['x'] };
                else
                  answer =
                    outcome === 'ok'
                      ? { ...ran(runs.iterations, VALUES[name]) }
                      : { type: 'phaseRan', ok: false, problems: ['x'], runs };
              }
            }
            if (code !== undefined || !answer) break;
            ({ model, effects } = step(model, answer, SETTINGS));
          }
          const from = resumeAt === 'implementation' ? PHASES.length : PHASES.findIndex((p) => p.name === resumeAt);
          const expected = PHASES.slice(from).map((p) => p.name);
          const stop = expected.findIndex((name) => outcomes[PHASES.findIndex((p) => p.name === name)] !== 'ok');
          const through = stop === -1 ? expected : expected.slice(0, stop + 1);
          expect(ranPhases).toEqual(through);
          const last = stop === -1 ? undefined : outcomes[PHASES.findIndex((p) => p.name === expected[stop])];
          const complete = (stop === -1 ? expected : expected.slice(0, stop)).map((name) => `${name}-complete`);
          expect(written).toEqual(last === 'failed' ? [...complete, `${expected[stop]}-failed`] : complete);
          expect(code).toBe(last === undefined ? implemented : last === 'failed' ? 1 : 130);
        },
      ),
      { numRuns: 300 },
    );
  });
});
