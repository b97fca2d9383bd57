/**
 * What the GitHub issue source writes on an issue: a ticked checklist item, a close with its reason,
 * the escalation's label and note, the no-change label and evidence, a label. Each reads the issue
 * first (a conditional GET) and does nothing twice when called again after a crash half-way.
 */
import { tickItem } from '../checklist.js';
import { noChangeNext } from '../messages.js';
import { ESCALATED_LABEL, NO_CHANGE_LABEL } from '../types.js';
import type { IssueCache } from './cache.js';
import { postOnce } from './comments.js';
import { GitHubSourceError } from './errors.js';
import { issueNumber } from './issueFields.js';
import { commentText } from './postedText.js';
import type { GitHubRequests } from './requests.js';

/** Hidden first line of every escalation comment. */
export const ESCALATION_MARKER = '<!-- agent-loop:escalation -->';

export interface MarkContext {
  api: GitHubRequests;
  cache: IssueCache;
  redact: (text: string) => string;
  /** owner/repo, as errors name it. */
  where: string;
}

/** The issue's number, or an error naming what could not be done. */
export function requireNumber(where: string, id: string, action: string): number {
  const number = issueNumber(id);
  if (number === undefined) {
    throw new GitHubSourceError(
      `Cannot ${action} issue ${JSON.stringify(id)} in ${where}: a GitHub issue id is its number, e.g. "42".`,
      'other',
    );
  }
  return number;
}

export function unknownIssue(where: string, number: number, action: string): GitHubSourceError {
  return new GitHubSourceError(
    `Cannot ${action} issue #${number} in ${where}: there is no such issue (deleted, transferred, or a pull request).`,
    'not-found',
    404,
  );
}

/** The issue, read again (a conditional GET), or the error that it is none. */
async function readIssue(ctx: MarkContext, id: string, action: string, reading: (number: number) => string) {
  const number = requireNumber(ctx.where, id, action);
  const item = await ctx.cache.issue(number, reading(number));
  if (!item || item.pullRequest) throw unknownIssue(ctx.where, number, action);
  return { number, item };
}

async function addLabelTo(ctx: MarkContext, number: number, label: string): Promise<void> {
  await ctx.api.send(
    'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
    { issue_number: number, labels: [label] },
    `labelling issue #${number} ${label}`,
  );
}

async function closeIssue(ctx: MarkContext, number: number): Promise<void> {
  await ctx.api.send(
    'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
    { issue_number: number, state: 'closed', state_reason: 'completed' },
    `closing issue #${number}`,
  );
}

/** GitHubIssueSource.tickChecklistItem (see its contract there). */
export async function tickChecklistItem(ctx: MarkContext, id: string, item: string): Promise<boolean> {
  const action = 'tick a checklist item of';
  const { number, item: found } = await readIssue(
    ctx,
    id,
    action,
    (n) => `reading issue #${n} before ticking "${item}" in it`,
  );
  const body = tickItem(found.body, item);
  if (body === undefined) return false;
  await ctx.api.send(
    'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
    { issue_number: number, body },
    `ticking "${item}" in issue #${number}`,
  );
  ctx.cache.forget(number);
  return true;
}

/** GitHubIssueSource.close (see its contract there). */
export async function closeWithReason(ctx: MarkContext, id: string, reason: string): Promise<void> {
  const { number, item } = await readIssue(ctx, id, 'close', (n) => `reading issue #${n} before closing it`);
  if (item.state === 'closed') return;
  if (commentText(ctx.redact, reason).trim() !== '')
    await postOnce(ctx.api, ctx.redact, {
      number,
      comments: item.comments ?? 0,
      kind: 'close',
      note: reason,
      what: `commenting on issue #${number} before closing it`,
    });
  await closeIssue(ctx, number);
  ctx.cache.forget(number);
}

/**
 * `label` on the issue, then one comment with `note` (found by its marker when the label was there
 * already: a run killed after labelling, or after commenting too, posts it once).
 */
