/**
 * The TDD handoff state in git notes (seed 003, "Error State in Git Notes"), on real temporary
 * repositories: written on a phase commit under refs/notes/agent-loop, read back, found again from
 * the newest note on the branch, and carried between repositories by fetching and pushing the ref.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  NOTES_REF,
  TDD_ERROR_TYPES,
  TddNoteSchema,
  type TddNote,
  fetchNotesArgs,
  newestNote,
  notesGit,
  pushNotesArgs,
  readNote,
  writeNote,
} from '../../../src/workflows/tdd/notes.js';

const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tdd-notes-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A repository with `count` empty commits on main; returns the commits, oldest first. */
async function repo(name: string, count: number): Promise<{ root: string; commits: string[] }> {
  const root = path.join(dir, name);
  await fs.mkdir(root);
  sh(root, 'init', '-q', '-b', 'main');
  const commits: string[] = [];
  for (let i = 1; i <= count; i++) commits.push(commit(root, `commit ${i}`));
  return { root, commits };
}

/** A note written by hand, bypassing writeNote. */
function handNote(root: string, commitId: string, text: string): void {
  sh(
    root,
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@example.invalid',
    'notes',
    '--ref',
    NOTES_REF,
    'add',
    '-m',
    text,
    commitId,
  );
}

function commit(root: string, message: string): string {
  sh(root, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '--allow-empty', '-m', message);
  return sh(root, 'rev-parse', 'HEAD');
}

/** The seed's example note, verbatim. */
const seedExample: TddNote = {
  phase: 'GREEN',
  next_phase: 'GREEN',
  cycle: 1,
  current_test: { description: 'User can log in with valid credentials', test_file: 'tests/test_user_login.py' },
  test_result: 'FAIL',
  error: {
    type: 'IMPLEMENTATION_FAILED',
    message: 'Could not make test pass after 6 attempts',
    details: 'AssertionError: expected True but got False',
    retry_count: 6,
    timestamp: '2025-01-22T10:30:00Z',
  },
};

const redDone: TddNote = {
  phase: 'RED',
  next_phase: 'GREEN',
  cycle: 2,
  current_test: { description: 'User cannot log in with a wrong password', test_file: 'tests/test_user_login.py' },
  test_result: 'FAIL',
};

