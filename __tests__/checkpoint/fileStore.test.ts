import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FileCheckpointStore, checkpointsDir, newCheckpointId } from '../../src/checkpoint/fileStore.js';
import { isUuidV4 } from '../../src/checkpoint/schema.js';
import { CheckpointError, type CheckpointInput, type SeedPhase } from '../../src/checkpoint/types.js';
import { FakeClock, ID_A, ID_B, ID_C, removeDir, tempStateDir, writeRaw } from './fixtures.js';

let stateDir: string;
let clock: FakeClock;
let store: FileCheckpointStore;

beforeEach(async () => {
  stateDir = await tempStateDir();
  clock = new FakeClock(new Date('2026-11-21T10:30:00.789Z'));
  store = new FileCheckpointStore(stateDir, { clock });
});

afterEach(async () => {
  jest.restoreAllMocks();
  await removeDir(stateDir);
});

const dir = () => checkpointsDir(stateDir);
const fileOf = (id: string) => path.join(dir(), `${id}.json`);
const readJson = async (id: string) => JSON.parse(await fs.readFile(fileOf(id), 'utf8')) as Record<string, unknown>;

/** The CheckpointError a promise rejects with; fails the test if it resolves or throws something else. */
async function rejection(promise: Promise<unknown>): Promise<CheckpointError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointError);
    return error as CheckpointError;
  }
  throw new Error('expected a CheckpointError');
}

describe('REQ_018.1 id', () => {
  it('REQ_018.1.2 REQ_018.1.3 newCheckpointId returns a fresh UUID v4 each time', () => {
    const ids = Array.from({ length: 50 }, () => newCheckpointId());
    for (const id of ids) expect(isUuidV4(id)).toBe(true);
    expect(new Set(ids).size).toBe(50);
  });

  it('REQ_018.1.4 REQ_018.1.5 REQ_018.1.6 writes <state-dir>/checkpoints/<id>.json with the id inside', async () => {
    const id = newCheckpointId();
    await store.write({ id, phase: 'beads_integration-complete', state: { loop: {} } });
    expect(await fs.readdir(dir())).toEqual([`${id}.json`]);
    expect((await readJson(id)).id).toBe(id);
  });

  it('REQ_018.1.7 refuses to write a checkpoint without an id, and creates no file', async () => {
    const error = await rejection(store.write({ id: '', phase: 'research-complete', state: { a: 1 } }));
    expect(error.reason).toContain('cannot write a checkpoint without an id; create one with newCheckpointId()');
    await expect(fs.readdir(dir())).rejects.toThrow('ENOENT');
  });

  it('REQ_018.1.8 refuses to write an id that is not a UUID v4', async () => {
    const error = await rejection(store.write({ id: 'latest', phase: 'research-complete', state: { a: 1 } }));
    expect(error.reason).toContain('"latest" is not a checkpoint id (a UUID v4');
    await expect(fs.readdir(dir())).rejects.toThrow('ENOENT');
  });

  it('REQ_018.1.8 rejects a non-UUID id on load, saying how to list the real ones', async () => {
    const error = await rejection(store.load('not-a-uuid'));
    expect(error.path).toBe('not-a-uuid');
    expect(error.reason).toContain('"not-a-uuid" is not a checkpoint id (a UUID v4');
    expect(error.reason).toContain(`agent-loop status --state-dir ${stateDir}`);
  });

  it('REQ_018.1.8 load("../../x") throws before touching the filesystem', async () => {
    await writeRaw(stateDir, `${ID_A}.json`, '{}');
    const readFile = jest.spyOn(fs, 'readFile');
    const open = jest.spyOn(fs, 'open');
    const stat = jest.spyOn(fs, 'stat');
    const unlink = jest.spyOn(fs, 'unlink');
    for (const id of ['../../x', `../${ID_A}`, `${ID_A}/../../x`, '/etc/passwd', '', `${ID_A}\0`]) {
      await rejection(store.load(id));
      await rejection(store.delete(id));
    }
    expect(readFile).not.toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
    expect(stat).not.toHaveBeenCalled();
    expect(unlink).not.toHaveBeenCalled();
    // A valid id does reach its file (read through src/util/readInput.ts, a regular file within a
    // cap): its content is judged, where the ids above were refused by name alone.
    const error = await rejection(store.load(ID_A));
    expect(error.path).toBe(fileOf(ID_A));
    expect(error.reason).not.toContain('is not a checkpoint id');
  });

  it('REQ_018.1.8 a file whose id is not a UUID v4 is reported on load', async () => {
    await writeRaw(stateDir, `${ID_A}.json`, {
      id: 'abc',
      phase: 'research-complete',
      timestamp: '2026-11-21T10:30:00Z',
      sequence: 1,
      state: {},
    });
    const error = await rejection(store.load(ID_A));
    expect(error.path).toBe(fileOf(ID_A));
    expect(error.reason).toContain('id "abc" is not a UUID v4');
  });

  it('load of an id with no file says so and how to list the checkpoints', async () => {
    const error = await rejection(store.load(ID_B));
    expect(error.path).toBe(fileOf(ID_B));
    expect(error.reason).toBe(
      `no checkpoint with id ${ID_B} exists in ${dir()}; run \`agent-loop status --state-dir ${stateDir}\` to list the checkpoints`,
    );
  });
});

