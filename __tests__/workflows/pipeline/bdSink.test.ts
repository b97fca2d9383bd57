import { describe, expect, it } from '@jest/globals';
import type { ExecFn, ExecResult } from '../../../src/issues/beadsCli.js';
import type { PhaseIssueInput, PhaseIssueSink } from '../../../src/workflows/pipeline/beadsCreate.js';
import {
  BD_LIST_ALL_ARGS,
  BdCliPhaseIssueSink,
  describePhaseIssue,
  findMarkedIssues,
  phaseIssueMarker,
} from '../../../src/workflows/pipeline/bdSink.js';

const NOW = new Date('2026-03-04T05:06:07.890Z');
const PREFIX = 'plan-6acb80f0';
const KEYS = ['plan-6acb80f0-p01', 'plan-6acb80f0-p02', 'plan-6acb80f0-p03'];
const PHASES: PhaseIssueInput[] = [
  { number: 1, name: 'store', title: 'Phase 1: Store', body: '# Store\nPersist checkpoints.\n' },
  { number: 2, name: 'resume', title: 'Phase 2: Resume', body: '# Resume\nPick up where it stopped.' },
  {
    number: 3,
    name: 'cleanup',
    title: 'Phase 3: Cleanup',
    body: '---\nfront: matter\n---\n# Cleanup\nRemove "old" checkpoints; $(rm -rf /) stays text.',
  },
];

interface FakeDep {
  issue_id: string;
  depends_on_id: string;
  type: string;
}

interface FakeIssue {
  id: string;
  title: string;
  description: string;
  status: string;
  priority: number;
  issue_type: string;
  created_at: string;
  updated_at: string;
  dependencies: FakeDep[];
}

type Failure = (args: string[]) => Partial<ExecResult> | undefined;

/**
 * An ExecFn that behaves like bd, keeping the issues in memory, following bd's documented JSON:
 * `list --json` an array of issues (open ones only and 50 at most unless --all / --limit 0;
 * `description` left out when empty, as Go's omitempty does; counts instead of dependencies),
 * `create --json` the created issue object, `show --json` the issue with its dependencies as the
 * depended-on issues ({id, title, status, dependency_type}), `dep add` a line of text.
 */
