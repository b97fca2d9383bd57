/**
 * The names the state store publishes under: the scope of a lineage (ref and label), the cache keys
 * `agent-loop-<scope>-<runId>-<attempt>` and the artifact name `agent-loop-checkpoint-<scope>`, and
 * the run a cache key was saved by.
 */
import { createHash } from 'node:crypto';

/**
 * The scope of a lineage: `<ref>-<label>` sanitised to `[A-Za-z0-9._-]` (cache keys may not hold
 * commas, artifact names not `/ \ : " < > | * ?`), then a short hash of the raw pair. The hash keeps
 * the prefix `agent-loop-<scope>-` of one label from matching another's keys (label `bug` would
 * otherwise restore label `bug-fix`'s state) and tells apart pairs that sanitise alike.
 */
export function stateScope(ref: string, label: string): string {
  const readable = sanitise(`${ref.replace(/^refs\/heads\//, '')}-${label}`).slice(0, 80);
  const hash = createHash('sha256').update(`${ref}\n${label}`).digest('hex').slice(0, 8);
  return `${readable}-${hash}`;
}

function sanitise(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'default';
}

export const cacheKeyPrefix = (scope: string) => `agent-loop-${sanitise(scope)}-`;
export const cacheKey = (scope: string, runId: number, attempt: number) =>
  `${cacheKeyPrefix(scope)}${runId}-${attempt}`;
export const artifactName = (scope: string) => `agent-loop-checkpoint-${sanitise(scope)}`;

/** The run and attempt a cache key of this scope was saved by. */
export function keyIdentity(key: string, scope: string): { runId: number; attempt: number } | undefined {
  const m = /^(\d+)-(\d+)$/.exec(key.slice(cacheKeyPrefix(scope).length));
  return m ? { runId: Number(m[1]), attempt: Number(m[2]) } : undefined;
}

/**
 * The lineage of one fan-out job's partial state (issue 16): `wave-<waveId>-<issue>-<scope>`, so its
 * cache keys `agent-loop-wave-…` and its artifact `agent-loop-checkpoint-wave-…` are its own: they
 * never start with the loop's prefix `agent-loop-<scope>-` (a scope ends with its own hash), so
 * restoring the loop's state never picks a job's partial, and the jobs of one run never collide.
 */
export const partialScope = (scope: string, waveId: string, issueId: string) =>
  `wave-${sanitise(waveId)}-${sanitise(issueId)}-${sanitise(scope)}`;
