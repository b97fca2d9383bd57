/**
 * What a listing of labelled GitHub issues holds, decided item by item: pull requests, closed items,
 * issues waiting in a pull request and work held for a person (issue 42) left out, escalated issues
 * apart, outsiders' issues skipped (and named), "Blocked by #N" issues held back while #N is open.
 * Pure: listing.ts's caller pages.
 */
import { ESCALATED_LABEL, HELD_LABELS, NO_CHANGE_LABEL, PR_OPEN_LABEL, type Issue } from '../types.js';
import type { ListingPage } from './cache.js';
import { blockedBy, toIssue } from './issueFields.js';

export interface SkippedOutsider {
  id: string;
  title: string;
  /** The author's login. */
  author: string;
  /** GitHub's author_association: CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, NONE, … */
  association: string;
  url?: string;
}

export interface ListingSummary {
  /** Listing pages requested by the last ready(). */
  pages: number;
  /** Of which answered 304 (served from the cache, not counted against the rate limit). */
  notModified: number;
  /** Items looked at, pull requests included. */
  scanned: number;
  pullRequests: number;
  escalated: number;
  /** Issues whose work waits in an open pull request (PR_OPEN_LABEL). */
  prOpen: number;
  /** Issues whose work is held for a person (issue 42: TESTS_CHANGED_LABEL, UNVERIFIED_LABEL). */
  held: number;
  /** Issues whose body says "Blocked by #N" while #N is still open in the listing. */
  blocked: number;
  outsiders: number;
  /** Workable issues returned. */
  ready: number;
  /** More pages were left unread (the bound was reached): older issues come first, newer wait. */
  truncated: boolean;
}

export function emptySummary(): ListingSummary {
  return {
    pages: 0,
    notModified: 0,
    scanned: 0,
    pullRequests: 0,
    escalated: 0,
    prOpen: 0,
    held: 0,
    blocked: 0,
    outsiders: 0,
    ready: 0,
    truncated: false,
  };
}

/** Who may have their issues worked: the allowed author associations, and issues trusted by id. */
export interface Admission {
  allowed: ReadonlySet<string>;
  trusted: ReadonlySet<string>;
}

/** The issues of a listing so far, sorted into what is workable, escalated, and skipped. */
export interface Sorted {
  listed: Issue[];
  /**
   * Escalated issues are listed too, after the others and not counted against maxIssues: the engine
   * skips them unless they were edited since their escalation, and halts when only they remain.
   */
  escalated: Issue[];
  outsiders: SkippedOutsider[];
  /** The warning for each outsider's issue skipped. */
  warnings: string[];
}

/** Sorts one page's items into `into`, counting them in `summary`. Pure (but for the two it adds to). */
export function sortPage(items: ListingPage['items'], who: Admission, into: Sorted, summary: ListingSummary): void {
  for (const item of items) {
    summary.scanned++;
    if (item.pullRequest) {
      summary.pullRequests++;
      continue;
    }
    if (item.state !== 'open') continue;
    const escalated = item.labels.some((l) => l.toLowerCase() === ESCALATED_LABEL);
    if (escalated) summary.escalated++;
    if (item.labels.some((l) => l.toLowerCase() === PR_OPEN_LABEL || l.toLowerCase() === NO_CHANGE_LABEL)) {
      summary.prOpen++;
      continue;
    }
    if (item.labels.some((l) => HELD_LABELS.includes(l.toLowerCase()))) {
      summary.held++;
      continue;
    }
    const association = (item.authorAssociation ?? 'NONE').toUpperCase();
    if (!who.allowed.has(association) && !who.trusted.has(String(item.number))) {
      summary.outsiders++;
      const outsider: SkippedOutsider = {
        id: String(item.number),
        title: item.title,
        author: item.author ?? '',
        association,
      };
      if (item.url !== undefined) outsider.url = item.url;
      into.outsiders.push(outsider);
      into.warnings.push(
        `issue #${item.number} by ${item.author ? `@${item.author}` : 'an unknown author'} (${association}) skipped: ` +
          `only issues by ${[...who.allowed].join(', ')} are worked on (allowed-authors)`,
      );
      continue;
    }
    (escalated ? into.escalated : into.listed).push(toIssue(item));
  }
}

/**
 * "Blocked by #N" (the planning pipeline's phase N+1): `issues` but those blocked by an issue open in
 * the listing's `pages`, each held back counted in `summary`.
 */
export function unblockedBy(pages: Record<string, ListingPage>, summary: ListingSummary): (issues: Issue[]) => Issue[] {
  const open = new Set(
    Object.values(pages)
      .flatMap((p) => p.items)
      .filter((i) => i.state === 'open' && !i.pullRequest)
      .map((i) => String(i.number)),
  );
  return (issues) =>
    issues.filter((issue) => {
      const blocker = blockedBy(issue.body).find((n) => open.has(n));
      if (blocker !== undefined) summary.blocked++;
      return blocker === undefined;
    });
}
