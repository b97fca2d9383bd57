/** The planning pipeline's long messages (what happened, to what, what to do next), one string each so a search finds them whole. */
import type { Terms } from '../../config/options.js';
import { surface } from '../../config/surface.js';

export const duplicatePhaseIssues = (marker: string, count: number, using: string | undefined, others: string[]) =>
  `${marker} is in ${count} bd issues: using ${using}, not ${others.join(', ')}. Close the extra ones (\`bd close ${others.join(' ')}\`).`;

export const BD_LIST_HINT =
  'Check that bd works in this directory (`bd list`; `bd init` when there is no beads database yet). A bd that does not know `--all` is too old: upgrade it.';

export const phaseIssueNotCreated = (key: string, phase: number, sofar: string, first: string, last: string) =>
  `Phase issue ${key} (phase ${phase}) was not created.${sofar} Fix the bd error and run again: only the missing phase issues of ${first}…${last} are created.`;

export const createdIdMissing = (key: string) =>
  `Check the bd version (\`bd version\`); the issue may have been created: \`bd list --desc-contains ${key}\` shows it, and running again finds it by its marker.`;

export const notYetBlocked = (blocked: string, blocker: string, command: string) =>
  `${blocked} is not yet blocked by ${blocker}. Add it by hand with \`${command}\`, or run again: the issues are found by their markers and only missing dependencies are added.`;

export const phaseFilesChanged = (terms: Terms | undefined) =>
  `the phase files changed after beads_integration started. Start the pipeline again with ${surface(terms).given('fresh')}, or rerun it from phase_decomposition.`;

export const notAComponent = (dep: string, components: Iterable<string>) =>
  `${JSON.stringify(dep)} is not the name of a component (the components are ${[...components].map((n) => JSON.stringify(n)).join(', ')})`;

// The lines of the pipeline's machines (src/core/pipeline.ts: a phase failed, the issues created, …;
// src/core/pipelinePhase.ts: an attempt, a rate limit waited out, …) are in src/core/pipeline/messages.ts.

export const otherGoalInProgress = (id: string, goal: string, terms: Terms | undefined) =>
  `pipeline ${id} is in progress for another goal ("${goal.slice(0, 80)}"): run without ${surface(terms).option('goal')} to resume it, or with ${surface(terms).given('fresh')} to start the new goal.`;
