import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BD_READY_ARGS,
  BdCliSource,
  execFileCommand,
  isNotFound,
  isOnPath,
  parseJsonOutput,
  type ExecFn,
  type ExecResult,
} from '../../src/issues/beadsCli.js';

interface Call {
  file: string;
  args: string[];
  cwd: string;
}

/** An ExecFn answering from a table of argv (joined by spaces) to results, recording every call. */
function fakeExec(answers: Record<string, Partial<ExecResult>>): { exec: ExecFn; calls: Call[] } {
  const calls: Call[] = [];
  const exec: ExecFn = async (file, args, opts) => {
    calls.push({ file, args, cwd: opts.cwd });
    const answer = answers[args.join(' ')];
    if (!answer) return { code: 1, stdout: '', stderr: `fake bd: unexpected call ${args.join(' ')}\n` };
    return { code: 0, stdout: '', stderr: '', ...answer };
  };
  return { exec, calls };
}

const READY = BD_READY_ARGS.join(' ');

// Shaped like `bd ready --json`: full issue objects, in bd's own (hybrid) order.
const bdReadyOutput = JSON.stringify(
  [
    {
      id: 'bd-c3',
      title: 'newest P1',
      description: 'c',
      status: 'open',
      priority: 1,
      issue_type: 'task',
      created_at: '2025-11-02T10:00:00.123456-07:00',
      updated_at: '2025-11-02T10:00:00-07:00',
    },
    {
      id: 'bd-a1',
      title: 'P2',
      description: 'a',
      status: 'in_progress',
      priority: 2,
      issue_type: 'bug',
      created_at: '2025-10-01T10:00:00Z',
      updated_at: '2025-10-01T10:00:00Z',
      labels: ['x'],
    },
    {
      id: 'bd-b2',
      title: 'older P1',
      description: 'b',
      status: 'open',
      priority: 1,
      issue_type: 'feature',
      created_at: '2025-10-15T10:00:00Z',
      updated_at: '2025-10-15T10:00:00Z',
    },
    {
      id: 'bd-d4',
      title: 'P0',
      description: 'd',
      status: 'open',
      priority: 0,
      issue_type: 'task',
      created_at: '2025-12-01T10:00:00Z',
      updated_at: '2025-12-01T10:00:00Z',
    },
  ],
  null,
  2,
);

const showIssue = {
  id: 'bd-a1',
  title: 'P2',
  description: 'body',
  status: 'open',
  priority: 2,
  issue_type: 'bug',
  created_at: '2025-10-01T10:00:00Z',
  labels: ['x'],
  // bd show lists dependencies as the depended-on issues, with dependency_type
  dependencies: [{ id: 'bd-z9', title: 'dep', status: 'closed', dependency_type: 'blocks' }],
};

