/**
 * What the GitHub issue source reads of a GitHub issue: the fields it keeps of GitHub's issue JSON
 * (`CachedIssue`, also the shape of the cache in the checkpoint), the `Issue` made of them, the
 * `priority:N` label, the "Blocked by #N" lines, and an issue id as its number.
 */
import { z } from 'zod';
import type { Issue } from '../types.js';
import { isObject } from './json.js';

const PRIORITY_LABEL = /^priority:\s*(\d+)$/i;

export const cachedIssueSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string(),
  state: z.string(),
  labels: z.array(z.string()),
  /** The issue type's name (Bug, Feature, Task), where the organisation has issue types. */
  type: z.string().optional(),
  createdAt: z.string().optional(),
  url: z.string().optional(),
  author: z.string().optional(),
  authorAssociation: z.string().optional(),
  pullRequest: z.boolean().optional(),
  comments: z.number().int().nonnegative().optional(),
  /** Who closed a closed issue (GitHub's `closed_by`): its login and whether it is a bot (an app's token). */
  closedBy: z.object({ login: z.string(), bot: z.boolean() }).optional(),
});

/** The fields of a GitHub issue this source uses. */
export type CachedIssue = z.infer<typeof cachedIssueSchema>;

/** The issue numbers of "Blocked by #N" lines in a body. */
export function blockedBy(body: string): string[] {
  return [...body.matchAll(/^\s*Blocked by #(\d+)\s*$/gim)].map((m) => m[1] as string);
}

/** The `priority:N` label's N (the smallest, when there are several). */
export function priorityOf(labels: readonly string[]): number | undefined {
  let best: number | undefined;
  for (const label of labels) {
    const m = PRIORITY_LABEL.exec(label.trim());
    if (m) {
      const n = Number(m[1]);
      if (best === undefined || n < best) best = n;
    }
  }
  return best;
}

/** The Issue the engine gets (its id is the issue number). */
export function toIssue(item: CachedIssue): Issue {
  const issue: Issue = {
    id: String(item.number),
    title: item.title,
    body: item.body,
    status: item.state,
    labels: [...item.labels],
    dependencies: [],
  };
  const priority = priorityOf(item.labels);
  if (priority !== undefined) issue.priority = priority;
  if (item.createdAt !== undefined) issue.createdAt = item.createdAt;
  if (item.type !== undefined) issue.type = item.type;
  if (item.url !== undefined) issue.url = item.url;
  if (item.authorAssociation !== undefined) issue.authorAssociation = item.authorAssociation;
  return issue;
}

/** The fields used of one item of GitHub's issue JSON; undefined when it is not an issue. */
export function toCached(raw: unknown): CachedIssue | undefined {
  if (!isObject(raw) || typeof raw.number !== 'number' || !Number.isInteger(raw.number)) return undefined;
  const labels = Array.isArray(raw.labels)
    ? raw.labels
        .map((l) => (typeof l === 'string' ? l : isObject(l) && typeof l.name === 'string' ? l.name : undefined))
        .filter((l): l is string => l !== undefined)
    : [];
  const item: CachedIssue = {
    number: raw.number,
    title: typeof raw.title === 'string' ? raw.title : '',
    body: typeof raw.body === 'string' ? raw.body : '',
    state: typeof raw.state === 'string' ? raw.state : '',
    labels,
  };
  if (typeof raw.created_at === 'string') item.createdAt = raw.created_at;
  if (isObject(raw.type) && typeof raw.type.name === 'string' && raw.type.name !== '') item.type = raw.type.name;
  if (typeof raw.html_url === 'string') item.url = raw.html_url;
  if (isObject(raw.user) && typeof raw.user.login === 'string') item.author = raw.user.login;
  if (typeof raw.author_association === 'string') item.authorAssociation = raw.author_association;
  if (raw.pull_request !== undefined && raw.pull_request !== null) item.pullRequest = true;
  if (typeof raw.comments === 'number') item.comments = raw.comments;
  if (isObject(raw.closed_by) && typeof raw.closed_by.login === 'string')
    item.closedBy = { login: raw.closed_by.login, bot: raw.closed_by.type === 'Bot' };
  return item;
}

/** The number of an issue id ("42" or "#42"); undefined when the id is not a GitHub issue number. */
export function issueNumber(id: string): number | undefined {
  const m = /^#?(\d+)$/.exec(id.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
