import type { Claim, ClaimOutcome, ClaimProgress, Claimant } from './claims.js';

/** A unit of work from an issue source. ids are strings: "42" on GitHub, "bd-a1b2" in beads. */
export interface Issue {
  id: string;
  title: string;
  body: string;
  /** The source's own status word: beads uses open, in_progress, blocked, closed. */
  status: string;
  labels: string[];
  /**
   * The source's own kind of issue, where it has one: beads' issue_type (bug, feature, task, epic,
   * chore), GitHub's issue type (Bug, Feature, Task) in an organisation that uses them.
   */
  type?: string;
  /** ids of the issues this one depends on (any dependency type). */
  dependencies: string[];
  /** 0 is the most urgent (beads); undefined when the source has no priority. */
  priority?: number;
  createdAt?: string;
  url?: string;
  authorAssociation?: string;
  /** The live claim of another run on it (a source with claims: GitHub): other runs leave it alone. */
  claimedBy?: Claim;
}

export function isClosed(issue: Pick<Issue, 'status'>): boolean {
  return issue.status === 'closed';
}

/** An issue not closed, as its source holds it (openRecords). */
export interface OpenRecord {
  /** What decides whether it is ready, comparable before and after an agent run (beads: its status and dependencies). */
  standing: string;
  /** The issue as it is, for `reinstate` only. */
  record: unknown;
}

/** Where issues come from and where their closing goes back to. */
export interface IssueSource {
  /** Short name for logs and messages: "beads file .beads/issues.jsonl", "bd". Never branched on. */
  readonly description: string;
  /**
   * The file this source reads and rewrites, when it is one (the beads JSONL file), absolute: a run
   * checks that it exists and can be read before any agent runs.
   */
  readonly issuesFile?: string;
  /** Ready issues, most urgent first (priority ascending, then oldest). */
  ready(): Promise<Issue[]>;
  /** Re-reads one issue (its status may have been changed by the agent). undefined when unknown. */
  get(id: string): Promise<Issue | undefined>;
  /** Closes an issue with a reason. Closing a closed issue is a no-op. */
  close(id: string, reason: string): Promise<void>;
  /** Labels an issue ESCALATED_LABEL and records why, so later runs skip it until a person removes the label. */
  markEscalated(id: string, note: string): Promise<void>;
  /**
   * Where a person decides (GitHub): an issue found already satisfied is labelled NO_CHANGE_LABEL
   * with `note` as a comment, and closed only when `close` (its own named tests or `verify:` pass);
   * else left open for a person. Sources without it close it.
   */
  markNoChange?(id: string, note: string, close: boolean): Promise<void>;
  /**
   * Work held for a person (issue 42: it changed the maintainer's tests, or has no evidence): the
   * issue is left open, labelled `label` (TESTS_CHANGED_LABEL, UNVERIFIED_LABEL) with `note` (a GitHub
   * comment, a beads note), so later runs leave it until a person removes the label. Idempotent.
   * Sources without it record nothing on the issue (the checkpoint keeps it held).
   */
  markHeld?(id: string, note: string, label: string): Promise<void>;
  /**
   * Issue 42: an issue found closed during its own cycle, before agent-loop closed it, reopened with
   * `note` when a token closed it (the agent's, not a person): who closed it; undefined when it is
   * open or a person closed it. Sources where closing is the agent's word for done (beads) have none.
   */
  reopenClosedByToken?(id: string, note: string): Promise<string | undefined>;
  /**
   * Ticks the box of the checklist item `item` (`- [ ] item` → `- [x] item`) in the issue's text as
   * it is now (read again first, so a person's edit since is kept), changing nothing else; whether a
   * box was ticked (false: already ticked, or no such item). Idempotent. --workflow tdd, as each
   * item's red/green/refactor cycle is done.
   */
  tickChecklistItem?(id: string, item: string): Promise<boolean>;
  /**
   * Every issue not closed now, by id. Taken before each agent run, so that an issue outside its
   * cycle that the agent closed, removed, or kept off the ready list otherwise (another status, other
   * dependencies: its `standing` changed) is put back after it (src/loop/turn.ts): only the engine
   * closes an issue, after its verdict. Sources whose issues the agent can edit itself have it (a
   * beads file in the working tree).
   */
  openRecords?(): Promise<ReadonlyMap<string, OpenRecord>>;
  /** Puts issue `id` back as `record` (an OpenRecord's): its line replaced, or added again when removed. */
  reinstate?(id: string, record: unknown): Promise<void>;
  /**
   * Issue 42: the issues as they are now, whole (a beads file's bytes), taken before each agent run
   * for `keepTrusted` after it. Sources whose issues the agent can edit itself have it.
   */
  snapshot?(): Promise<Buffer>;
  /**
   * Issue 42: after an agent run, the issues put back as they were in `before` (a `snapshot`), but for
   * what the agent may say of its cycle's own issues (`cycleIds`: their status, close reason, notes):
   * an issue it added is removed, one it changed or removed put back (src/issues/trustedIssues.ts).
   * What it did that was not its to do, for a person.
   */
  keepTrusted?(before: Buffer, cycleIds: readonly string[]): Promise<TrustedFile>;
  /** What the source wants kept in the checkpoint between runs (a cache of ETags), if anything. */
  exportState?(): unknown;
  /** Hands back what exportState returned in an earlier run; anything unusable is ignored. */
  importState?(state: unknown): void;
  /**
   * Issues agent-loop itself created (the planning pipeline's phase issues): worked on whoever the
   * source says wrote them (on GitHub the workflow token's bot, which is no OWNER or MEMBER).
   */
  trust?(ids: readonly string[]): void;
  /**
   * How many records the source can read and how many it cannot (malformed lines), for telling
   * "no work left" from "the agent left the issues unreadable".
   */
  health?(): Promise<{ valid: number; unreadable: number }>;
  /**
   * Claims and leases (issue 14, src/issues/claims.ts): claims the issue for `me` until `expires`
   * (RFC 3339), race-safe (the oldest live claim wins); `resuming` for a cycle `me`'s loop had in
   * flight (its loop's own live claim is taken over). Sources where one run at a time works the
   * issues (beads: the CLI's lock on the repository) have none, and the engine claims nothing.
   * `progress` (issue 15): how the work goes, told where the claim is shown (GitHub: its comment).
   */
  claim?(id: string, me: Claimant, expires: string, resuming: boolean, progress?: ClaimProgress): Promise<ClaimOutcome>;
  /**
   * Moves this run's lease on the issue to `expires`; the claim of the run that took the issue over
   * (this run's lease had run out), or undefined while this run holds it.
   */
  renewClaim?(id: string, me: Claimant, expires: string, progress?: ClaimProgress): Promise<Claim | undefined>;
  /**
   * Ends this run's claim on the issue (its cycle landed or was escalated), at `at`: with `progress`,
   * how it ended stays told where the claim was (GitHub: its comment, marked released); without
   * (nothing was done: a race lost, a batch let go), the claim goes.
   */
  releaseClaim?(id: string, me: Claimant, at: string, progress?: ClaimProgress): Promise<void>;
}

