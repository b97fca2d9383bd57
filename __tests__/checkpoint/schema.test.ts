import { describe, expect, it, jest } from '@jest/globals';
import {
  CHECKPOINT_PHASES,
  checkpointWarnings,
  findJsonError,
  isCheckpointPhase,
  isUuidV4,
  parseCheckpoint,
  parseRfc3339,
  serializeCheckpoint,
} from '../../src/checkpoint/schema.js';
import { CheckpointError, RUN_STAGES, PIPELINE_PHASES } from '../../src/checkpoint/types.js';
import { ID_A, checkpoint } from './fixtures.js';

const FILE = `/state/checkpoints/${ID_A}.json`;

function valid(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: ID_A,
    phase: 'implementation-failed',
    timestamp: '2026-11-21T10:30:00Z',
    sequence: 7,
    state: { loop: { iteration: 3 } },
    errors: ['Max iterations (100) reached'],
    ...overrides,
  };
}

/** The reason parseCheckpoint gives for `data`; fails the test if it parses. */
function reasonFor(data: unknown, file = FILE): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  try {
    parseCheckpoint(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as CheckpointError).path).toBe(file);
    return (error as CheckpointError).reason;
  }
  throw new Error(`expected ${text} to be rejected`);
}

describe('REQ_018.1 id', () => {
  it('REQ_018.1.2 isUuidV4 accepts UUID v4 in either case', () => {
    expect(isUuidV4(ID_A)).toBe(true);
    expect(isUuidV4(ID_A.toUpperCase())).toBe(true);
    for (const variant of ['8', '9', 'a', 'b', 'A', 'B']) {
      expect(isUuidV4(`3b241101-e2bb-4255-${variant}caf-4136c566a962`)).toBe(true);
    }
  });

  it('REQ_018.1.2 isUuidV4 rejects other versions, variants and shapes', () => {
    const rejected = [
      '',
      'latest',
      '../../etc/passwd',
      '3b241101-e2bb-1255-8caf-4136c566a962', // version 1
      '3b241101-e2bb-5255-8caf-4136c566a962', // version 5
      '3b241101-e2bb-4255-caf0-4136c566a962', // variant c
      '3b241101-e2bb-4255-7caf-4136c566a962', // variant 7
      '3b241101e2bb42558caf4136c566a962', // no hyphens
      `{${ID_A}}`,
      `${ID_A}.json`,
      ` ${ID_A}`,
      `${ID_A}\n`,
      '3b241101-e2bb-4255-8caf-4136c566a96g',
      '00000000-0000-0000-0000-000000000000',
    ];
    for (const value of rejected) expect([value, isUuidV4(value)]).toEqual([value, false]);
    expect(isUuidV4(undefined)).toBe(false);
    expect(isUuidV4(42)).toBe(false);
  });

  it('REQ_018.1.6 REQ_018.2.3 REQ_018.3.3 REQ_018.4.2 REQ_018.5.2 serializes with the documented keys, order and layout', () => {
    const text = serializeCheckpoint(
      checkpoint({
        id: ID_A,
        sequence: 7,
        state: { loop: { iteration: 3 } },
        errors: ['Max iterations (100) reached'],
      }),
    );
    expect(text).toBe(
      [
        '{',
        `  "id": "${ID_A}",`,
        '  "phase": "implementation-failed",',
        '  "timestamp": "2026-11-21T10:30:00Z",',
        '  "sequence": 7,',
        '  "state": {',
        '    "loop": {',
        '      "iteration": 3',
        '    }',
        '  },',
        '  "errors": [',
        '    "Max iterations (100) reached"',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('writes each record of a list on one line (the history stays readable and half as long), and reads back the same state', () => {
    const history = [
      { n: 1, outcome: 'continuing', note: 'a "quoted" \u0000 value' },
      { n: 2, outcome: 'complete', nested: { list: [{ a: 1 }], tags: ['x'] } },
    ];
    const state = { loop: { iteration: 2, history, issuesClosed: ['b-1', 'b-2'] }, odd: ['\u0000x:0'] };
    const text = serializeCheckpoint(checkpoint({ id: ID_A, state }));
    expect(text).toContain(
      `      "history": [\n        ${JSON.stringify(history[0])},\n        ${JSON.stringify(history[1])}\n      ],`,
    );
    expect(text).toContain('      "issuesClosed": [\n        "b-1",\n        "b-2"\n      ]');
    expect(parseCheckpoint(text, FILE).state).toEqual(state);
  });

  it('writes what JSON.stringify(value, null, 2) writes, records in lists on one line: 500 random states', () => {
    // The oracle: the standard layout, then each record in a list put back on one line.
    const oracle = (value: unknown): string => {
      const records: string[] = [];
      const text = JSON.stringify(
        value,
        function (this: unknown, _key: string, v: unknown) {
          if (Array.isArray(this) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
            records.push(JSON.stringify(v));
            return `@@record:${records.length - 1}@@`;
          }
          return v;
        },
        2,
      );
      return text.replace(/"@@record:(\d+)@@"/g, (_, i: string) => records[Number(i)] as string);
    };
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const sparse = (): unknown[] => {
      const a: unknown[] = [1];
      a[3] = 'x';
      return a;
    };
    const leaf = (): unknown =>
      [null, true, 0, -1.5, 'x', 'q"\\\n\u0000', undefined, new Date(0), [], new Number(3), new String('ab'), sparse()][
        Math.floor(random() * 12)
      ];
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return leaf();
      const n = Math.floor(random() * 4);
      if (r < 0.65) return Array.from({ length: n }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`k${i}${random() < 0.2 ? '"' : ''}`, value(depth + 1)]),
      );
    };
    for (let i = 0; i < 500; i++) {
      const state = { s: value(0), list: [value(1), { a: value(2) }] };
      const text = serializeCheckpoint(checkpoint({ id: ID_A, state }));
      const expected = oracle({
        id: ID_A,
        phase: 'implementation-failed',
        timestamp: '2026-11-21T10:30:00Z',
        sequence: 1,
        state,
      });
      expect(text).toBe(`${expected}\n`);
    }
  });

  it('writes a state string that looks like a layout mark as data, and reads it back as it was', () => {
    const random = jest.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      const state = { list: [{ a: 1 }], s: '\u0000i:0', t: 'q"\u0000i:0' };
      expect(parseCheckpoint(serializeCheckpoint(checkpoint({ id: ID_A, state })), FILE).state).toEqual(state);
    } finally {
      random.mockRestore();
    }
  });

  it('REQ_018.1.8 rejects an id that is not a UUID v4, saying what was expected', () => {
    const reason = reasonFor(valid({ id: 'not-a-uuid' }), '/state/checkpoints/not-a-uuid.json');
    expect(reason).toContain('id "not-a-uuid" is not a UUID v4');
    expect(reason).toContain('xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx');
  });

  it('REQ_018.1.8 rejects an id that is missing or not a string', () => {
    expect(reasonFor(valid({ id: undefined }))).toContain('id must be a string (a UUID v4), got nothing');
    expect(reasonFor(valid({ id: 12 }))).toContain('id must be a string (a UUID v4), got number 12');
  });

  it('REQ_018.1.5 rejects a checkpoint whose id is not its file name', () => {
    const reason = reasonFor(valid(), '/state/checkpoints/9f1c2d3e-4b5a-4c6d-9e8f-0a1b2c3d4e5f.json');
    expect(reason).toContain(`id ${ID_A} does not match the file name 9f1c2d3e-4b5a-4c6d-9e8f-0a1b2c3d4e5f.json`);
    expect(reason).toContain(`${ID_A}.json`);
  });
});

