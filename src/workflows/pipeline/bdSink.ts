/**
 * beads_integration through the beads CLI (`bd`), for repositories where bd manages the issues.
 * bd assigns its own ids (`bd-a1b2`), so the ids cannot be planned up front as the JSONL sink does.
 * What is planned instead is a key per phase (`<prefix>-p01`, … or the keys an earlier attempt
 * recorded), written into the issue's description as a hidden marker line
 * `<!-- agent-loop:phase-issue <key> -->`. A run lists bd's issues (closed ones included), finds the
 * keys already there by their markers, creates only the missing issues, and adds the missing
 * `blocks` dependencies (phase N+1 blocked by phase N), so a re-run never makes duplicates.
 *
 * The bd commands, as documented in beads' CLI reference (`bd help --doc <command>`,
 * docs/cli-reference/{list,create,dep}.md) and cmd/bd/{list,create,dep}.go:
 *   bd list --json --all --limit 0     every issue, closed included (`--all`), no 50-row cap
 *                                      (`--limit 0`); a JSON array of issues
 *                                      ({"items": [...]} when BD_JSON_ENVELOPE=1)
 *   bd create <title> --description <text> --type task --priority 2 --json
 *                                      the created issue as a JSON object with its "id"
 *   bd show <id> --json                the issue with "dependencies": the depended-on issues
 *                                      ({id, dependency_type}); an object or a one-element array
 *   bd dep add <blocked> <blocker> --type blocks
 *                                      <blocked> depends on (is blocked by) <blocker>
 */
import { execFileCommand, isNotFound, parseJsonOutput, type ExecFn, type ExecResult } from '../../issues/beadsCli.js';
import { isBeadsRecord, isPlainObject, type BeadsRecord } from '../../issues/ready.js';
import type { SourceWarning } from '../../issues/types.js';
import {
  phaseIssueMarker,
  planPhaseIssueIds,
  type PhaseIssueInput,
  type PhaseIssueRequest,
  type PhaseIssueResult,
  type PhaseIssueSink,
} from './beadsCreate.js';
import {
  BD_LIST_HINT,
  createdIdMissing,
  duplicatePhaseIssues,
  notYetBlocked,
  phaseIssueNotCreated,
} from './messages.js';
export { phaseIssueMarker } from './beadsCreate.js';

/** A phase issue result with the bd id of each key. */
export type BdPhaseIssueResult = PhaseIssueResult & {
  /** key (`<prefix>-pNN`) → the id bd gave the issue, for every planned key. */
  ids: Record<string, string>;
};

export interface BdCliPhaseIssueOptions {
  /** Directory bd runs in; bd finds `.beads/` from there. */
  cwd: string;
  exec?: ExecFn;
  /** The bd executable. Default "bd". */
  command?: string;
  /** Receives reports of oddities that do not stop the run (skipped list entries, duplicate markers). */
  onWarning?: SourceWarning;
}