describe('REQ_018.2 phase', () => {
  it('REQ_018.2.4 refuses to write a checkpoint without a phase', async () => {
    const error = await rejection(store.write({ id: ID_A, phase: '' as SeedPhase, state: {} }));
    expect(error.reason).toContain('cannot write a checkpoint without a phase; use one of research-complete');
  });

  it('REQ_018.2.5 REQ_018.2.6 refuses to write a phase outside the pipeline', async () => {
    const error = await rejection(store.write({ id: ID_A, phase: 'testing-done' as SeedPhase, state: {} }));
    expect(error.reason).toContain('phase "testing-done" is not <pipeline phase>-complete|failed');
    await expect(fs.readdir(dir())).rejects.toThrow('ENOENT');
  });
});

describe('REQ_018.3 timestamp and sequence', () => {
  it('REQ_018.3.2 REQ_018.3.4 stamps the write with the clock in RFC 3339, ignoring any timestamp passed in', async () => {
    const input = {
      id: ID_A,
      phase: 'implementation-failed',
      state: { a: 1 },
      timestamp: '1999-01-01T00:00:00Z',
    } as CheckpointInput;
    const written = await store.write(input);
    expect(written.timestamp).toBe('2026-11-21T10:30:00Z');
    expect((await readJson(ID_A)).timestamp).toBe('2026-11-21T10:30:00Z');
    clock.advance(90_000);
    expect((await store.write(input)).timestamp).toBe('2026-11-21T10:31:30Z');
  });

  it('numbers writes 1, 2, 3 in a new store, across ids', async () => {
    const a = await store.write({ id: ID_A, phase: 'research-complete', state: { a: 1 } });
    const b = await store.write({ id: ID_B, phase: 'research-complete', state: { a: 1 } });
    const a2 = await store.write({ id: ID_A, phase: 'decomposition-complete', state: { a: 2 } });
    expect([a.sequence, b.sequence, a2.sequence]).toEqual([1, 2, 3]);
    expect((await readJson(ID_A)).sequence).toBe(3);
  });

  it('continues after the highest sequence already in the directory, reading it once', async () => {
    await writeRaw(stateDir, `${ID_B}.json`, {
      id: ID_B,
      phase: 'research-complete',
      timestamp: '2026-11-20T10:30:00Z',
      sequence: 41,
      state: { a: 1 },
    });
    const readdir = jest.spyOn(fs, 'readdir');
    expect((await store.write({ id: ID_A, phase: 'research-complete', state: { a: 1 } })).sequence).toBe(42);
    expect((await store.write({ id: ID_C, phase: 'research-complete', state: { a: 1 } })).sequence).toBe(43);
    expect(readdir).toHaveBeenCalledTimes(1);
  });

  it('continues after the sequence of the checkpoint it overwrites, even if written since by another process', async () => {
    await store.write({ id: ID_A, phase: 'research-complete', state: { a: 1 } });
    const other = new FileCheckpointStore(stateDir, { clock });
    await writeRaw(stateDir, `${ID_A}.json`, {
      id: ID_A,
      phase: 'planning-complete',
      timestamp: '2026-11-21T10:30:00Z',
      sequence: 100,
      state: { a: 1 },
    });
    expect((await store.write({ id: ID_A, phase: 'implementation-failed', state: { a: 2 } })).sequence).toBe(101);
    expect((await other.write({ id: ID_B, phase: 'research-complete', state: { a: 1 } })).sequence).toBe(102);
  });

  it('gives concurrent writes distinct, increasing sequences', async () => {
    const ids = Array.from({ length: 8 }, () => newCheckpointId());
    const written = await Promise.all(ids.map((id) => store.write({ id, phase: 'research-complete', state: { id } })));
    expect(written.map((cp) => cp.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('a failed write does not stop the next one', async () => {
    await rejection(store.write({ id: 'bad', phase: 'research-complete', state: {} }));
    expect((await store.write({ id: ID_A, phase: 'research-complete', state: { a: 1 } })).sequence).toBe(1);
  });
});

describe('REQ_018.4 state', () => {
  it('REQ_018.4.6 REQ_018.4.7 round-trips nested state through the file', async () => {
    const state = {
      loop: {
        iteration: 7,
        maxIterations: 100,
        issuesClosed: ['bd-1', 'bd-2'],
        escalations: { 'bd-3': { count: 2, reasons: ['tests failed', 'timeout'] } },
        currentCycle: {
          issueIds: ['bd-4'],
          history: [
            { step: 'implement', ok: true },
            { step: 'test', ok: false, detail: null },
          ],
        },
      },
      planning_output: 'multi\nline ✓',
      phase_files: [],
    };
    const written = await store.write({ id: ID_A, phase: 'implementation-failed', state });
    expect(written.state).toEqual(state);
    expect((await store.load(ID_A)).state).toEqual(state);
    expect((await new FileCheckpointStore(stateDir).load(ID_A)).state).toEqual(state);
  });

  it('REQ_018.4.8 writes and loads an empty state, with a warning', async () => {
    const warnings: string[] = [];
    const warned = new FileCheckpointStore(stateDir, { clock, onWarning: (message) => warnings.push(message) });
    await warned.write({ id: ID_A, phase: 'research-failed', state: {} });
    expect((await warned.load(ID_A)).state).toEqual({});
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(`checkpoint ${ID_A} has an empty state`);
  });

  it('REQ_018.4.1 refuses a state that is not an object, or cannot be JSON', async () => {
    const notObject = await rejection(
      store.write({ id: ID_A, phase: 'research-failed', state: [] as unknown as Record<string, unknown> }),
    );
    expect(notObject.reason).toBe('state must be an object (use {} for no state)');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const error = await rejection(store.write({ id: ID_A, phase: 'research-failed', state: cyclic }));
    expect(error.reason).toContain('state cannot be written as JSON');
    await expect(fs.readdir(dir())).rejects.toThrow('ENOENT');
  });

  it('returns what a reader will see: JSON drops undefined and turns dates into strings', async () => {
    const written = await store.write({
      id: ID_A,
      phase: 'research-failed',
      state: { gone: undefined, at: new Date('2026-01-02T03:04:05Z') },
    });
    expect(written.state).toEqual({ at: '2026-01-02T03:04:05.000Z' });
  });

  it('readBack: false returns the checkpoint as given, with its timestamp and sequence, and writes the same file', async () => {
    const state = { loop: { iteration: 2, history: [{ n: 1 }, { n: 2 }] } };
    const written = await store.write({ id: ID_A, phase: 'implementation-complete', state }, { readBack: false });
    expect(written).toMatchObject({ id: ID_A, sequence: 1, timestamp: '2026-11-21T10:30:00Z' });
    expect(written.state).toBe(state);
    expect(await readJson(ID_A)).toEqual({ ...written, state });
  });

  it('readBack: false still parses a text the masking changed, and says when the masking broke it', async () => {
    // A masker that breaks the JSON it masks (no real one should): the write is reported, not silent.
    const broken = new FileCheckpointStore(stateDir, { clock, redact: (t) => t.replace('"s3cret"', '***') });
    const error = await rejection(
      broken.write({ id: ID_A, phase: 'implementation-failed', state: { key: 's3cret' } }, { readBack: false }),
    );
    expect(error.message).toContain(`${ID_A}.json`);
    const masked = new FileCheckpointStore(stateDir, { clock, redact: (t) => t.replace('s3cret', '***') });
    const written = await masked.write(
      { id: ID_B, phase: 'implementation-failed', state: { key: 's3cret' } },
      { readBack: false },
    );
    expect(written.state).toEqual({ key: '***' });
  });

  it('a history record written again is laid out as it is now (a new record object, not an old line)', async () => {
    const history = [{ n: 1, outcome: 'continuing' }];
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { loop: { history } } });
    const next = [
      { ...history[0], outcome: 'closed' },
      { n: 2, outcome: 'continuing' },
    ];
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { loop: { history: next } } });
    expect(((await readJson(ID_A)).state as { loop: { history: unknown[] } }).loop.history).toEqual(next);
    expect(await fs.readFile(fileOf(ID_A), 'utf8')).toContain(
      '\n        {"n":1,"outcome":"closed"},\n        {"n":2,"outcome":"continuing"}\n',
    );
  });
});