describe('BdCliSource.ready', () => {
  it('runs bd ready --json in the repository and returns its issues sorted by priority, then age, then id', async () => {
    const { exec, calls } = fakeExec({ [READY]: { stdout: bdReadyOutput } });
    const ready = await new BdCliSource({ cwd: '/repo', exec }).ready();
    expect(ready.map((i) => i.id)).toEqual(['bd-d4', 'bd-b2', 'bd-c3', 'bd-a1']);
    expect(calls).toEqual([{ file: 'bd', args: ['ready', '--json', '--limit', '0'], cwd: '/repo' }]);
    expect(ready[3]).toEqual({
      id: 'bd-a1',
      title: 'P2',
      body: 'a',
      status: 'in_progress',
      labels: ['x'],
      type: 'bug',
      dependencies: [],
      priority: 2,
      createdAt: '2025-10-01T10:00:00Z',
    });
  });

  it('does not re-filter what bd calls ready (an in_progress issue stays)', async () => {
    const { exec } = fakeExec({ [READY]: { stdout: bdReadyOutput } });
    expect((await new BdCliSource({ cwd: '/repo', exec }).ready()).map((i) => i.status)).toContain('in_progress');
  });

  it('reads an empty list, null and empty output as no ready issues', async () => {
    for (const stdout of ['[]\n', 'null\n', '']) {
      const { exec } = fakeExec({ [READY]: { stdout } });
      expect(await new BdCliSource({ cwd: '/repo', exec }).ready()).toEqual([]);
    }
  });

  it('skips array entries that are not issues, with a warning', async () => {
    const warnings: string[] = [];
    const { exec } = fakeExec({ [READY]: { stdout: '[{"id":"ok","status":"open"}, 42, {"title":"no id"}]' } });
    const ready = await new BdCliSource({ cwd: '/repo', exec, onWarning: (m) => warnings.push(m) }).ready();
    expect(ready.map((i) => i.id)).toEqual(['ok']);
    expect(warnings).toEqual([
      'bd ready --json --limit 0: entry 1 skipped, it is a number, not an issue with a string "id"',
      'bd ready --json --limit 0: entry 2 skipped, it is an object, not an issue with a string "id"',
    ]);
  });

  it('throws when bd prints something other than an array', async () => {
    const { exec } = fakeExec({ [READY]: { stdout: '{"id":"x"}' } });
    await expect(new BdCliSource({ cwd: '/repo', exec }).ready()).rejects.toThrow(
      'where a JSON array of issues was expected',
    );
  });

  it('a failing bd ready throws with the command line, the exit code and the last lines of stderr', async () => {
    const stderr = Array.from({ length: 15 }, (_, i) => `noise ${i}`).join('\n') + '\nError: no beads database found\n';
    const { exec } = fakeExec({ [READY]: { code: 1, stderr } });
    const error = await new BdCliSource({ cwd: '/repo', exec }).ready().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain('bd ready --json --limit 0 failed with exit code 1');
    expect(error?.message).toContain('Error: no beads database found');
    expect(error?.message).not.toContain('noise 2\n');
  });

  it('uses the configured command', async () => {
    const { exec, calls } = fakeExec({ [READY]: { stdout: '[]' } });
    await new BdCliSource({ cwd: '/r', exec, command: '/opt/bin/bd' }).ready();
    expect(calls[0]?.file).toBe('/opt/bin/bd');
  });
});

describe('BdCliSource.get', () => {
  it('accepts bd show printing an object', async () => {
    const { exec, calls } = fakeExec({ 'show bd-a1 --json': { stdout: JSON.stringify(showIssue) } });
    const issue = await new BdCliSource({ cwd: '/repo', exec }).get('bd-a1');
    expect(issue).toEqual({
      id: 'bd-a1',
      title: 'P2',
      body: 'body',
      status: 'open',
      labels: ['x'],
      type: 'bug',
      dependencies: ['bd-z9'],
      priority: 2,
      createdAt: '2025-10-01T10:00:00Z',
    });
    expect(calls[0]?.args).toEqual(['show', 'bd-a1', '--json']);
  });

  it('accepts bd show printing a one-element array', async () => {
    const { exec } = fakeExec({ 'show bd-a1 --json': { stdout: JSON.stringify([showIssue], null, 2) } });
    expect((await new BdCliSource({ cwd: '/repo', exec }).get('bd-a1'))?.title).toBe('P2');
  });

  it.each([
    'Error: issue bd-x not found',
    'Issue bd-x not found',
    'Error fetching bd-x: no issue found matching "bd-x"\nError: no issues found matching the provided IDs',
  ])('an unknown id (bd says %j, exit 1) is undefined', async (stderr) => {
    const { exec } = fakeExec({ 'show bd-x --json': { code: 1, stderr } });
    expect(await new BdCliSource({ cwd: '/repo', exec }).get('bd-x')).toBeUndefined();
  });

  it('an unknown id reported as JSON on stdout is undefined too', async () => {
    const { exec } = fakeExec({
      'show bd-x --json': { code: 1, stdout: '{"error":"no issues found matching the provided IDs"}' },
    });
    expect(await new BdCliSource({ cwd: '/repo', exec }).get('bd-x')).toBeUndefined();
  });

  it('an empty array is undefined', async () => {
    const { exec } = fakeExec({ 'show bd-x --json': { stdout: '[]' } });
    expect(await new BdCliSource({ cwd: '/repo', exec }).get('bd-x')).toBeUndefined();
  });

  it('other failures throw, even when "not found" is about something else', async () => {
    const { exec } = fakeExec({ 'show bd-x --json': { code: 2, stderr: 'Error: database not found\n' } });
    await expect(new BdCliSource({ cwd: '/repo', exec }).get('bd-x')).rejects.toThrow(
      'bd show bd-x --json failed with exit code 2:\nError: database not found',
    );
  });
});

