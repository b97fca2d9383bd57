/**
 * What a halt keeps of the world, read before each save of a halted loop (the core decides when:
 * src/core/haltReads.ts, and puts what was read in the halt): the base branch's tip, and the open
 * issues' digests as the halt leaves them on a cycle's branch (src/loop/parking.ts). A read that
 * fails is answered with nothing: the halt is saved without it.
 */
import { issueDigests } from '../parking.js';
import type { Handler } from './context.js';

export const readBaseTip: Handler<'readBaseTip'> = async (effect, { deps }) => {
  const tip = await deps.git?.tipOf(effect.branch).catch(() => undefined);
  return { type: 'baseTipRead', ...(tip ? { tip } : {}) };
};

export const readLeftIssues: Handler<'readLeftIssues'> = async (effect, { deps }) => {
  const { git, source } = deps;
  // Only while that branch is the one checked out: the issues file read is the one the halt leaves there.
  if (!git || !source.openRecords || (await git.currentRef().catch(() => undefined)) !== effect.branch)
    return { type: 'leftIssuesRead' };
  const records = await source.openRecords().catch(() => undefined);
  return { type: 'leftIssuesRead', ...(records ? { issues: issueDigests(records) } : {}) };
};
