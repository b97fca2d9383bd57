/**
 * The planning pipeline machines' messages (src/core/pipeline.ts, src/core/pipelinePhase.ts): what happened, to what,
 * what to do next; one string each so a search finds them whole.
 */
import { type Terms, surface } from '../../config/surface.js';

export const pipelineStarting = (id: string, phase: string, goal: string, resumed: boolean) =>
  resumed ? `Resuming pipeline ${id} at ${phase}: ${goal}` : `Starting pipeline ${id}: ${goal}`;

/** `run`: the pipeline's retries and the surface's words. */
export const phaseFailed = (
  phase: string,
  id: string,
  problems: string[],
  run: { maxRetries: number; terms?: Terms },
) =>
  `Phase ${phase} failed after ${run.maxRetries + 1} attempts; checkpoint ${id} (${phase}-failed). What was wrong:\n${problems.map((p) => `  - ${p}`).join('\n')}\nFix the cause (or the prompt: ${surface(run.terms).option('planPrompts')}) and ${surface(run.terms).act('runAgain', 'plan')}: it resumes at ${phase}.`;

export const phaseComplete = (phase: string, value: string) => `Phase ${phase} complete: ${value}.`;

export const integrationFailed = (problems: string[]) =>
  `Phase beads_integration failed: ${problems.join('; ')}. Run agent-loop plan again to retry it.`;

export const phaseIssuesCreated = (
  where: string,
  ids: string[],
  data: { created: unknown[]; alreadyPresent: unknown[] },
) =>
  `Phase beads_integration complete: ${data.created.length} issue(s) created in ${where} (${ids.join(', ')})${data.alreadyPresent.length ? `; ${data.alreadyPresent.length} were there already` : ''}.`;

export const implementationStarts = (targets: string[], id: string) =>
  `Implementation: the loop on ${targets.join(', ') || 'no issues'} (checkpoint ${id}).`;

/** How a phase's artifact reads in its "complete" line: the phase files', the components' count, or the text's length. */
export function describePhaseValue(kind: string | undefined, value: unknown): string {
  if (kind === 'phase-files') return `${(value as unknown[]).length} phase file(s)`;
  if (kind === 'decomposition') return `${(value as { components: unknown[] }).components.length} component(s)`;
  return `${String(value).length} characters`;
}

/** An agent phase's attempt begins (src/core/pipelinePhase.ts); `artifact` as the log shows it. */
export const attemptStarts = (phase: string, attempt: number, attempts: number, artifact: string) =>
  `Phase ${phase}, attempt ${attempt} of ${attempts}: the agent writes ${artifact} …`;

/** An attempt that left no usable artifact: how long it took, and what was wrong. */
export const attemptFailed = (phase: string, attempt: number, tookMs: number, problems: readonly string[]) =>
  `Phase ${phase}, attempt ${attempt} (${(tookMs / 1000).toFixed(1)}s): ${problems.join('; ')}`;

/** What the next attempt is told when the agent itself failed. */
export const agentFailed = (failure: { message: string; class: string; reason: string }) =>
  `the agent failed: ${failure.message} (${failure.class} ${failure.reason})`;

export const rateLimitBudgetSpent = (waitedMs: number, budgetMs: number, failure: string) =>
  `the agent stayed rate limited for ${Math.round(waitedMs / 60_000)} min of waiting (the phase waits at most ${budgetMs / 60_000} min): ${failure}. Run agent-loop plan again once the limit resets: it resumes at this phase`;

export const rateLimitedWaiting = (phase: string, failure: string, waitMs: number) =>
  `Phase ${phase}: the agent is rate limited (${failure}); waiting ${(waitMs / 1000).toFixed(0)} s, then the same attempt again.`;
