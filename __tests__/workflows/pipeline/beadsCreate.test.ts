import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { latestEntries, parseJsonl } from '../../../src/issues/beadsFile.js';
import { computeReady, type BeadsRecord } from '../../../src/issues/ready.js';
import {
  BeadsFilePhaseIssueSink,
  appendRecords,
  createPhaseIssues,
  phaseIssuePrefix,
  phaseIssueRecords,
  planPhaseIssueIds,
  type PhaseIssueInput,
  type PhaseIssueSink,
} from '../../../src/workflows/pipeline/beadsCreate.js';

const NOW = new Date('2026-03-04T05:06:07.890Z');
const STAMP = '2026-03-04T05:06:07Z';
const PREFIX = 'plan-6acb80f0';

const PHASES: PhaseIssueInput[] = [
  { number: 1, name: 'store', title: 'Phase 1: Store', body: '# Store\nPersist checkpoints.' },
  { number: 2, name: 'resume', title: 'Phase 2: Resume', body: '# Resume\nPick up where it stopped.' },
  { number: 3, name: 'cleanup', title: 'Phase 3: Cleanup', body: '# Cleanup\nRemove old checkpoints.' },
];
const IDS = ['plan-6acb80f0-p01', 'plan-6acb80f0-p02', 'plan-6acb80f0-p03'];

// Written by hand, not by JSON.stringify, so that their exact bytes matter.
const UNKNOWN_FIELDS =
  '{"id":"bd-1","title":"Keep me","status":"open","priority":1,"x_custom":{"nested":[1,2,{"deep":true}]},"created_at":"2025-01-01T00:00:00Z"}';
const SPACED = '{ "id" : "bd-2" ,  "title" : "spaced — ünïcödé 🚀",  "status" : "closed" }';
const MALFORMED = '{"id":"bd-bad", "title": oops}';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'phase-issues-'));
  file = path.join(dir, '.beads', 'issues.jsonl');
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function records(): Promise<BeadsRecord[]> {
  return latestEntries(parseJsonl(await fs.readFile(file)).entries).map((e) => e.record);
}

const readyIds = (all: BeadsRecord[]) => computeReady(all).map((i) => i.id);

describe('planning the phase issues (pure)', () => {
  it('derives ids from the prefix and the phase numbers, in phase order', () => {
    expect(planPhaseIssueIds({ phases: [...PHASES].reverse(), prefix: PREFIX })).toEqual(IDS);
  });

  it('derives the prefix from the checkpoint id', () => {
    expect(phaseIssuePrefix('6ACB80F0-8bf8-4ae6-8000-000000000000')).toBe(PREFIX);
    expect(() => phaseIssuePrefix('not-a-uuid')).toThrow(
      'Cannot derive an issue prefix from checkpoint id "not-a-uuid"',
    );
  });

  it('reuses the ids an earlier attempt recorded, whatever the prefix', () => {
    const recorded = ['plan-11111111-p01', 'plan-11111111-p02', 'plan-11111111-p03'];
    expect(planPhaseIssueIds({ phases: PHASES, prefix: 'plan-22222222', existing: recorded })).toEqual(recorded);
    expect(planPhaseIssueIds({ phases: PHASES, prefix: PREFIX, existing: [] })).toEqual(IDS);
  });

  it('refuses recorded ids that do not fit the phases', () => {
    expect(() => planPhaseIssueIds({ phases: PHASES, prefix: PREFIX, existing: ['a-p01'] })).toThrow(
      'The recorded phase issue ids (a-p01) do not fit the 3 phase files',
    );
  });

  it('refuses a bad prefix and repeated or invalid phase numbers', () => {
    expect(() => planPhaseIssueIds({ phases: PHASES, prefix: 'has space' })).toThrow(
      'Invalid issue id prefix "has space"',
    );
    expect(() =>
      planPhaseIssueIds({ phases: [...PHASES, { ...PHASES[0], number: 2 } as PhaseIssueInput], prefix: PREFIX }),
    ).toThrow('Phase number 2 is given twice');
    expect(() =>
      planPhaseIssueIds({ phases: [{ ...PHASES[0], number: 0 } as PhaseIssueInput], prefix: PREFIX }),
    ).toThrow('phase numbers must be whole numbers from 1');
  });

  it('makes open tasks, each phase after the first blocked by the one before', () => {
    const [first, second] = phaseIssueRecords(PHASES, IDS, NOW);
    expect(first).toEqual({
      id: IDS[0],
      title: 'Phase 1: Store',
      description: '# Store\nPersist checkpoints.',
      status: 'open',
      priority: 2,
      issue_type: 'task',
      created_at: STAMP,
      updated_at: STAMP,
    });
    expect(second?.dependencies).toEqual([
      { issue_id: IDS[1], depends_on_id: IDS[0], type: 'blocks', created_at: STAMP, created_by: 'agent-loop' },
    ]);
  });

  it('appends after the last byte, adding the missing newline of a last line', () => {
    const rec = { id: 'x' };
    expect(appendRecords(Buffer.from('a\nb'), [rec]).toString()).toBe('a\nb\n{"id":"x"}\n');
    expect(appendRecords(Buffer.from('a\n'), [rec]).toString()).toBe('a\n{"id":"x"}\n');
    expect(appendRecords(Buffer.alloc(0), [rec]).toString()).toBe('{"id":"x"}\n');
  });
});

