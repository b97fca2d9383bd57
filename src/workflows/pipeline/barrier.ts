/**
 * The hard barrier after each agent phase of the pipeline (seed 004, pattern 2): the artifact the
 * agent was told to write must exist, be big enough, and parse where it is structured; otherwise
 * the phase fails with problems that name exactly what is missing or wrong. The decisions are a
 * pure function (`judgeArtifact`) over what was found on disk; `checkBarrier` only looks.
 */
import { promises as nodeFs } from 'node:fs';
import path from 'node:path';
import {
  artifactPath,
  validateDecomposition,
  type AgentPhaseSpec,
  type ArtifactKind,
  type Decomposition,
} from './phases.js';

/** One phase file of phase_decomposition, `phases/NN-<name>.md`. */
export interface PhaseFile {
  /** NN as a number: 1 for 01. */
  number: number;
  /** The <name> part. */
  name: string;
  /** Relative to `<state-dir>/pipeline`, e.g. "phases/01-storage-layer.md". */
  file: string;
  /** The file's first Markdown heading, or its name with dashes and underscores as spaces. */
  title: string;
  text: string;
  size: number;
}

/** What a passing barrier hands on, by artifact kind. */
export interface ArtifactValues {
  markdown: string;
  decomposition: Decomposition;
  'phase-files': PhaseFile[];
}

export type BarrierResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** A directory entry as found; directories are not looked into. Dot files are ignored by the barrier. */
export type ObservedEntry = { name: string } & (
  | { kind: 'file'; size: number; text: string }
  | { kind: 'directory' }
  | { kind: 'other' }
  | { kind: 'unreadable'; reason: string }
);

/** What is at an artifact's path. `entries` (of a directory) are only read for phase_decomposition. */
export type Observed =
  | { kind: 'missing' }
  | { kind: 'file'; size: number; text: string }
  | { kind: 'directory'; entries: ObservedEntry[] }
  | { kind: 'other' }
  | { kind: 'unreadable'; reason: string };

/** The file operations the barrier needs; `node:fs/promises` by default, a fake in tests. */
export interface BarrierFs {
  stat(file: string): Promise<{ isFile(): boolean; isDirectory(): boolean }>;
  readFile(file: string): Promise<Buffer>;
  readdir(dir: string): Promise<string[]>;
}

export const nodeBarrierFs: BarrierFs = {
  stat: (file) => nodeFs.stat(file),
  readFile: (file) => nodeFs.readFile(file),
  readdir: (dir) => nodeFs.readdir(dir),
};

/**
 * Checks the artifact of `phase` under `<stateDir>/pipeline`. Never rejects because of what is (or
 * is not) on disk: an unreadable file is a problem like any other. The artifacts' text enters the
 * engine here (the next prompts quote it, the phase files become issues): `mask` masks it.
 */
export async function checkBarrier<K extends ArtifactKind>(
  phase: AgentPhaseSpec & { kind: K },
  stateDir: string,
  fs: BarrierFs = nodeBarrierFs,
  mask: (text: string) => string = (text) => text,
): Promise<BarrierResult<ArtifactValues[K]>> {
  const absolute = artifactPath(stateDir, phase);
  // Without the trailing "/" of phases/, so that a file standing there is seen as a file.
  const observed = await observe(absolute.replace(/[\\/]+$/, ''), { ...fs, mask }, phase.kind === 'phase-files');
  const judged = judgeArtifact(phase, observed, absolute);
  // The findings quote what was found (a file's error, an entry's name): the next prompt quotes them.
  return judged.ok ? judged : { ok: false, problems: judged.problems.map(mask) };
}

