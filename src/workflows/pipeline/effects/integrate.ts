/**
 * beads_integration: the phase files (read again, through their barrier) become issues through the
 * sink. The keys it plans are written first (the machine's `plannedBoundary`), so a run stopped
 * halfway finds the same issues again.
 */
import { type IntegratedData, plannedBoundary } from '../../../core/pipeline.js';
import { checkBarrier } from '../barrier.js';
import { type PhaseIssueResult, phaseIssuePrefix } from '../beadsCreate.js';
import type { AgentPhaseSpec } from '../phases.js';
import { writeBoundaryOf } from './boundary.js';
import type { Handler } from './context.js';

export const integrate: Handler<'integrate'> = async (effect, { deps, phases }) => {
  if (deps.signal?.aborted) return { type: 'interrupted' };
  let planned: string[] | undefined;
  const result = await createIssues(effect, { deps, phases }, async (keys) => {
    planned = [...keys];
    await writeBoundaryOf(deps.store, plannedBoundary(effect, keys));
  });
  return { type: 'phasesIntegrated', ...result, ...(planned ? { planned } : {}) };
};

async function createIssues(
  effect: Parameters<Handler<'integrate'>>[0],
  { deps, phases }: Parameters<Handler<'integrate'>>[1],
  onPlanned: (planned: readonly string[]) => Promise<void>,
): Promise<{ ok: true; data: IntegratedData } | { ok: false; problems: string[] }> {
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
      prefix: phaseIssuePrefix(effect.id),
      now: deps.clock.now(),
      phases: files.value.map((f) => ({
        number: f.number,
        name: f.name,
        title: `Phase ${f.number}: ${f.title}`,
        body: f.text,
      })),
      ...(effect.existing ? { existing: effect.existing } : {}),
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
