import { describe, it, expect } from '@jest/globals';
import {
  beadsRecordToIssue,
  blockedReason,
  compareIssues,
  computeReady,
  sortIssues,
  type BeadsRecord,
} from '../../src/issues/ready.js';
import type { Issue } from '../../src/issues/types.js';

function rec(id: string, fields: Record<string, unknown> = {}): BeadsRecord {
  return { id, title: `title ${id}`, status: 'open', priority: 2, created_at: '2025-01-01T00:00:00Z', ...fields };
}

function dep(issueId: string, dependsOn: string, type: string) {
  return { issue_id: issueId, depends_on_id: dependsOn, type };
}

const readyIds = (records: BeadsRecord[]) => computeReady(records).map((i) => i.id);

describe('ready selection', () => {
  it.each(['blocks', 'conditional-blocks', 'waits-for'])(
    'a %s dependency on an issue that is not closed keeps the issue out of the ready list',
    (type) => {
      for (const status of ['open', 'in_progress', 'blocked']) {
        const records = [rec('a', { dependencies: [dep('a', 'b', type)] }), rec('b', { status })];
        expect(readyIds(records)).not.toContain('a');
      }
    },
  );

  it.each(['blocks', 'parent-child', 'conditional-blocks', 'waits-for'])(
    'a %s dependency on a closed issue does not block',
    (type) => {
      const records = [rec('a', { dependencies: [dep('a', 'b', type)] }), rec('b', { status: 'closed' })];
      expect(readyIds(records)).toEqual(['a']);
    },
  );

  it.each(['blocks', 'parent-child', 'conditional-blocks', 'waits-for'])(
    'a %s dependency on an id that is not in the file does not block',
    (type) => {
      expect(readyIds([rec('a', { dependencies: [dep('a', 'elsewhere-1', type)] })])).toEqual(['a']);
    },
  );

  it.each(['related', 'discovered-from', 'relates-to', 'duplicates', 'supersedes'])(
    'a %s dependency never blocks, even on an open issue',
    (type) => {
      const records = [rec('a', { dependencies: [dep('a', 'b', type)] }), rec('b', { priority: 9 })];
      expect(readyIds(records)).toEqual(['a', 'b']);
    },
  );

  it('a dependency without a type counts as blocks (the beads default)', () => {
    const records = [rec('a', { dependencies: [{ issue_id: 'a', depends_on_id: 'b' }] }), rec('b')];
    expect(readyIds(records)).toEqual(['b']);
  });

  it('one open blocker among several closed ones still blocks', () => {
    const records = [
      rec('a', { dependencies: [dep('a', 'b', 'blocks'), dep('a', 'c', 'related'), dep('a', 'd', 'waits-for')] }),
      rec('b', { status: 'closed' }),
      rec('c'),
      rec('d', { status: 'in_progress' }),
    ];
    expect(readyIds(records)).toEqual(['c']);
  });

  it('only status "open" is ready: in_progress, blocked, closed and deferred are not; a line without a status is open, as bd create makes it (issue 40)', () => {
    const records = [
      rec('open-1'),
      rec('prog', { status: 'in_progress' }),
      rec('blk', { status: 'blocked' }),
      rec('done', { status: 'closed' }),
      rec('later', { status: 'deferred' }),
      { id: 'nostatus', title: 'x' },
      rec('empty', { status: '' }),
      rec('odd', { status: 7 }),
    ];
    expect(readyIds(records)).toEqual(['empty', 'open-1', 'nostatus']);
    expect(beadsRecordToIssue({ id: 'nostatus', title: 'x' }).status).toBe('open');
    expect(blockedReason(rec('odd', { status: 7 }), new Map())).toBe('status is 7, not "open"');
  });

  it('parent-child follows bd ready: the child of an open epic is ready, the child of a blocked epic is not', () => {
    const epic = rec('epic', { issue_type: 'epic' });
    const child = rec('child', { dependencies: [dep('child', 'epic', 'parent-child')] });
    expect(readyIds([epic, child])).toEqual(['child', 'epic']);
    const blockedEpic = rec('epic', { dependencies: [dep('epic', 'gate', 'blocks')] });
    expect(readyIds([blockedEpic, child, rec('gate', { priority: 0 })])).toEqual(['gate']);
    // Grandchildren of a blocked epic are blocked too; a parent-child cycle does not loop forever.
    const grandchild = rec('grand', { dependencies: [dep('grand', 'child', 'parent-child')] });
    expect(readyIds([blockedEpic, child, grandchild, rec('gate', { priority: 0 })])).toEqual(['gate']);
    const loopA = rec('la', { dependencies: [dep('la', 'lb', 'parent-child')] });
    const loopB = rec('lb', { dependencies: [dep('lb', 'la', 'parent-child')] });
    expect(readyIds([loopA, loopB])).toEqual(['la', 'lb']);
  });

  it('a deleted (tombstone) issue blocks nothing', () => {
    expect(
      readyIds([rec('a', { dependencies: [dep('a', 'b', 'blocks')] }), rec('b', { status: 'tombstone' })]),
    ).toEqual(['a']);
  });

  it('explains why a record is blocked', () => {
    const byId = new Map<string, BeadsRecord>([['b', rec('b', { status: 'in_progress' })]]);
    expect(blockedReason(rec('a', { dependencies: [dep('a', 'b', 'blocks')] }), byId)).toBe(
      'blocks dependency on b (in_progress)',
    );
    expect(blockedReason(rec('a'), byId)).toBeUndefined();
  });
});

