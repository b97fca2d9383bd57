import type { Issue } from './types.js';

/**
 * One issue as beads stores it: a line of `.beads/issues.jsonl`, or an element of `bd ready --json`.
 * Only `id` is guaranteed (records without a string id are rejected before they get here); every
 * other field is whatever the file holds, so readers check types instead of trusting them. The
 * fields beads writes: title, description, status, priority, issue_type, labels,
 * dependencies: [{issue_id, depends_on_id, type}], created_at, updated_at, closed_at, close_reason.
 */
export interface BeadsRecord {
  id: string;
  [field: string]: unknown;
}

/** Dependency types that keep an issue out of the ready list while their target is not closed. */
export const BLOCKING_DEPENDENCY_TYPES: ReadonlySet<string> = new Set([
  'blocks',
  'parent-child',
  'conditional-blocks',
  'waits-for',
]);

/** beads' default dependency type, assumed when a dependency has no `type`. */
const DEFAULT_DEPENDENCY_TYPE = 'blocks';

export function isBeadsRecord(value: unknown): value is BeadsRecord {
  return isPlainObject(value) && typeof value.id === 'string';
}

interface DependencyRef {
  dependsOn: string;
  type: string;
}

/**
 * The dependencies of a record, skipping entries that name no target. `bd show --json` lists
 * dependencies as the depended-on issues themselves (`id`, `dependency_type`), the JSONL as
 * `{issue_id, depends_on_id, type}`: both are read.
 */
function dependencyRefs(record: BeadsRecord): DependencyRef[] {
  const deps = record.dependencies;
  if (!Array.isArray(deps)) return [];
  const refs: DependencyRef[] = [];
  for (const dep of deps) {
    if (!isPlainObject(dep)) continue;
    const dependsOn =
      typeof dep.depends_on_id === 'string' ? dep.depends_on_id : typeof dep.id === 'string' ? dep.id : undefined;
    if (dependsOn === undefined) continue;
    const type =
      typeof dep.type === 'string'
        ? dep.type
        : typeof dep.dependency_type === 'string'
          ? dep.dependency_type
          : DEFAULT_DEPENDENCY_TYPE;
    refs.push({ dependsOn, type });
  }
  return refs;
}

/** Maps a beads record to the source-independent `Issue`. */
export function beadsRecordToIssue(record: BeadsRecord): Issue {
  const issue: Issue = {
    id: record.id,
    title: typeof record.title === 'string' ? record.title : '',
    body: typeof record.description === 'string' ? record.description : '',
    status: statusOf(record),
    labels: Array.isArray(record.labels) ? record.labels.filter((l): l is string => typeof l === 'string') : [],
    dependencies: dependencyRefs(record).map((d) => d.dependsOn),
  };
  if (typeof record.priority === 'number' && Number.isFinite(record.priority)) issue.priority = record.priority;
  if (typeof record.created_at === 'string') issue.createdAt = record.created_at;
  if (typeof record.issue_type === 'string' && record.issue_type !== '') issue.type = record.issue_type;
  return issue;
}

/**
 * A record's status; a line written without one is open, as `bd create` makes it (issue 40: a
 * hand-written line without `"status":"open"` was silently never ready).
 */
export function statusOf(record: BeadsRecord): string {
  if (record.status === undefined || record.status === null || record.status === '') return 'open';
  return typeof record.status === 'string' ? record.status : '';
}

/** Statuses that no longer hold anything up: closed, and deleted (tombstone) issues. */
const DONE_STATUSES = new Set(['closed', 'tombstone']);

/**
 * Why a record is not ready, or undefined when it is. `byId` holds every record of the file
 * (closed ones included); a dependency on an id that is not there does not block.
 *
 * `blocks`, `conditional-blocks` and `waits-for` block while their target is not done. For
 * `parent-child` (the child's edge to its epic) we follow `bd ready`: an open parent is the normal
 * state of an epic and does not hold its children back; a child is blocked only when its parent is
 * itself blocked (transitively).
 */
export function blockedReason(record: BeadsRecord, byId: ReadonlyMap<string, BeadsRecord>): string | undefined {
  if (statusOf(record) !== 'open') return `status is ${JSON.stringify(record.status ?? null)}, not "open"`;
  return blockedBy(record, byId, new Set());
}

function blockedBy(record: BeadsRecord, byId: ReadonlyMap<string, BeadsRecord>, seen: Set<string>): string | undefined {
  if (seen.has(record.id)) return undefined;
  seen.add(record.id);
  for (const dep of dependencyRefs(record)) {
    if (!BLOCKING_DEPENDENCY_TYPES.has(dep.type)) continue;
    const target = byId.get(dep.dependsOn);
    if (!target) continue;
    const status = statusOf(target);
    if (DONE_STATUSES.has(status)) continue;
    if (dep.type === 'parent-child') {
      const parentBlocked = blockedBy(target, byId, seen);
      if (parentBlocked) return `parent ${dep.dependsOn} is blocked (${parentBlocked})`;
      continue;
    }
    return `${dep.type} dependency on ${dep.dependsOn} (${status})`;
  }
  return undefined;
}

/** The ready issues among `records`, most urgent first (see `compareIssues`). */
export function computeReady(records: readonly BeadsRecord[]): Issue[] {
  const byId = new Map<string, BeadsRecord>();
  for (const r of records) byId.set(r.id, r);
  return sortIssues(records.filter((r) => blockedReason(r, byId) === undefined).map(beadsRecordToIssue));
}

/**
 * Most urgent first: priority ascending (missing after every number), then created_at ascending as
 * dates (missing or unparseable last), then id (code-unit order, so the result never depends on
 * the locale).
 */
export function compareIssues(a: Issue, b: Issue): number {
  const byPriority = compareOptional(a.priority, b.priority);
  if (byPriority !== 0) return byPriority;
  const byCreated = compareOptional(timeOf(a.createdAt), timeOf(b.createdAt));
  if (byCreated !== 0) return byCreated;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A sorted copy; the input is left as it was. */
export function sortIssues(issues: readonly Issue[]): Issue[] {
  return [...issues].sort(compareIssues);
}

function compareOptional(a: number | undefined, b: number | undefined): number {
  if (a === undefined) return b === undefined ? 0 : 1;
  if (b === undefined) return -1;
  return a - b;
}

function timeOf(rfc3339: string | undefined): number | undefined {
  if (rfc3339 === undefined) return undefined;
  const t = Date.parse(rfc3339);
  return Number.isNaN(t) ? undefined : t;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