/** An issue the agent added, changed or removed, for a person. */
export interface Untrusted {
  id: string;
  what: 'added' | 'changed' | 'removed';
  /** Its title as a person wrote it (for an added issue: the agent's). */
  title: string;
  /** Of a changed issue, the fields the agent changed that are not its to change. */
  fields?: string[];
  /** Of an added or changed issue, the agent's line, so that nothing it wrote is lost. */
  line?: string;
  /**
   * What was done where the issue could not be put back (the bd CLI: no file to rewrite): `labelled`,
   * UNTRUSTED_LABEL added (never worked while it is on); `told`, only said. Absent: put back.
   */
  kept?: 'labelled' | 'told';
}

/** What an agent run did to the issues that was not its to do, and the file to write back (src/issues/trustedIssues.ts). */
export interface TrustedFile {
  /** The file to write back; undefined when it is right as it is (or is left for the unreadable-issues halt). */
  content: Buffer | undefined;
  untrusted: Untrusted[];
  /** Malformed lines the agent left that the file did not have (they go with the rewrite). */
  garbled: number;
}

/** The label of an issue a run is working on (with its claim comment); removing it frees the issue. */
export const IN_PROGRESS_LABEL = 'agent-loop:in-progress';

/** The label of an issue whose work waits in an open pull request; later runs skip it. */
export const PR_OPEN_LABEL = 'agent-loop:pr-open';

/** The label of an issue agent-loop found already satisfied (no change needed); later runs skip it. */
export const NO_CHANGE_LABEL = 'agent-loop:no-change';

/** The label of an issue whose work changed the maintainer's tests (issue 42): held for a person, never merged by the loop. */
export const TESTS_CHANGED_LABEL = 'agent-loop:tests-changed';

/** The label of an issue whose work has no evidence of the fix (issue 42): held for a person, never merged by the loop. */
export const UNVERIFIED_LABEL = 'agent-loop:unverified';

/** The labels of work held for a person; later runs skip an issue carrying one. */
export const HELD_LABELS: readonly string[] = [TESTS_CHANGED_LABEL, UNVERIFIED_LABEL];
/** An issue the agent added or rewrote through the bd CLI (issue 42): never worked while it carries this label. */
export const UNTRUSTED_LABEL = 'agent-loop:untrusted';

/** The label of an escalated issue; removing it makes the issue eligible again. */
export const ESCALATED_LABEL = 'agent-loop:escalated';

/** Non-fatal problems a source finds while reading (e.g. a malformed line), reported to the log. */
export type SourceWarning = (message: string) => void;
