/** How the engine names things in its log lines. Pure. */
import type { CycleState } from './state.js';

/** `its-1 "Title", its-2 "Other"`. */
export function describeTargets(cycle: Pick<CycleState, 'issueIds' | 'titles'>): string {
  return cycle.issueIds.map((id, i) => `${id} "${cycle.titles[i] ?? ''}"`).join(', ');
}

/** A duration in seconds with one decimal: `2.5s`. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
