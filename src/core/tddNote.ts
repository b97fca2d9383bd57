/**
 * The red/green/refactor workflow's handoff state (seed 003, "Error State in Git Notes"): one JSON
 * note on each phase commit, under `refs/notes/agent-loop`; here its schema and how its text is
 * read, pure (the core's vocabulary carries notes: src/core/events.ts). src/loop/notes.ts reads and
 * writes them with git; src/workflows/tdd/notes.ts re-exports both.
 */
import { z } from 'zod';

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
  /** Issue 42: the phase changed a path the maintainer owns (a test RED committed, test infrastructure, the configuration). */
  'TESTS_CHANGED',
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

/**
 * `git` arguments to fetch the notes from `remote`, replacing the local notes (actions/checkout does
 * not fetch notes). git fails when the remote has no notes yet: callers treat that as "no state".
 */
export function fetchNotesArgs(remote: string): string[] {
  return ['fetch', remote, `+${NOTES_REF}:${NOTES_REF}`];
}

/** `git` arguments to push the notes to `remote` (a fast-forward of the remote's notes ref). */
export function pushNotesArgs(remote: string): string[] {
  return ['push', '--no-verify', '--no-follow-tags', remote, NOTES_REF];
}

/** How many commits back from the tip newestNote looks; TDD phase commits sit near the tip. */
export const NEWEST_NOTE_DEPTH = 10_000;

export function describeIssue(error: z.ZodError): string {
  const first = error.issues[0];
  return first ? `${first.path.join('.') || 'note'}: ${first.message}` : 'unknown';
}

/**
 * Why the git notes are not published (issue 43): a note holds a secret. agent-loop writes its notes
 * masked, so the agent added it (`git notes`); the notes ref's history keeps it even once removed.
 */
export function notesWithSecret(ref: string, notes: readonly string[]): string {
  const shown = notes.slice(0, 5).join(', ') + (notes.length > 5 ? ` and ${notes.length - 5} more` : '');
  return (
    `the git notes ${ref} are not pushed nor kept with the work: a secret was found in ${shown} ` +
    `(a note agent-loop did not write: it writes its notes masked). They stay in this repository only. ` +
    `Delete the ref (git update-ref -d ${ref}) once no cycle of --workflow tdd is left to resume, or rewrite its history without that note.`
  );
}