describe('BdCliSource.close', () => {
  it('checks the issue, then runs bd close <id> --reason <reason> as an argv array', async () => {
    const reason = `Fixed: "quotes", $(rm -rf /), 'single' & newline\nsecond line`;
    const { exec, calls } = fakeExec({
      'show bd-a1 --json': { stdout: JSON.stringify([showIssue]) },
      [`close bd-a1 --reason ${reason}`]: { stdout: '✓ Closed bd-a1\n' },
    });
    await new BdCliSource({ cwd: '/repo', exec }).close('bd-a1', reason);
    expect(calls.map((c) => c.args)).toEqual([
      ['show', 'bd-a1', '--json'],
      ['close', 'bd-a1', '--reason', reason],
    ]);
  });

  it('closing a closed issue is a no-op: bd close is not run', async () => {
    const { exec, calls } = fakeExec({
      'show bd-a1 --json': { stdout: JSON.stringify({ ...showIssue, status: 'closed' }) },
    });
    await new BdCliSource({ cwd: '/repo', exec }).close('bd-a1', 'again');
    expect(calls.map((c) => c.args[0])).toEqual(['show']);
  });

  it('closing an unknown id throws an error naming the id', async () => {
    const { exec, calls } = fakeExec({ 'show bd-x --json': { code: 1, stderr: 'Error: issue bd-x not found' } });
    await expect(new BdCliSource({ cwd: '/repo', exec }).close('bd-x', 'r')).rejects.toThrow(
      'Cannot close issue bd-x: bd does not know it',
    );
    expect(calls).toHaveLength(1);
  });

  it('a failing bd close throws with the quoted command line', async () => {
    const { exec } = fakeExec({
      'show bd-a1 --json': { stdout: JSON.stringify(showIssue) },
      'close bd-a1 --reason all done': { code: 1, stderr: 'Error: database is locked' },
    });
    await expect(new BdCliSource({ cwd: '/repo', exec }).close('bd-a1', 'all done')).rejects.toThrow(
      "bd close bd-a1 --reason 'all done' failed with exit code 1:\nError: database is locked",
    );
  });
});

describe('parseJsonOutput and isNotFound', () => {
  it('tolerates a notice printed before the JSON', () => {
    expect(parseJsonOutput('⚠ A new bd version is available\n[\n  {"id":"x"}\n]\n', 'bd ready')).toEqual([{ id: 'x' }]);
  });

  it('throws on output that is not JSON, quoting the command', () => {
    expect(() => parseJsonOutput('Ready work (2 issues):', 'bd ready --json')).toThrow(
      'bd ready --json printed output that is not JSON',
    );
  });

  it('only takes "not found" about an issue for an unknown issue', () => {
    expect(isNotFound('Error: issue bd-1 not found', 'bd-1')).toBe(true);
    expect(isNotFound('bd-1 not found', 'bd-1')).toBe(true);
    expect(isNotFound('Error: no beads database found', 'bd-1')).toBe(false);
    expect(isNotFound('Error: .beads directory not found', 'bd-1')).toBe(false);
  });
});

