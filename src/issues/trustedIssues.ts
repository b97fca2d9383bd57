/**
 * Issue 42: only a person's issues are worked. The beads file lives in the working tree the agent
 * edits, so after each agent run it is put back as it was before that run (what a person filed,
 * plus agent-loop's own edits), but for what the agent may say of its cycle's own issues: their
 * status (closing one is how an agent says "done"; only a passing verdict makes it so), the close
 * reason and time, and notes. An issue the agent added is removed (never worked), one it rewrote
 * (title, description, priority, labels, dependencies…) or removed is put back, lines it garbled go;
 * each is told for a person. A file with no readable issue left is not put back here: the slice
 * halts on it (src/loop/effects/issues.ts sourceWatch). Pure.
 */
import { printable } from '../util/printable.js';
import type { BeadsRecord } from './ready.js';
import type { TrustedFile, Untrusted } from './types.js';

export type { TrustedFile, Untrusted };

/** A beads file cut into lines and parsed (beadsFile.ts ParsedJsonl): what is read of it here. */
export interface ParsedLines {
  segments: readonly Buffer[];
  entries: readonly JsonlEntry[];
  problems: readonly { message: string }[];
}
interface JsonlEntry {
  segment: number;
  record: BeadsRecord;
}

/** What the agent may change of its cycle's own issues: the rest of the record is the person's. */
export const OWN_ISSUE_FIELDS: readonly string[] = ['status', 'closed_at', 'close_reason', 'updated_at', 'notes'];

const titleOf = (record: BeadsRecord) => (typeof record.title === 'string' ? record.title : '');

/** The fields in which two records differ, in the order of `a`'s keys then `b`'s. */
function differing(a: BeadsRecord, b: BeadsRecord): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** The person's record with what the agent may say of its own issue (OWN_ISSUE_FIELDS) taken from the agent's. */
export function withOwnFields(person: BeadsRecord, agent: BeadsRecord): BeadsRecord {
  const record: BeadsRecord = { ...person };
  for (const field of OWN_ISSUE_FIELDS) {
    if (field in agent) record[field] = agent[field];
    else delete record[field];
  }
  return record;
}

/** The last entry of each id, in file order (beadsFile.ts latestEntries: a later line of an id is the one used). */
function latestEntries(entries: readonly JsonlEntry[]): JsonlEntry[] {
  const last = new Map<string, JsonlEntry>();
  for (const entry of entries) last.set(entry.record.id, entry);
  return entries.filter((entry) => last.get(entry.record.id) === entry);
}

const malformed = (parsed: ParsedLines) => parsed.problems.filter((p) => p.message.startsWith('malformed')).length;

/** The lines of `parsed` joined again, `replaced` segments (index → record) serialised on their line. */
function rebuild(parsed: ParsedLines, replaced: ReadonlyMap<number, BeadsRecord>): Buffer {
  const parts: Buffer[] = [];
  parsed.segments.forEach((segment, i) => {
    if (i > 0) parts.push(Buffer.from('\n'));
    const record = replaced.get(i);
    if (!record) return void parts.push(segment);
    const text = segment.toString('utf8');
    const bom = i === 0 && text.startsWith('\uFEFF') ? '\uFEFF' : '';
    parts.push(Buffer.from(bom + JSON.stringify(record) + (text.endsWith('\r') ? '\r' : ''), 'utf8'));
  });
  return Buffer.concat(parts);
}

/**
 * The issues file before an agent run (`was`, parsed) and after it (`now`), for the cycle of `cycleIds`: what to write
 * back (the file as it was before, the cycle's own issues with the agent's OWN_ISSUE_FIELDS) and
 * what the agent did that is not its to do. Nothing to write when the agent changed only what it may.
 */
export function trustedIssuesFile(was: ParsedLines, now: ParsedLines, cycleIds: readonly string[]): TrustedFile {
  const wasLatest = latestEntries(was.entries);
  const nowById = new Map(latestEntries(now.entries).map((e) => [e.record.id, e.record]));
  // No readable issue left where there were some: the halt's business, not a guess at what to keep.
  if (nowById.size === 0 && wasLatest.length > 0) return { content: undefined, untrusted: [], garbled: 0 };
  const untrusted: Untrusted[] = [];
  const replaced = new Map<number, BeadsRecord>();
  const wasIds = new Set<string>();
  for (const { record, segment } of wasLatest) {
    wasIds.add(record.id);
    const agent = nowById.get(record.id);
    if (!agent) {
      untrusted.push({ id: record.id, what: 'removed', title: titleOf(record) });
      continue;
    }
    const kept = cycleIds.includes(record.id) ? withOwnFields(record, agent) : record;
    if (JSON.stringify(kept) !== JSON.stringify(record)) replaced.set(segment, kept);
    const fields = differing(kept, agent);
    if (fields.length > 0)
      untrusted.push({ id: record.id, what: 'changed', title: titleOf(record), fields, line: JSON.stringify(agent) });
  }
  for (const [id, record] of nowById)
    if (!wasIds.has(id)) untrusted.push({ id, what: 'added', title: titleOf(record), line: JSON.stringify(record) });
  const content = rebuild(was, replaced);
  return {
    content: content.equals(rebuild(now, new Map())) ? undefined : content,
    untrusted,
    garbled: Math.max(0, malformed(now) - malformed(was)),
  };
}