describe('writeNote / readNote', () => {
  it('round-trips the seed example on a commit, as pretty-printed JSON under refs/notes/agent-loop', async () => {
    const { root, commits } = await repo('r', 1);
    const git = notesGit(root, env);

    await writeNote(git, commits[0]!, seedExample);

    expect(await readNote(git, commits[0]!)).toEqual(seedExample);
    const raw = sh(root, 'notes', '--ref', NOTES_REF, 'show', commits[0]!);
    expect(JSON.parse(raw)).toEqual(seedExample);
    expect(raw).toContain('\n  "phase": "GREEN",');
  });

  it('writes as the github-actions bot (its noreply address) when the repository has no identity configured', async () => {
    const { root, commits } = await repo('r', 1);

    await writeNote(notesGit(root, env), commits[0]!, redDone);

    expect(sh(root, 'log', '-1', '--format=%an <%ae>', NOTES_REF)).toBe(
      'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>',
    );
  });

  it('overwrites the note already on the commit', async () => {
    const { root, commits } = await repo('r', 1);
    const git = notesGit(root, env);
    await writeNote(git, commits[0]!, redDone);

    await writeNote(git, commits[0]!, seedExample);

    expect(await readNote(git, commits[0]!)).toEqual(seedExample);
  });

  it('reads a note without an error, and a null error, as "no error"', async () => {
    const { root, commits } = await repo('r', 2);
    const git = notesGit(root, env);
    await writeNote(git, commits[0]!, redDone);
    handNote(root, commits[1]!, JSON.stringify({ ...redDone, error: null }));

    expect(await readNote(git, commits[0]!)).toEqual(redDone);
    expect(await readNote(git, commits[1]!)).toEqual({ ...redDone, error: null });
  });

  it('returns undefined for a commit without a note', async () => {
    const { root, commits } = await repo('r', 1);

    expect(await readNote(notesGit(root, env), commits[0]!)).toBeUndefined();
  });

  it('reports a note that is not JSON as invalid instead of throwing', async () => {
    const { root, commits } = await repo('r', 1);
    handNote(root, commits[0]!, 'not json');

    const read = await readNote(notesGit(root, env), commits[0]!);

    expect(read).toEqual({ invalid: expect.stringContaining(`is not JSON`) });
  });

  it('reports a JSON note that is not a TDD note as invalid, naming the field', async () => {
    const { root, commits } = await repo('r', 1);
    handNote(root, commits[0]!, JSON.stringify({ ...redDone, phase: 'BLUE' }));

    const read = await readNote(notesGit(root, env), commits[0]!);

    expect(read).toEqual({ invalid: expect.stringMatching(/not a valid TDD note \(phase: /) });
  });

  it('refuses to write a note that could not be read back', async () => {
    const { root, commits } = await repo('r', 1);
    const bad = { ...redDone, cycle: 0 } as TddNote;

    await expect(writeNote(notesGit(root, env), commits[0]!, bad)).rejects.toThrow(/invalid agent-loop note .*cycle/);
    expect(await readNote(notesGit(root, env), commits[0]!)).toBeUndefined();
  });

  it('throws a GitError for a name that does not resolve', async () => {
    const { root } = await repo('r', 1);

    await expect(readNote(notesGit(root, env), 'no-such-branch')).rejects.toMatchObject({ name: 'GitError' });
  });

  it('stores an error.details longer than one command-line argument may be', async () => {
    const { root, commits } = await repo('r', 1);
    const git = notesGit(root, env);
    const long: TddNote = { ...seedExample, error: { ...seedExample.error!, details: 'x'.repeat(300_000) } };

    await writeNote(git, commits[0]!, long);

    expect(await readNote(git, commits[0]!)).toEqual(long);
  });
});

describe('newestNote', () => {
  it('returns undefined when nothing carries a note', async () => {
    const { root } = await repo('r', 2);

    expect(await newestNote(notesGit(root, env))).toBeUndefined();
  });

  it('finds the note on an older commit when the newest commits have none', async () => {
    const { root, commits } = await repo('r', 4);
    const git = notesGit(root, env);
    await writeNote(git, commits[0]!, { ...redDone, cycle: 1 });
    await writeNote(git, commits[1]!, redDone);

    expect(await newestNote(git)).toEqual({ commit: commits[1], note: redDone });
  });

  it('skips an invalid note for the next older valid one, and says so', async () => {
    const { root, commits } = await repo('r', 3);
    const git = notesGit(root, env);
    await writeNote(git, commits[0]!, redDone);
    handNote(root, commits[2]!, 'not json');
    const skipped: string[] = [];

    const found = await newestNote(git, 'HEAD', { onInvalid: (c) => skipped.push(c) });

    expect(found).toEqual({ commit: commits[0], note: redDone });
    expect(skipped).toEqual([commits[2]]);
  });

  it('only considers commits on the branch asked for', async () => {
    const { root, commits } = await repo('r', 1);
    const git = notesGit(root, env);
    sh(root, 'checkout', '-q', '-b', 'agent-loop/7');
    const onCycleBranch = commit(root, 'red: a failing test');
    await writeNote(git, commits[0]!, { ...redDone, cycle: 1 });
    await writeNote(git, onCycleBranch, redDone);

    expect(await newestNote(git, 'main')).toEqual({ commit: commits[0], note: { ...redDone, cycle: 1 } });
    expect(await newestNote(git, 'agent-loop/7')).toEqual({ commit: onCycleBranch, note: redDone });
  });

  it('looks no deeper than the depth asked for', async () => {
    const { root, commits } = await repo('r', 3);
    const git = notesGit(root, env);
    await writeNote(git, commits[0]!, redDone);

    expect(await newestNote(git, 'HEAD', { depth: 2 })).toBeUndefined();
    expect(await newestNote(git, 'HEAD', { depth: 3 })).toEqual({ commit: commits[0], note: redDone });
  });

  it('after a rollback (git reset --hard) resumes from the note on the commit rolled back to', async () => {
    const { root, commits } = await repo('r', 1);
    const git = notesGit(root, env);
    await writeNote(git, commits[0]!, redDone);
    const green = commit(root, 'green: make it pass');
    await writeNote(git, green, { ...redDone, phase: 'GREEN', next_phase: 'REFACTOR', test_result: 'PASS' });

    sh(root, 'reset', '-q', '--hard', commits[0]!);

    expect(await newestNote(git)).toEqual({ commit: commits[0], note: redDone });
  });
});

describe('TddNoteSchema', () => {
  it('accepts every error type of the seed', () => {
    for (const type of TDD_ERROR_TYPES) {
      expect(TddNoteSchema.safeParse({ ...seedExample, error: { ...seedExample.error!, type } }).success).toBe(true);
    }
  });

  it('rejects an unknown error type', () => {
    const parsed = TddNoteSchema.safeParse({ ...seedExample, error: { ...seedExample.error!, type: 'OUT_OF_COFFEE' } });

    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['error', 'type']);
  });

  it('rejects a timestamp that is not RFC 3339, a negative retry count and an unknown test result', () => {
    expect(
      TddNoteSchema.safeParse({ ...seedExample, error: { ...seedExample.error!, timestamp: 'yesterday' } }).success,
    ).toBe(false);
    expect(TddNoteSchema.safeParse({ ...seedExample, error: { ...seedExample.error!, retry_count: -1 } }).success).toBe(
      false,
    );
    expect(TddNoteSchema.safeParse({ ...seedExample, test_result: 'MAYBE' }).success).toBe(false);
  });

  it('requires current_test with its description and test file', () => {
    expect(TddNoteSchema.safeParse({ ...redDone, current_test: { description: 'x' } }).success).toBe(false);
  });
});