describe('BdCliSource with a fake bd executable (real processes, no shell)', () => {
  let dir: string;
  let bd: string;
  let state: string;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fake-bd-'));
    bd = path.join(dir, 'bd');
    state = path.join(dir, 'state.json');
    // A stand-in for bd following its documented JSON output: an array for `ready --json`, an array
    // or an object for `show --json` (both exist across bd versions), "not found" on stderr otherwise.
    await fs.writeFile(
      bd,
      `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const statePath = path.join(__dirname, 'state.json');
const st = JSON.parse(fs.readFileSync(statePath, 'utf8'));
const args = process.argv.slice(2);
fs.appendFileSync(path.join(__dirname, 'calls.log'), JSON.stringify({ args, cwd: process.cwd() }) + '\\n');
const [cmd, id] = args;
if (cmd === 'ready') {
  process.stdout.write(JSON.stringify(st.issues.filter((i) => i.status === 'open' || i.status === 'in_progress'), null, 2) + '\\n');
} else if (cmd === 'show') {
  const issue = st.issues.find((i) => i.id === id);
  if (!issue) { process.stderr.write('Error: issue ' + id + ' not found\\n'); process.exit(1); }
  process.stdout.write(JSON.stringify(st.showAsArray ? [issue] : issue) + '\\n');
} else if (cmd === 'close') {
  const issue = st.issues.find((i) => i.id === id);
  const reason = args[args.indexOf('--reason') + 1];
  issue.status = 'closed';
  issue.close_reason = reason;
  fs.writeFileSync(statePath, JSON.stringify(st));
  process.stdout.write('✓ Closed ' + id + ': ' + reason + '\\n');
} else {
  process.stderr.write('Error: unknown command "' + cmd + '" for "bd"\\n');
  process.exit(1);
}
`,
      { mode: 0o755 },
    );
  });

  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function writeState(showAsArray: boolean): Promise<void> {
    await fs.writeFile(
      state,
      JSON.stringify({
        showAsArray,
        issues: [
          { id: 'bd-2', title: 'two', status: 'open', priority: 1, created_at: '2025-02-01T00:00:00Z' },
          { id: 'bd-1', title: 'one', status: 'open', priority: 1, created_at: '2025-01-01T00:00:00Z' },
          { id: 'bd-3', title: 'three', status: 'closed', priority: 0 },
        ],
      }),
    );
  }

  it.each([false, true])('ready, get and close work end to end (show prints an array: %s)', async (showAsArray) => {
    await writeState(showAsArray);
    const src = new BdCliSource({ cwd: dir, command: bd });
    expect((await src.ready()).map((i) => i.id)).toEqual(['bd-1', 'bd-2']);
    expect((await src.get('bd-2'))?.title).toBe('two');
    expect(await src.get('bd-404')).toBeUndefined();
    const reason = `it's "done"; $(touch ${path.join(dir, 'pwned')})`;
    await src.close('bd-1', reason);
    await src.close('bd-3', 'already closed');
    expect((await src.ready()).map((i) => i.id)).toEqual(['bd-2']);
    const st = JSON.parse(await fs.readFile(state, 'utf8')) as { issues: Array<{ id: string; close_reason?: string }> };
    expect(st.issues.find((i) => i.id === 'bd-1')?.close_reason).toBe(reason);
    await expect(fs.access(path.join(dir, 'pwned'))).rejects.toThrow();
    const calls = (await fs.readFile(path.join(dir, 'calls.log'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { args: string[]; cwd: string });
    expect(calls.filter((c) => c.args[0] === 'close')).toEqual([
      { args: ['close', 'bd-1', '--reason', reason], cwd: await fs.realpath(dir) },
    ]);
  });

  it('execFileCommand reports a non-zero exit with its stderr instead of rejecting', async () => {
    await writeState(false);
    expect(await execFileCommand(bd, ['frobnicate'], { cwd: dir })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: unknown command "frobnicate" for "bd"\n',
    });
  });

  it('execFileCommand rejects with a clear message when the command does not exist', async () => {
    await expect(execFileCommand(path.join(dir, 'no-such-bd'), [], { cwd: dir })).rejects.toThrow('command not found');
  });
});

