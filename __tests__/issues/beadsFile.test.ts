import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BeadsFileSource, noIssueIn, parseJsonl } from '../../src/issues/beadsFile.js';

const FIXED_NOW = new Date('2026-02-03T04:05:06.789Z');
const STAMP = '2026-02-03T04:05:06Z';

let dir: string;
let file: string;
let warnings: string[];

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'beads-file-'));
  file = path.join(dir, 'issues.jsonl');
  warnings = [];
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function source(options: { file?: string; cwd?: string } = {}): BeadsFileSource {
  return new BeadsFileSource({
    file: options.file ?? file,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    onWarning: (m) => warnings.push(m),
    now: () => FIXED_NOW,
  });
}

const line = (record: Record<string, unknown>) => JSON.stringify(record);

// Lines written by hand, not by JSON.stringify, so that their exact bytes matter.
const UNKNOWN_FIELDS =
  '{"id":"bd-1","title":"Keep me","status":"open","priority":1,"x_custom":{"nested":[1,2,{"deep":true}]},"estimated_minutes":30,"created_at":"2025-01-01T00:00:00Z"}';
const ODD_ORDER = '{"status":"open","created_at":"2025-01-02T00:00:00Z","priority":2,"title":"Odd order","id":"bd-2"}';
const UNICODE =
  '{"id":"bd-3","title":"Ünïcödé — 日本語 🚀 \\u00e9","status":"open","priority":3,"description":"tab\\tquote\\" \\u2028"}';
const SPACED = '{ "id" : "bd-4" ,  "title" : "spaced out",  "status" : "closed" }';
const MALFORMED = '{"id":"bd-bad", "title": oops}';
const TARGET =
  '{"id":"bd-9","title":"Close me","description":"d","status":"open","priority":0,"issue_type":"task","labels":["a"],"created_at":"2025-01-03T00:00:00Z","updated_at":"2025-01-03T00:00:00Z","zz_unknown":"kept"}';

