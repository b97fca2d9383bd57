/**
 * `agent-loop plan` (seed 001): research → decomposition → planning → phase_decomposition, each an
 * agent invocation whose artifact must pass its hard barrier (seed 004, pattern 2), retried with
 * the barrier's findings as context; beads_integration, which turns the phase files into issues
 * (phase N+1 blocked by N); then implementation, the loop on those issues. A checkpoint is written
 * at every phase boundary (`<phase>-complete` or `<phase>-failed`) with the seed's state keys, and a
 * new run resumes where DetectResumableCheckpoint says: at the failed phase, or after the last
 * complete one.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type Terms, surface } from '../../config/surface.js';
import type { Agent, AgentResult } from '../../agents/types.js';
import { type FailureCounters, type FailureDecision, decideFailure, environmentAdvice } from '../../failure/policy.js';
import { type TurnPorts, runTurn } from '../../loop/turn.js';
import { writeRunCheckpoint } from '../../checkpoint/runCheckpoint.js';
import { newCheckpointId } from '../../checkpoint/fileStore.js';
import { detectResumable, newestFirst } from '../../checkpoint/resume.js';
import type { CheckpointStore, PipelinePhase, SeedPhase } from '../../checkpoint/types.js';
import type { Logger } from '../../report/logger.js';
import type { Redactor } from '../../secrets/redact.js';
import type { Clock } from '../../util/clock.js';
import { type ArtifactValues, checkBarrier } from './barrier.js';
import { type PhaseIssueResult, type PhaseIssueSink, phaseIssuePrefix } from './beadsCreate.js';
import {
  type AgentPhaseSpec,
  PIPELINE_DIR,
  PRE_IMPLEMENTATION_PHASES,
  type PhaseSpec,
  failureSection,
  renderTemplate,
} from './phases.js';
import { stateFiles } from '../../persist/stateFiles.js';

export interface PipelineDeps {
  /** The goal given now (--goal / --goal-file); may be absent when a pipeline is resumed. */
  goal?: string;
  cwd: string;
  stateDir: string;
  /**
   * Where the agent writes its artifacts (`<dir>/pipeline/`); default the state directory. Agents
   * refuse to write under `.git/` (Claude Code does), so with the state directory there, `plan`
   * gives an excluded, never-staged directory of the work tree instead.
   */
  artifactsDir?: string;
  /** Where the phase issues go: the beads JSONL file, or bd. `where` names it in the log and checkpoint. */
  sink: PhaseIssueSink & { readonly where: string };
  agent: Agent;
  store: CheckpointStore;
  logger: Logger;
  clock: Clock;
  redact: Redactor;
  /** The phases, their templates and sizes (PRE_IMPLEMENTATION_PHASES with --plan-prompts applied). */
  phases?: readonly PhaseSpec[];
  /** Retries of a phase whose artifact fails its barrier (or whose agent fails). */
  maxRetries: number;
  agentTimeoutMs: number;
  fresh: boolean;
  resume?: string;
  signal?: AbortSignal;
  /** Whose words its messages use (default: the CLI's). */
  terms?: Terms;
  /** The implementation phase: the loop in this checkpoint, on these issues. Returns its exit code. */
  implement: (checkpointId: string, issueIds: string[]) => Promise<number>;
}

/** The pipeline's part of a checkpoint's state (seed 001's keys, plus the goal). */
export interface PipelineState {
  /**
   * iterations: the agent runs so far (each gets the next number as AGENT_LOOP_ITERATION, as `run`'s
   * iterations do; the implementation loop goes on counting from there), failedIterations of them failed.
   */
  pipeline: { goal: string; iterations?: number; failedIterations?: number };
  research_output?: string;
  decomposition_result?: unknown;
  planning_output?: string;
  phase_files?: { number: number; name: string; file: string; title: string }[];
  /** planned: the keys recorded before creation (for the file sink, the ids); ids: key → issue id where they differ (bd). */
  beads_data?: {
    file: string;
    planned: string[];
    created?: string[];
    alreadyPresent?: string[];
    ids?: Record<string, string>;
  };
  [key: string]: unknown;
}

export class PipelineStartError extends Error {}