describe('REQ_018.5 errors', () => {
  it('REQ_018.5.2 REQ_018.5.4 REQ_018.5.5 writes errors when given, in order, and omits them when empty', async () => {
    const errors = ['Tests failed: 3 of 120 (npm test)', 'Max iterations (100) reached'];
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { a: 1 }, errors });
    await store.write({ id: ID_B, phase: 'implementation-complete', state: { a: 1 }, errors: [] });
    await store.write({ id: ID_C, phase: 'implementation-complete', state: { a: 1 } });
    expect((await readJson(ID_A)).errors).toEqual(errors);
    expect(await readJson(ID_B)).not.toHaveProperty('errors');
    expect(await readJson(ID_C)).not.toHaveProperty('errors');
    expect((await store.load(ID_A)).errors).toEqual(errors);
  });

  it('refuses errors that are not a list of strings', async () => {
    const error = await rejection(
      store.write({
        id: ID_A,
        phase: 'implementation-failed',
        state: { a: 1 },
        errors: [new Error('x')] as unknown as string[],
      }),
    );
    expect(error.reason).toContain('errors must be a list of strings');
  });
});

describe('file format and atomicity', () => {
  it('writes pretty-printed JSON with a 2-space indent and a trailing newline', async () => {
    await store.write({
      id: ID_A,
      phase: 'implementation-failed',
      state: { loop: { iteration: 3 } },
      errors: ['Max iterations (100) reached'],
    });
    expect(await fs.readFile(fileOf(ID_A), 'utf8')).toBe(
      `{\n  "id": "${ID_A}",\n  "phase": "implementation-failed",\n  "timestamp": "2026-11-21T10:30:00Z",\n  "sequence": 1,\n` +
        `  "state": {\n    "loop": {\n      "iteration": 3\n    }\n  },\n  "errors": [\n    "Max iterations (100) reached"\n  ]\n}\n`,
    );
  });

  it('leaves no temporary files behind after writes and overwrites', async () => {
    for (let i = 0; i < 5; i++) {
      await store.write({ id: ID_A, phase: 'implementation-failed', state: { i } });
      await store.write({ id: ID_B, phase: 'implementation-failed', state: { i } });
    }
    expect((await fs.readdir(dir())).sort()).toEqual([`${ID_A}.json`, `${ID_B}.json`].sort());
  });

  it('overwrites the checkpoint of an id (one run keeps one id across its slices)', async () => {
    await store.write({ id: ID_A, phase: 'beads_integration-complete', state: { loop: { iteration: 0 } } });
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { loop: { iteration: 10 } } });
    const { checkpoints } = await store.list();
    expect(checkpoints).toHaveLength(1);
    expect(checkpoints[0]).toMatchObject({
      id: ID_A,
      phase: 'implementation-failed',
      state: { loop: { iteration: 10 } },
      sequence: 2,
    });
  });
});

