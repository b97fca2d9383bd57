/**
 * What the core sees of a ready issue, with the fingerprint of its text: a digest of the title and
 * body as read, so that an escalated issue a person edited since is tried again (issue 14: a halt
 * lifts when its cause changed). The text is the masked one, as every issue text in the engine.
 */
import { createHash } from 'node:crypto';
import { untickAll } from './checklist.js';
import type { Issue } from './types.js';

/**
 * The checklist's boxes do not count (ticked or not): --workflow tdd ticks them as it works, and that
 * is no edit by a person that would make an escalated issue worth trying again.
 */
export function issueFingerprint(issue: Pick<Issue, 'title' | 'body'>): string {
  return createHash('sha256').update(issue.title).update('\0').update(untickAll(issue.body)).digest('hex').slice(0, 16);
}

/** The issue as the core reads it (its ReadyIssue): id, title, labels, fingerprint, another run's claim. */
export function toReadyIssue(issue: Pick<Issue, 'id' | 'title' | 'body' | 'labels' | 'claimedBy'>): {
  id: string;
  title: string;
  labels: readonly string[];
  fingerprint: string;
  claimedBy?: NonNullable<Issue['claimedBy']>;
} {
  return {
    id: issue.id,
    title: issue.title,
    labels: issue.labels,
    fingerprint: issueFingerprint(issue),
    ...(issue.claimedBy ? { claimedBy: issue.claimedBy } : {}),
  };
}