describe('isOnPath', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'on-path-'));
  });

  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('finds an executable file in a PATH entry, wherever it is in PATH', async () => {
    const bin = path.join(dir, 'bin');
    await fs.mkdir(bin);
    await fs.writeFile(path.join(bin, 'bd'), '#!/bin/sh\n', { mode: 0o755 });
    expect(await isOnPath('bd', bin)).toBe(true);
    expect(await isOnPath('bd', [path.join(dir, 'missing'), '', bin].join(path.delimiter))).toBe(true);
    expect(await isOnPath('bd-other', bin)).toBe(false);
  });

  it('ignores non-executable files and directories of that name', async () => {
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    await fs.mkdir(a);
    await fs.mkdir(path.join(b, 'bd'), { recursive: true });
    await fs.writeFile(path.join(a, 'bd'), 'not executable', { mode: 0o644 });
    expect(await isOnPath('bd', [a, b].join(path.delimiter))).toBe(false);
  });

  it('is false for an empty or missing PATH and for an empty command', async () => {
    expect(await isOnPath('bd', '')).toBe(false);
    expect(await isOnPath('', dir)).toBe(false);
  });

  it('ignores empty PATH entries rather than searching the working directory', async () => {
    const cwdBefore = process.cwd();
    await fs.writeFile(path.join(dir, 'bd'), '#!/bin/sh\n', { mode: 0o755 });
    process.chdir(dir);
    try {
      expect(await isOnPath('bd', `${path.delimiter}${path.join(dir, 'nothing')}`)).toBe(false);
    } finally {
      process.chdir(cwdBefore);
    }
  });

  it('checks a command given as a path directly', async () => {
    const exe = path.join(dir, 'tool');
    await fs.writeFile(exe, '#!/bin/sh\n', { mode: 0o755 });
    expect(await isOnPath(exe, '')).toBe(true);
    expect(await isOnPath(path.join(dir, 'absent'), '')).toBe(false);
  });

  it('uses process.env.PATH by default', async () => {
    expect(await isOnPath('node', undefined)).toBe(await isOnPath('node', process.env.PATH));
    expect(await isOnPath(path.basename(process.execPath), path.dirname(process.execPath))).toBe(true);
  });
});

describe('bd: marking an issue escalated', () => {
  it('runs bd label add and bd comments add with argv arrays', async () => {
    const { exec, calls } = fakeExec({
      'show bd-1 --json': { stdout: JSON.stringify({ id: 'bd-1', title: 'T', status: 'open', labels: [] }) },
      'label add bd-1 agent-loop:escalated': {},
      'comments add bd-1 escalated: tests failed; $(rm -rf /)': {},
    });
    await new BdCliSource({ cwd: '/repo', exec }).markEscalated('bd-1', 'escalated: tests failed; $(rm -rf /)');
    expect(calls.map((c) => c.args)).toEqual([
      ['show', 'bd-1', '--json'],
      ['label', 'add', 'bd-1', 'agent-loop:escalated'],
      ['comments', 'add', 'bd-1', 'escalated: tests failed; $(rm -rf /)'],
    ]);
  });

  it('does not add the label twice', async () => {
    const { exec, calls } = fakeExec({
      'show bd-1 --json': {
        stdout: JSON.stringify({ id: 'bd-1', title: 'T', status: 'open', labels: ['agent-loop:escalated'] }),
      },
      'comments add bd-1 again': {},
    });
    await new BdCliSource({ cwd: '/repo', exec }).markEscalated('bd-1', 'again');
    expect(calls.map((c) => c.args[0])).toEqual(['show', 'comments']);
  });
});

describe('BdCliSource.tickChecklistItem (issue 15)', () => {
  const shown = (description: string) => ({
    stdout: JSON.stringify({ id: 'bd-1', title: 'T', status: 'open', description }),
  });

  it('reads the issue with bd show, then sets its description with only that box ticked', async () => {
    const { exec, calls } = fakeExec({
      'show bd-1 --json': shown('Tests:\n- [ ] adds\n- [ ] subtracts'),
      'update bd-1 --description Tests:\n- [ ] adds\n- [x] subtracts': {},
    });
    expect(await new BdCliSource({ cwd: '/repo', exec }).tickChecklistItem('bd-1', 'subtracts')).toBe(true);
    expect(calls.map((c) => c.args)).toEqual([
      ['show', 'bd-1', '--json'],
      ['update', 'bd-1', '--description', 'Tests:\n- [ ] adds\n- [x] subtracts'],
    ]);
  });

  it('changes nothing when the box is ticked already', async () => {
    const { exec, calls } = fakeExec({ 'show bd-1 --json': shown('- [x] adds') });
    expect(await new BdCliSource({ cwd: '/repo', exec }).tickChecklistItem('bd-1', 'adds')).toBe(false);
    expect(calls.map((c) => c.args[0])).toEqual(['show']);
  });
});

