import { MiB, readInputBytes } from '../util/readInput.js';

/** The largest issues file read (a backlog of 100,000 issues is about 100 MB). */
export const ISSUES_MAX_BYTES = 256 * MiB;
import path from 'node:path';
import { writeFileAtomic } from '../util/atomicWrite.js';
import { fileStamp } from '../util/fileStamp.js';
import { printable } from '../util/printable.js';
import { tickItem } from './checklist.js';
import { type TrustedFile, trustedIssuesFile } from './trustedIssues.js';
import { rfc3339 } from '../util/clock.js';
import { beadsRecordToIssue, computeReady, isBeadsRecord, isPlainObject, type BeadsRecord } from './ready.js';
import { ESCALATED_LABEL, type Issue, type IssueSource, type OpenRecord, type SourceWarning } from './types.js';
import { type Surface, type Terms, surface } from '../config/surface.js';

export interface BeadsFileSourceOptions {
  /** The JSONL file, as the user named it (shown in messages); relative paths resolve against `cwd`. */
  file: string;
  /** Directory a relative `file` is resolved against. Default: the process's working directory. */
  cwd?: string;
  /** Receives malformed-line and duplicate-id reports. Each distinct report is given once per source. */
  onWarning?: SourceWarning;
  /** Clock for `closed_at` / `updated_at`. */
  now?: () => Date;
  /** Whose words name the option of the file in its errors (default: the CLI's). */
  terms?: Terms;
}

/** A line of the file that holds an issue. `segment` indexes `ParsedJsonl.segments`. */
export interface JsonlEntry {
  line: number;
  segment: number;
  record: BeadsRecord;
}

export interface JsonlProblem {
  line: number;
  message: string;
}

/**
 * The file cut at every "\n": joining `segments` with "\n" gives back the exact bytes, so a rewrite
 * only has to replace one segment. A "\r" before the "\n" stays inside its segment.
 */
export interface ParsedJsonl {
  segments: Buffer[];
  /** Every valid line in file order (an id may appear twice: the later line is the one that counts). */
  entries: JsonlEntry[];
  /** Lines that are not a JSON object with a string id, and ids given twice. */
  problems: JsonlProblem[];
}

const NEWLINE = 0x0a;
const BOM = '\uFEFF';