/** The fields of a ready issue that are a person's to write (what the bd CLI's `bd ready` shows of it). */
const PERSON_FIELDS = [
  'title',
  'description',
  'priority',
  'issue_type',
  'design',
  'acceptance_criteria',
  'dependencies',
];

/** A record's labels but agent-loop's own (agent-loop:*), sorted: what a person gave it. */
const personLabels = (r: BeadsRecord) =>
  (Array.isArray(r.labels) ? r.labels : [])
    .filter((l): l is string => typeof l === 'string' && !l.startsWith('agent-loop:'))
    .sort();

/**
 * The bd CLI's ready issues before an agent run (`was`: when it was `taken`, and `bd ready --json`'s
 * records) and after it: those the agent filed (created since) or rewrote, but its cycle's own, to be
 * labelled UNTRUSTED_LABEL; those gone from the ready list that were not its to close, to be told.
 * An issue that became ready because its blocker closed (created before) is a person's. Pure.
 */
export function untrustedReady(
  was: { taken: string; records: readonly BeadsRecord[] },
  now: readonly BeadsRecord[],
  cycleIds: readonly string[],
): Untrusted[] {
  const before = new Map(was.records.map((r) => [r.id, r]));
  const after = new Set(now.map((r) => r.id));
  const taken = Date.parse(was.taken);
  const filedSince = (r: BeadsRecord) => {
    const created = typeof r.created_at === 'string' ? Date.parse(r.created_at) : NaN;
    return Number.isNaN(created) || Number.isNaN(taken) || created >= taken - 1000;
  };
  const out: Untrusted[] = [];
  for (const record of now) {
    if (cycleIds.includes(record.id)) continue;
    const old = before.get(record.id);
    if (!old) {
      if (filedSince(record))
        out.push({
          id: record.id,
          what: 'added',
          title: titleOf(record),
          line: JSON.stringify(record),
          kept: 'labelled',
        });
      continue;
    }
    const fields = PERSON_FIELDS.filter((k) => JSON.stringify(old[k]) !== JSON.stringify(record[k]));
    if (JSON.stringify(personLabels(old)) !== JSON.stringify(personLabels(record))) fields.push('labels');
    if (fields.length > 0)
      out.push({
        id: record.id,
        what: 'changed',
        title: titleOf(old),
        fields,
        line: JSON.stringify(record),
        kept: 'labelled',
      });
  }
  for (const record of was.records)
    if (!after.has(record.id) && !cycleIds.includes(record.id))
      out.push({ id: record.id, what: 'removed', title: titleOf(record), kept: 'told' });
  return out;
}

/** What is told of one issue the agent added, changed or removed in `where` (a source's description), for a person. */
export function untrustedMessage(given: Untrusted, where: string): string {
  // The agent wrote the id, the title and the line: each printed on one line, bounded (issue 43).
  const u = { ...given, id: printable(given.id), ...(given.line !== undefined ? { line: printable(given.line) } : {}) };
  const named = `${u.id}${u.title ? ` "${printable(u.title)}"` : ''}`;
  if (u.kept === 'labelled')
    return (
      `The agent ${u.what === 'added' ? 'added' : `changed (${(u.fields ?? []).join(', ')})`} issue ${named} in ${where}: ` +
      `labelled agent-loop:untrusted, and not worked while the label is on. Only the issues a person files or ` +
      `writes are worked; if it is right, remove the label (bd label remove ${u.id} agent-loop:untrusted). The agent's issue: ${u.line ?? ''}`
    );
  if (u.kept === 'told')
    return (
      `Issue ${named} left ${where}'s ready issues while the agent worked (closed, blocked or removed by it): ` +
      `not put back (bd keeps no file to put back); check it with bd show ${u.id}, and reopen it if its work is not done.`
    );
  switch (u.what) {
    case 'added':
      return (
        `The agent added issue ${named} to ${where}: removed again, and not worked. Only the issues a person ` +
        `files are worked; if it is wanted, file it yourself. The agent's line: ${u.line ?? ''}`
      );
    case 'changed':
      return (
        `The agent changed issue ${named} in ${where} (${(u.fields ?? []).join(', ')}): put back as it was, so ` +
        `that it is worked as a person wrote it. The agent's line: ${u.line ?? ''}`
      );
    case 'removed':
      return `The agent removed issue ${named} from ${where}: put back as it was.`;
  }
}
