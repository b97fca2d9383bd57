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

/** What is told of one issue the agent added, changed or removed in `where` (a source's description), for a person. */
export function untrustedMessage(u: Untrusted, where: string): string {
  const named = `${u.id}${u.title ? ` "${u.title}"` : ''}`;
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
