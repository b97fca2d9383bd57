/**
 * The cycle's own issues, as the issues file held them when the cycle began, put back when the
 * cycle is escalated. The agent may close its own issue (the engine reads that as "done" and then
 * judges the work, src/workflows/implement/iteration.ts), but only a passing verdict makes it so:
 * kept in the escalation's `wip:` commit, a lying agent's closing went on the branch, where the next
 * attempt read the issue as closed (the run ended "complete" with nothing fixed) and where its line
 * conflicted with the escalation label on the base branch. Issues outside the cycle are put back
 * after every agent run (src/loop/turn.ts); the cycle's own only once its work is rejected for good.
 */
import type { OpenRecord } from '../issues/types.js';
import type { SliceDeps } from './deps.js';

/** The records of `ids` in the source now; undefined when it cannot say or put them back (then nothing is). */
export async function ownRecords(
  deps: Pick<SliceDeps, 'source'>,
  ids: readonly string[],
): Promise<ReadonlyMap<string, OpenRecord> | undefined> {
  const { source } = deps;
  if (!source.reinstate || !source.openRecords) return undefined;
  try {
    const open = await source.openRecords();
    return new Map([...open].filter(([id]) => ids.includes(id)));
  } catch {
    return undefined; // An unreadable issues file is reported where the issues are read.
  }
}

/**
 * Pure: the issues of `ids` recorded open at the cycle's start whose standing is not that now
 * (closed, removed, another status or other dependencies). Other edits (a ticked checklist item,
 * the agent's notes) are the cycle's work and stay.
 */
export function ownIssuesToPutBack(
  atStart: ReadonlyMap<string, OpenRecord>,
  now: ReadonlyMap<string, OpenRecord>,
  ids: readonly string[],
): string[] {
  return ids.filter((id) => {
    const before = atStart.get(id);
    return before !== undefined && now.get(id)?.standing !== before.standing;
  });
}

/**
 * Before an escalated cycle's work is committed as `wip:` (or left checked out by its halt): each of
 * its issues that the agent closed, removed or re-statused is put back as it was at the cycle's
 * start, with a warning; every other line of the file stays as it is.
 */
export async function putBackOwnIssues(
  deps: Pick<SliceDeps, 'source' | 'logger'>,
  atStart: ReadonlyMap<string, OpenRecord> | undefined,
  ids: readonly string[],
): Promise<void> {
  const { source, logger } = deps;
  if (!atStart || atStart.size === 0) return;
  let now: ReadonlyMap<string, OpenRecord> | undefined;
  try {
    now = await source.openRecords?.();
  } catch {
    return; // The agent left the file unreadable: the next read of the issues says so.
  }
  if (!now) return;
  for (const id of ownIssuesToPutBack(atStart, now, ids)) {
    try {
      await source.reinstate?.(id, atStart.get(id)?.record);
      logger.warn(
        'issue.reinstated',
        `The agent closed, removed or re-statused issue ${id}, whose work was not accepted: put back as it ` +
          `was when the cycle began, so that the escalation's wip: commit does not hold it closed. Only agent-loop ` +
          `closes an issue, once its work passes the tests.`,
        { issueId: id, cycle: [...ids] },
      );
    } catch (error) {
      logger.warn(
        'issue.reinstate_failed',
        `The agent closed or removed issue ${id}, whose work was not accepted, and it could not be put back: ` +
          `${(error as Error).message}. Check ${source.description} and reopen ${id} by hand.`,
        { issueId: id },
      );
    }
  }
}