describe('createPhaseIssues on a beads JSONL file', () => {
  it('creates the file with one issue per phase, and only phase 1 is ready', async () => {
    const result = await createPhaseIssues({ file, phases: PHASES, prefix: PREFIX, now: NOW });

    expect(result).toEqual({ planned: IDS, created: IDS, alreadyPresent: [] });
    const written = await records();
    expect(written.map((r) => r.id)).toEqual(IDS);
    expect(written.map((r) => r.dependencies ?? [])).toEqual([
      [],
      [expect.objectContaining({ issue_id: IDS[1], depends_on_id: IDS[0], type: 'blocks' })],
      [expect.objectContaining({ issue_id: IDS[2], depends_on_id: IDS[1], type: 'blocks' })],
    ]);
    expect(readyIds(written)).toEqual([IDS[0]]);
  });

  it('makes phase 2 ready once phase 1 is closed, and phase 3 after phase 2', async () => {
    await createPhaseIssues({ file, phases: PHASES, prefix: PREFIX, now: NOW });
    const close = (all: BeadsRecord[], id: string) => all.map((r) => (r.id === id ? { ...r, status: 'closed' } : r));

    const afterFirst = close(await records(), IDS[0] as string);
    expect(readyIds(afterFirst)).toEqual([IDS[1]]);
    expect(readyIds(close(afterFirst, IDS[1] as string))).toEqual([IDS[2]]);
  });

  it('hands the planned ids to onPlanned before writing anything', async () => {
    const seen: { planned: readonly string[]; fileExisted: boolean }[] = [];
    await createPhaseIssues({
      file,
      phases: PHASES,
      prefix: PREFIX,
      now: NOW,
      onPlanned: async (planned) => {
        seen.push({
          planned,
          fileExisted: await fs.access(file).then(
            () => true,
            () => false,
          ),
        });
      },
    });
    expect(seen).toEqual([{ planned: IDS, fileExisted: false }]);
  });

  it('writes nothing when recording the planned ids fails', async () => {
    const failing = createPhaseIssues({
      file,
      phases: PHASES,
      prefix: PREFIX,
      now: NOW,
      onPlanned: () => Promise.reject(new Error('disk full')),
    });
    await expect(failing).rejects.toThrow('disk full');
    await expect(fs.access(file)).rejects.toThrow();
  });

  it('creates nothing on a re-run: every planned id is already present, and the file is not rewritten', async () => {
    await createPhaseIssues({ file, phases: PHASES, prefix: PREFIX, now: NOW });
    const before = await fs.readFile(file);
    const statBefore = await fs.stat(file);

    const again = await createPhaseIssues({
      file,
      phases: PHASES,
      prefix: PREFIX,
      now: new Date('2026-03-05T00:00:00Z'),
    });

    expect(again).toEqual({ planned: IDS, created: [], alreadyPresent: IDS });
    expect(await fs.readFile(file)).toEqual(before);
    expect((await fs.stat(file)).ino).toBe(statBefore.ino);
  });

  it('after a partial earlier write (only p01 there), creates only the rest', async () => {
    const [p01] = phaseIssueRecords(PHASES, IDS, NOW);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, `${JSON.stringify({ ...p01, status: 'in_progress' })}\n`);

    const result = await createPhaseIssues({ file, phases: PHASES, prefix: PREFIX, now: NOW });

    expect(result).toEqual({ planned: IDS, created: [IDS[1], IDS[2]], alreadyPresent: [IDS[0]] });
    const written = await records();
    expect(written.map((r) => r.id)).toEqual(IDS);
    expect(written[0]?.status).toBe('in_progress');
    expect(readyIds(written)).toEqual([]);
  });

  it('with the ids recorded by an earlier attempt, a resumed run under another prefix creates no duplicates', async () => {
    await createPhaseIssues({ file, phases: PHASES, prefix: PREFIX, now: NOW });
    const resumed = await createPhaseIssues({ file, phases: PHASES, prefix: 'plan-99999999', now: NOW, existing: IDS });
    expect(resumed).toEqual({ planned: IDS, created: [], alreadyPresent: IDS });
    expect((await records()).length).toBe(3);
  });

  it('keeps every existing line byte for byte: a byte-order mark, unknown fields, odd spacing, a malformed line, CRLF, a last line without newline', async () => {
    const original = Buffer.from(
      [
        '\uFEFF' + UNKNOWN_FIELDS,
        SPACED,
        '',
        MALFORMED,
        '{"id":"bd-3","status":"open"}\r',
        '{"id":"bd-4","status":"open"}',
      ].join('\n'),
      'utf8',
    );
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, original);

    const result = await createPhaseIssues({
      file: path.relative(dir, file),
      cwd: dir,
      phases: PHASES,
      prefix: PREFIX,
      now: NOW,
    });

    expect(result.created).toEqual(IDS);
    const after = await fs.readFile(file);
    expect(after.subarray(0, original.length).equals(original)).toBe(true);
    const appended = after.subarray(original.length).toString('utf8');
    expect(appended.startsWith('\n')).toBe(true);
    expect(
      appended
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as BeadsRecord).id),
    ).toEqual(IDS);
    const ready = readyIds(await records());
    expect(ready).toContain(IDS[0]);
    expect(ready).not.toContain(IDS[1]);
    expect(ready).toEqual(expect.arrayContaining(['bd-1', 'bd-3', 'bd-4']));
  });

  it('works through the PhaseIssueSink interface', async () => {
    const sink: PhaseIssueSink = new BeadsFilePhaseIssueSink({ file });
    expect(await sink.createPhaseIssues({ phases: PHASES.slice(0, 1), prefix: PREFIX, now: NOW })).toEqual({
      planned: [IDS[0]],
      created: [IDS[0]],
      alreadyPresent: [],
    });
  });

  it('says which file it cannot read', async () => {
    await fs.mkdir(file, { recursive: true });
    await expect(createPhaseIssues({ file, phases: PHASES, prefix: PREFIX, now: NOW })).rejects.toThrow(
      `Cannot read beads issues file ${file}`,
    );
  });
});