describe('fetching and pushing the notes ref', () => {
  it('carries a note from one clone to another through a bare remote', async () => {
    const { root: origin, commits } = await repo('origin-work', 2);
    const bare = path.join(dir, 'remote.git');
    sh(dir, 'init', '-q', '--bare', '-b', 'main', bare);
    sh(origin, 'remote', 'add', 'origin', bare);
    sh(origin, 'push', '-q', 'origin', 'main');
    await writeNote(notesGit(origin, env), commits[1]!, seedExample);
    const originGit = notesGit(origin, env);

    const pushed = await originGit.run(pushNotesArgs('origin'));
    expect(pushed).toMatchObject({ code: 0 });

    sh(dir, 'clone', '-q', bare, 'clone');
    const clone = notesGit(path.join(dir, 'clone'), env);
    expect(await newestNote(clone)).toBeUndefined(); // a clone (like actions/checkout) has no notes

    const fetched = await clone.run(fetchNotesArgs('origin'));

    expect(fetched).toMatchObject({ code: 0 });
    expect(await newestNote(clone)).toEqual({ commit: commits[1], note: seedExample });
  });

  it("fetch replaces local notes with the remote's, and fails when the remote has none", async () => {
    const { root: origin, commits } = await repo('origin-work', 1);
    const bare = path.join(dir, 'remote.git');
    sh(dir, 'init', '-q', '--bare', '-b', 'main', bare);
    sh(origin, 'remote', 'add', 'origin', bare);
    sh(origin, 'push', '-q', 'origin', 'main');
    sh(dir, 'clone', '-q', bare, 'clone');
    const clone = notesGit(path.join(dir, 'clone'), env);

    expect((await clone.run(fetchNotesArgs('origin'))).code).not.toBe(0);

    await writeNote(clone, commits[0]!, redDone); // diverged local note
    await writeNote(notesGit(origin, env), commits[0]!, seedExample);
    await notesGit(origin, env).run(pushNotesArgs('origin'));
    expect((await clone.run(fetchNotesArgs('origin'))).code).toBe(0);

    expect(await readNote(clone, commits[0]!)).toEqual(seedExample);
  });

  it('spells the argv as git expects', () => {
    expect(fetchNotesArgs('origin')).toEqual(['fetch', 'origin', '+refs/notes/agent-loop:refs/notes/agent-loop']);
    expect(pushNotesArgs('origin')).toEqual([
      'push',
      '--no-verify',
      '--no-follow-tags',
      'origin',
      'refs/notes/agent-loop',
    ]);
  });
});
