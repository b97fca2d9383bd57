/**
 * beads_integration: one issue per phase file, phase N+1 blocked by phase N, created so that a
 * re-run never makes duplicates. The ids are planned before anything is written (from a prefix
 * the caller derives from the checkpoint id), handed to the caller to record in `beads_data`, and
 * only the planned issues not yet in the file are then appended. This module writes beads JSONL
 * files; `PhaseIssueSink` is the seam for a `bd create` or GitHub implementation.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Terms } from '../../config/surface.js';
import { parseJsonl } from '../../issues/beadsFile.js';
import type { BeadsRecord } from '../../issues/ready.js';
import { writeFileAtomic } from '../../util/atomicWrite.js';
import { rfc3339 } from '../../util/clock.js';
import { phaseFilesChanged } from './messages.js';

/** One phase to turn into an issue. */
export interface PhaseIssueInput {
  /** The phase's number, 1 for phases/01-<name>.md. */
  number: number;
  name: string;
  title: string;
  /** The issue's description: usually the phase file's text. */
  body: string;
}

export interface PhaseIssueRequest {
  phases: readonly PhaseIssueInput[];
  /** Ids are `${prefix}-p01`, `${prefix}-p02`, … (see `phaseIssuePrefix`). */
  prefix: string;
  now: Date;
  /**
   * The ids an earlier attempt planned (`beads_data.planned` of the checkpoint being resumed), one
   * per phase in phase order. When given they are the plan, whatever `prefix` is, so a resumed run
   * that derives another prefix still finds the issues it created before. Empty: nothing recorded.
   */
  existing?: readonly string[];
  /**
   * Called with the planned ids before anything is written: record them (a checkpoint with
   * `beads_data`) here. When it rejects, nothing is written.
   */
  onPlanned?: (planned: readonly string[]) => Promise<void> | void;
  /** Whose words its errors use (default: the CLI's). */
  terms?: Terms;
}

export interface PhaseIssueResult {
  /** One id per phase, in phase order. */
  planned: string[];
  /** The planned ids written by this call. */
  created: string[];
  /** The planned ids that were in the file already, so not written again. */
  alreadyPresent: string[];
}

/** Where phase issues are created: the beads JSONL file here; `bd create` or GitHub issues later. */
export interface PhaseIssueSink {
  createPhaseIssues(request: PhaseIssueRequest): Promise<PhaseIssueResult>;
}

/** The hidden marker line that ties an issue to its phase key where the sink assigns the ids (bd, GitHub). */
export function phaseIssueMarker(key: string): string {
  return `<!-- agent-loop:phase-issue ${key} -->`;
}

