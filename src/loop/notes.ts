/**
 * The red/green/refactor workflow's handoff state (seed 003, "Error State in Git Notes") read and
 * written with git: one JSON note on each phase commit, under `refs/notes/agent-loop` (its schema:
 * src/core/tddNote.ts). The note travels with the branch's history, so a run resumes from the newest
 * note on the branch without a `--resume` flag, and a rollback (`git reset --hard`) takes the state
 * back with the commits.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitError, type GitRunner, gitRunner } from '../git/git.js';
import {
  NOTES_REF,
  NEWEST_NOTE_DEPTH,
  type TddNote,
  TddNoteSchema,
  describeIssue,
  isInvalidNote,
  parseNote,
} from '../core/tddNote.js';

/** The one process call the notes need (git.ts's runner); tests and callers may hand in their own. */
export type NotesGit = GitRunner;

/** Git in `cwd`, with agent-loop's identity when none is configured (writing a note makes a commit). */
export const notesGit = gitRunner;

async function must(git: NotesGit, args: string[]): Promise<string> {
  const r = await git.run(args);
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr || r.stdout);
  return r.stdout;
}

/**
 * Puts `note` on `commit`, replacing any note there. The JSON goes through a temporary file
 * (`-F`), not `-m`: a long `error.details` would exceed the kernel's limit on one argument.
 * Throws on a note that does not match the schema (it could not be read back) and on git failure.
 */
export async function writeNote(git: NotesGit, commit: string, note: TddNote): Promise<void> {
  const valid = TddNoteSchema.safeParse(note);
  if (!valid.success)
    throw new Error(`Refusing to write an invalid agent-loop note on ${commit}: ${describeIssue(valid.error)}`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-note-'));
  try {
    const file = path.join(dir, 'note.json');
    await fs.writeFile(file, `${JSON.stringify(valid.data, null, 2)}\n`);
    await must(git, ['notes', '--ref', NOTES_REF, 'add', '-f', '-F', file, commit]);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * The note on `commit`: undefined when it has none, `{ invalid }` with the reason when the note is
 * not JSON or not a note this version understands (never a throw for those). Throws GitError when
 * git fails otherwise, e.g. `commit` does not exist.
 */
export async function readNote(git: NotesGit, commit: string): Promise<TddNote | undefined | { invalid: string }> {
  const args = ['notes', '--ref', NOTES_REF, 'show', commit];
  const r = await git.run(args);
  // `git notes show` exits 1 ("no note found for object"); an unknown object dies with 128.
  if (r.code === 1) return undefined;
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr || r.stdout);
  return parseNote(r.stdout, commit);
}

/**
 * The newest commit on `branch` (first in `git rev-list` order) carrying a valid note, and the note:
 * where an interrupted run resumes. Invalid notes are skipped for the next older valid one. Only
 * commits listed by `git notes list` are read, and only the newest `depth` commits are considered.
 * `onInvalid` hears about each invalid note skipped.
 */
export async function newestNote(
  git: NotesGit,
  branch = 'HEAD',
  options: { depth?: number; onInvalid?: (commit: string, reason: string) => void } = {},
): Promise<{ commit: string; note: TddNote } | undefined> {
  const noted = new Set(
    (await must(git, ['notes', '--ref', NOTES_REF, 'list']))
      .split('\n')
      .map((line) => line.trim().split(/\s+/)[1])
      .filter((commit): commit is string => commit !== undefined && commit !== ''),
  );
  if (noted.size === 0) return undefined;
  const commits = (await must(git, ['rev-list', `--max-count=${options.depth ?? NEWEST_NOTE_DEPTH}`, branch, '--']))
    .split('\n')
    .map((line) => line.trim())
    .filter((commit) => noted.has(commit));
  for (const commit of commits) {
    const note = await readNote(git, commit);
    if (note === undefined) continue;
    if (isInvalidNote(note)) {
      options.onInvalid?.(commit, note.invalid);
      continue;
    }
    return { commit, note };
  }
  return undefined;
}
