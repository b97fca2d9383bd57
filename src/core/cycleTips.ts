/**
 * Issue 42: a cycle branch is agent-loop's own only at a commit agent-loop recorded. The agent can
 * create any branch in the repository it works in, so a branch `agent-loop/<id>` found when a cycle
 * of <id> starts (an escalated cycle's wip:, a halted one's parked work, one an earlier run pushed)
 * is continued only when its tip is the commit agent-loop last left it at, kept in the checkpoint
 * (`loop.cycleTips`); any other is moved aside, never merged as the work. Pure.
 */
import type { LoopState } from './state.js';

/** The most branches remembered (the oldest forgotten first: its branch is then moved aside, losing nothing). */
export const CYCLE_TIPS_KEPT = 200;

/** The loop with `tips` (branch → the commit agent-loop left it at) recorded, the newest last. */
export function recordTips(loop: LoopState, tips: Readonly<Record<string, string>>): LoopState {
  const entries = Object.entries(tips);
  if (entries.length === 0) return loop;
  const kept = Object.entries(loop.cycleTips ?? {}).filter(([branch]) => !(branch in tips));
  return { ...loop, cycleTips: Object.fromEntries([...kept, ...entries].slice(-CYCLE_TIPS_KEPT)) };
}

/**
 * The tips recorded in any of `loops` (oldest first: the newest's win), the newest CYCLE_TIPS_KEPT: what a
 * new checkpoint starts with, so that a finished loop's branches (--on-success branch, held work) stay
 * agent-loop's own when the next run starts a new checkpoint.
 */
export function tipsOf(loops: readonly Pick<LoopState, 'cycleTips'>[]): Record<string, string> {
  const tips = new Map<string, string>();
  for (const loop of loops)
    for (const [branch, tip] of Object.entries(loop.cycleTips ?? {})) {
      tips.delete(branch);
      tips.set(branch, tip);
    }
  return Object.fromEntries([...tips].slice(-CYCLE_TIPS_KEPT));
}

/** Whether a cycle may continue on `branch` found at `tip`: agent-loop left it there. */
export function adoptable(cycleTips: LoopState['cycleTips'], branch: string, tip: string | undefined): boolean {
  return tip !== undefined && cycleTips?.[branch] === tip;
}

/** Where a branch agent-loop did not leave is moved: outside agent-loop/, named for its branch and tip. */
export function asideName(branch: string, tip: string): string {
  return `agent-loop-untrusted/${branch.replace(/^agent-loop\//, '')}-${tip.slice(0, 12)}`;
}

/** What is said of it, for a person. */
export function foreignBranchMessage(branch: string, tip: string, aside: string, base: string): string {
  return (
    `${branch} existed at ${tip.slice(0, 12)}, a commit agent-loop did not leave it at (an agent, or a person, ` +
    `made it): not continued, so nothing on it is landed as the issue's work. Moved aside to ${aside} (nothing ` +
    `lost); the cycle starts on a new ${branch} from ${base}. To have that work landed, merge ${aside} yourself, ` +
    `or delete it.`
  );
}