/** `bd list` shows open issues only, 50 at most, by default: `--all` adds the closed ones, `--limit 0` lifts the cap. */
export const BD_LIST_ALL_ARGS: readonly string[] = ['list', '--json', '--all', '--limit', '0'];
/** The issue type and priority of the phase issues (beads' defaults, given explicitly). */
const ISSUE_TYPE = 'task';
const PRIORITY = '2';
/** A key goes inside an HTML comment: no spaces, no `--`, nothing but what a prefix may hold. */
const KEY = /^[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*$/;
/** Statuses of issues that are gone: such an issue does not count as present. */
const DELETED_STATUSES = new Set(['tombstone']);

/** Pure: the description of a phase issue: the phase's body, a blank line, the marker line. */
export function describePhaseIssue(body: string, key: string): string {
  const text = body.replace(/\s+$/, '');
  return `${text}${text ? '\n\n' : ''}${phaseIssueMarker(key)}\n`;
}

/**
 * Pure: for each key, the bd issue whose description carries its marker. When several do (an
 * interrupted run that created one twice, a copied description), the oldest wins, then the
 * smallest id; `duplicates` names the others.
 */
export function findMarkedIssues(
  keys: readonly string[],
  records: readonly BeadsRecord[],
): { found: Map<string, BeadsRecord>; duplicates: Map<string, string[]> } {
  const found = new Map<string, BeadsRecord>();
  const duplicates = new Map<string, string[]>();
  for (const key of keys) {
    const marker = phaseIssueMarker(key);
    const matches = records
      .filter(
        (r) =>
          typeof r.description === 'string' &&
          r.description.includes(marker) &&
          !DELETED_STATUSES.has(String(r.status)),
      )
      .sort(byAgeThenId);
    const first = matches[0];
    if (first) found.set(key, first);
    if (matches.length > 1)
      duplicates.set(
        key,
        matches.slice(1).map((r) => r.id),
      );
  }
  return { found, duplicates };
}

/** `PhaseIssueSink` over the bd CLI. */
export class BdCliPhaseIssueSink implements PhaseIssueSink {
  private readonly cwd: string;
  private readonly exec: ExecFn;
  private readonly command: string;
  private readonly onWarning: SourceWarning;

  constructor(options: BdCliPhaseIssueOptions) {
    this.cwd = options.cwd;
    this.exec = options.exec ?? execFileCommand;
    this.command = options.command ?? 'bd';
    this.onWarning = options.onWarning ?? (() => {});
  }

  /**
   * Plans the keys, calls `onPlanned` (bd is not run at all when it rejects), then lists bd's
   * issues, creates the phases whose marker is not found, and adds the missing dependencies.
   */
  async createPhaseIssues(request: PhaseIssueRequest): Promise<BdPhaseIssueResult> {
    const keys = planPhaseIssueIds(request);
    const bad = keys.find((k) => !KEY.test(k));
    if (bad !== undefined) {
      throw new RangeError(
        `Invalid phase issue key ${JSON.stringify(bad)}: expected letters and digits, optionally joined by "-", "_" or "." (e.g. plan-6acb80f0-p01)`,
      );
    }
    const phases = [...request.phases].sort((a, b) => a.number - b.number);
    await request.onPlanned?.([...keys]);

    const { found, duplicates } = findMarkedIssues(keys, await this.listAll());
    for (const [key, others] of duplicates) {
      this.onWarning(duplicatePhaseIssues(phaseIssueMarker(key), others.length + 1, found.get(key)?.id, others));
    }
    const ids: Record<string, string> = {};
    for (const [key, record] of found) ids[key] = record.id;

    const created: string[] = [];
    for (const [i, key] of keys.entries()) {
      if (ids[key] !== undefined) continue;
      ids[key] = await this.create(phases[i] as PhaseIssueInput, key, keys, created);
      created.push(key);
    }

    for (let i = 1; i < keys.length; i++) {
      const blocked = ids[keys[i] as string] as string;
      const blocker = ids[keys[i - 1] as string] as string;
      // A dependency can only exist already when both issues did.
      if (found.has(keys[i] as string) && found.has(keys[i - 1] as string) && (await this.dependsOn(blocked, blocker)))
        continue;
      await this.addBlocks(blocked, blocker);
    }

    return {
      planned: [...keys],
      created,
      alreadyPresent: keys.filter((k) => found.has(k)),
      ids,
    };
  }

  /** `bd list --json --all --limit 0`: every issue, closed ones included. */
  private async listAll(): Promise<BeadsRecord[]> {
    const args = [...BD_LIST_ALL_ARGS];
    const stdout = await this.run(args, BD_LIST_HINT);
    const value = this.parse(stdout, args);
    if (value === null) return [];
    const items = Array.isArray(value)
      ? value
      : isPlainObject(value) && Array.isArray(value.items)
        ? value.items
        : undefined;
    if (!items) {
      throw new Error(
        `${this.commandLine(args)} printed ${describeJson(value)} where a JSON array of issues was expected. Check the bd version (\`bd version\`).`,
      );
    }
    const records: BeadsRecord[] = [];
    items.forEach((item: unknown, index: number) => {
      if (isBeadsRecord(item)) records.push(item);
      else
        this.onWarning(
          `${this.commandLine(args)}: entry ${index} skipped, it is ${describeJson(item)}, not an issue with a string "id"`,
        );
    });
    return records;
  }

  /** `bd create <title> --description <body + marker> --type task --priority 2 --json` → the new id. */
  private async create(
    phase: PhaseIssueInput,
    key: string,
    keys: readonly string[],
    created: readonly string[],
  ): Promise<string> {
    const args = [
      'create',
      phase.title,
      '--description',
      describePhaseIssue(phase.body, key),
      '--type',
      ISSUE_TYPE,
      '--priority',
      PRIORITY,
      '--json',
    ];
    const sofar = created.length
      ? ` The issues created before it (${created.join(', ')}) carry their markers and are found again.`
      : '';
    const hint = phaseIssueNotCreated(key, phase.number, sofar, `${keys[0]}`, `${keys[keys.length - 1]}`);
    const stdout = await this.run(args, hint);
    const value = this.parse(stdout, args);
    const record = Array.isArray(value) ? value[0] : value;
    if (!isPlainObject(record) || typeof record.id !== 'string' || record.id === '') {
      throw new Error(
        `${this.commandLine(args)} printed ${describeJson(value)} without the created issue's "id". ` +
          createdIdMissing(key),
      );
    }
    return record.id;
  }

  /** Whether `bd show <blocked> --json` lists a blocks dependency on `blocker`. */
  private async dependsOn(blocked: string, blocker: string): Promise<boolean> {
    const args = ['show', blocked, '--json'];
    const result = await this.exec(this.command, args, { cwd: this.cwd });
    if (result.code !== 0) {
      const hint = isNotFound(`${result.stderr}\n${result.stdout}`, blocked)
        ? `bd listed ${blocked} a moment ago; check it with \`bd list --all\` and run again.`
        : 'Check that bd works in this directory, then run again.';
      throw bdError(this.commandLine(args), result, hint);
    }
    const value = this.parse(result.stdout, args);
    const records = (Array.isArray(value) ? value : [value]).filter(isBeadsRecord);
    const record = records.find((r) => r.id === blocked) ?? records[0];
    const deps = record?.dependencies;
    if (!Array.isArray(deps)) return false;
    return deps.some((dep) => {
      if (!isPlainObject(dep)) return false;
      const target = typeof dep.depends_on_id === 'string' ? dep.depends_on_id : dep.id;
      const type =
        typeof dep.type === 'string'
          ? dep.type
          : typeof dep.dependency_type === 'string'
            ? dep.dependency_type
            : 'blocks';
      return target === blocker && type === 'blocks';
    });
  }

  /** `bd dep add <blocked> <blocker> --type blocks`. */
  private async addBlocks(blocked: string, blocker: string): Promise<void> {
    const args = ['dep', 'add', blocked, blocker, '--type', 'blocks'];
    await this.run(args, notYetBlocked(blocked, blocker, this.commandLine(args)));
  }

  private async run(args: string[], hint: string): Promise<string> {
    const result = await this.exec(this.command, args, { cwd: this.cwd });
    if (result.code !== 0) throw bdError(this.commandLine(args), result, hint);
    return result.stdout;
  }

  private parse(stdout: string, args: readonly string[]): unknown {
    return parseJsonOutput(stdout, this.commandLine(args));
  }

  /** The command as a shell would take it, long arguments (the description) abbreviated. */
  private commandLine(args: readonly string[]): string {
    return [this.command, ...args].map((a) => shellQuote(abbreviate(a))).join(' ');
  }
}

function bdError(commandLine: string, result: ExecResult, hint: string): Error {
  const stderr = result.stderr.trimEnd().split(/\r?\n/).slice(-10).join('\n') || '(no stderr)';
  return new Error(`${commandLine} failed with exit code ${result.code}:\n${stderr}\n${hint}`);
}

function byAgeThenId(a: BeadsRecord, b: BeadsRecord): number {
  const ta = typeof a.created_at === 'string' ? Date.parse(a.created_at) : NaN;
  const tb = typeof b.created_at === 'string' ? Date.parse(b.created_at) : NaN;
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return ta - tb;
  if (Number.isNaN(ta) !== Number.isNaN(tb)) return Number.isNaN(ta) ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function abbreviate(arg: string, max = 60): string {
  if (arg.length <= max && !arg.includes('\n')) return arg;
  const first = arg.split('\n')[0] ?? '';
  return `${first.slice(0, 40)}… (${arg.length} characters)`;
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
