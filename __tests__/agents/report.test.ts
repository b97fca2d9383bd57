import { describe, it, expect } from '@jest/globals';
import fc from 'fast-check';
import YAML from 'yaml';
import { isWorkRemainingEmpty, parseReportBlock, parseReportLines } from '../../src/agents/report.js';

const FENCE = '```';

describe('parseReportBlock: fenced YAML', () => {
  it('reads a ```yaml block', () => {
    const text = [
      'I finished phases 1-3.',
      '',
      `${FENCE}yaml`,
      'work_remaining: Phase_4 Phase_5',
      'requires_continuation: true',
      'stuck_detected: false',
      'summary: Implemented the parser',
      FENCE,
    ].join('\n');
    const r = parseReportBlock(text);
    expect(r).toMatchObject({
      workRemaining: 'Phase_4 Phase_5',
      workRemainingEmpty: false,
      requiresContinuation: true,
      stuckDetected: false,
      summary: 'Implemented the parser',
    });
    expect(r?.fields['work_remaining']).toBe('Phase_4 Phase_5');
  });

  it('reads a bare ``` block and takes the last block that has a report key', () => {
    const text = [
      `${FENCE}yaml`,
      'work_remaining: Phase_1',
      FENCE,
      'later:',
      FENCE,
      'work_remaining: 0',
      'requires_continuation: no',
      FENCE,
      `${FENCE}yaml`,
      'unrelated: config',
      FENCE,
      `${FENCE}ts`,
      'const summary: string = "not yaml";',
      FENCE,
    ].join('\n');
    const r = parseReportBlock(text);
    expect(r).toMatchObject({ workRemaining: '0', workRemainingEmpty: true, requiresContinuation: false });
  });

  it('reads the seed 004 contract block nested under IMPLEMENTATION_COMPLETE', () => {
    const text = [
      'Done with this iteration.',
      `${FENCE}yaml`,
      'IMPLEMENTATION_COMPLETE:',
      '  phase_count: 3',
      '  plan_file: /path/to/plan.md',
      '  git_commits: [hash1, hash2, ...]',
      '  context_exhausted: true',
      '  work_remaining: Phase_4 Phase_5 Phase_6  # Space-separated string, NOT JSON array',
      '  context_usage_percent: 85%',
      '  checkpoint_path: /path/to/checkpoint (if created)',
      '  requires_continuation: true',
      '  stuck_detected: false',
      FENCE,
    ].join('\n');
    const r = parseReportBlock(text);
    expect(r).toMatchObject({
      workRemaining: 'Phase_4 Phase_5 Phase_6',
      workRemainingEmpty: false,
      requiresContinuation: true,
      stuckDetected: false,
    });
    expect(r?.fields['phase_count']).toBe(3);
  });

  it('reads the seed 004 failure example (top-level keys, requires_continuation false with work left)', () => {
    const text = [
      `${FENCE}yaml`,
      '# Agent returns after iteration 1:',
      'IMPLEMENTATION_COMPLETE: 5',
      'plan_file: /path/to/plan.md',
      'summary_path: /path/to/summaries/001-summary.md',
      'work_remaining: Phase_6 Phase_7 Phase_8 Phase_9 Phase_10  # 5 phases remaining!',
      'context_exhausted: false',
      'checkpoint_path: null',
      'requires_continuation: false  # BUG',
      'stuck_detected: false',
      FENCE,
    ].join('\n');
    const r = parseReportBlock(text);
    expect(r).toMatchObject({
      workRemaining: 'Phase_6 Phase_7 Phase_8 Phase_9 Phase_10',
      workRemainingEmpty: false,
      requiresContinuation: false,
      stuckDetected: false,
    });
    expect(r?.fields['IMPLEMENTATION_COMPLETE']).toBe(5);
  });

  it('reads a YAML list and null', () => {
    const list = parseReportBlock(`${FENCE}yaml\nwork_remaining:\n  - Phase_4\n  - Phase_5\n${FENCE}`);
    expect(list).toMatchObject({ workRemaining: 'Phase_4 Phase_5', workRemainingEmpty: false });
    const empty = parseReportBlock(`${FENCE}yaml\nwork_remaining: []\nrequires_continuation: false\n${FENCE}`);
    expect(empty).toMatchObject({ workRemaining: '', workRemainingEmpty: true });
    for (const n of ['null', '~', '']) {
      const r = parseReportBlock(`${FENCE}yaml\nwork_remaining: ${n}\nstuck_detected: false\n${FENCE}`);
      expect(r).toMatchObject({ workRemaining: '', workRemainingEmpty: true });
    }
  });

  it('falls back to line parsing when the YAML block does not parse', () => {
    const text = [
      `${FENCE}yaml`,
      'summary: fixed: the bug: really',
      'work_remaining: Phase_2',
      '  bad indentation: [unclosed',
      'requires_continuation: TRUE',
      FENCE,
    ].join('\n');
    const r = parseReportBlock(text);
    expect(r).toMatchObject({
      summary: 'fixed: the bug: really',
      workRemaining: 'Phase_2',
      workRemainingEmpty: false,
      requiresContinuation: true,
    });
  });
});