describe('ready ordering', () => {
  it('sorts by priority ascending, 0 first, missing priority after every number', () => {
    const records = [
      rec('none', { priority: undefined }),
      rec('p3', { priority: 3 }),
      rec('p0', { priority: 0 }),
      rec('p1', { priority: 1 }),
      rec('p10', { priority: 10 }),
    ];
    expect(readyIds(records)).toEqual(['p0', 'p1', 'p3', 'p10', 'none']);
  });

  it('within a priority, oldest created_at first, compared as dates across time zones', () => {
    const records = [
      rec('utc-noon', { created_at: '2025-03-01T12:00:00Z' }),
      // 11:30 UTC, later in the text but earlier in time
      rec('plus-two', { created_at: '2025-03-01T13:30:00.123456789+02:00' }),
      rec('minus-seven', { created_at: '2025-03-01T05:00:00-07:00' }), // 12:00 UTC, the same instant as utc-noon: the id decides
      rec('early', { created_at: '2024-12-31T23:59:59Z' }),
    ];
    expect(readyIds(records)).toEqual(['early', 'plus-two', 'minus-seven', 'utc-noon']);
  });

  it('a missing or unparseable created_at sorts last within its priority', () => {
    const records = [
      rec('missing', { created_at: undefined }),
      rec('garbage', { created_at: 'yesterday-ish' }),
      rec('dated', { created_at: '2030-01-01T00:00:00Z' }),
      rec('urgent-undated', { priority: 0, created_at: undefined }),
    ];
    expect(readyIds(records)).toEqual(['urgent-undated', 'dated', 'garbage', 'missing']);
  });

  it('ties are broken by id, independent of input order', () => {
    const a = [rec('bd-b'), rec('bd-a'), rec('bd-c')];
    expect(readyIds(a)).toEqual(['bd-a', 'bd-b', 'bd-c']);
    expect(readyIds([...a].reverse())).toEqual(['bd-a', 'bd-b', 'bd-c']);
  });

  it('sortIssues returns a sorted copy and compareIssues is usable directly', () => {
    const issues: Issue[] = [
      { id: 'x', title: '', body: '', status: 'open', labels: [], dependencies: [] },
      { id: 'y', title: '', body: '', status: 'open', labels: [], dependencies: [], priority: 4 },
    ];
    const sorted = sortIssues(issues);
    expect(sorted.map((i) => i.id)).toEqual(['y', 'x']);
    expect(issues.map((i) => i.id)).toEqual(['x', 'y']);
    expect(compareIssues(issues[1]!, issues[0]!)).toBeLessThan(0);
  });
});

describe('beadsRecordToIssue', () => {
  it('maps beads fields to an Issue', () => {
    const issue = beadsRecordToIssue({
      id: 'bd-a1b2',
      title: 'Fix login',
      description: 'It breaks.',
      status: 'open',
      priority: 1,
      issue_type: 'bug',
      labels: ['auth', 'p1'],
      dependencies: [dep('bd-a1b2', 'bd-0001', 'blocks'), dep('bd-a1b2', 'bd-0002', 'related')],
      created_at: '2025-10-30T12:34:56.123456-07:00',
      updated_at: '2025-10-31T00:00:00Z',
    });
    expect(issue).toEqual({
      id: 'bd-a1b2',
      title: 'Fix login',
      body: 'It breaks.',
      status: 'open',
      labels: ['auth', 'p1'],
      // Its issue_type (issue 40: a bug's TDD commit is a fix).
      type: 'bug',
      dependencies: ['bd-0001', 'bd-0002'],
      priority: 1,
      createdAt: '2025-10-30T12:34:56.123456-07:00',
    });
  });

  it('defaults missing fields: status open, labels [], body "", no priority or createdAt', () => {
    expect(beadsRecordToIssue({ id: 'x' })).toEqual({
      id: 'x',
      title: '',
      body: '',
      status: 'open',
      labels: [],
      dependencies: [],
    });
  });

  it('ignores wrongly typed fields instead of passing them on', () => {
    const issue = beadsRecordToIssue({
      id: 'x',
      title: 5,
      labels: ['ok', 3, null],
      priority: '1',
      dependencies: [null, 'x', { type: 'blocks' }],
    });
    expect(issue).toEqual({ id: 'x', title: '', body: '', status: 'open', labels: ['ok'], dependencies: [] });
  });

  it('reads the dependency shape of `bd show --json` (the depended-on issue with dependency_type)', () => {
    const issue = beadsRecordToIssue({
      id: 'a',
      dependencies: [{ id: 'b', title: 'B', status: 'open', dependency_type: 'parent-child' }],
    });
    expect(issue.dependencies).toEqual(['b']);
  });
});