describe('REQ_018.2 phase', () => {
  it('REQ_018.2.5 REQ_018.2.6 accepts every pipeline phase with complete or failed, and the loop phases of a run (issue 15)', () => {
    expect(CHECKPOINT_PHASES).toHaveLength(PIPELINE_PHASES.length * 2 + RUN_STAGES.length);
    for (const phase of ['working', 'red', 'green', 'refactor', 'complete', 'halted']) {
      expect(isCheckpointPhase(phase)).toBe(true);
      expect(parseCheckpoint(JSON.stringify(valid({ phase })), FILE).phase).toBe(phase);
    }
    for (const name of PIPELINE_PHASES) {
      for (const status of ['complete', 'failed']) {
        const phase = `${name}-${status}`;
        expect(isCheckpointPhase(phase)).toBe(true);
        expect(parseCheckpoint(JSON.stringify(valid({ phase })), FILE).phase).toBe(phase);
      }
    }
  });

  it('REQ_018.2.2 REQ_018.2.5 REQ_018.2.6 rejects a phase outside {phase}-{complete|failed}, listing the valid ones', () => {
    for (const phase of [
      'research',
      'research-done',
      'testing-complete',
      'Research-complete',
      'implementation-failed ',
      '',
    ]) {
      const reason = reasonFor(valid({ phase }));
      expect(reason).toContain(
        `phase ${JSON.stringify(phase)} is not <pipeline phase>-complete|failed nor a run's phase (working, red, green, refactor, complete, halted)`,
      );
      expect(reason).toContain('valid phases: research-complete, research-failed, decomposition-complete');
      expect(reason).toContain('implementation-failed');
    }
  });

  it('REQ_018.2.1 REQ_018.2.4 rejects a missing or non-string phase', () => {
    expect(reasonFor(valid({ phase: undefined }))).toContain('phase must be a string, got nothing');
    expect(reasonFor(valid({ phase: 3 }))).toContain('phase must be a string, got number 3');
  });
});