export async function runPipeline(deps: PipelineDeps): Promise<number> {
  const { logger, store } = deps;
  const phases = deps.phases ?? PRE_IMPLEMENTATION_PHASES;
  const opened = await open(deps);
  const id = opened.id;
  let state = opened.state;
  const phase: PipelinePhase = opened.resumeAt;
  // A failed phase resumed: its first attempt is told what was wrong last time.
  let carried = opened.errors;
  const runs: AgentRuns = {
    iterations: state.pipeline.iterations ?? 0,
    failedIterations: state.pipeline.failedIterations ?? 0,
  };
  const write = async (checkpointPhase: SeedPhase, errors?: string[]) => {
    state = { ...state, pipeline: { ...state.pipeline, ...runs } };
    await writeRunCheckpoint(store, {
      id,
      end: { phase: checkpointPhase },
      extra: state,
      ...(errors ? { errors } : {}),
    });
  };
  logger.info(
    'pipeline.start',
    opened.resumed
      ? `Resuming pipeline ${id} at ${phase}: ${state.pipeline.goal}`
      : `Starting pipeline ${id}: ${state.pipeline.goal}`,
    { checkpointId: id, phase, resumed: opened.resumed },
  );

  for (const spec of phases) {
    if (!reached(spec.name, phase, phases)) continue;
    if (deps.signal?.aborted) return 130;
    if (spec.runner === 'agent') {
      const outcome = await runAgentPhase(deps, spec, state, carried, runs);
      carried = [];
      if (outcome.interrupted) return 130;
      if (!outcome.ok) {
        await write(`${spec.name}-failed`, outcome.problems);
        logger.error(
          'pipeline.failed',
          `Phase ${spec.name} failed after ${deps.maxRetries + 1} attempts; checkpoint ${id} (${spec.name}-failed). What was wrong:\n${outcome.problems.map((p) => `  - ${p}`).join('\n')}\nFix the cause (or the prompt: ${surface(deps.terms).option('planPrompts')}) and ${surface(deps.terms).act('runAgain', 'plan')}: it resumes at ${spec.name}.`,
          { phase: spec.name, problems: outcome.problems },
        );
        return 1;
      }
      state = { ...state, [spec.stateKey]: outcome.value };
      await write(`${spec.name}-complete`);
      logger.info('pipeline.phase', `Phase ${spec.name} complete: ${describeValue(spec, outcome.value)}.`, {
        phase: spec.name,
        checkpointId: id,
      });
    } else {
      const result = await integrate(deps, id, state, phases, async (planned) => {
        state = { ...state, beads_data: { file: deps.sink.where, planned: [...planned] } };
        await write('phase_decomposition-complete');
      });
      if (!result.ok) {
        await write('beads_integration-failed', result.problems);
        logger.error(
          'pipeline.failed',
          `Phase beads_integration failed: ${result.problems.join('; ')}. Run agent-loop plan again to retry it.`,
          { phase: 'beads_integration', problems: result.problems },
        );
        return 1;
      }
      state = { ...state, beads_data: result.data };
      await write('beads_integration-complete');
      logger.info(
        'pipeline.phase',
        `Phase beads_integration complete: ${result.data.created.length} issue(s) created in ${deps.sink.where} (${issueIds(state).join(', ')})${result.data.alreadyPresent.length ? `; ${result.data.alreadyPresent.length} were there already` : ''}.`,
        { phase: 'beads_integration', ...result.data },
      );
    }
  }

  const targets = issueIds(state);
  logger.info(
    'pipeline.implementation',
    `Implementation: the loop on ${targets.join(', ') || 'no issues'} (checkpoint ${id}).`,
    { issueIds: targets },
  );
  return deps.implement(id, targets);
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
    throw new PipelineStartError(
      `pipeline ${found.checkpoint.id} is in progress for another goal ("${state.pipeline.goal.slice(0, 80)}"): run without ${say.option('goal')} to resume it, or with ${say.given('fresh')} to start the new goal.`,
    );
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

/** The pipeline's agent runs, counted across its phases (and kept in the checkpoint at each boundary). */
interface AgentRuns {
  iterations: number;
  failedIterations: number;
}

type PhaseOutcome =
  { ok: true; value: unknown; interrupted?: false } | { ok: false; problems: string[]; interrupted?: boolean };

/** The most a phase waits out rate limits before it stops (resumable), so `plan` never waits forever. */
const RATE_LIMIT_BUDGET_MS = 60 * 60_000;

async function runAgentPhase(
  deps: PipelineDeps,
  spec: AgentPhaseSpec,
  state: PipelineState,
  earlier: string[],
  runs: AgentRuns,
): Promise<PhaseOutcome> {
  const { logger, clock } = deps;
  const dir = path.join(deps.artifactsDir ?? deps.stateDir, PIPELINE_DIR);
  await fs.mkdir(dir, { recursive: true });
  let problems: string[] = earlier;
  const ports: TurnPorts = { ...deps, files: stateFiles(deps.stateDir, deps.redact) };
  let counters: FailureCounters = { rateLimitAttempts: 0, timeoutRetries: 0, environmentFailures: 0 };
  let rateLimitedMs = 0;
  for (let attempt = 1; attempt <= deps.maxRetries + 1; attempt++) {
    const artifact = path.join(dir, spec.artifact);
    // A leftover of an earlier attempt must not pass this attempt's barrier.
    await fs.rm(artifact, { recursive: true, force: true });
    // What it quotes was masked where it entered: the artifacts and the barrier's findings (checkBarrier),
    // the agent's failures (its output); prompt.md is masked on its way out.
    const prompt = renderTemplate(spec.template, {
      goal: state.pipeline.goal,
      research: state.research_output ?? '',
      plan: state.planning_output ?? '',
      decomposition:
        state.decomposition_result === undefined ? '' : JSON.stringify(state.decomposition_result, null, 2),
      artifact,
      failure: failureSection(problems),
    });
    logger.info(
      'pipeline.attempt',
      `Phase ${spec.name}, attempt ${attempt} of ${deps.maxRetries + 1}: the agent writes ${path.relative(deps.cwd, artifact) || artifact} …`,
      { phase: spec.name, attempt },
    );
    const started = clock.now().getTime();
    // The one agent turn every workflow uses (src/loop/turn.ts); a rate limit is waited out and
    // retried without using an attempt, as the failure policy's row says.
    let result: AgentResult | undefined;
    let decision: FailureDecision | undefined;
    for (;;) {
      // Every agent run is an iteration of its own (its AGENT_LOOP_ITERATION), retries and waits included.
      runs.iterations++;
      result = await runTurn(ports, {
        prompt,
        iteration: runs.iterations,
        issueIds: [],
        timeoutMs: deps.agentTimeoutMs,
        keepLog: true,
      });
      if (!result?.failure) break;
      runs.failedIterations++;
      decision = decideFailure(result.failure, counters);
      counters = decision.counters;
      if (decision.kind !== 'rate_limit') break;
      if (rateLimitedMs + decision.waitMs > RATE_LIMIT_BUDGET_MS)
        return {
          ok: false,
          problems: [
            `the agent stayed rate limited for ${Math.round(rateLimitedMs / 60_000)} min of waiting (the phase waits at most ${RATE_LIMIT_BUDGET_MS / 60_000} min): ${result.failure.message}. Run agent-loop plan again once the limit resets: it resumes at this phase`,
          ],
        };
      rateLimitedMs += decision.waitMs;
      logger.warn(
        'pipeline.rate_limited',
        `Phase ${spec.name}: the agent is rate limited (${result.failure.message}); waiting ${(decision.waitMs / 1000).toFixed(0)} s, then the same attempt again.`,
        { phase: spec.name, attempt, waitMs: decision.waitMs },
      );
      await clock.sleep(decision.waitMs, deps.signal);
      if (deps.signal?.aborted) break;
    }
    if (!result || deps.signal?.aborted) return { ok: false, problems: ['interrupted'], interrupted: true };
    if (result.failure) {
      problems = [`the agent failed: ${result.failure.message} (${result.failure.class} ${result.failure.reason})`];
      if (decision?.exhausted === 'halt') {
        // The environment failed the agent twice in a row: more attempts cannot help.
        return { ok: false, problems: [...problems, environmentAdvice(result.failure.reason, surface(deps.terms))] };
      }
    } else {
      counters = { rateLimitAttempts: 0, timeoutRetries: 0, environmentFailures: 0 };
      const barrier = await checkBarrier(spec, deps.artifactsDir ?? deps.stateDir, undefined, deps.redact);
      if (barrier.ok) return { ok: true, value: stateValue(spec, barrier.value) };
      problems = barrier.problems;
    }
    logger.warn(
      'pipeline.barrier',
      `Phase ${spec.name}, attempt ${attempt} (${((clock.now().getTime() - started) / 1000).toFixed(1)}s): ${problems.join('; ')}`,
      { phase: spec.name, attempt, problems },
    );
  }
  return { ok: false, problems };
}

/** What the checkpoint keeps of an artifact: the text, the parsed decomposition, the phase files' index. */
function stateValue(spec: AgentPhaseSpec, value: ArtifactValues[keyof ArtifactValues]): unknown {
  if (spec.kind === 'phase-files')
    return (value as ArtifactValues['phase-files']).map(({ number, name, file, title }) => ({
      number,
      name,
      file,
      title,
    }));
  return value;
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
