/**
 * Where issues enter the engine: titles, bodies and labels are written by people (on GitHub, by
 * anyone who may open an issue), and they reach the log, the prompt, commit messages, git and the
 * action's log. Here, once, every issue the source returns is cleaned: titles and labels on one
 * line; control characters and ANSI escape sequences removed (a NUL crashes git, a CR or an escape
 * rewrites the terminal, a newline followed by `::error` would be a workflow command in the
 * action's log); secrets masked.
 */
import type { Issue, IssueSource } from './types.js';

/* eslint-disable no-control-regex -- control characters are what this removes */
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]/g;
const CONTROL_BUT_NEWLINE_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/* eslint-enable no-control-regex */

/** One line of plain text. Pure. */
export function cleanLine(text: string): string {
  return text
    .replace(ANSI, '')
    .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
    .replace(CONTROL_BUT_NEWLINE_TAB, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** Text that may span lines (a body): newlines and tabs kept, CRLF made LF. Pure. */
export function cleanText(text: string): string {
  return text.replace(ANSI, '').replace(/\r\n?/g, '\n').replace(CONTROL_BUT_NEWLINE_TAB, '');
}

export function cleanIssue(issue: Issue, redact: (text: string) => string): Issue {
  return {
    ...issue,
    title: redact(cleanLine(issue.title)),
    body: redact(cleanText(issue.body)),
    labels: issue.labels.map((l) => cleanLine(l)),
  };
}

/**
 * The source, with every issue it returns cleaned and masked, and the engine's text it writes into an
 * issue (a close reason, an escalation's or a no-change note) masked on its way out: what they quote
 * was masked where it entered, and a beads file or bd, unlike GitHub's comments, masks nothing itself.
 */
export function guardIssues(source: IssueSource, redact: (text: string) => string): IssueSource {
  return {
    ...forwarding(source),
    ready: async () => (await source.ready()).map((i) => cleanIssue(i, redact)),
    get: async (id) => {
      const issue = await source.get(id);
      return issue ? cleanIssue(issue, redact) : undefined;
    },
    close: (id, reason) => source.close(id, redact(reason)),
    markEscalated: (id, note) => source.markEscalated(id, redact(note)),
    ...(source.markNoChange
      ? { markNoChange: (id: string, note: string, close: boolean) => source.markNoChange!(id, redact(note), close) }
      : {}),
    ...(source.markHeld
      ? { markHeld: (id: string, note: string, label: string) => source.markHeld!(id, redact(note), label) }
      : {}),
    ...(source.reopenClosedByToken
      ? { reopenClosedByToken: (id: string, note: string) => source.reopenClosedByToken!(id, redact(note)) }
      : {}),
  };
}

/**
 * The source whose first ready() answers what was read already (before the run started: the idle
 * check), without asking again; later calls ask the source. Its state was imported before that read,
 * so the run does not import the checkpoint's older one over it.
 */
export function withFirstReady(source: IssueSource, first: Issue[]): IssueSource {
  let pending: Issue[] | undefined = first;
  return {
    ...forwarding(source),
    ready: async () => {
      const answer = pending ?? (await source.ready());
      pending = undefined;
      return answer;
    },
    importState: undefined,
  };
}

/** Every method of the source, called on it. */
function forwarding(source: IssueSource): IssueSource {
  return {
    description: source.description,
    ...(source.issuesFile !== undefined ? { issuesFile: source.issuesFile } : {}),
    ready: () => source.ready(),
    get: (id) => source.get(id),
    close: (id, reason) => source.close(id, reason),
    markEscalated: (id, note) => source.markEscalated(id, note),
    ...(source.markNoChange
      ? { markNoChange: (id: string, note: string, close: boolean) => source.markNoChange!(id, note, close) }
      : {}),
    ...(source.markHeld
      ? { markHeld: (id: string, note: string, label: string) => source.markHeld!(id, note, label) }
      : {}),
    ...(source.reopenClosedByToken
      ? { reopenClosedByToken: (id: string, note: string) => source.reopenClosedByToken!(id, note) }
      : {}),
    ...(source.tickChecklistItem
      ? { tickChecklistItem: (id: string, item: string) => source.tickChecklistItem!(id, item) }
      : {}),
    ...(source.exportState ? { exportState: () => source.exportState?.() } : {}),
    ...(source.importState ? { importState: (state: unknown) => source.importState?.(state) } : {}),
    ...(source.trust ? { trust: (ids: readonly string[]) => source.trust?.(ids) } : {}),
    ...(source.health ? { health: () => source.health!() } : {}),
    ...(source.openRecords ? { openRecords: () => source.openRecords!() } : {}),
    ...(source.reinstate ? { reinstate: (id: string, record: unknown) => source.reinstate!(id, record) } : {}),
    ...(source.snapshot ? { snapshot: () => source.snapshot!() } : {}),
    ...(source.keepTrusted
      ? { keepTrusted: (before: Buffer, ids: readonly string[]) => source.keepTrusted!(before, ids) }
      : {}),
    ...(source.claim ? { claim: source.claim.bind(source) } : {}),
    ...(source.renewClaim ? { renewClaim: source.renewClaim.bind(source) } : {}),
    ...(source.releaseClaim ? { releaseClaim: source.releaseClaim.bind(source) } : {}),
  };
}