describe('BeadsFileSource reading', () => {
  it('returns the ready issues of the file, most urgent first', async () => {
    await fs.writeFile(
      file,
      [
        line({ id: 'b', title: 'B', status: 'open', priority: 2, created_at: '2025-01-01T00:00:00Z' }),
        line({
          id: 'a',
          title: 'A',
          status: 'open',
          priority: 1,
          created_at: '2025-01-05T00:00:00Z',
          dependencies: [{ issue_id: 'a', depends_on_id: 'c', type: 'blocks' }],
        }),
        line({ id: 'c', title: 'C', status: 'closed', priority: 0 }),
        line({ id: 'd', title: 'D', status: 'open', priority: 1, created_at: '2025-01-04T00:00:00Z', labels: ['x'] }),
      ].join('\n') + '\n',
    );
    const ready = await source().ready();
    expect(ready.map((i) => i.id)).toEqual(['d', 'a', 'b']);
    expect(ready[0]).toEqual({
      id: 'd',
      title: 'D',
      body: '',
      status: 'open',
      labels: ['x'],
      dependencies: [],
      priority: 1,
      createdAt: '2025-01-04T00:00:00Z',
    });
  });

  it('reports a malformed line with the file path and its 1-based line number, skips it, and goes on', async () => {
    await fs.writeFile(
      file,
      [line({ id: 'ok-1', status: 'open' }), '', MALFORMED, line({ id: 'ok-2', status: 'open' })].join('\n'),
    );
    const ready = await source().ready();
    expect(ready.map((i) => i.id)).toEqual(['ok-1', 'ok-2']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^${escapeRegExp(file)}:3: malformed line skipped \\(.+\\)$`));
    expect(warnings[0]).toContain('JSON');
  });

  it('issue 43: a malformed line is reported without its text (it may hold anything, a key included)', async () => {
    await fs.writeFile(
      file,
      ['ghp_aKeyOnALine0123456789 trailing words', '{"id": "x",', line({ id: 'ok-1' })].join('\n'),
    );
    await source().ready();
    expect(warnings).toEqual([
      `${file}:1: malformed line skipped (not valid JSON)`,
      `${file}:2: malformed line skipped (not valid JSON at column 12)`,
    ]);
  });

  it('issue 43: noIssueIn tells a file with lines but no issue from an empty one', () => {
    const parsed = (text: string) => parseJsonl(Buffer.from(text));
    expect(noIssueIn(parsed('garbage\n[1]\n{"title": "no id"}\n'))).toEqual({ malformed: 3 });
    expect(noIssueIn(parsed(''))).toBeUndefined();
    expect(noIssueIn(parsed('\n  \n\r\n'))).toBeUndefined();
    expect(noIssueIn(parsed(`garbage\n${line({ id: 'ok-1' })}\n`))).toBeUndefined();
  });

  it('reports lines that are JSON but not an issue: not an object, or no string id', async () => {
    await fs.writeFile(
      file,
      ['[1,2]', '"text"', 'null', '{"title":"no id"}', '{"id":7}', line({ id: 'fine', status: 'open' })].join('\n'),
    );
    expect((await source().ready()).map((i) => i.id)).toEqual(['fine']);
    expect(warnings).toEqual([
      `${file}:1: malformed line skipped (not a JSON object)`,
      `${file}:2: malformed line skipped (not a JSON object)`,
      `${file}:3: malformed line skipped (not a JSON object)`,
      `${file}:4: malformed line skipped (no string "id" field)`,
      `${file}:5: malformed line skipped (no string "id" field)`,
    ]);
  });

  it('shows the path as given and resolves it against cwd', async () => {
    await fs.mkdir(path.join(dir, '.beads'));
    await fs.writeFile(path.join(dir, '.beads', 'issues.jsonl'), `${line({ id: 'x', status: 'open' })}\nnot json\n`);
    const src = source({ file: '.beads/issues.jsonl', cwd: dir });
    expect(src.description).toBe('beads file .beads/issues.jsonl');
    expect((await src.ready()).map((i) => i.id)).toEqual(['x']);
    expect(warnings[0]).toMatch(/^\.beads\/issues\.jsonl:2: malformed line skipped \(/);
  });

  it('reports the same malformed line once, not on every call', async () => {
    await fs.writeFile(file, `${MALFORMED}\n${line({ id: 'x', status: 'open' })}\n`);
    const src = source();
    await src.ready();
    await src.get('x');
    await src.ready();
    expect(warnings).toHaveLength(1);
  });

  it('reads the file afresh on every call', async () => {
    await fs.writeFile(file, `${line({ id: 'x', status: 'open' })}\n`);
    const src = source();
    expect((await src.get('x'))?.status).toBe('open');
    await fs.writeFile(file, `${line({ id: 'x', status: 'in_progress' })}\n${line({ id: 'y', status: 'open' })}\n`);
    expect((await src.get('x'))?.status).toBe('in_progress');
    expect((await src.ready()).map((i) => i.id)).toEqual(['y']);
  });

  it('get returns undefined for an unknown id', async () => {
    await fs.writeFile(file, `${line({ id: 'x', status: 'open' })}\n`);
    expect(await source().get('nope')).toBeUndefined();
  });

  it('when an id appears twice, the later line counts and the repeat is reported', async () => {
    await fs.writeFile(
      file,
      `${line({ id: 'x', status: 'open', title: 'old' })}\n${line({ id: 'x', status: 'closed', title: 'new' })}\n`,
    );
    const src = source();
    expect(await src.ready()).toEqual([]);
    expect((await src.get('x'))?.title).toBe('new');
    expect(warnings).toEqual([`${file}:2: issue x also appears on line 1; this later line is the one used`]);
  });

  it('a missing file is an error that names the file and says how to point at another', async () => {
    const missing = path.join(dir, 'nope', 'issues.jsonl');
    const src = source({ file: missing });
    await expect(src.ready()).rejects.toThrow(`Beads issues file not found: ${missing}`);
    await expect(src.ready()).rejects.toThrow('--issues-file PATH');
    await expect(src.get('x')).rejects.toThrow('not found');
  });

  it('an empty file has no issues', async () => {
    await fs.writeFile(file, '');
    expect(await source().ready()).toEqual([]);
    expect(warnings).toEqual([]);
  });
});

describe('BeadsFileSource.close', () => {
  it('leaves every other line byte for byte: unknown fields, odd key order, unicode, spacing, malformed lines', async () => {
    const before = [UNKNOWN_FIELDS, ODD_ORDER, '', MALFORMED, UNICODE, TARGET, SPACED, '   '].join('\n') + '\n';
    await fs.writeFile(file, before);
    await source().close('bd-9', 'done');
    const after = await fs.readFile(file, 'utf8');
    const beforeLines = before.split('\n');
    const afterLines = after.split('\n');
    expect(afterLines).toHaveLength(beforeLines.length);
    beforeLines.forEach((l, i) => {
      if (i !== 5) expect(afterLines[i]).toBe(l);
    });
    expect(after.endsWith('\n')).toBe(true);
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`^${escapeRegExp(file)}:4: malformed line skipped \\(`)),
    ]);
  });

  it("keeps the touched line's key order and appends the new keys", async () => {
    await fs.writeFile(file, `${UNKNOWN_FIELDS}\n${TARGET}\n`);
    await source().close('bd-9', 'Fixed in abc123');
    const touched = (await fs.readFile(file, 'utf8')).split('\n')[1]!;
    const record = JSON.parse(touched) as Record<string, unknown>;
    expect(Object.keys(record)).toEqual([
      'id',
      'title',
      'description',
      'status',
      'priority',
      'issue_type',
      'labels',
      'created_at',
      'updated_at',
      'zz_unknown',
      'closed_at',
      'close_reason',
    ]);
    expect(record).toMatchObject({
      status: 'closed',
      closed_at: STAMP,
      updated_at: STAMP,
      close_reason: 'Fixed in abc123',
      zz_unknown: 'kept',
      labels: ['a'],
    });
    expect(touched).not.toContain('\n');
  });

  it('keeps the absence of a trailing newline', async () => {
    await fs.writeFile(file, `${TARGET}\n${UNICODE}`);
    await source().close('bd-9', 'done');
    const after = await fs.readFile(file, 'utf8');
    expect(after.endsWith(UNICODE)).toBe(true);
    expect(after.split('\n')).toHaveLength(2);
  });

  it('closing the last line of a file without a trailing newline adds none', async () => {
    await fs.writeFile(file, `${UNICODE}\n${TARGET}`);
    await source().close('bd-9', 'done');
    const after = await fs.readFile(file, 'utf8');
    expect(after.startsWith(`${UNICODE}\n{`)).toBe(true);
    expect(after.endsWith('}')).toBe(true);
  });

  it('keeps CRLF line endings, including on the touched line', async () => {
    const before = `${ODD_ORDER}\r\n${TARGET}\r\n${MALFORMED}\r\n`;
    await fs.writeFile(file, before);
    await source().close('bd-9', 'done');
    const after = await fs.readFile(file, 'utf8');
    const lines = after.split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(ODD_ORDER);
    expect(lines[2]).toBe(MALFORMED);
    expect(lines[3]).toBe('');
    expect(JSON.parse(lines[1]!)).toMatchObject({ id: 'bd-9', status: 'closed' });
  });

  it('keeps bytes that are not valid UTF-8 on other lines', async () => {
    const invalid = Buffer.from([0x7b, 0x22, 0x69, 0x64, 0xff, 0xfe, 0x7d]); // {"id<ff><fe>}
    const before = Buffer.concat([invalid, Buffer.from(`\n${TARGET}\n`)]);
    await fs.writeFile(file, before);
    await source().close('bd-9', 'done');
    const after = await fs.readFile(file);
    expect(after.subarray(0, invalid.length).equals(invalid)).toBe(true);
    expect(after[invalid.length]).toBe(0x0a);
  });

  it('keeps a byte-order mark when the first line is the touched one', async () => {
    await fs.writeFile(file, `\uFEFF${TARGET}\n${ODD_ORDER}\n`);
    await source().close('bd-9', 'done');
    const after = await fs.readFile(file, 'utf8');
    expect(after.startsWith('\uFEFF{"id":"bd-9"')).toBe(true);
    expect(after.endsWith(`\n${ODD_ORDER}\n`)).toBe(true);
  });

  it('writes atomically: no temporary file is left in the directory', async () => {
    await fs.writeFile(file, `${TARGET}\n`);
    await source().close('bd-9', 'done');
    expect(await fs.readdir(dir)).toEqual(['issues.jsonl']);
  });

  it('closing an already closed issue changes nothing and does not rewrite the file', async () => {
    const closed = '{"id":"bd-5","status":"closed","closed_at":"2020-01-01T00:00:00Z","close_reason":"old"}';
    await fs.writeFile(file, `${closed}\n${TARGET}\n`);
    const past = new Date('2020-06-01T00:00:00Z');
    await fs.utimes(file, past, past);
    const inodeBefore = (await fs.stat(file)).ino;
    await source().close('bd-5', 'again');
    const stat = await fs.stat(file);
    expect(stat.mtime.getTime()).toBe(past.getTime());
    expect(stat.ino).toBe(inodeBefore);
    expect(await fs.readFile(file, 'utf8')).toBe(`${closed}\n${TARGET}\n`);
  });

  it('closing an unknown id throws an error naming the id and the file, and leaves the file alone', async () => {
    await fs.writeFile(file, `${TARGET}\n`);
    await expect(source().close('bd-404', 'done')).rejects.toThrow(
      `Cannot close issue bd-404: no issue with that id in ${file}`,
    );
    expect(await fs.readFile(file, 'utf8')).toBe(`${TARGET}\n`);
  });

  it('a malformed line is never dropped, even if it carries the id being closed', async () => {
    await fs.writeFile(file, `${MALFORMED}\n${TARGET}\n`);
    await expect(source().close('bd-bad', 'done')).rejects.toThrow('bd-bad');
    await source().close('bd-9', 'done');
    expect((await fs.readFile(file, 'utf8')).split('\n')[0]).toBe(MALFORMED);
  });

  it('closing twice in a row stamps once and the issue leaves the ready list', async () => {
    await fs.writeFile(file, `${TARGET}\n`);
    const src = source();
    expect((await src.ready()).map((i) => i.id)).toEqual(['bd-9']);
    await src.close('bd-9', 'first');
    await src.close('bd-9', 'second');
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ close_reason: 'first' });
    expect(await src.ready()).toEqual([]);
    expect((await src.get('bd-9'))?.status).toBe('closed');
  });

  it('concurrent closes of different issues both land', async () => {
    await fs.writeFile(file, `${line({ id: 'a', status: 'open' })}\n${line({ id: 'b', status: 'open' })}\n`);
    const src = source();
    await Promise.all([src.close('a', 'x'), src.close('b', 'y')]);
    const records = (await fs.readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(records.map((r) => r.status)).toEqual(['closed', 'closed']);
  });

  it('on a duplicated id, closes the line that counts (the later one)', async () => {
    const first = line({ id: 'x', status: 'open', title: 'old' });
    await fs.writeFile(file, `${first}\n${line({ id: 'x', status: 'open', title: 'new' })}\n`);
    await source().close('x', 'done');
    const lines = (await fs.readFile(file, 'utf8')).split('\n');
    expect(lines[0]).toBe(first);
    expect(JSON.parse(lines[1]!)).toMatchObject({ title: 'new', status: 'closed' });
  });
});

describe('BeadsFileSource.updateIssue', () => {
  it('applies a patch to one issue, e.g. adding a label, and returns the new record', async () => {
    await fs.writeFile(file, `${ODD_ORDER}\n${TARGET}\n`);
    const updated = await source().updateIssue('bd-9', (r) => ({
      ...r,
      labels: [...(r.labels as string[]), 'needs-human'],
    }));
    expect(updated.labels).toEqual(['a', 'needs-human']);
    const lines = (await fs.readFile(file, 'utf8')).split('\n');
    expect(lines[0]).toBe(ODD_ORDER);
    expect(lines[1]).toBe(TARGET.replace('"labels":["a"]', '"labels":["a","needs-human"]'));
  });

  it('does not rewrite the file when the patch changes nothing', async () => {
    await fs.writeFile(file, `${SPACED}\n`);
    const past = new Date('2020-06-01T00:00:00Z');
    await fs.utimes(file, past, past);
    await source().updateIssue('bd-4', (r) => r);
    expect((await fs.stat(file)).mtime.getTime()).toBe(past.getTime());
    expect(await fs.readFile(file, 'utf8')).toBe(`${SPACED}\n`);
  });

  it('refuses a patch that changes the id', async () => {
    await fs.writeFile(file, `${TARGET}\n`);
    await expect(source().updateIssue('bd-9', (r) => ({ ...r, id: 'other' }))).rejects.toThrow('"id": "bd-9"');
    expect(await fs.readFile(file, 'utf8')).toBe(`${TARGET}\n`);
  });

  it('unknown id: the error says update and names the file', async () => {
    await fs.writeFile(file, `${TARGET}\n`);
    await expect(source().updateIssue('nope', (r) => r)).rejects.toThrow(
      `Cannot update issue nope: no issue with that id in ${file}`,
    );
  });
});

describe('parseJsonl', () => {
  it('splits so that the segments joined with "\\n" are the original bytes', () => {
    for (const text of ['', '\n', 'a', 'a\n', 'a\r\nb\r\n', '\n\n{"id":"x"}\n\n']) {
      const parsed = parseJsonl(Buffer.from(text));
      expect(Buffer.concat(parsed.segments.flatMap((s, i) => (i ? [Buffer.from('\n'), s] : [s]))).toString()).toBe(
        text,
      );
    }
  });

  it('numbers lines from 1 and ignores empty and whitespace-only lines', () => {
    const parsed = parseJsonl(Buffer.from('\n  \n{"id":"x"}\r\n{bad\n'));
    expect(parsed.entries.map((e) => [e.line, e.record.id])).toEqual([[3, 'x']]);
    expect(parsed.problems.map((p) => p.line)).toEqual([4]);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('marking an issue escalated (issue 4, seed 002 AC2)', () => {
  it("adds the agent-loop:escalated label and appends the note to beads' notes field, touching only that line", async () => {
    const other = line({ id: 'bd-9', title: 'Other', status: 'open' });
    await fs.writeFile(
      file,
      `${line({ id: 'bd-1', title: 'T', status: 'open', labels: ['calc'], notes: 'earlier note' })}\n${other}\n`,
    );
    await source().markEscalated('bd-1', 'agent-loop escalated this issue: tests failed 4 times');
    const [first, second] = (await fs.readFile(file, 'utf8')).trimEnd().split('\n');
    expect(JSON.parse(first!)).toMatchObject({
      labels: ['calc', 'agent-loop:escalated'],
      notes: 'earlier note\n\nagent-loop escalated this issue: tests failed 4 times',
      updated_at: STAMP,
    });
    expect(second).toBe(other);
    expect((await source().get('bd-1'))?.labels).toContain('agent-loop:escalated');
  });

  it('is idempotent: the same escalation recorded twice changes nothing the second time', async () => {
    await fs.writeFile(file, `${line({ id: 'bd-1', title: 'T', status: 'open' })}\n`);
    await source().markEscalated('bd-1', 'note A');
    const once = await fs.readFile(file, 'utf8');
    await source().markEscalated('bd-1', 'note A');
    expect(await fs.readFile(file, 'utf8')).toBe(once);
    expect(JSON.parse(once.trim())).toMatchObject({ labels: ['agent-loop:escalated'], notes: 'note A' });
  });
});

describe('BeadsFileSource: reading again only what changed', () => {
  it('reuses the parse of a settled file, and reads an edit by someone else of the same size at once', async () => {
    const file = path.join(dir, 'issues.jsonl');
    const open = line({ id: 'bd-1', title: 'Same size', status: 'open' });
    await fs.writeFile(file, `${open}\n`);
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(file, old, old);
    const src = source({ file });
    expect((await src.get('bd-1'))?.status).toBe('open');
    // Same length, same second: "open" → "done" is 4 characters either way. In place (same inode).
    await fs.writeFile(file, `${open.replace('"open"', '"done"')}\n`);
    expect((await src.get('bd-1'))?.status).toBe('done');
  });
});

describe("ticking a checklist item in a beads issue's description (issue 15)", () => {
  it("ticks the item's box in the file as it is now, touching only that line, and says so; again, nothing", async () => {
    const other = line({ id: 'bd-9', title: 'Other', status: 'open', description: '- [ ] adds' });
    await fs.writeFile(
      file,
      `${line({ id: 'bd-1', title: 'Calc', status: 'open', description: '- [ ] adds\n- [ ] subtracts' })}\n${other}\n`,
    );
    const s = source();
    await s.get('bd-1'); // cached as it was
    // A person edits the issue meanwhile: the tick is made on their text.
    await fs.writeFile(
      file,
      `${line({ id: 'bd-1', title: 'Calc', status: 'open', description: '- [ ] adds\n- [ ] subtracts\n- [ ] divides' })}\n${other}\n`,
    );
    await fs.utimes(file, new Date(), new Date(Date.now() + 5000));
    expect(await s.tickChecklistItem('bd-1', 'subtracts')).toBe(true);
    const [first, second] = (await fs.readFile(file, 'utf8')).trimEnd().split('\n');
    expect(JSON.parse(first!)).toMatchObject({
      description: '- [ ] adds\n- [x] subtracts\n- [ ] divides',
      updated_at: STAMP,
    });
    expect(second).toBe(other);
    const once = await fs.readFile(file, 'utf8');
    expect(await s.tickChecklistItem('bd-1', 'subtracts')).toBe(false);
    expect(await fs.readFile(file, 'utf8')).toBe(once);
  });
});

describe('BeadsFileSource: putting back an issue the agent closed or removed (openRecords, reinstate)', () => {
  it('gives every issue not closed, and puts one back on its own line, byte for byte, the others untouched', async () => {
    await fs.writeFile(file, [UNKNOWN_FIELDS, TARGET, SPACED, ''].join('\n'));
    const s = source();
    const open = await s.openRecords();
    expect([...open.keys()]).toEqual(['bd-1', 'bd-9']);
    // The agent closes bd-9 (and adds a field) in place.
    await fs.writeFile(
      file,
      [UNKNOWN_FIELDS, TARGET.replace('"open"', '"closed"').replace('}', ',"x":1}'), SPACED, ''].join('\n'),
    );
    await s.reinstate('bd-9', open.get('bd-9')?.record);
    expect(await fs.readFile(file, 'utf8')).toBe(
      [UNKNOWN_FIELDS, line(JSON.parse(TARGET) as Record<string, unknown>), SPACED, ''].join('\n'),
    );
    expect((await s.get('bd-9'))?.status).toBe('open');
  });

  it('adds a removed issue back as the last line, and writes nothing when the issue is as it was', async () => {
    await fs.writeFile(file, `${UNKNOWN_FIELDS}\n${TARGET}`);
    const s = source();
    const open = await s.openRecords();
    await fs.writeFile(file, UNKNOWN_FIELDS); // bd-9 removed, and no newline at the end
    await s.reinstate('bd-9', open.get('bd-9')?.record);
    expect(await fs.readFile(file, 'utf8')).toBe(
      `${UNKNOWN_FIELDS}\n${line(JSON.parse(TARGET) as Record<string, unknown>)}\n`,
    );
    const { mtimeMs } = await fs.stat(file);
    await s.reinstate('bd-1', open.get('bd-1')?.record);
    expect((await fs.stat(file)).mtimeMs).toBe(mtimeMs);
  });

  it("refuses a record that is not the issue's", async () => {
    await fs.writeFile(file, `${TARGET}\n`);
    const s = source();
    const open = await s.openRecords();
    await expect(s.reinstate('bd-1', open.get('bd-9')?.record)).rejects.toThrow(/Cannot reinstate issue bd-1/);
  });
});