async function labelWithComment(
  ctx: MarkContext,
  found: { number: number; item: { labels: string[]; comments?: number } },
  label: string,
  comment: { kind: string; note: string; what: string; lines?: string[] },
): Promise<void> {
  const { number, item } = found;
  const labelled = item.labels.some((l) => l.toLowerCase() === label);
  if (!labelled) await addLabelTo(ctx, number, label);
  await postOnce(ctx.api, ctx.redact, { number, comments: labelled ? (item.comments ?? 0) : 0, ...comment });
}

/** GitHubIssueSource.markEscalated (see its contract there). */
export async function markEscalated(ctx: MarkContext, id: string, note: string): Promise<void> {
  const found = await readIssue(ctx, id, 'escalate', (n) => `reading issue #${n} before escalating it`);
  await labelWithComment(ctx, found, ESCALATED_LABEL, {
    kind: 'escalation-note',
    note,
    what: `commenting on escalated issue #${found.number}`,
    lines: [ESCALATION_MARKER],
  });
  ctx.cache.forget(found.number);
}

/** GitHubIssueSource.markNoChange (see its contract there). */
export async function markNoChange(ctx: MarkContext, id: string, note: string, close: boolean): Promise<void> {
  const found = await readIssue(ctx, id, 'label', (n) => `reading issue #${n} before labelling it ${NO_CHANGE_LABEL}`);
  if (found.item.state === 'closed') return;
  await labelWithComment(ctx, found, NO_CHANGE_LABEL, {
    kind: 'no-change',
    note: `${note}\n\n${noChangeNext(close)}`,
    what: `commenting on issue #${found.number}`,
  });
  if (close) await closeIssue(ctx, found.number);
  ctx.cache.forget(found.number);
}

/** GitHubIssueSource.markHeld (see its contract there): the label, then one comment; the issue stays open. */
export async function markHeld(ctx: MarkContext, id: string, note: string, label: string): Promise<void> {
  const found = await readIssue(ctx, id, 'label', (n) => `reading issue #${n} before labelling it ${label}`);
  if (found.item.state === 'closed') return;
  await labelWithComment(ctx, found, label, {
    kind: 'held',
    note,
    what: `commenting on issue #${found.number} held for a person`,
  });
  ctx.cache.forget(found.number);
}

/** GitHubIssueSource.addLabel (see its contract there). */
export async function addLabel(ctx: MarkContext, id: string, label: string): Promise<void> {
  const number = requireNumber(ctx.where, id, 'label');
  await addLabelTo(ctx, number, label);
  ctx.cache.forget(number);
}

/**
 * GitHubIssueSource.reopenClosedByToken (see its contract there): the issue read fresh; when it is
 * closed by a bot (an app's token: the job's, as an agent that read it would use) or by no one GitHub
 * names, one comment (`note`, then who closed it) and `state: open`. The login that closed it; undefined
 * when the issue is open, or a person closed it (their decision stands).
 */
export async function reopenClosedByToken(ctx: MarkContext, id: string, note: string): Promise<string | undefined> {
  const number = issueNumber(id);
  if (number !== undefined) ctx.cache.forget(number);
  const { number: n, item } = await readIssue(ctx, id, 'reopen', (k) => `reading issue #${k} to see who closed it`);
  if (item.state !== 'closed' || (item.closedBy && !item.closedBy.bot)) return undefined;
  const by = item.closedBy?.login ?? 'an unknown actor';
  await postOnce(ctx.api, ctx.redact, {
    number: n,
    comments: item.comments ?? 0,
    kind: 'reopened',
    note: `${note} It was closed by ${by}.`,
    what: `commenting on issue #${n} before reopening it`,
  });
  await ctx.api.send(
    'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
    { issue_number: n, state: 'open' },
    `reopening issue #${n}`,
  );
  ctx.cache.forget(n);
  return by;
}
