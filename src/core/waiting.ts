/**
 * Ready issues whose work already waits somewhere are not worked again: in an open pull request of
 * agent-loop's (beads issues in the action: closed on the branch, still open on the base), or, with
 * --on-success branch and nothing published, finished on their own branch and not merged into the
 * base. The handler reads the facts (src/loop/effects/issues.ts); the core decides what to look up,
 * what to leave, and tells each issue once per slice. Pure.
 */
import { type Effect, type InReview, type OnBranch, type ReadyIssue, log } from './events.js';
import type { CoreConfig, SliceModel } from './model.js';

/** What `readIssues` looks up besides the listing: finished branches, but never the cycle in flight's. */
export function readIssuesEffect(model: SliceModel, config: CoreConfig): Effect {
  // Nothing published and work left on its branch (--on-success branch): a finished branch holds it.
  const lookUp = config.branches && !config.publishes && config.landing === 'branch';
  return lookUp
    ? { kind: 'readIssues', finishedBranches: { except: model.loop.currentCycle?.issueIds ?? [] } }
    : { kind: 'readIssues' };
}

export function finishedBranchMessage(id: string, branch: string, base: string): string {
  return (
    `Skipping ${id}: its work is finished on ${branch}, which is not merged into ${base} (the issue is ` +
    `closed there). Merge ${branch} to land it, or delete it (git branch -D ${branch}) to have agent-loop ` +
    `work on the issue again.`
  );
}

/** The ready issues less those waiting, and a log line for each told for the first time in this slice. */
export function leaveWaiting(
  model: SliceModel,
  ready: ReadyIssue[],
  inReview: readonly InReview[] = [],
  onBranch: readonly OnBranch[] = [],
): { model: SliceModel; ready: ReadyIssue[]; effects: Effect[] } {
  const effects: Effect[] = [];
  const told = new Set(model.toldWaiting ?? []);
  const inFlight = new Set(model.loop.currentCycle?.issueIds ?? []);
  const waiting = new Set<string>();
  for (const pr of inReview) {
    waiting.add(pr.id);
    if (told.has(pr.id)) continue;
    told.add(pr.id);
    effects.push(
      log(
        'info',
        'issue.in_review',
        `Skipping ${pr.id}: its pull request #${pr.number} (${pr.url}) is open. Merge it (the issue is closed ` +
          `on its branch), or close it and delete its branch to have agent-loop work on the issue again.`,
        { issueId: pr.id, number: pr.number, url: pr.url },
      ),
    );
  }
  const base = model.loop.baseBranch ?? '';
  for (const { id, branch } of onBranch) {
    // The cycle in flight is the core's to resume, whatever its branch holds.
    if (inFlight.has(id)) continue;
    waiting.add(id);
    if (told.has(id)) continue;
    told.add(id);
    effects.push(log('info', 'issue.on_branch', finishedBranchMessage(id, branch, base), { issueId: id, branch }));
  }
  const left = ready.filter((i) => !waiting.has(i.id));
  if (told.size === (model.toldWaiting ?? []).length) return { model, ready: left, effects };
  return { model: { ...model, toldWaiting: [...told] }, ready: left, effects };
}