async function observe(
  absolute: string,
  fs: BarrierFs & { mask: (text: string) => string },
  listEntries: boolean,
): Promise<Observed> {
  let stats: { isFile(): boolean; isDirectory(): boolean };
  try {
    stats = await fs.stat(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unreadable', reason: (error as Error).message };
  }
  if (stats.isFile()) {
    try {
      const content = await fs.readFile(absolute);
      return { kind: 'file', size: content.length, text: fs.mask(content.toString('utf8')) };
    } catch (error) {
      return { kind: 'unreadable', reason: (error as Error).message };
    }
  }
  if (!stats.isDirectory()) return { kind: 'other' };
  if (!listEntries) return { kind: 'directory', entries: [] };
  let names: string[];
  try {
    names = await fs.readdir(absolute);
  } catch (error) {
    return { kind: 'unreadable', reason: (error as Error).message };
  }
  const entries: ObservedEntry[] = [];
  for (const name of [...names].sort(byCodeUnit)) {
    const found = await observe(path.join(absolute, name), fs, false);
    if (found.kind === 'directory') entries.push({ name, kind: 'directory' });
    else if (found.kind !== 'missing') entries.push({ name, ...found }); // missing: deleted since readdir
  }
  return { kind: 'directory', entries };
}

/** Pure: the barrier's verdict on what was found at `absolute` (used in the messages). */
export function judgeArtifact<K extends ArtifactKind>(
  phase: Pick<AgentPhaseSpec, 'name' | 'artifact' | 'minBytes'> & { kind: K },
  observed: Observed,
  absolute: string,
): BarrierResult<ArtifactValues[K]> {
  const result =
    phase.kind === 'phase-files' ? judgePhaseFiles(phase, observed, absolute) : judgeFile(phase, observed, absolute);
  return result as BarrierResult<ArtifactValues[K]>;
}

function judgeFile(
  phase: Pick<AgentPhaseSpec, 'name' | 'artifact' | 'minBytes' | 'kind'>,
  observed: Observed,
  absolute: string,
): BarrierResult<string | Decomposition> {
  const label = phase.artifact;
  if (observed.kind === 'missing')
    return fail(`${label} is missing: the ${phase.name} phase must write it at ${absolute}`);
  if (observed.kind === 'unreadable') return fail(`${label} cannot be read at ${absolute}: ${observed.reason}`);
  if (observed.kind !== 'file')
    return fail(
      `${label} at ${absolute} is ${observed.kind === 'directory' ? 'a directory' : 'neither a file nor a directory'}; expected a file`,
    );
  const problems: string[] = [];
  if (observed.size < phase.minBytes) problems.push(tooSmall(label, observed.size, phase.minBytes, absolute));
  if (phase.kind !== 'decomposition')
    return problems.length > 0 ? { ok: false, problems } : { ok: true, value: observed.text };

  const parsed = parseJson(observed.text);
  if (!parsed.ok) {
    const fence = observed.text.trimStart().startsWith('```')
      ? '; remove the Markdown code fence, the file must hold only the JSON'
      : '';
    return {
      ok: false,
      problems: [...problems, `${label} is not valid JSON (${parsed.message})${fence} (${absolute})`],
    };
  }
  const valid = validateDecomposition(parsed.value);
  if (!valid.ok) problems.push(...valid.problems.map((p) => `${label}: ${p}`));
  return problems.length > 0 || !valid.ok ? { ok: false, problems } : { ok: true, value: valid.value };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') return { ok: false, message: 'the file is empty' };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/** NN-<name>.md: two or more digits, a dash, then letters, digits, "-" or "_". */
const PHASE_FILE_NAME = /^(\d{2,})-([A-Za-z0-9][A-Za-z0-9_-]*)\.md$/;
const NAME_RULE = 'NN-<name>.md (a two-digit number from 01, a dash, a name of letters, digits, "-" or "_", then .md)';

function judgePhaseFiles(
  phase: Pick<AgentPhaseSpec, 'name' | 'artifact' | 'minBytes'>,
  observed: Observed,
  absolute: string,
): BarrierResult<PhaseFile[]> {
  const label = phase.artifact.endsWith('/') ? phase.artifact : `${phase.artifact}/`;
  const dir = label.slice(0, -1);
  if (observed.kind === 'missing') {
    return fail(
      `${label} is missing: the ${phase.name} phase must create the directory ${absolute} and write the phase files (${NAME_RULE}) in it`,
    );
  }
  if (observed.kind === 'unreadable') return fail(`${label} cannot be read at ${absolute}: ${observed.reason}`);
  if (observed.kind !== 'directory')
    return fail(
      `${label} at ${absolute} is ${observed.kind === 'file' ? 'a file' : 'neither a file nor a directory'}; expected a directory of phase files`,
    );

  const problems: string[] = [];
  const files: PhaseFile[] = [];
  for (const entry of observed.entries) {
    if (entry.name.startsWith('.')) continue; // .gitkeep, .DS_Store, the temporary file of an atomic write
    const relative = `${dir}/${entry.name}`;
    const match = PHASE_FILE_NAME.exec(entry.name);
    if (entry.kind === 'directory') {
      problems.push(`${relative} is a directory; ${label} must hold only phase files named ${NAME_RULE}`);
    } else if (entry.kind === 'unreadable') {
      problems.push(`${relative} cannot be read: ${entry.reason}`);
    } else if (entry.kind === 'other') {
      problems.push(
        `${relative} is neither a file nor a directory; ${label} must hold only phase files named ${NAME_RULE}`,
      );
    } else if (!match) {
      problems.push(`${relative}: the name does not match ${NAME_RULE}`);
    } else {
      const name = match[2] as string;
      files.push({
        number: Number(match[1]),
        name,
        file: relative,
        title: phaseTitle(entry.text, name),
        text: entry.text,
        size: entry.size,
      });
    }
  }
  if (files.length === 0) {
    problems.push(
      `${label} has no phase files: expected files named ${NAME_RULE}, starting with 01-<name>.md, in ${absolute}`,
    );
  }
  files.sort((a, b) => a.number - b.number || byCodeUnit(a.file, b.file));
  problems.push(...numberingProblems(files, label));
  for (const file of files) {
    if (file.size < phase.minBytes)
      problems.push(tooSmall(file.file, file.size, phase.minBytes, path.join(absolute, path.basename(file.file))));
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: files };
}

/** Pure: the phase numbers must be 01..N, each used once. */
export function numberingProblems(files: readonly Pick<PhaseFile, 'number' | 'file'>[], label = 'phases/'): string[] {
  if (files.length === 0) return [];
  const problems: string[] = [];
  const byNumber = new Map<number, string[]>();
  for (const f of files) byNumber.set(f.number, [...(byNumber.get(f.number) ?? []), path.posix.basename(f.file)]);
  for (const [number, names] of byNumber) {
    if (names.length > 1)
      problems.push(
        `${label}: number ${pad(number)} is used by ${names.length} files (${names.join(', ')}); each phase needs its own number`,
      );
  }
  const numbers = [...byNumber.keys()].sort((a, b) => a - b);
  const max = Math.max(...numbers);
  const missing: number[] = [];
  for (let n = 1; n <= max; n++) if (!byNumber.has(n)) missing.push(n);
  const zero = byNumber.has(0);
  if (missing.length > 0 || zero) {
    const why = [
      zero ? `${pad(0)} is not allowed, numbering starts at 01` : '',
      missing.length > 0 ? `missing ${missing.map(pad).join(', ')}` : '',
    ]
      .filter((s) => s !== '')
      .join('; ');
    problems.push(
      `${label}: the phase numbers must run from 01 to ${pad(Math.max(max, 1))} without gaps; found ${numbers.map(pad).join(', ')} (${why})`,
    );
  }
  return problems;
}

/** The first Markdown heading of `text`, or `name` with "-" and "_" as spaces. */
export function phaseTitle(text: string, name: string): string {
  const heading = /^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/m.exec(text);
  const title = heading?.[1]?.trim();
  return title !== undefined && title !== '' ? title : name.replace(/[-_]+/g, ' ');
}

function tooSmall(label: string, size: number, minBytes: number, absolute: string): string {
  return `${label} is too small: ${size} ${size === 1 ? 'byte' : 'bytes'}, the minimum is ${minBytes} bytes (${absolute})`;
}

function fail(problem: string): { ok: false; problems: string[] } {
  return { ok: false, problems: [problem] };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
