/**
 * `agent-loop plan` (seed 001): research → decomposition → planning → phase_decomposition, each an
 * agent invocation whose artifact must pass its hard barrier (seed 004, pattern 2), retried with
 * the barrier's findings as context; beads_integration, which turns the phase files into issues
 * (phase N+1 blocked by N); then implementation, the loop on those issues. A checkpoint is written
 * at every phase boundary (`<phase>-complete` or `<phase>-failed`) with the seed's state keys, and a
 * new run resumes where DetectResumableCheckpoint says: at the failed phase, or after the last
 * complete one.
 */
import { surface } from '../../config/surface.js';
import { writeRunCheckpoint } from '../../checkpoint/runCheckpoint.js';
import { newCheckpointId } from '../../checkpoint/fileStore.js';
import { detectResumable, newestFirst } from '../../checkpoint/resume.js';
import type { PipelinePhase, SeedPhase } from '../../checkpoint/types.js';
import { checkBarrier } from './barrier.js';
import { type AgentRuns, runAgentPhase } from './agentPhase.js';
import type { PipelineDeps, PipelineState } from './deps.js';
import { type PhaseIssueResult, phaseIssuePrefix } from './beadsCreate.js';
import { type AgentPhaseSpec, PRE_IMPLEMENTATION_PHASES, type PhaseSpec } from './phases.js';
import { otherGoalInProgress, phaseFailed, phaseIssuesCreated } from './messages.js';

export type { PipelineDeps, PipelineState } from './deps.js';

export class PipelineStartError extends Error {}

/** A pipeline run's state between its phases: written at each boundary. */
interface Session {
  id: string;
  state: PipelineState;
  /** A failed phase resumed: its first attempt is told what was wrong last time. */
  carried: string[];
  runs: AgentRuns;
  write(checkpointPhase: SeedPhase, errors?: string[]): Promise<void>;
}

export async function runPipeline(deps: PipelineDeps): Promise<number> {
  const { logger, store } = deps;
  const phases = deps.phases ?? PRE_IMPLEMENTATION_PHASES;
  const opened = await open(deps);
  const id = opened.id;
  const phase: PipelinePhase = opened.resumeAt;
  const session: Session = {
    id,
    state: opened.state,
    carried: opened.errors,
    runs: {
      iterations: opened.state.pipeline.iterations ?? 0,
      failedIterations: opened.state.pipeline.failedIterations ?? 0,
    },
    async write(checkpointPhase, errors) {
      this.state = { ...this.state, pipeline: { ...this.state.pipeline, ...this.runs } };
      await writeRunCheckpoint(store, {
        id,
        end: { phase: checkpointPhase },
        extra: this.state,
        ...(errors ? { errors } : {}),
      });
    },
  };
  const goal = session.state.pipeline.goal;
  logger.info(
    'pipeline.start',
    opened.resumed ? `Resuming pipeline ${id} at ${phase}: ${goal}` : `Starting pipeline ${id}: ${goal}`,
    { checkpointId: id, phase, resumed: opened.resumed },
  );

  for (const spec of phases) {
    if (!reached(spec.name, phase, phases)) continue;
    if (deps.signal?.aborted) return 130;
    const ended =
      spec.runner === 'agent' ? await agentStep(deps, session, spec) : await integrationStep(deps, session, phases);
    if (ended !== undefined) return ended;
  }

  const targets = issueIds(session.state);
  logger.info(
    'pipeline.implementation',
    `Implementation: the loop on ${targets.join(', ') || 'no issues'} (checkpoint ${id}).`,
    { issueIds: targets },
  );
  return deps.implement(id, targets);
}

/** An agent phase run and its boundary written; the exit code when the pipeline ends there. */
async function agentStep(deps: PipelineDeps, session: Session, spec: AgentPhaseSpec): Promise<number | undefined> {
  const { logger } = deps;
  const outcome = await runAgentPhase(deps, spec, session.state, session.carried, session.runs);
  session.carried = [];
  if (outcome.interrupted) return 130;
  if (!outcome.ok) {
    await session.write(`${spec.name}-failed`, outcome.problems);
    logger.error('pipeline.failed', phaseFailed(spec.name, session.id, outcome.problems, deps), {
      phase: spec.name,
      problems: outcome.problems,
    });
    return 1;
  }
  session.state = { ...session.state, [spec.stateKey]: outcome.value };
  await session.write(`${spec.name}-complete`);
  logger.info('pipeline.phase', `Phase ${spec.name} complete: ${describeValue(spec, outcome.value)}.`, {
    phase: spec.name,
    checkpointId: session.id,
  });
  return undefined;
}

/** The phase issues created (beads_integration) and its boundary written; the exit code when it fails. */
async function integrationStep(
  deps: PipelineDeps,
  session: Session,
  phases: readonly PhaseSpec[],
): Promise<number | undefined> {
  const { logger } = deps;
  const result = await integrate(deps, session.id, session.state, phases, async (planned) => {
    session.state = { ...session.state, beads_data: { file: deps.sink.where, planned: [...planned] } };
    await session.write('phase_decomposition-complete');
  });
  if (!result.ok) {
    await session.write('beads_integration-failed', result.problems);
    logger.error(
      'pipeline.failed',
      `Phase beads_integration failed: ${result.problems.join('; ')}. Run agent-loop plan again to retry it.`,
      { phase: 'beads_integration', problems: result.problems },
    );
    return 1;
  }
  session.state = { ...session.state, beads_data: result.data };
  await session.write('beads_integration-complete');
  logger.info('pipeline.phase', phaseIssuesCreated(deps.sink.where, issueIds(session.state), result.data), {
    phase: 'beads_integration',
    ...result.data,
  });
  return undefined;
}