/** Pure: splits and parses a beads JSONL file. Empty lines are neither entries nor problems. */
export function parseJsonl(content: Buffer): ParsedJsonl {
  const segments: Buffer[] = [];
  for (let start = 0; ;) {
    const end = content.indexOf(NEWLINE, start);
    if (end === -1) {
      segments.push(content.subarray(start));
      break;
    }
    segments.push(content.subarray(start, end));
    start = end + 1;
  }
  const entries: JsonlEntry[] = [];
  const problems: JsonlProblem[] = [];
  const lineOfId = new Map<string, number>();
  segments.forEach((segment, index) => {
    const line = index + 1;
    const { body } = splitLine(segment.toString('utf8'), index === 0);
    if (body.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (error) {
      problems.push({ line, message: `malformed line skipped (${jsonErrorWithoutText(error as Error)})` });
      return;
    }
    if (!isPlainObject(value)) {
      problems.push({ line, message: `malformed line skipped (not a JSON object)` });
      return;
    }
    if (!isBeadsRecord(value)) {
      problems.push({ line, message: `malformed line skipped (no string "id" field)` });
      return;
    }
    const earlier = lineOfId.get(value.id);
    if (earlier !== undefined) {
      problems.push({
        line,
        message: `issue ${printable(value.id)} also appears on line ${earlier}; this later line is the one used`,
      });
    }
    lineOfId.set(value.id, line);
    entries.push({ line, segment: index, record: value });
  });
  return { segments, entries, problems };
}

/**
 * What JSON.parse says is wrong, without the text it quotes (`Unexpected token 'h', "hello secr"... is
 * not valid JSON`): a line of the file may hold anything, a key included, and is never echoed.
 */
function jsonErrorWithoutText(error: Error): string {
  const position = /at position (\d+)/.exec(error.message)?.[1];
  if (/end of JSON input/i.test(error.message)) return 'not valid JSON: it ends too early';
  return position !== undefined ? `not valid JSON at column ${Number(position) + 1}` : 'not valid JSON';
}

/**
 * Pure: a file that is not empty but holds no issue (every line that is not blank is malformed): the
 * number of such lines, else undefined. An empty file (zero issues, nothing malformed) is a valid
 * "nothing to do".
 */
export function noIssueIn(parsed: ParsedJsonl): { malformed: number } | undefined {
  if (parsed.entries.length > 0 || parsed.problems.length === 0) return undefined;
  return { malformed: parsed.problems.length };
}

/** The last entry for each id, in file order of those entries. */
export function latestEntries(entries: readonly JsonlEntry[]): JsonlEntry[] {
  const last = new Map<string, JsonlEntry>();
  for (const entry of entries) last.set(entry.record.id, entry);
  return entries.filter((entry) => last.get(entry.record.id) === entry);
}

/**
 * Pure: the file with one segment replaced by `record` serialised on one line. A "\r" ending the old
 * segment and a byte-order mark starting the file are kept; every other byte is the original.
 */
export function replaceSegment(parsed: ParsedJsonl, segmentIndex: number, record: BeadsRecord): Buffer {
  const old = parsed.segments[segmentIndex];
  if (old === undefined)
    throw new Error(`replaceSegment: no segment ${segmentIndex} (the file has ${parsed.segments.length})`);
  const { bom, cr } = splitLine(old.toString('utf8'), segmentIndex === 0);
  const segments = [...parsed.segments];
  segments[segmentIndex] = Buffer.from(bom + JSON.stringify(record) + cr, 'utf8');
  const parts: Buffer[] = [];
  segments.forEach((segment, i) => {
    if (i > 0) parts.push(Buffer.from([NEWLINE]));
    parts.push(segment);
  });
  return Buffer.concat(parts);
}

/** Pure: the file with `record` as a new last line (after a newline when the file does not end with one). */
export function appendRecord(parsed: ParsedJsonl, record: BeadsRecord): Buffer {
  const content = Buffer.concat(
    parsed.segments.flatMap((segment, i) => (i > 0 ? [Buffer.from([NEWLINE]), segment] : [segment])),
  );
  const last = parsed.segments.at(-1);
  const lead = content.length === 0 || last?.length === 0 ? '' : '\n';
  return Buffer.concat([content, Buffer.from(`${lead}${JSON.stringify(record)}\n`, 'utf8')]);
}

function splitLine(text: string, first: boolean): { bom: string; body: string; cr: string } {
  const bom = first && text.startsWith(BOM) ? BOM : '';
  const cr = text.endsWith('\r') ? '\r' : '';
  return { bom, cr, body: text.slice(bom.length, text.length - cr.length) };
}

/**
 * Issues read from a beads JSONL file (`.beads/issues.jsonl`), used when the `bd` CLI is not
 * installed. The file is read afresh on every call, because the agent may edit it in between.
 * Writes replace only the touched issue's line, atomically.
 */
export class BeadsFileSource implements IssueSource {
  readonly description: string;
  private readonly file: string;
  private readonly absolute: string;
  /** The file, absolute (IssueSource.issuesFile). */
  readonly issuesFile: string;
  private readonly onWarning: SourceWarning;
  private readonly now: () => Date;
  private readonly say: Surface;
  private readonly reported = new Set<string>();
  /** The file as last read, with its stamp. */
  private cached: { stamp: string; parsed: ParsedJsonl } | undefined;
  /** Serialises read-modify-write cycles of this instance so two updates cannot lose each other. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: BeadsFileSourceOptions) {
    this.file = options.file;
    this.absolute = path.resolve(options.cwd ?? process.cwd(), options.file);
    this.issuesFile = this.absolute;
    this.onWarning = options.onWarning ?? (() => {});
    this.now = options.now ?? (() => new Date());
    this.say = surface(options.terms);
    this.description = `beads file ${options.file}`;
  }

  async ready(): Promise<Issue[]> {
    const parsed = await this.read();
    return computeReady(latestEntries(parsed.entries).map((e) => e.record));
  }

  async health(): Promise<{ valid: number; unreadable: number }> {
    const parsed = await this.read();
    return {
      valid: latestEntries(parsed.entries).length,
      unreadable: parsed.problems.filter((p) => p.message.startsWith('malformed')).length,
    };
  }

  async get(id: string): Promise<Issue | undefined> {
    const entry = findLatest(await this.read(), id);
    return entry && beadsRecordToIssue(entry.record);
  }

  /** Adds the escalation label and appends the note to beads' `notes` field. */
  async markEscalated(id: string, note: string): Promise<void> {
    await this.labelWithNote(id, ESCALATED_LABEL, note, 'mark escalated');
  }

  /** Work held for a person (issue 42): the issue stays open, with the label and the note (beads' `notes`). */
  async markHeld(id: string, note: string, label: string): Promise<void> {
    await this.labelWithNote(id, label, note, `label ${label}`);
  }

  /** Adds `label` and appends `note` to beads' `notes` field, once each. */
  private async labelWithNote(id: string, label: string, note: string, action: string): Promise<void> {
    await this.modify(id, action, (record) => {
      const labels = Array.isArray(record.labels)
        ? record.labels.filter((l): l is string => typeof l === 'string')
        : [];
      const existing = typeof record.notes === 'string' ? record.notes : '';
      if (labels.includes(label) && existing.includes(note)) return record; // already recorded
      const notes = existing.trim() !== '' ? (existing.includes(note) ? existing : `${existing}\n\n${note}`) : note;
      return {
        ...record,
        labels: labels.includes(label) ? labels : [...labels, label],
        notes,
        updated_at: rfc3339(this.now()),
      };
    });
  }

  /** Ticks the item's box in the issue's `description`, in the file as it is now; updated_at when it did. */
  async tickChecklistItem(id: string, item: string): Promise<boolean> {
    let ticked = false;
    await this.modify(id, 'tick a checklist item of', (record) => {
      const body = typeof record.description === 'string' ? tickItem(record.description, item) : undefined;
      if (body === undefined) return record;
      ticked = true;
      return { ...record, description: body, updated_at: rfc3339(this.now()) };
    });
    return ticked;
  }

  /** Sets status closed, closed_at, updated_at and close_reason. A closed issue is left untouched. */
  async close(id: string, reason: string): Promise<void> {
    await this.modify(id, 'close', (record) => {
      if (record.status === 'closed') return record;
      const stamp = rfc3339(this.now());
      return { ...record, status: 'closed', closed_at: stamp, updated_at: stamp, close_reason: reason };
    });
  }

  async openRecords(): Promise<ReadonlyMap<string, OpenRecord>> {
    const open = new Map<string, OpenRecord>();
    for (const { record } of latestEntries((await this.read()).entries))
      if (record.status !== 'closed')
        // What computeReady reads of it (ready.ts): its status and its dependencies.
        open.set(record.id, {
          standing: `${JSON.stringify(record.status)} ${JSON.stringify(record.dependencies)}`,
          record,
        });
    return open;
  }

  /** Puts the record back on its issue's line as it was, or as a new last line when the line is gone. */
  async reinstate(id: string, record: unknown): Promise<void> {
    if (!isBeadsRecord(record) || record.id !== id)
      throw new Error(`Cannot reinstate issue ${id} in ${this.file}: the record given is not that issue's.`);
    return this.serially(async () => {
      const parsed = await this.read();
      const entry = findLatest(parsed, id);
      if (entry && JSON.stringify(entry.record) === JSON.stringify(record)) return;
      await writeFileAtomic(
        this.absolute,
        entry ? replaceSegment(parsed, entry.segment, record) : appendRecord(parsed, record),
      );
    });
  }

  /** The file's bytes as they are now (issue 42: taken before each agent run). */
  async snapshot(): Promise<Buffer> {
    return this.serially(async () => {
      await this.read(); // Its errors, worded for a person.
      return readInputBytes(this.absolute, ISSUES_MAX_BYTES);
    });
  }

  /** After an agent run: the file put back as `before` had it, but for the cycle's own issues' status and notes (trustedIssues.ts). */
  async keepTrusted(before: Buffer, cycleIds: readonly string[]): Promise<TrustedFile> {
    return this.serially(async () => {
      await this.read();
      const now = parseJsonl(readInputBytes(this.absolute, ISSUES_MAX_BYTES));
      const trusted = trustedIssuesFile(parseJsonl(before), now, cycleIds);
      if (trusted.content) await writeFileAtomic(this.absolute, trusted.content);
      return trusted;
    });
  }

  /** Runs `change` (a read, modify, write of the file) after this instance's earlier ones, so that none loses another. */
  private serially<T>(change: () => Promise<T>): Promise<T> {
    const run = this.queue.then(change);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Replaces one issue's record with `patch(record)` and rewrites the file atomically, changing only
   * that issue's line (existing keys keep their order, new keys go at the end). When the patch
   * changes nothing, the file is not written. Returns the record now in the file.
   */
  updateIssue(id: string, patch: (record: BeadsRecord) => BeadsRecord): Promise<BeadsRecord> {
    return this.modify(id, 'update', patch);
  }

  private modify(id: string, action: string, patch: (record: BeadsRecord) => BeadsRecord): Promise<BeadsRecord> {
    return this.serially(async () => {
      const parsed = await this.read();
      const entry = findLatest(parsed, id);
      if (!entry) {
        throw new Error(
          `Cannot ${action} issue ${id}: no issue with that id in ${this.file} (${parsed.entries.length} issues read). ` +
            `Check the id, or point at the right file with ${this.say.given('issuesFile', 'PATH')}.`,
        );
      }
      const before = JSON.stringify(entry.record);
      const after = patch(entry.record);
      if (!isBeadsRecord(after) || after.id !== id) {
        throw new Error(
          `Cannot ${action} issue ${id} in ${this.file}: the patch must return an object with "id": ${JSON.stringify(id)}.`,
        );
      }
      if (JSON.stringify(after) === before) return after;
      await writeFileAtomic(this.absolute, replaceSegment(parsed, entry.segment, after));
      return after;
    });
  }

  private async read(): Promise<ParsedJsonl> {
    // Read before and after every agent run: parsed again only when the file changed (another inode,
    // size or time), and always while it changed too recently for its times to tell (2 s, or 100 ms
    // where they have a fraction of a second: src/util/fileStamp.ts).
    const stamp = fileStamp(this.absolute, { settledMs: 2000 });
    if (stamp !== undefined && this.cached?.stamp === stamp) return this.cached.parsed;
    let content: Buffer;
    try {
      // A regular file within a cap: /dev/zero or a FIFO as the issues file is refused, not read.
      content = readInputBytes(this.absolute, ISSUES_MAX_BYTES);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        throw new Error(
          `Beads issues file not found: ${this.file} (looked at ${this.absolute}). ` +
            `Create it with \`bd init\`, or point at another file with ${this.say.given('issuesFile', 'PATH')}.`,
        );
      }
      throw new Error(
        `Cannot read beads issues file ${this.file}: ${(error as Error).message}. Check that it is a readable file.`,
      );
    }
    const parsed = parseJsonl(content);
    for (const problem of parsed.problems) this.warnOnce(`${printable(this.file)}:${problem.line}: ${problem.message}`);
    this.cached = stamp !== undefined ? { stamp, parsed } : undefined;
    return parsed;
  }

  private warnOnce(message: string): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    this.onWarning(message);
  }
}

function findLatest(parsed: ParsedJsonl, id: string): JsonlEntry | undefined {
  for (let i = parsed.entries.length - 1; i >= 0; i--) {
    const entry = parsed.entries[i];
    if (entry?.record.id === id) return entry;
  }
  return undefined;
}