function fakeBd(seed: FakeIssue[] = [], fail: Failure = () => undefined) {
  const issues: FakeIssue[] = seed.map((i) => ({ ...i, dependencies: [...i.dependencies] }));
  const calls: string[][] = [];
  const cwds: string[] = [];
  let n = issues.length;
  const nextId = () => `bd-${((0xa1b2 + n++ * 0x1f3d) & 0xffff).toString(16).padStart(4, '0')}`;
  const find = (id: string | undefined) => issues.find((i) => i.id === id);
  const flag = (args: string[], name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const ok = (stdout: string): ExecResult => ({ code: 0, stdout, stderr: '' });
  const err = (stderr: string): ExecResult => ({ code: 1, stdout: '', stderr });
  const listed = (i: FakeIssue) => {
    const { dependencies, description, ...rest } = i;
    return {
      ...rest,
      ...(description ? { description } : {}),
      dependency_count: dependencies.length,
      dependent_count: issues.filter((o) => o.dependencies.some((d) => d.depends_on_id === i.id)).length,
    };
  };

  const exec: ExecFn = async (file, args, opts) => {
    expect(file).toBe('bd');
    calls.push([...args]);
    cwds.push(opts.cwd);
    const failure = fail(args);
    if (failure) return { code: 1, stdout: '', stderr: '', ...failure };
    const [cmd, sub] = args;
    if (cmd === 'list') {
      if (!args.includes('--json')) return ok('○ human output\n');
      const limit = Number(flag(args, '--limit') ?? '50');
      const shown = issues.filter((i) => args.includes('--all') || i.status !== 'closed');
      return ok(`${JSON.stringify((limit > 0 ? shown.slice(0, limit) : shown).map(listed), null, 2)}\n`);
    }
    if (cmd === 'create') {
      const title = args[1];
      if (title === undefined || title.startsWith('-')) return err('Error: title required');
      const stamp = new Date(Date.parse('2026-03-04T05:06:07Z') + calls.length * 1000).toISOString();
      const issue: FakeIssue = {
        id: nextId(),
        title,
        description: flag(args, '--description') ?? '',
        status: 'open',
        priority: Number(flag(args, '--priority') ?? '2'),
        issue_type: flag(args, '--type') ?? 'task',
        created_at: stamp,
        updated_at: stamp,
        dependencies: [],
      };
      issues.push(issue);
      const { dependencies: _deps, ...shown } = issue;
      return ok(args.includes('--json') ? `${JSON.stringify(shown, null, 2)}\n` : `✓ Created issue: ${issue.id}\n`);
    }
    if (cmd === 'show') {
      const issue = find(args[1]);
      if (!issue) return err(`Error: issue ${args[1]} not found\n`);
      const { dependencies, ...rest } = issue;
      const deps = dependencies.map((d) => ({
        id: d.depends_on_id,
        title: find(d.depends_on_id)?.title,
        status: find(d.depends_on_id)?.status,
        dependency_type: d.type,
      }));
      return ok(`${JSON.stringify([{ ...rest, dependencies: deps }], null, 2)}\n`);
    }
    if (cmd === 'dep' && sub === 'add') {
      const [, , from, to] = args;
      const issue = find(from);
      if (!issue) return err(`Error: resolving issue ID ${from}: no issue found matching "${from}"\n`);
      if (!find(to)) return err(`Error: resolving dependency ID ${to}: no issue found matching "${to}"\n`);
      const type = flag(args, '--type') ?? 'blocks';
      if (issue.dependencies.some((d) => d.depends_on_id === to))
        return err(`Error: dependency ${from} -> ${to} already exists\n`);
      issue.dependencies.push({ issue_id: from as string, depends_on_id: to as string, type });
      return ok(`✓ Added dependency: ${from} depends on ${to} (${type})\n`);
    }
    return err(`Error: unknown command "${cmd}" for "bd"\n`);
  };
  return { exec, calls, cwds, issues };
}

const keyOf = (issue: FakeIssue) => /<!-- agent-loop:phase-issue (\S+) -->/.exec(issue.description)?.[1];
const byKey = (issues: FakeIssue[]) => new Map(issues.filter(keyOf).map((i) => [keyOf(i) as string, i]));

function seeded(key: string, phase: PhaseIssueInput, id: string, extra: Partial<FakeIssue> = {}): FakeIssue {
  return {
    id,
    title: phase.title,
    description: describePhaseIssue(phase.body, key),
    status: 'open',
    priority: 2,
    issue_type: 'task',
    created_at: '2026-03-01T00:00:00Z',
    updated_at: '2026-03-01T00:00:00Z',
    dependencies: [],
    ...extra,
  };
}

const UNRELATED: FakeIssue = {
  id: 'bd-0001',
  title: 'Someone else’s bug',
  description: 'mentions agent-loop:phase-issue but no marker',
  status: 'open',
  priority: 1,
  issue_type: 'bug',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  dependencies: [],
};

describe('the phase issue marker (pure)', () => {
  it('is a hidden HTML comment line after the body', () => {
    expect(phaseIssueMarker('plan-1-p01')).toBe('<!-- agent-loop:phase-issue plan-1-p01 -->');
    expect(describePhaseIssue('# Title\nText.\n\n', 'plan-1-p01')).toBe(
      '# Title\nText.\n\n<!-- agent-loop:phase-issue plan-1-p01 -->\n',
    );
    expect(describePhaseIssue('', 'plan-1-p01')).toBe('<!-- agent-loop:phase-issue plan-1-p01 -->\n');
  });

  it('finds issues by their marker only, the oldest when several carry it, never a deleted one', () => {
    const records = [
      { id: 'bd-b', description: `x\n${phaseIssueMarker('k-p01')}`, created_at: '2026-01-02T00:00:00Z' },
      { id: 'bd-a', description: `y\n${phaseIssueMarker('k-p01')}`, created_at: '2026-01-01T00:00:00Z' },
      { id: 'bd-c', description: phaseIssueMarker('k-p010') },
      { id: 'bd-d', description: phaseIssueMarker('k-p02'), status: 'tombstone' },
      { id: 'bd-e', title: 'no description' },
    ];
    const { found, duplicates } = findMarkedIssues(['k-p01', 'k-p02', 'k-p03'], records);
    expect([...found].map(([k, r]) => [k, r.id])).toEqual([['k-p01', 'bd-a']]);
    expect([...duplicates]).toEqual([['k-p01', ['bd-b']]]);
  });
});

describe('BdCliPhaseIssueSink', () => {
  it('is a PhaseIssueSink', () => {
    const sink: PhaseIssueSink = new BdCliPhaseIssueSink({ cwd: '/repo', exec: fakeBd().exec });
    expect(sink).toBeInstanceOf(BdCliPhaseIssueSink);
  });

  it('fresh: records the keys first, lists, creates one task per phase with its marker, then chains the dependencies', async () => {
    const bd = fakeBd([UNRELATED]);
    const log: string[] = [];
    const exec: ExecFn = (file, args, opts) => {
      log.push(`bd ${args[0]}`);
      return bd.exec(file, args, opts);
    };
    const result = await new BdCliPhaseIssueSink({ cwd: '/repo', exec }).createPhaseIssues({
      phases: [...PHASES].reverse(),
      prefix: PREFIX,
      now: NOW,
      onPlanned: (keys) => {
        log.push(`planned ${keys.join(',')}`);
      },
    });

    expect(log[0]).toBe(`planned ${KEYS.join(',')}`);
    const issues = byKey(bd.issues);
    const ids = KEYS.map((k) => issues.get(k)?.id as string);
    expect(ids.every((id) => /^bd-[0-9a-f]{4}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(result).toEqual({
      planned: KEYS,
      created: KEYS,
      alreadyPresent: [],
      ids: Object.fromEntries(KEYS.map((k, i) => [k, ids[i]])),
    });

    expect(BD_LIST_ALL_ARGS).toEqual(['list', '--json', '--all', '--limit', '0']);
    expect(bd.calls).toEqual([
      ['list', '--json', '--all', '--limit', '0'],
      ...PHASES.map((p, i) => [
        'create',
        p.title,
        '--description',
        describePhaseIssue(p.body, KEYS[i] as string),
        '--type',
        'task',
        '--priority',
        '2',
        '--json',
      ]),
      ['dep', 'add', ids[1], ids[0], '--type', 'blocks'],
      ['dep', 'add', ids[2], ids[1], '--type', 'blocks'],
    ]);
    expect(bd.cwds.every((c) => c === '/repo')).toBe(true);

    PHASES.forEach((phase, i) => {
      const issue = issues.get(KEYS[i] as string) as FakeIssue;
      expect(issue).toMatchObject({ title: phase.title, status: 'open', priority: 2, issue_type: 'task' });
      expect(issue.description.startsWith(phase.body.trimEnd())).toBe(true);
      expect(issue.description.endsWith(`\n\n<!-- agent-loop:phase-issue ${KEYS[i]} -->\n`)).toBe(true);
    });
    expect(issues.get(KEYS[0] as string)?.dependencies).toEqual([]);
    expect(issues.get(KEYS[1] as string)?.dependencies).toEqual([
      { issue_id: ids[1], depends_on_id: ids[0], type: 'blocks' },
    ]);
    expect(issues.get(KEYS[2] as string)?.dependencies).toEqual([
      { issue_id: ids[2], depends_on_id: ids[1], type: 'blocks' },
    ]);
    expect(bd.issues.find((i) => i.id === UNRELATED.id)?.dependencies).toEqual([]);
  });

  it('re-run: finds every phase by its marker, creates nothing, adds no dependency', async () => {
    const bd = fakeBd([UNRELATED]);
    const sink = new BdCliPhaseIssueSink({ cwd: '/repo', exec: bd.exec });
    const first = await sink.createPhaseIssues({ phases: PHASES, prefix: PREFIX, now: NOW });
    bd.calls.length = 0;
    const before = JSON.stringify(bd.issues);

    const again = await sink.createPhaseIssues({ phases: PHASES, prefix: PREFIX, now: NOW });
    expect(again).toEqual({ planned: KEYS, created: [], alreadyPresent: KEYS, ids: first.ids });
    expect(bd.calls).toEqual([
      ['list', '--json', '--all', '--limit', '0'],
      ['show', first.ids[KEYS[1] as string], '--json'],
      ['show', first.ids[KEYS[2] as string], '--json'],
    ]);
    expect(JSON.stringify(bd.issues)).toBe(before);
  });

  it('partial earlier run: creates only the missing phase, keeps the existing pair’s dependency, finds a closed phase issue', async () => {
    const bd = fakeBd([
      UNRELATED,
      seeded(KEYS[0] as string, PHASES[0] as PhaseIssueInput, 'bd-1111', { status: 'closed' }),
      seeded(KEYS[1] as string, PHASES[1] as PhaseIssueInput, 'bd-2222', {
        dependencies: [{ issue_id: 'bd-2222', depends_on_id: 'bd-1111', type: 'blocks' }],
      }),
    ]);
    const result = await new BdCliPhaseIssueSink({ cwd: '/repo', exec: bd.exec }).createPhaseIssues({
      phases: PHASES,
      prefix: PREFIX,
      now: NOW,
    });

    const third = byKey(bd.issues).get(KEYS[2] as string) as FakeIssue;
    expect(result).toEqual({
      planned: KEYS,
      created: [KEYS[2]],
      alreadyPresent: [KEYS[0], KEYS[1]],
      ids: { [KEYS[0] as string]: 'bd-1111', [KEYS[1] as string]: 'bd-2222', [KEYS[2] as string]: third.id },
    });
    expect(bd.calls.map((c) => c.slice(0, 2).join(' '))).toEqual([
      'list --json',
      'create Phase 3: Cleanup',
      'show bd-2222',
      'dep add',
    ]);
    expect(bd.calls[3]).toEqual(['dep', 'add', third.id, 'bd-2222', '--type', 'blocks']);
    expect(bd.calls.some((c) => c[0] === 'dep' && c[2] === 'bd-2222')).toBe(false);
    expect(third.dependencies).toEqual([{ issue_id: third.id, depends_on_id: 'bd-2222', type: 'blocks' }]);
    expect(bd.issues).toHaveLength(4);
  });

  it('partial earlier run stopped before its dependencies: adds the missing one between existing issues', async () => {
    const bd = fakeBd([
      seeded(KEYS[0] as string, PHASES[0] as PhaseIssueInput, 'bd-1111'),
      seeded(KEYS[1] as string, PHASES[1] as PhaseIssueInput, 'bd-2222'),
      seeded(KEYS[2] as string, PHASES[2] as PhaseIssueInput, 'bd-3333', {
        dependencies: [{ issue_id: 'bd-3333', depends_on_id: 'bd-2222', type: 'blocks' }],
      }),
    ]);
    const result = await new BdCliPhaseIssueSink({ cwd: '/repo', exec: bd.exec }).createPhaseIssues({
      phases: PHASES,
      prefix: PREFIX,
      now: NOW,
    });
    expect(result.created).toEqual([]);
    expect(bd.calls).toEqual([
      ['list', '--json', '--all', '--limit', '0'],
      ['show', 'bd-2222', '--json'],
      ['dep', 'add', 'bd-2222', 'bd-1111', '--type', 'blocks'],
      ['show', 'bd-3333', '--json'],
    ]);
  });

  it('the recorded keys of an earlier attempt take precedence over the prefix', async () => {
    const bd = fakeBd([seeded(KEYS[0] as string, PHASES[0] as PhaseIssueInput, 'bd-1111')]);
    const planned: string[][] = [];
    const result = await new BdCliPhaseIssueSink({ cwd: '/repo', exec: bd.exec }).createPhaseIssues({
      phases: PHASES,
      prefix: 'plan-ffffffff',
      existing: KEYS,
      now: NOW,
      onPlanned: (keys) => void planned.push([...keys]),
    });
    expect(planned).toEqual([KEYS]);
    expect(result.planned).toEqual(KEYS);
    expect(result.alreadyPresent).toEqual([KEYS[0]]);
    expect(result.ids[KEYS[0] as string]).toBe('bd-1111');
    expect([...byKey(bd.issues).keys()].sort()).toEqual(KEYS);
  });

  it('a failing bd create is reported with the command, exit code, stderr and what to do; the next run creates only what is missing', async () => {
    let locked = true;
    const bd = fakeBd([], (args) =>
      locked && args[0] === 'create' && args[1] === 'Phase 2: Resume'
        ? { code: 3, stderr: 'noise\nError: database is locked\n' }
        : undefined,
    );
    const sink = new BdCliPhaseIssueSink({ cwd: '/repo', exec: bd.exec });
    const error = await sink.createPhaseIssues({ phases: PHASES, prefix: PREFIX, now: NOW }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain("bd create 'Phase 2: Resume' --description '# Resume… (");
    expect(error?.message).toContain(
      " characters)' --type task --priority 2 --json failed with exit code 3:\nnoise\nError: database is locked\n",
    );
    expect(error?.message).toContain(
      `Phase issue ${KEYS[1]} (phase 2) was not created. The issues created before it (${KEYS[0]}) carry their markers and are found again.`,
    );
    expect(error?.message).toContain('Fix the bd error and run again');
    expect(bd.issues).toHaveLength(1);
    expect(bd.calls.some((c) => c[0] === 'dep')).toBe(false);

    locked = false;
    bd.calls.length = 0;
    const result = await sink.createPhaseIssues({ phases: PHASES, prefix: PREFIX, now: NOW });
    expect(result.created).toEqual([KEYS[1], KEYS[2]]);
    expect(result.alreadyPresent).toEqual([KEYS[0]]);
    expect(bd.issues).toHaveLength(3);
    expect(bd.calls.filter((c) => c[0] === 'create').map((c) => c[1])).toEqual(['Phase 2: Resume', 'Phase 3: Cleanup']);
    expect(bd.calls.filter((c) => c[0] === 'dep')).toHaveLength(2);
  });

  it('a failing bd list stops before anything is created, naming the command and what to do', async () => {
    const bd = fakeBd([], (args) =>
      args[0] === 'list' ? { code: 1, stderr: 'Error: no beads database found\n' } : undefined,
    );
    await expect(
      new BdCliPhaseIssueSink({ cwd: '/repo', exec: bd.exec }).createPhaseIssues({
        phases: PHASES,
        prefix: PREFIX,
        now: NOW,
      }),
    ).rejects.toThrow(
      'bd list --json --all --limit 0 failed with exit code 1:\nError: no beads database found\nCheck that bd works in this directory (`bd list`; `bd init` when there is no beads database yet).',
    );
    expect(bd.calls).toHaveLength(1);
  });

  it('a failing bd dep add says how to add the dependency by hand', async () => {
    const bd = fakeBd([], (args) => (args[0] === 'dep' ? { code: 1, stderr: 'Error: failed to commit\n' } : undefined));
    const error = await new BdCliPhaseIssueSink({ cwd: '/repo', exec: bd.exec })
      .createPhaseIssues({ phases: PHASES, prefix: PREFIX, now: NOW })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    const [first, second] = bd.issues;
    expect(error?.message).toBe(
      `bd dep add ${second?.id} ${first?.id} --type blocks failed with exit code 1:\nError: failed to commit\n` +
        `${second?.id} is not yet blocked by ${first?.id}. Add it by hand with \`bd dep add ${second?.id} ${first?.id} --type blocks\`, or run again: the issues are found by their markers and only missing dependencies are added.`,
    );
  });

  it('bd create printing no id is an error that says the issue may exist and a re-run finds it', async () => {
    const bd = fakeBd();
    const exec: ExecFn = async (file, args, opts) => {
      const result = await bd.exec(file, args, opts);
      return args[0] === 'create' ? { ...result, stdout: '{"title":"x"}' } : result;
    };
    await expect(
      new BdCliPhaseIssueSink({ cwd: '/repo', exec }).createPhaseIssues({ phases: PHASES, prefix: PREFIX, now: NOW }),
    ).rejects.toThrow(
      `printed an object without the created issue's "id". Check the bd version (\`bd version\`); the issue may have been created: \`bd list --desc-contains ${KEYS[0]}\` shows it`,
    );
  });

  it('nothing runs at all when onPlanned rejects', async () => {
    const bd = fakeBd();
    await expect(
      new BdCliPhaseIssueSink({ cwd: '/repo', exec: bd.exec }).createPhaseIssues({
        phases: PHASES,
        prefix: PREFIX,
        now: NOW,
        onPlanned: async () => Promise.reject(new Error('checkpoint write failed')),
      }),
    ).rejects.toThrow('checkpoint write failed');
    expect(bd.calls).toEqual([]);
    expect(bd.issues).toEqual([]);
  });

  it('reads the {"items": [...]} envelope, skips entries that are not issues and warns about a marker found twice', async () => {
    const twice = [
      seeded(KEYS[0] as string, PHASES[0] as PhaseIssueInput, 'bd-late', { created_at: '2026-03-02T00:00:00Z' }),
      seeded(KEYS[0] as string, PHASES[0] as PhaseIssueInput, 'bd-early', { created_at: '2026-03-01T00:00:00Z' }),
    ];
    const bd = fakeBd(twice);
    const exec: ExecFn = async (file, args, opts) => {
      const result = await bd.exec(file, args, opts);
      if (args[0] !== 'list') return result;
      return {
        ...result,
        stdout: `⚠ notice\n${JSON.stringify({ schema_version: 1, items: [...(JSON.parse(result.stdout) as unknown[]), 42] })}`,
      };
    };
    const warnings: string[] = [];
    const result = await new BdCliPhaseIssueSink({
      cwd: '/repo',
      exec,
      onWarning: (m) => warnings.push(m),
    }).createPhaseIssues({ phases: PHASES, prefix: PREFIX, now: NOW });
    expect(result.ids[KEYS[0] as string]).toBe('bd-early');
    expect(result.created).toEqual([KEYS[1], KEYS[2]]);
    expect(warnings).toEqual([
      'bd list --json --all --limit 0: entry 2 skipped, it is a number, not an issue with a string "id"',
      `${phaseIssueMarker(KEYS[0] as string)} is in 2 bd issues: using bd-early, not bd-late. Close the extra ones (\`bd close bd-late\`).`,
    ]);
  });

  it('rejects output of bd list that is not a list', async () => {
    const exec: ExecFn = async () => ({ code: 0, stdout: '{"id":"x"}', stderr: '' });
    await expect(
      new BdCliPhaseIssueSink({ cwd: '/repo', exec }).createPhaseIssues({ phases: PHASES, prefix: PREFIX, now: NOW }),
    ).rejects.toThrow('bd list --json --all --limit 0 printed an object where a JSON array of issues was expected');
  });

  it('refuses recorded keys that cannot go into a marker, before anything runs', async () => {
    const bd = fakeBd();
    await expect(
      new BdCliPhaseIssueSink({ cwd: '/repo', exec: bd.exec }).createPhaseIssues({
        phases: PHASES,
        prefix: PREFIX,
        now: NOW,
        existing: ['a', 'b --> c', 'd'],
      }),
    ).rejects.toThrow('Invalid phase issue key "b --> c"');
    expect(bd.calls).toEqual([]);
  });
});