/** The created issues' real ids, in phase order (bd gives its own; the file sink's are the keys). */
export function issueIds(state: Pick<PipelineState, 'beads_data'>): string[] {
  const data = state.beads_data;
  return (data?.planned ?? []).map((key) => data?.ids?.[key] ?? key);
}

/** Whether `name` is at or after `from` in the pipeline's order. */
function reached(name: PipelinePhase, from: PipelinePhase, phases: readonly PhaseSpec[]): boolean {
  if (from === 'implementation') return false;
  const order = phases.map((p) => p.name as PipelinePhase);
  return order.indexOf(name) >= order.indexOf(from);
}

async function open(
  deps: PipelineDeps,
): Promise<{ id: string; state: PipelineState; resumeAt: PipelinePhase; resumed: boolean; errors: string[] }> {
  const say = surface(deps.terms);
  const start = () => {
    if (!deps.goal)
      throw new PipelineStartError(
        `no pipeline to resume and no goal: give ${say.given('goal', '"…"')} or ${say.given('goalFile', 'FILE')}.`,
      );
    return {
      id: newCheckpointId(),
      state: { pipeline: { goal: deps.goal } },
      resumeAt: 'research' as PipelinePhase,
      resumed: false,
      errors: [],
    };
  };
  if (deps.fresh) return start();
  const listing = await deps.store.list();
  const pipelines = listing.checkpoints.filter((c) => isPipelineState(c.state));
  const candidates = deps.resume ? pipelines.filter((c) => c.id === deps.resume) : pipelines;
  if (deps.resume && candidates.length === 0)
    throw new PipelineStartError(
      `${say.given('resume', deps.resume)}: no pipeline checkpoint with that id in ${deps.store.dir}.`,
    );
  const found = detectResumable(candidates);
  if (!found) {
    // A finished pipeline of this goal: its issues may have become ready since (a phase's pull
    // request merged), so the loop runs on them again; no new issues for the same goal.
    const done = newestFirst(candidates).find(
      (c) => !deps.goal || (c.state as PipelineState).pipeline.goal.trim() === deps.goal.trim(),
    );
    if (done) {
      deps.logger.info(
        'pipeline.done',
        `Pipeline ${done.id} for this goal is complete: the loop goes on with its issues (${say.given('fresh')} starts the goal over).`,
      );
      return { id: done.id, state: done.state as PipelineState, resumeAt: 'implementation', resumed: true, errors: [] };
    }
    return start();
  }
  const state = found.checkpoint.state as PipelineState;
  if (deps.goal && deps.goal.trim() !== state.pipeline.goal.trim()) {
    throw new PipelineStartError(otherGoalInProgress(found.checkpoint.id, state.pipeline.goal, deps.terms));
  }
  for (const error of found.errors) deps.logger.warn('pipeline.previous_error', `Last time: ${error}`);
  const failedHere = found.checkpoint.phase === `${found.resumeAt}-failed`;
  return {
    id: found.checkpoint.id,
    state,
    resumeAt: found.resumeAt,
    resumed: true,
    errors: failedHere ? found.errors : [],
  };
}

function isPipelineState(state: Record<string, unknown>): state is PipelineState {
  const p = state.pipeline;
  return typeof p === 'object' && p !== null && typeof (p as { goal?: unknown }).goal === 'string';
}

function describeValue(spec: PhaseSpec, value: unknown): string {
  if (spec.runner !== 'agent') return '';
  if (spec.kind === 'phase-files') return `${(value as unknown[]).length} phase file(s)`;
  if (spec.kind === 'decomposition') return `${(value as { components: unknown[] }).components.length} component(s)`;
  return `${String(value).length} characters`;
}

/** beads_integration: the phase files (read again, through their barrier) become issues. */
async function integrate(
  deps: PipelineDeps,
  id: string,
  state: PipelineState,
  phases: readonly PhaseSpec[],
  onPlanned: (planned: readonly string[]) => Promise<void>,
): Promise<
  | { ok: true; data: NonNullable<PipelineState['beads_data']> & { created: string[]; alreadyPresent: string[] } }
  | { ok: false; problems: string[] }
> {
  const spec = phases.find((p): p is AgentPhaseSpec => p.runner === 'agent' && p.kind === 'phase-files');
  if (!spec) return { ok: false, problems: ['no phase_decomposition phase'] };
  const files = await checkBarrier(
    spec as AgentPhaseSpec & { kind: 'phase-files' },
    deps.artifactsDir ?? deps.stateDir,
    undefined,
    deps.redact,
  );
  if (!files.ok)
    return { ok: false, problems: files.problems.map((p) => `the phase files are no longer usable: ${p}`) };
  try {
    const result: PhaseIssueResult & { ids?: Record<string, string> } = await deps.sink.createPhaseIssues({
      prefix: phaseIssuePrefix(id),
      now: deps.clock.now(),
      phases: files.value.map((f) => ({
        number: f.number,
        name: f.name,
        title: `Phase ${f.number}: ${f.title}`,
        body: f.text,
      })),
      ...(state.beads_data?.planned ? { existing: state.beads_data.planned } : {}),
      ...(deps.terms ? { terms: deps.terms } : {}),
      onPlanned,
    });
    return {
      ok: true,
      data: {
        file: deps.sink.where,
        planned: result.planned,
        created: result.created,
        alreadyPresent: result.alreadyPresent,
        ...(result.ids ? { ids: result.ids } : {}),
      },
    };
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
}
