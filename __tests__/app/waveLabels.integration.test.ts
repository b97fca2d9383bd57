/**
 * run --parallel: an escalated job's label on the base branch (src/app/waveLanding.ts). Its job's own
 * label commit is on the job's branch, which is never merged; the coordinator labels the issue in
 * the main checkout and commits that file alone, as the serial loop does.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LoopState, type Wave, initialLoopState } from '../../src/core/state.js';
import { gitRunner } from '../../src/git/git.js';
import { BeadsFileSource } from '../../src/issues/beadsFile.js';
import { ESCALATED_LABEL } from '../../src/issues/types.js';
import { escalationsToLabel, labelEscalations, labelsNoted, labelsOwed } from '../../src/app/waveLanding.js';
import { selectTargets } from '../../src/core/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { systemClock } from '../../src/util/clock.js';
import { GIT_ENV, gitIn } from '../git/repo.js';

const wave = (ids: string[]): Wave => ({
  id: 'wave-1',
  startedAt: '2026-01-01T00:00:00Z',
  jobs: ids.map((id) => ({ issueId: id, title: `Issue ${id}`, maxIterations: 5 })),
});
const escalated = (id: string, note: string): LoopState => ({
  ...initialLoopState(5),
  issuesEscalated: [id],
  escalations: [
    { issueIds: [id], titles: [id], iteration: 1, steps: ['verify'], reason: 'r0', at: 'x', note: 'older' },
    { issueIds: [id], titles: [id], iteration: 3, steps: ['verify'], reason: 'tests', at: 'x', note },
  ],
});

describe('escalationsToLabel', () => {
  it("the wave's escalated issues in its order, each with its job's last note; closed, unfinished and unstarted jobs not", () => {
    const ends = [
      { loop: escalated('bd-1', 'tests failed 3 times'), finished: true, exitCode: 1, stderrTail: '' },
      { loop: { ...initialLoopState(5), issuesClosed: ['bd-2'] }, finished: true, exitCode: 0, stderrTail: '' },
      { finished: false, exitCode: 2, stderrTail: 'could not start' },
      { loop: initialLoopState(5), finished: false, exitCode: 130, stderrTail: '' },
      { loop: escalated('bd-5', 'stuck'), finished: true, exitCode: 1, stderrTail: '' },
    ];
    expect(escalationsToLabel(wave(['bd-1', 'bd-2', 'bd-3', 'bd-4', 'bd-5']), ends)).toEqual([
      { issueId: 'bd-1', note: 'tests failed 3 times' },
      { issueId: 'bd-5', note: 'stuck' },
    ]);
  });
});

describe('labelsNoted / labelsOwed: a label not written stays owed in the checkpoint', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const ready = ['bd-1', 'bd-2', 'bd-3'].map((id) => ({ id, title: id, labels: [] as string[] }));
  it('records each issue not labelled as a markEscalated notice, which a later run leaves alone and labels; dropped once labelled', () => {
    // bd-2 escalated in an earlier run, its label refused (the issue file had the user's changes).
    const after = labelsNoted(
      { ...escalated('bd-2', 'stuck'), iteration: 3 },
      [{ issueId: 'bd-2', note: 'stuck' }],
      new Map([['bd-2', 'uncommitted changes']]),
      at,
    );
    expect(after.notices).toEqual([
      expect.objectContaining({
        what: { kind: 'markEscalated', issueIds: ['bd-2'], note: 'stuck' },
        attempts: 1,
        lastError: 'uncommitted changes',
      }),
    ]);
    expect(labelsOwed(after)).toEqual([{ issueId: 'bd-2', note: 'stuck' }]);
    // A later run (its slice starts after the escalation): bd-2 is not worked again.
    expect(selectTargets(ready, after, true, after.iteration).targets.map((i) => i.id)).toEqual(['bd-1', 'bd-3']);
    // Refused again: one notice still, counted; then labelled: gone.
    const again = labelsNoted(after, labelsOwed(after), new Map([['bd-2', 'not on main']]), at);
    expect(again.notices).toHaveLength(1);
    expect(again.notices[0]).toMatchObject({ attempts: 2, lastError: 'bd-2: not on main' });
    expect(labelsNoted(again, labelsOwed(again), new Map(), at).notices).toEqual([]);
  });
  it('a job’s own owed label is settled by the coordinator’s; other notices are kept', () => {
    const tick = {
      id: 't',
      what: { kind: 'tick' as const, id: 'bd-3', item: 'x' },
      recordedAt: at,
      attempts: 0,
    };
    const mark = {
      id: 'm',
      what: { kind: 'markEscalated' as const, issueIds: ['bd-1', 'bd-2'], note: 'n' },
      recordedAt: at,
      attempts: 0,
    };
    const loop = { ...initialLoopState(5), notices: [tick, mark] } as LoopState;
    const out = labelsNoted(loop, [{ issueId: 'bd-1', note: 'n' }], new Map(), at);
    expect(out.notices).toEqual([tick, { ...mark, what: { ...mark.what, issueIds: ['bd-2'] } }]);
  });
});

describe('labelEscalations (real git)', () => {
  let dir: string;
  const git = gitIn(() => dir);
  const ISSUES = '.beads/issues.jsonl';
  const line = (id: string) => JSON.stringify({ id, title: `Issue ${id}`, status: 'open' });
  const events: string[] = [];
  const logger = createLogger({
    json: true,
    write: (t) => void events.push(t),
    clock: systemClock,
    redact: (t) => t,
  });
  const labelsOn = (ref: string, id: string) =>
    (
      git('show', `${ref}:${ISSUES}`)
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; labels?: string[] })
        .find((i) => i.id === id)?.labels ?? []
    ).sort();

  beforeEach(async () => {
    events.length = 0;
    dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-labels-')));
    git('init', '-q', '-b', 'main');
    await fs.mkdir(path.join(dir, '.beads'));
    await fs.writeFile(path.join(dir, ISSUES), [line('bd-1'), line('bd-2')].join('\n') + '\n');
    await fs.writeFile(path.join(dir, 'mine.txt'), 'mine\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });
  const ctx = () => ({ runner: gitRunner(dir, GIT_ENV), logger, base: 'main', issuesFile: ISSUES });
  const source = () => new BeadsFileSource({ file: ISSUES, cwd: dir });

  it('labels each issue on the base branch in a commit of its own, of the issue file alone; the user’s staged work stays staged', async () => {
    await fs.writeFile(path.join(dir, 'mine.txt'), 'mine, staged\n');
    git('add', 'mine.txt');
    const failed = await labelEscalations(ctx(), source(), [
      { issueId: 'bd-1', note: 'tests failed' },
      { issueId: 'bd-2', note: 'stuck' },
    ]);
    expect(failed).toEqual([]);
    expect(labelsOn('main', 'bd-1')).toEqual([ESCALATED_LABEL]);
    expect(labelsOn('main', 'bd-2')).toEqual([ESCALATED_LABEL]);
    expect(git('log', '--format=%s', 'main')).toBe('agent-loop: bd-2 escalated\nagent-loop: bd-1 escalated\nbase');
    expect(git('show', '--name-only', '--format=', 'main')).toBe(ISSUES);
    expect(git('show', '--name-only', '--format=', 'main~1')).toBe(ISSUES);
    expect(git('status', '--porcelain')).toBe('M  mine.txt');
    // Again (a resumed wave): nothing more to commit.
    expect(await labelEscalations(ctx(), source(), [{ issueId: 'bd-1', note: 'tests failed' }])).toEqual([]);
    expect(git('rev-list', '--count', 'main')).toBe('3');
  });

  it('leaves the issue file alone, with a warning, when the user has changed it or the checkout is on another branch', async () => {
    await fs.appendFile(path.join(dir, ISSUES), `${line('bd-3')}\n`);
    expect(await labelEscalations(ctx(), source(), [{ issueId: 'bd-1', note: 'n' }])).toEqual(['bd-1']);
    expect(events.join('')).toMatch(/not labelled agent-loop:escalated on main: .*uncommitted changes/);
    expect(git('rev-list', '--count', 'main')).toBe('1');
    git('checkout', '-q', '--', ISSUES);
    git('checkout', '-q', '-b', 'elsewhere');
    expect(await labelEscalations(ctx(), source(), [{ issueId: 'bd-1', note: 'n' }])).toEqual(['bd-1']);
    expect(events.join('')).toMatch(/no longer on main/);
    expect(git('status', '--porcelain')).toBe('');
  });
});