/** The `created_by` of the dependencies this module writes. */
export const CREATED_BY = 'agent-loop';
/** beads' default priority (0 is the most urgent, 4 the least). */
const DEFAULT_PRIORITY = 2;
const PREFIX = /^[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*$/;

/** A prefix for the phase issues of one pipeline run: `plan-` and the first 8 hex digits of its checkpoint id. */
export function phaseIssuePrefix(checkpointId: string, base = 'plan'): string {
  const hex = checkpointId.replace(/-/g, '').toLowerCase().slice(0, 8);
  if (!/^[0-9a-f]{8}$/.test(hex)) {
    throw new RangeError(
      `Cannot derive an issue prefix from checkpoint id ${JSON.stringify(checkpointId)}: expected a UUID such as 6acb80f0-…`,
    );
  }
  return `${base}-${hex}`;
}

/** Pure: the phases in number order, after checking that each number is a positive whole number used once. */
function sortedPhases(phases: readonly PhaseIssueInput[]): PhaseIssueInput[] {
  const seen = new Set<number>();
  for (const phase of phases) {
    if (!Number.isInteger(phase.number) || phase.number < 1) {
      throw new RangeError(
        `Phase ${JSON.stringify(phase.name)} has number ${String(phase.number)}; phase numbers must be whole numbers from 1`,
      );
    }
    if (seen.has(phase.number))
      throw new RangeError(`Phase number ${phase.number} is given twice; each phase needs its own number`);
    seen.add(phase.number);
  }
  return [...phases].sort((a, b) => a.number - b.number);
}

/** Pure: `${prefix}-p01`, … one per phase in number order; a non-empty `existing` instead. */
export function planPhaseIssueIds(
  request: Pick<PhaseIssueRequest, 'phases' | 'prefix' | 'existing' | 'terms'>,
): string[] {
  const phases = sortedPhases(request.phases);
  if (request.existing !== undefined && request.existing.length > 0) {
    const existing = [...request.existing];
    if (existing.length !== phases.length || new Set(existing).size !== existing.length) {
      throw new Error(
        `The recorded phase issue ids (${existing.join(', ') || 'none'}) do not fit the ${phases.length} phase files: ` +
          phaseFilesChanged(request.terms),
      );
    }
    return existing;
  }
  if (!PREFIX.test(request.prefix)) {
    throw new RangeError(
      `Invalid issue id prefix ${JSON.stringify(request.prefix)}: expected letters and digits, optionally joined by "-", "_" or "." (e.g. plan-6acb80f0)`,
    );
  }
  return phases.map((phase) => `${request.prefix}-p${String(phase.number).padStart(2, '0')}`);
}

/**
 * Pure: the beads records of the phase issues, in phase order: open tasks, each phase after the
 * first with a `blocks` dependency on the one before (the JSONL shape `{issue_id, depends_on_id,
 * type, created_at, created_by}` that `computeReady` reads).
 */
export function phaseIssueRecords(
  phases: readonly PhaseIssueInput[],
  ids: readonly string[],
  now: Date,
): BeadsRecord[] {
  const sorted = sortedPhases(phases);
  if (ids.length !== sorted.length) throw new Error(`phaseIssueRecords: ${ids.length} ids for ${sorted.length} phases`);
  const stamp = rfc3339(now);
  return sorted.map((phase, i) => {
    const id = ids[i] as string;
    const record: BeadsRecord = {
      id,
      title: phase.title,
      description: phase.body,
      status: 'open',
      priority: DEFAULT_PRIORITY,
      issue_type: 'task',
      created_at: stamp,
      updated_at: stamp,
    };
    const previous = ids[i - 1];
    if (previous !== undefined) {
      record.dependencies = [
        { issue_id: id, depends_on_id: previous, type: 'blocks', created_at: stamp, created_by: CREATED_BY },
      ];
    }
    return record;
  });
}

/**
 * Pure: `content` with `records` appended, one JSON object per line. Every existing byte is kept;
 * a last line without its newline gets one first.
 */
export function appendRecords(content: Buffer, records: readonly BeadsRecord[]): Buffer {
  if (records.length === 0) return content;
  const separator = content.length > 0 && content[content.length - 1] !== 0x0a ? '\n' : '';
  return Buffer.concat([
    content,
    Buffer.from(separator + records.map((r) => `${JSON.stringify(r)}\n`).join(''), 'utf8'),
  ]);
}

export interface BeadsFilePhaseIssueOptions {
  /** The beads JSONL file, as the user named it (shown in messages); relative paths resolve against `cwd`. */
  file: string;
  /** Directory a relative `file` is resolved against. Default: the process's working directory. */
  cwd?: string;
}

/**
 * Creates the phase issues in a beads JSONL file (created when it does not exist): plans the ids,
 * calls `onPlanned`, then appends the planned issues whose id is not in the file yet, atomically.
 * When all of them are there already, the file is not written at all.
 */
export async function createPhaseIssues(
  request: PhaseIssueRequest & BeadsFilePhaseIssueOptions,
): Promise<PhaseIssueResult> {
  const planned = planPhaseIssueIds(request);
  const records = phaseIssueRecords(request.phases, planned, request.now);
  await request.onPlanned?.([...planned]);

  const absolute = path.resolve(request.cwd ?? process.cwd(), request.file);
  const content = await readIfExists(absolute, request.file);
  const present = new Set(parseJsonl(content).entries.map((e) => e.record.id));
  const missing = records.filter((r) => !present.has(r.id));
  if (missing.length > 0) await writeFileAtomic(absolute, appendRecords(content, missing));
  return {
    planned: [...planned],
    created: missing.map((r) => r.id),
    alreadyPresent: planned.filter((id) => present.has(id)),
  };
}

/** `PhaseIssueSink` over a beads JSONL file. */
export class BeadsFilePhaseIssueSink implements PhaseIssueSink {
  constructor(private readonly options: BeadsFilePhaseIssueOptions) {}

  createPhaseIssues(request: PhaseIssueRequest): Promise<PhaseIssueResult> {
    return createPhaseIssues({ ...request, ...this.options });
  }
}

async function readIfExists(absolute: string, shown: string): Promise<Buffer> {
  try {
    return await fs.readFile(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw new Error(
      `Cannot read beads issues file ${shown} (${absolute}): ${(error as Error).message}. Check that it is a readable file.`,
    );
  }
}
