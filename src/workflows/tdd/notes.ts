/**
 * The red/green/refactor workflow's handoff state (seed 003, "Error State in Git Notes"): one JSON
 * note on each phase commit, under `refs/notes/agent-loop`. The note travels with the branch's
 * history, so a run resumes from the newest note on the branch without a `--resume` flag, and a
 * rollback (`git reset --hard`) takes the state back with the commits.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { GitError, type GitRunner, gitRunner } from '../../git/git.js';

export const NOTES_REF = 'refs/notes/agent-loop';

/** Seed 003's "Error Types" table, in its order. */
export const TDD_ERROR_TYPES = [
  'COMPILATION_ERROR',
  'TEST_UNEXPECTED_PASS',
  'TEST_UNEXPECTED_FAIL',
  'IMPLEMENTATION_FAILED',
  'REGRESSION',
  'DUPLICATE_TEST',
  'API_RATE_LIMIT',
  'NETWORK_TIMEOUT',
  'WORKFLOW_ABORTED',
] as const;
export type TddErrorType = (typeof TDD_ERROR_TYPES)[number];

/** The workflow's phases, spelled as in the seed's example (`"phase": "GREEN"`). */
export const TDD_PHASES = ['RED', 'GREEN', 'REFACTOR'] as const;
export type TddPhase = (typeof TDD_PHASES)[number];

export const TDD_TEST_RESULTS = ['PASS', 'FAIL'] as const;

const TddErrorSchema = z.object({
  type: z.enum(TDD_ERROR_TYPES),
  message: z.string(),
  details: z.string(),
  /** Attempts made so far (the seed's example: 6 after "5 retries (6 total attempts)"). */
  retry_count: z.number().int().min(0),
  /** RFC 3339, e.g. "2025-01-22T10:30:00Z". */
  timestamp: z.iso.datetime({ offset: true }),
});
export type TddError = z.infer<typeof TddErrorSchema>;

/**
 * The note. Field names are the seed's (snake_case, as stored); `error` is present only "when an
 * error occurs": absent or null otherwise. Unknown keys are dropped on read.
 */
export const TddNoteSchema = z.object({
  /** The phase this commit finished (or failed in). */
  phase: z.enum(TDD_PHASES),
  /** Where a resumed run starts. */
  next_phase: z.enum(TDD_PHASES),
  /** The red/green/refactor cycle, from 1. */
  cycle: z.number().int().min(1),
  current_test: z.object({
    description: z.string(),
    test_file: z.string(),
  }),
  test_result: z.enum(TDD_TEST_RESULTS),
  error: TddErrorSchema.nullable().optional(),
});
export type TddNote = z.infer<typeof TddNoteSchema>;

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

/** Parses a note's text. Pure. */
export function parseNote(text: string, commit: string): TddNote | { invalid: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { invalid: `the ${NOTES_REF} note on ${commit} is not JSON (${(error as Error).message})` };
  }
  const parsed = TddNoteSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return { invalid: `the ${NOTES_REF} note on ${commit} is not a valid TDD note (${describeIssue(parsed.error)})` };
}

export function isInvalidNote(value: TddNote | undefined | { invalid: string }): value is { invalid: string } {
  return value !== undefined && 'invalid' in value;
}

/** How many commits back from the tip newestNote looks; TDD phase commits sit near the tip. */
export const NEWEST_NOTE_DEPTH = 10_000;

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

/**
 * `git` arguments to fetch the notes from `remote`, replacing the local notes (actions/checkout does
 * not fetch notes). git fails when the remote has no notes yet: callers treat that as "no state".
 */
export function fetchNotesArgs(remote: string): string[] {
  return ['fetch', remote, `+${NOTES_REF}:${NOTES_REF}`];
}

/** `git` arguments to push the notes to `remote` (a fast-forward of the remote's notes ref). */
export function pushNotesArgs(remote: string): string[] {
  return ['push', remote, NOTES_REF];
}

function describeIssue(error: z.ZodError): string {
  const first = error.issues[0];
  return first ? `${first.path.join('.') || 'note'}: ${first.message}` : 'unknown';
}