describe('list', () => {
  it('is empty when the directory does not exist', async () => {
    expect(await store.list()).toEqual({ checkpoints: [], invalid: [] });
  });

  it('reports a corrupt file with its path and reason, and still lists the others', async () => {
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { a: 1 } });
    clock.advance(1000);
    await store.write({ id: ID_C, phase: 'research-complete', state: { a: 1 } });
    const corrupt = await writeRaw(stateDir, `${ID_B}.json`, `{"id": "${ID_B}", "phase": `);
    const { checkpoints, invalid } = await store.list();
    expect(checkpoints.map((cp) => cp.id)).toEqual([ID_C, ID_A]);
    expect(invalid).toEqual([{ path: corrupt, reason: expect.stringContaining('invalid JSON at line 1, column') }]);
    expect(invalid[0]?.reason).toContain('unexpected end of input');
  });

  it('reports file names that are not <uuid>.json and ids that do not match, without failing', async () => {
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { a: 1 } });
    const latest = await writeRaw(stateDir, 'latest.json', '{}');
    const dotted = await writeRaw(stateDir, '..etc.json', '{}');
    const mismatch = await writeRaw(stateDir, `${ID_B}.json`, await fs.readFile(fileOf(ID_A), 'utf8'));
    await fs.mkdir(path.join(dir(), `${ID_C}.json`));
    const { checkpoints, invalid } = await store.list();
    expect(checkpoints.map((cp) => cp.id)).toEqual([ID_A]);
    expect(invalid.map((bad) => bad.path)).not.toContain(dotted);
    expect(invalid).toEqual(
      expect.arrayContaining([
        { path: latest, reason: expect.stringContaining('the file name is not <uuid-v4>.json') },
        { path: mismatch, reason: expect.stringContaining(`id ${ID_A} does not match the file name ${ID_B}.json`) },
        { path: path.join(dir(), `${ID_C}.json`), reason: 'is a directory, not a checkpoint file' },
      ]),
    );
    expect(invalid).toHaveLength(3);
  });

  it('ignores temporary files, dotfiles and other files', async () => {
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { a: 1 } });
    await writeRaw(stateDir, `.${ID_B}.json.1234.abcd1234.tmp`, '{"half');
    await writeRaw(stateDir, `${ID_B}.json.tmp`, '{"half');
    await writeRaw(stateDir, `.${ID_C}.json`, 'junk');
    await writeRaw(stateDir, 'README.md', 'notes');
    const { checkpoints, invalid } = await store.list();
    expect(checkpoints.map((cp) => cp.id)).toEqual([ID_A]);
    expect(invalid).toEqual([]);
  });

  it('lists newest first by timestamp, then sequence', async () => {
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { a: 1 } });
    await store.write({ id: ID_B, phase: 'implementation-failed', state: { a: 1 } }); // same second, higher sequence
    clock.set('2026-11-20T00:00:00Z');
    await store.write({ id: ID_C, phase: 'implementation-failed', state: { a: 1 } }); // older, highest sequence
    expect((await store.list()).checkpoints.map((cp) => cp.id)).toEqual([ID_B, ID_A, ID_C]);
  });
});

describe('delete', () => {
  it('removes the file, and is fine when it is already gone', async () => {
    await store.write({ id: ID_A, phase: 'implementation-failed', state: { a: 1 } });
    await store.delete(ID_A);
    await expect(fs.readdir(dir())).resolves.toEqual([]);
    await expect(store.delete(ID_A)).resolves.toBeUndefined();
  });

  it('refuses an id that is not a UUID v4', async () => {
    const error = await rejection(store.delete('../checkpoints'));
    expect(error.reason).toContain('is not a checkpoint id');
  });
});
