/** A phase's artifact read through its barrier: the value the checkpoint keeps, or what was wrong with it. */
import { type ArtifactValues, checkBarrier } from '../barrier.js';
import type { AgentPhaseSpec } from '../phases.js';
import { type Handler, agentPhase, artifactsRoot } from './context.js';

export const checkArtifact: Handler<'checkArtifact'> = async (effect, { deps, phases }) => {
  const spec = agentPhase(phases, effect.phase);
  const barrier = await checkBarrier(spec, artifactsRoot(deps), undefined, deps.redact);
  const now = deps.clock.now().getTime();
  if (!barrier.ok) return { type: 'artifactChecked', now, ok: false, problems: barrier.problems };
  return { type: 'artifactChecked', now, ok: true, value: stateValue(spec, barrier.value) };
};

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
