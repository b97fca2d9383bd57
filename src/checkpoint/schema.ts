import path from 'node:path';
import { z } from 'zod';
import {
  CheckpointError,
  PIPELINE_PHASES,
  RUN_STAGES,
  type Checkpoint,
  type CheckpointPhase,
  type PhaseStatus,
  type SeedPhase,
} from './types.js';
import { isUuidV4 } from '../util/uuid.js';
import { describeJsonError } from './jsonError.js';

export { isUuidV4 };
export { findJsonError } from './jsonError.js';

/**
 * The on-disk format of one checkpoint, `<state-dir>/checkpoints/<id>.json` (REQ_018.1–.5):
 * `{"id", "phase", "timestamp", "sequence", "state", "errors"?}`, pretty-printed with a 2-space
 * indent and a trailing newline; `errors` is omitted when empty.
 */

const PHASE_STATUSES: readonly PhaseStatus[] = ['complete', 'failed'];

/** Seed 001's phases, the pipeline's in order (`research-complete`, `research-failed`, …): every checkpoint written has one. */
export const SEED_PHASES: readonly SeedPhase[] = PIPELINE_PHASES.flatMap((phase) =>
  PHASE_STATUSES.map((status): SeedPhase => `${phase}-${status}`),
);

/** Every phase a checkpoint read may have: seed 001's, then a run's stage as versions for issues 15 to 40 wrote it. */
export const CHECKPOINT_PHASES: readonly CheckpointPhase[] = [...SEED_PHASES, ...RUN_STAGES];

export function isCheckpointPhase(value: unknown): value is CheckpointPhase {
  return typeof value === 'string' && (CHECKPOINT_PHASES as readonly string[]).includes(value);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * Parses an RFC 3339 date-time (`2026-11-21T10:30:00Z`, `2026-11-21T12:30:00+02:00`, optional
 * fractional seconds) into a Date, honouring the offset. undefined when it is not one, including
 * impossible dates such as February 30th.
 */
export function parseRfc3339(value: string): Date | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return undefined;
  let offsetMinutes = 0;
  if (m[8] !== 'Z') {
    const offsetHours = Number(m[10]);
    const offsetMins = Number(m[11]);
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const millis = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return new Date(date.getTime() - offsetMinutes * 60_000);
}

/** How a JSON value reads in a message: "an array", "null", "a string ("x")", "nothing". */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return `a ${typeof value}`;
}

/** A string as it appears in a message: quoted, long ones cut. */
function quote(value: unknown): string {
  const text = String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const checkpointFileSchema = z.object({
  id: z.string({ error: (iss) => `id must be a string (a UUID v4), got ${describe(iss.input)}` }).refine(isUuidV4, {
    error: (iss) =>
      `id ${quote(iss.input)} is not a UUID v4 (expected xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx with y one of 8, 9, a, b)`,
  }),
  phase: z.string({ error: (iss) => `phase must be a string, got ${describe(iss.input)}` }).refine(isCheckpointPhase, {
    error: (iss) =>
      `phase ${quote(iss.input)} is not <pipeline phase>-complete|failed nor a run's phase (${RUN_STAGES.join(', ')}); ` +
      `valid phases: ${CHECKPOINT_PHASES.join(', ')}`,
  }),
  timestamp: z
    .string({ error: (iss) => `timestamp must be a string, got ${describe(iss.input)}` })
    .refine((value) => parseRfc3339(value) !== undefined, {
      error: (iss) =>
        `timestamp ${quote(iss.input)} is not an RFC 3339 date-time (expected e.g. 2026-11-21T10:30:00Z or 2026-11-21T12:30:00+02:00)`,
    }),
  // Files written by the Go original have no sequence; they sort before any same-second checkpoint of ours.
  sequence: z
    .int({ error: (iss) => `sequence must be a whole number, got ${describe(iss.input)}` })
    .min(0, { error: (iss) => `sequence must not be negative, got ${describe(iss.input)}` })
    .optional(),
  // Absent or null is the Go original's `omitempty` on a nil map: an empty state (see checkpointWarnings).
  state: z
    .unknown()
    .refine((value) => value === null || isPlainObject(value), {
      error: (iss) => `state must be a JSON object, got ${describe(iss.input)}`,
    })
    .optional(),
  errors: z
    .array(z.string({ error: (iss) => `must be a string, got ${describe(iss.input)}` }), {
      error: (iss) => `errors must be a list of strings, got ${describe(iss.input)}`,
    })
    .nullish(),
});

function formatIssue(issue: z.core.$ZodIssue): string {
  // Element issues (errors[2]) carry their position; field issues already name the field.
  if (issue.path.length > 1) {
    const [field, ...rest] = issue.path;
    return `${String(field)}${rest.map((key) => `[${String(key)}]`).join('')} ${issue.message}`;
  }
  return issue.message;
}

/**
 * Parses and validates the text of a checkpoint file read from `file`. Throws CheckpointError
 * naming the file and every problem found: invalid JSON (with line, column and offset), an id that
 * is not a UUID v4 or not the file's name, a phase outside the pipeline, a timestamp that is not
 * RFC 3339, a state that is not an object, errors that are not a list of strings.
 */
export function parseCheckpoint(text: string, file: string): Checkpoint {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(file, `${describeJsonError(text, error)}; fix the file or remove it`);
  }
  if (!isPlainObject(data)) {
    throw new CheckpointError(file, `expected a JSON object with id, phase, timestamp, state; got ${describe(data)}`);
  }
  const result = checkpointFileSchema.safeParse(data);
  if (!result.success) {
    throw new CheckpointError(file, result.error.issues.map(formatIssue).join('; '));
  }
  const { id, phase, timestamp, sequence, state, errors } = result.data;
  const expectedName = `${id}.json`;
  if (path.basename(file) !== expectedName) {
    throw new CheckpointError(
      file,
      `id ${id} does not match the file name ${path.basename(file)}; a checkpoint file must be named <id>.json (${expectedName})`,
    );
  }
  const checkpoint: Checkpoint = {
    id,
    phase: phase as CheckpointPhase,
    timestamp,
    sequence: sequence ?? 0,
    state: isPlainObject(state) ? state : {},
  };
  if (errors && errors.length > 0) checkpoint.errors = errors;
  return checkpoint;
}