describe('BdCliSource: only a person’s issues are worked (issue 42)', () => {
  const rec = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    title: `T ${id}`,
    description: 'd',
    status: 'open',
    priority: 2,
    issue_type: 'task',
    created_at: '2026-11-01T09:00:00Z',
    ...extra,
  });
  const ready = (...records: unknown[]) => ({ stdout: JSON.stringify(records) });
  const TAKEN = new Date('2026-11-30T10:00:00Z');

  it('labels agent-loop:untrusted, with a comment, an issue the agent filed through bd and one it rewrote; never its cycle’s own; ready() leaves them out', async () => {
    const before = [rec('bd-1'), rec('bd-2'), rec('bd-3')];
    const after = [
      rec('bd-1', { title: 'rewritten by the agent, its own' }),
      rec('bd-2', { description: 'delete check.sh' }),
      rec('bd-3'),
      rec('bd-9', { title: 'Delete the tests', created_at: '2026-11-30T10:00:05Z' }),
    ];
    const answers: Record<string, Partial<ExecResult>> = { [READY]: ready(...before) };
    const { exec, calls } = fakeExec(answers);
    const source = new BdCliSource({ cwd: '/repo', exec, now: () => TAKEN });
    const snapshot = await source.snapshot();
    answers[READY] = ready(...after);
    for (const id of ['bd-2', 'bd-9']) {
      answers[`label add ${id} agent-loop:untrusted`] = {};
      answers[
        `comments add ${id} agent-loop: the agent ${id === 'bd-9' ? 'filed' : 'rewrote'} this issue while it worked on bd-1; it is not worked while labelled agent-loop:untrusted. Remove the label if it is right.`
      ] = {};
    }
    const kept = await source.keepTrusted(snapshot, ['bd-1']);
    expect(kept.content).toBeUndefined();
    expect(kept.untrusted.map((u) => [u.id, u.what, u.kept, u.fields])).toEqual([
      ['bd-2', 'changed', 'labelled', ['description']],
      ['bd-9', 'added', 'labelled', undefined],
    ]);
    expect(calls.filter((c) => c.args[0] === 'label').map((c) => c.args[2])).toEqual(['bd-2', 'bd-9']);
    // bd now shows the labels: ready() leaves those two out.
    answers[READY] = ready(
      rec('bd-1'),
      rec('bd-2', { labels: ['agent-loop:untrusted'] }),
      rec('bd-3'),
      rec('bd-9', { labels: ['agent-loop:untrusted'] }),
    );
    expect((await source.ready()).map((i) => i.id)).toEqual(['bd-1', 'bd-3']);
  });

  it('an issue that became ready because its blocker closed (filed before the agent ran) is a person’s; one gone from the ready list is told, not labelled', async () => {
    const answers: Record<string, Partial<ExecResult>> = { [READY]: ready(rec('bd-1'), rec('bd-2')) };
    const { exec, calls } = fakeExec(answers);
    const source = new BdCliSource({ cwd: '/repo', exec, now: () => TAKEN });
    const snapshot = await source.snapshot();
    answers[READY] = ready(rec('bd-1'), rec('bd-4', { created_at: '2026-11-20T09:00:00Z' }));
    const kept = await source.keepTrusted(snapshot, ['bd-1']);
    expect(kept.untrusted.map((u) => [u.id, u.what, u.kept])).toEqual([['bd-2', 'removed', 'told']]);
    expect(calls.every((c) => c.args[0] === 'ready')).toBe(true);
  });
});
