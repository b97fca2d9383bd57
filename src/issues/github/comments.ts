/**
 * agent-loop's comments on an issue, each posted once: a hidden first line says what it is for and
 * carries a hash of its text, so a run killed after posting it finds it again instead of posting twice.
 */
import { createHash } from 'node:crypto';
import { isObject } from './json.js';
import { commentText } from './postedText.js';
import { type GitHubRequests, PER_PAGE } from './requests.js';

const COMMENT_PAGES_SEARCHED = 2;

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hidden line that marks a comment agent-loop posted: what it is for and a hash of its text. */
export function commentMarker(kind: string, text: string): string {
  return `<!-- agent-loop:${kind} sha256=${sha256(text).slice(0, 16)} -->`;
}

/** Looks through the newest comments (the last pages) for one that `matches`. */
async function hasComment(
  api: GitHubRequests,
  number: number,
  count: number,
  matches: (body: string) => boolean,
): Promise<boolean> {
  const lastPage = Math.ceil(count / PER_PAGE);
  for (let page = lastPage; page >= 1 && page > lastPage - COMMENT_PAGES_SEARCHED; page--) {
    const answer = await api.send(
      'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
      { issue_number: number, per_page: PER_PAGE, page },
      `reading the comments of issue #${number}`,
    );
    const comments = Array.isArray(answer.data) ? answer.data : [];
    if (comments.some((c) => isObject(c) && typeof c.body === 'string' && matches(c.body))) return true;
  }
  return false;
}

/** One comment to post once on an issue. */
export interface OnceComment {
  number: number;
  /** The issue's comment count: 0, not searched (nothing of this effect can be there yet). */
  comments: number;
  kind: string;
  note: string;
  what: string;
  /** More hidden lines before the marker (the escalation's older marker). */
  lines?: readonly string[];
}

/**
 * Posts `note` (redacted) as a comment once: its hidden first line says what it is for and
 * carries the note's hash (`<!-- agent-loop:<kind> sha256=… -->`); when the issue has comments,
 * the newest pages are searched for that line first (up to 2 requests) and nothing is posted when
 * it is there.
 */
export async function postOnce(api: GitHubRequests, redact: (text: string) => string, c: OnceComment): Promise<void> {
  const text = commentText(redact, c.note);
  const marker = commentMarker(c.kind, text);
  if (c.comments > 0 && (await hasComment(api, c.number, c.comments, (b) => b.includes(marker)))) return;
  await api.send(
    'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
    { issue_number: c.number, body: [...(c.lines ?? []), marker, '', text].join('\n') },
    c.what,
  );
}
