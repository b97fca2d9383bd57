/** How the engine names things in its log lines. Pure. */
import { printable } from '../util/printable.js';
import type { CycleState } from './state.js';

/** The longest an issue id is shown in a log line (a title: printable's default). */
const ID_MAX = 80;

/** `its-1 "Title", its-2 "Other"`: each id and title on one line and bounded, whatever its author wrote (issue 43). */
export function describeTargets(cycle: Pick<CycleState, 'issueIds' | 'titles'>): string {
  return cycle.issueIds.map((id, i) => `${printable(id, ID_MAX)} "${printable(cycle.titles[i] ?? '')}"`).join(', ');
}

/** A duration in seconds with one decimal: `2.5s`. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
