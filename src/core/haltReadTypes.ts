/**
 * The vocabulary of a halt's reads (src/core/haltReads.ts): what the core asks before each save of a
 * halted loop, and the events that answer it. Types only, part of the core's Effect and Event
 * (src/core/events.ts).
 */

/** Ask for the base branch's tip; answered by `baseTipRead` (no tip when it cannot be read). */
export type ReadBaseTip = { kind: 'readBaseTip'; branch: string };
/**
 * Ask for a digest of each open issue, by id, when `branch` is the one checked out; answered by
 * `leftIssuesRead` (none when another is, or the issues cannot be read).
 */
export type ReadLeftIssues = { kind: 'readLeftIssues'; branch: string };
export type HaltReadEffect = ReadBaseTip | ReadLeftIssues;

export type HaltReadEvent =
  { type: 'baseTipRead'; tip?: string } | { type: 'leftIssuesRead'; issues?: Record<string, string> };
