/**
 * One agent phase of the planning pipeline (research, decomposition, planning, phase_decomposition):
 * the agent writes the phase's artifact, which must pass its barrier; retried with the barrier's
 * findings as context, rate limits waited out (within a budget) without using an attempt.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AgentResult } from '../../agents/types.js';
import { surface } from '../../config/surface.js';
import { type FailureCounters, type FailureDecision, decideFailure, environmentAdvice } from '../../failure/policy.js';
import { type TurnPorts, runTurn } from '../../loop/turn.js';
import { stateFiles } from '../../persist/stateFiles.js';
import { type ArtifactValues, checkBarrier } from './barrier.js';
import type { AgentRuns } from '../../core/pipeline.js';
import type { PipelineDeps, PipelineState } from './deps.js';
import { type AgentPhaseSpec, PIPELINE_DIR, failureSection, renderTemplate } from './phases.js';
import { rateLimitBudgetSpent, rateLimitedWaiting } from './messages.js';

export type { AgentRuns } from '../../core/pipeline.js';

export type PhaseOutcome =
  { ok: true; value: unknown; interrupted?: false } | { ok: false; problems: string[]; interrupted?: boolean };

/** The most a phase waits out rate limits before it stops (resumable), so `plan` never waits forever. */
const RATE_LIMIT_BUDGET_MS = 60 * 60_000;

const NO_FAILURES: FailureCounters = { rateLimitAttempts: 0, timeoutRetries: 0, environmentFailures: 0 };

/** The prompt of one attempt: the phase's template with the goal, earlier artifacts and the last findings. */
function phasePrompt(
  deps: PipelineDeps,
  spec: AgentPhaseSpec,
  state: PipelineState,
  artifact: string,
  problems: string[],
) {
  // What it quotes was masked where it entered: the artifacts and the barrier's findings (checkBarrier),
  // the agent's failures (its output); prompt.md is masked on its way out.
  return renderTemplate(spec.template, {
    goal: state.pipeline.goal,
    research: state.research_output ?? '',
    plan: state.planning_output ?? '',
    decomposition: state.decomposition_result === undefined ? '' : JSON.stringify(state.decomposition_result, null, 2),
    artifact,
    failure: failureSection(problems),
  });
}

/** What one attempt's agent turn came to, rate limits waited out; or the phase's end (interrupted, out of budget). */
type TurnOutcome =
  { result: AgentResult; decision: FailureDecision | undefined; counters: FailureCounters } | { end: PhaseOutcome };

/** The budget of rate-limit waits the phase has used so far. */
interface Waits {
  rateLimitedMs: number;
}

/**
 * The one agent turn every workflow uses (src/loop/turn.ts); a rate limit is waited out and
 * retried without using an attempt, as the failure policy's row says.
 */
async function turnThroughRateLimits(
  deps: PipelineDeps,
  input: { ports: TurnPorts; spec: AgentPhaseSpec; prompt: string; attempt: number; runs: AgentRuns; waits: Waits },
  counters: FailureCounters,
): Promise<TurnOutcome> {
  const { logger, clock } = deps;
  const { ports, spec, attempt, runs, waits } = input;
  let result: AgentResult | undefined;
  let decision: FailureDecision | undefined;
  for (;;) {
    // Every agent run is an iteration of its own (its AGENT_LOOP_ITERATION), retries and waits included.
    runs.iterations++;
    const turn = { prompt: input.prompt, iteration: runs.iterations, issueIds: [], timeoutMs: deps.agentTimeoutMs };
    result = await runTurn(ports, { ...turn, keepLog: true });
    if (!result?.failure) break;
    runs.failedIterations++;
    decision = decideFailure(result.failure, counters);
    counters = decision.counters;
    if (decision.kind !== 'rate_limit') break;
    if (waits.rateLimitedMs + decision.waitMs > RATE_LIMIT_BUDGET_MS)
      return {
        end: {
          ok: false,
          problems: [rateLimitBudgetSpent(waits.rateLimitedMs, RATE_LIMIT_BUDGET_MS, result.failure.message)],
        },
      };
    waits.rateLimitedMs += decision.waitMs;
    logger.warn('pipeline.rate_limited', rateLimitedWaiting(spec.name, result.failure.message, decision.waitMs), {
      phase: spec.name,
      attempt,
      waitMs: decision.waitMs,
    });
    await clock.sleep(decision.waitMs, deps.signal);
    if (deps.signal?.aborted) break;
  }
  if (!result || deps.signal?.aborted) return { end: { ok: false, problems: ['interrupted'], interrupted: true } };
  return { result, decision, counters };
}

export async function runAgentPhase(
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
  let counters = NO_FAILURES;
  const waits: Waits = { rateLimitedMs: 0 };
  const ports: TurnPorts = { ...deps, files: stateFiles(deps.stateDir, deps.redact) };
  for (let attempt = 1; attempt <= deps.maxRetries + 1; attempt++) {
    const artifact = path.join(dir, spec.artifact);
    // A leftover of an earlier attempt must not pass this attempt's barrier.
    await fs.rm(artifact, { recursive: true, force: true });
    const prompt = phasePrompt(deps, spec, state, artifact, problems);
    logger.info(
      'pipeline.attempt',
      `Phase ${spec.name}, attempt ${attempt} of ${deps.maxRetries + 1}: the agent writes ${path.relative(deps.cwd, artifact) || artifact} …`,
      { phase: spec.name, attempt },
    );
    const started = clock.now().getTime();
    const turn = await turnThroughRateLimits(deps, { ports, spec, prompt, attempt, runs, waits }, counters);
    if ('end' in turn) return turn.end;
    const { result, decision } = turn;
    counters = turn.counters;
    if (result.failure) {
      problems = [`the agent failed: ${result.failure.message} (${result.failure.class} ${result.failure.reason})`];
      if (decision?.exhausted === 'halt') {
        // The environment failed the agent twice in a row: more attempts cannot help.
        return { ok: false, problems: [...problems, environmentAdvice(result.failure.reason, surface(deps.terms))] };
      }
    } else {
      counters = NO_FAILURES;
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