/**
 * The file text for a checkpoint: fields in the documented order, 2-space indent, trailing
 * newline, `errors` only when there are some. Throws CheckpointError when the state cannot be
 * represented in JSON (a cycle, a BigInt).
 */
export function serializeCheckpoint(checkpoint: Checkpoint): string {
  const { id, phase, timestamp, sequence, state, errors } = checkpoint;
  const ordered: Record<string, unknown> = { id, phase, timestamp, sequence, state };
  if (errors && errors.length > 0) ordered.errors = errors;
  try {
    return `${layout(ordered)}\n`;
  } catch (error) {
    throw new CheckpointError(
      `${id}.json`,
      `state cannot be written as JSON (${error instanceof Error ? error.message : String(error)}); ` +
        'keep only plain data (objects, arrays, strings, numbers, booleans, null) in it',
    );
  }
}

/**
 * JSON indented by two spaces, except that a record in a list (an iteration of the history, an
 * escalation) takes one line: the file stays readable and about half as long to write and fsync
 * every iteration. What JSON.stringify(value, null, 2) would write otherwise (toJSON honoured,
 * undefined and functions dropped, a cycle refused), built directly: a replacer would be called on
 * every value of the history at every write.
 */
function layout(value: unknown, indent = '', ancestors: object[] = []): string | undefined {
  // Primitives, and boxed ones (new Number(1)) as JSON.stringify writes them.
  if (value === null || typeof value !== 'object' || isBoxed(value)) return JSON.stringify(value);
  if (ancestors.includes(value)) throw new TypeError('Converting circular structure to JSON');
  const inner = `${indent}  `;
  const parts: string[] = [];
  ancestors.push(value);
  if (Array.isArray(value)) {
    // Every index, holes included (null, as JSON writes them).
    for (let i = 0; i < value.length; i++) {
      const v = toJson(value[i], String(i));
      const record = v !== null && typeof v === 'object' && !Array.isArray(v) && !isBoxed(v);
      parts.push((record ? recordLine(v, v === value[i]) : layout(v, inner, ancestors)) ?? 'null');
    }
  } else {
    for (const [k, item] of Object.entries(value)) {
      const text = layout(toJson(item, k), inner, ancestors);
      if (text !== undefined) parts.push(`${JSON.stringify(k)}: ${text}`);
    }
  }
  ancestors.pop();
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return parts.length === 0 ? `${open}${close}` : `${open}\n${inner}${parts.join(`,\n${inner}`)}\n${indent}${close}`;
}

/**
 * The one line of a record in a list, kept per record object: the history's records are written
 * again at every checkpoint (up to HISTORY_KEPT of them), and the loop state is never changed in
 * place (every step returns a new state: src/core/state.ts), so a record object's line never
 * changes. A value that came out of a toJSON is laid out afresh (`own` false).
 */
const recordLines = new WeakMap<object, string>();
function recordLine(record: object, own: boolean): string {
  let line = own ? recordLines.get(record) : undefined;
  if (line === undefined) {
    line = JSON.stringify(record);
    if (own) recordLines.set(record, line);
  }
  return line;
}

const isBoxed = (v: object): boolean =>
  v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof BigInt;

/** A value as JSON.stringify sees it: its toJSON(key) when it has one. */
function toJson(value: unknown, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value;
}

/**
 * Problems that do not make a checkpoint unusable but deserve a log line (REQ_018.4.8: an empty
 * state is allowed but logged as a warning).
 */
export function checkpointWarnings(checkpoint: Pick<Checkpoint, 'id' | 'state'>): string[] {
  return Object.keys(checkpoint.state).length === 0
    ? [
        `checkpoint ${checkpoint.id} has an empty state: nothing but its phase was saved, so resuming from it keeps no progress`,
      ]
    : [];
}
