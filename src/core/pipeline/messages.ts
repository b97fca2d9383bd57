/** The planning pipeline machine's messages (what happened, to what, what to do next), one string each so a search finds them whole. */
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