describe('parseReportBlock: bare key: value lines', () => {
  it('reads key: value lines anywhere in the text; the last occurrence wins', () => {
    const text = [
      'Progress report',
      'work_remaining: Phase_1 Phase_2',
      'Some prose in between.',
      'requires_continuation: Yes',
      'work_remaining: Phase_2',
      'stuck_detected: NO',
      'summary: Did phase 1',
    ].join('\n');
    expect(parseReportBlock(text)).toMatchObject({
      workRemaining: 'Phase_2',
      workRemainingEmpty: false,
      requiresContinuation: true,
      stuckDetected: false,
      summary: 'Did phase 1',
    });
  });

  it('reads unfenced lines nested under IMPLEMENTATION_COMPLETE, with CRLF and markdown bullets', () => {
    const text = [
      'IMPLEMENTATION_COMPLETE:',
      '  work_remaining: 0',
      '  requires_continuation: false',
      '- **stuck_detected**: true',
    ].join('\r\n');
    expect(parseReportBlock(text)).toMatchObject({
      workRemaining: '0',
      workRemainingEmpty: true,
      requiresContinuation: false,
      stuckDetected: true,
    });
  });

  it('reads an indented list after a bare key line', () => {
    const text = 'work_remaining:\n  - Phase_3\n  - Phase_4\nrequires_continuation: true\n';
    expect(parseReportBlock(text)).toMatchObject({ workRemaining: 'Phase_3 Phase_4', requiresContinuation: true });
    expect(parseReportBlock('work_remaining:\nrequires_continuation: false')).toMatchObject({
      workRemaining: '',
      workRemainingEmpty: true,
    });
  });

  it('does not mistake other keys for report keys', () => {
    expect(parseReportBlock('summary_path: /x\nmy_work_remaining: 3\nSummary of changes: lots')).toBeUndefined();
  });

  it('leaves booleans it does not understand undefined', () => {
    const r = parseReportBlock('requires_continuation: maybe\nstuck_detected: 1');
    expect(r?.requiresContinuation).toBeUndefined();
    expect(r?.stuckDetected).toBeUndefined();
    expect(r?.workRemainingEmpty).toBe(true);
    expect(r?.workRemaining).toBeUndefined();
  });
});