describe('REQ_018.3 timestamp', () => {
  it('REQ_018.3.8 parses the Z suffix and ±hh:mm offsets to the same instant', () => {
    const utc = parseRfc3339('2026-11-21T10:30:00Z')?.toISOString();
    expect(utc).toBe('2026-11-21T10:30:00.000Z');
    expect(parseRfc3339('2026-11-21T12:30:00+02:00')?.toISOString()).toBe(utc);
    expect(parseRfc3339('2026-11-21T05:00:00-05:30')?.toISOString()).toBe(utc);
    expect(parseRfc3339('2026-11-21T10:30:00+00:00')?.toISOString()).toBe(utc);
    expect(parseRfc3339('2026-11-21T10:30:00.250Z')?.toISOString()).toBe('2026-11-21T10:30:00.250Z');
    expect(parseRfc3339('2026-11-22T00:30:00+14:00')?.toISOString()).toBe(utc);
  });

  it('REQ_018.3.2 rejects date-times that are not RFC 3339', () => {
    for (const value of [
      '',
      '2026-11-21',
      '2026-11-21T10:30:00', // no zone
      '2026-11-21 10:30:00Z',
      '2026-11-21T10:30Z',
      '2026-11-21T10:30:00+0200',
      '2026-13-01T00:00:00Z',
      '2026-02-29T00:00:00Z', // not a leap year
      '2026-04-31T00:00:00Z',
      '2026-11-21T24:00:00Z',
      '2026-11-21T10:60:00Z',
      'Sat Nov 21 2026 10:30:00 GMT',
    ]) {
      expect([value, parseRfc3339(value)]).toEqual([value, undefined]);
    }
    expect(parseRfc3339('2028-02-29T00:00:00Z')?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('REQ_018.3.1 REQ_018.3.5 a checkpoint file with an empty or non-RFC 3339 timestamp is rejected with an example', () => {
    expect(reasonFor(valid({ timestamp: '' }))).toContain(
      'timestamp "" is not an RFC 3339 date-time (expected e.g. 2026-11-21T10:30:00Z',
    );
    expect(reasonFor(valid({ timestamp: '2026-11-21T10:30:00' }))).toContain('is not an RFC 3339 date-time');
    expect(reasonFor(valid({ timestamp: 1763721000 }))).toContain('timestamp must be a string, got number 1763721000');
    expect(parseCheckpoint(JSON.stringify(valid({ timestamp: '2026-11-21T12:30:00+02:00' })), FILE).timestamp).toBe(
      '2026-11-21T12:30:00+02:00',
    );
  });
});

describe('REQ_018.4 state', () => {
  it('REQ_018.4.1 REQ_018.4.6 REQ_018.4.7 preserves nested maps, lists and scalars through serialize and parse', () => {
    const state = {
      loop: {
        iteration: 42,
        issuesClosed: ['bd-a1', 'bd-b2'],
        currentCycle: { issueIds: ['bd-c3'], steps: [{ name: 'implement', attempts: 2, ok: false }] },
        halt: null,
        ratio: 0.25,
        note: 'ünïcødé ✓ "quoted"\nnewline',
      },
      research_output: { files: [[1, 2], [], [{ deep: { deeper: true } }]] },
    };
    const parsed = parseCheckpoint(serializeCheckpoint(checkpoint({ id: ID_A, state })), FILE);
    expect(parsed.state).toEqual(state);
  });

  it('REQ_018.4.1 rejects a state that is not an object', () => {
    expect(reasonFor(valid({ state: [] }))).toContain('state must be a JSON object, got an array');
    expect(reasonFor(valid({ state: 'loop' }))).toContain('state must be a JSON object, got the string "loop"');
    expect(reasonFor(valid({ state: 3 }))).toContain('state must be a JSON object, got number 3');
  });

  it('REQ_018.4.8 allows an empty state and reports it as a warning', () => {
    const parsed = parseCheckpoint(JSON.stringify(valid({ state: {} })), FILE);
    expect(parsed.state).toEqual({});
    const warnings = checkpointWarnings(parsed);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`checkpoint ${ID_A} has an empty state`);
    expect(checkpointWarnings(checkpoint({ id: ID_A }))).toEqual([]);
  });

  it('REQ_018.4.9 reads a state omitted (or null) by the Go original as an empty state', () => {
    expect(parseCheckpoint(JSON.stringify(valid({ state: undefined })), FILE).state).toEqual({});
    expect(parseCheckpoint(JSON.stringify(valid({ state: null })), FILE).state).toEqual({});
  });
});

describe('REQ_018.5 errors', () => {
  it('REQ_018.5.2 REQ_018.5.5 omits errors from the file when there are none', () => {
    expect(serializeCheckpoint(checkpoint({ id: ID_A }))).not.toContain('"errors"');
    expect(serializeCheckpoint(checkpoint({ id: ID_A, errors: [] }))).not.toContain('"errors"');
    expect(parseCheckpoint(JSON.stringify(valid({ errors: undefined })), FILE).errors).toBeUndefined();
    expect(parseCheckpoint(JSON.stringify(valid({ errors: null })), FILE).errors).toBeUndefined();
    expect(parseCheckpoint(JSON.stringify(valid({ errors: [] })), FILE).errors).toBeUndefined();
  });

  it('REQ_018.5.1 REQ_018.5.7 keeps error messages in their order', () => {
    const errors = [
      'Agent timed out after 30m in iteration 4',
      'Tests failed: 3 of 120 (npm test)',
      'Max iterations (100) reached',
    ];
    expect(parseCheckpoint(JSON.stringify(valid({ errors })), FILE).errors).toEqual(errors);
  });

  it('REQ_018.5.1 rejects errors that are not a list of strings, naming the bad element', () => {
    expect(reasonFor(valid({ errors: 'boom' }))).toContain('errors must be a list of strings, got the string "boom"');
    expect(reasonFor(valid({ errors: ['ok', 7] }))).toContain('errors[1] must be a string, got number 7');
  });
});

describe('checkpoint file problems', () => {
  it('reports invalid JSON with line, column and offset', () => {
    const text = `{\n  "id": "${ID_A}",,\n  "phase": "research-complete"\n}`;
    const reason = reasonFor(text);
    const offset = text.indexOf(',,') + 1;
    expect(reason).toContain(`invalid JSON at line 2, column ${offset - text.indexOf('\n')} (offset ${offset})`);
    expect(reason).toContain('fix the file or remove it');
  });

  it('reports a truncated file at its end and an empty file as empty', () => {
    const text = JSON.stringify(valid(), null, 2).slice(0, 40);
    expect(reasonFor(text)).toContain(
      `(offset ${text.length}): unexpected end of input (the file may have been cut short)`,
    );
    expect(reasonFor('{"id": "x",')).toContain('line 1, column 12 (offset 11): unexpected end of input');
    expect(reasonFor('')).toContain('the file is empty');
    expect(reasonFor('  \n')).toContain('the file is empty');
  });

  it('rejects JSON that is not an object', () => {
    expect(reasonFor('[1, 2]')).toContain('expected a JSON object with id, phase, timestamp, state; got an array');
    expect(reasonFor('null')).toContain('got null');
  });

  it('reports every field problem at once', () => {
    const reason = reasonFor(valid({ phase: 'nope', timestamp: 'yesterday', sequence: -1 }));
    expect(reason).toContain('phase "nope"');
    expect(reason).toContain('timestamp "yesterday"');
    expect(reason).toContain('sequence must not be negative, got number -1');
  });

  it('reads a file without a sequence (as the Go original wrote them) as sequence 0', () => {
    expect(parseCheckpoint(JSON.stringify(valid({ sequence: undefined })), FILE).sequence).toBe(0);
    expect(reasonFor(valid({ sequence: 1.5 }))).toContain('sequence must be a whole number, got number 1.5');
  });

  it('findJsonError agrees with JSON.parse on what is valid', () => {
    const samples = [
      '{}',
      '[]',
      '{"a":[1,{"b":null},[]],"c":{}}',
      '"x"',
      '-0.5e+3',
      ' true ',
      '[{}, {}, [[]]]',
      '{',
      '}',
      '[1,]',
      '{"a":1,}',
      '{"a" 1}',
      '{a:1}',
      "{'a':1}",
      '[01]',
      '[1.]',
      '[.5]',
      '[-]',
      '"\\x"',
      '"\\u12"',
      '"tab\there"',
      '[1] [2]',
      'nul',
      '{"a":{"b":[}]}',
      '[1e]',
      '{"a":1 "b":2}',
      '[{},]',
      '',
    ];
    for (const text of samples) {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect([text, findJsonError(text) === undefined]).toEqual([text, parses]);
    }
    expect(findJsonError('[{"a":1},{"b":2}x]')?.offset).toBe(16);
    expect(findJsonError(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBeUndefined();
  });
});