describe('parseReportLines: a plain value read without the YAML parser', () => {
  // What YAML's core schema makes of `key: value`, the reference the shortcut must equal.
  const yamlValue = (raw: string): unknown => (YAML.parse(`v: ${raw}`) as { v: unknown }).v;

  it('reads letters, digits, spaces and _ . / - after a letter as YAML does (a string, spaces inside kept)', () => {
    const head = fc.constantFrom(...'aZqStTnNfFyY'.split(''));
    const tail = fc.string({ unit: fc.constantFrom(...'aeZ09 _./-'.split('')), maxLength: 24 });
    fc.assert(
      fc.property(head, tail, (h, t) => {
        const raw = `${h}${t}`.trim();
        expect(parseReportLines(`summary: ${raw}`)?.['summary']).toEqual(yamlValue(raw));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves the words YAML reads as null or a boolean, and anything with an indicator, to the parser', () => {
    for (const raw of [
      'null',
      'Null',
      'NULL',
      'true',
      'True',
      'TRUE',
      'false',
      'False',
      'FALSE',
      'yes',
      'No',
      'on',
      'Off',
      'y',
    ])
      expect(parseReportLines(`summary: ${raw}`)?.['summary']).toEqual(yamlValue(raw));
    for (const raw of [
      'step 3 # a comment',
      "it's done",
      '"quoted"',
      'a [list]',
      'x: y',
      'step  3',
      '.inf',
      '0x1F',
      '12',
    ])
      expect(parseReportLines(`summary: ${raw}`)?.['summary']).toEqual(raw === 'x: y' ? 'x: y' : yamlValue(raw));
  });
});

describe('parseReportBlock: seed 004 test cases (emptiness)', () => {
  const cases: Array<[string, string, string, boolean]> = [
    ['1: work remains, agent agrees', 'Phase_4 Phase_5 Phase_6', 'true', false],
    ['2: work remains, agent says no continuation', 'Phase_4 Phase_5 Phase_6', 'false', false],
    ['3: all work complete ("0")', '0', 'false', true],
    ['4: empty work string', '""', 'false', true],
    ['5: whitespace only', '"   "', 'false', true],
  ];
  for (const [name, work, cont, empty] of cases) {
    it(`case ${name}`, () => {
      const r = parseReportBlock(`work_remaining: ${work}\nrequires_continuation: ${cont}\n`);
      expect(r?.workRemainingEmpty).toBe(empty);
      expect(r?.requiresContinuation).toBe(cont === 'true');
    });
  }
});

describe('parseReportBlock: garbage', () => {
  it('returns undefined when there is no report', () => {
    expect(parseReportBlock('')).toBeUndefined();
    expect(parseReportBlock('All done, nothing to report.')).toBeUndefined();
    expect(parseReportBlock(`${FENCE}yaml\nfoo: bar\n${FENCE}`)).toBeUndefined();
  });

  it('never throws on garbage', () => {
    const inputs = [
      '```yaml\n: : :\n[[[{{{\n```',
      '```\n&a [*a, *a]\nwork_remaining: *b\n```',
      '```yaml\nwork_remaining: !!binary zz\n```',
      '```yaml\n---\nwork_remaining: a\n---\nwork_remaining: b\n```',
      '\u0000\uffff```yaml\nwork_remaining: \u0000\n',
      'work_remaining: [unclosed',
      'work_remaining: {a: 1}',
      '~~~~\nsummary: tilde fence\n~~~~',
      'x'.repeat(100_000),
      undefined as unknown as string,
    ];
    for (const input of inputs) {
      expect(() => parseReportBlock(input)).not.toThrow();
    }
    expect(parseReportBlock('work_remaining: [unclosed')?.workRemaining).toBe('[unclosed');
    expect(parseReportBlock('work_remaining: a: b   # note')?.workRemaining).toBe('a: b');
    expect(parseReportBlock('~~~~\nsummary: tilde fence\n~~~~')?.summary).toBe('tilde fence');
  });
});

describe('parseReportBlock: pathological input', () => {
  it('parses long adversarial lines in linear time', () => {
    const n = 60_000;
    const inputs = [
      '```' + 'a'.repeat(n) + '`',
      'work_remaining: x' + ' '.repeat(n) + 'y: z',
      '```' + ' '.repeat(n) + 'x',
      ' '.repeat(n) + '- ' + '*'.repeat(n) + 'x',
      'summary:' + ' '.repeat(n) + ':',
    ];
    // A regex with catastrophic backtracking takes minutes on these: the test's timeout catches it.
    for (const input of inputs) expect(() => parseReportBlock(input)).not.toThrow();
  }, 20_000);
});

describe('isWorkRemainingEmpty', () => {
  it('is true for every form of nothing', () => {
    for (const v of [
      undefined,
      null,
      '',
      '   ',
      '\n\t',
      '0',
      ' 0 ',
      0,
      '[]',
      '[ ]',
      [],
      [null, ''],
      'null',
      '~',
      'None',
      false,
      {},
    ]) {
      expect(isWorkRemainingEmpty(v)).toBe(true);
    }
  });

  it('is false when work remains', () => {
    for (const v of ['Phase_4', ' Phase_4 Phase_5 ', 3, ['Phase_1'], '00', 'Phase_0', true, { phase: 4 }]) {
      expect(isWorkRemainingEmpty(v)).toBe(false);
    }
  });
});
