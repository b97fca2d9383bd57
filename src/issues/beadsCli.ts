import { execFile } from 'node:child_process';
import { beadsRecordToIssue, isBeadsRecord, sortIssues, type BeadsRecord } from './ready.js';
import { tickItem } from './checklist.js';
import { untrustedReady } from './trustedIssues.js';
import {
  ESCALATED_LABEL,
  type Issue,
  type IssueSource,
  type SourceWarning,
  type TrustedFile,
  UNTRUSTED_LABEL,
} from './types.js';

export { isOnPath } from '../util/onPath.js';

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `file` with `args` (no shell). Resolves with the exit code, also when it is not 0. */
export type ExecFn = (file: string, args: string[], opts: { cwd: string }) => Promise<ExecResult>;

const MAX_BUFFER = 64 * 1024 * 1024;

/** `ExecFn` over `child_process.execFile`. Rejects only when the command cannot be run at all. */
export const execFileCommand: ExecFn = (file, args, opts) =>
  new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: opts.cwd, maxBuffer: MAX_BUFFER, encoding: 'utf8', windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const failure = error as NodeJS.ErrnoException & { code?: number | string; signal?: NodeJS.Signals | null };
        if (typeof failure.code === 'number') return resolve({ code: failure.code, stdout, stderr });
        if (failure.signal)
          return resolve({
            code: 128,
            stdout,
            stderr: `${stderr}${stderr.endsWith('\n') || !stderr ? '' : '\n'}killed by ${failure.signal}`,
          });
        if (failure.code === 'ENOENT') {
          return reject(
            new Error(`Cannot run ${file}: command not found (cwd ${opts.cwd}). Install it or put it on PATH.`),
          );
        }
        reject(new Error(`Cannot run ${[file, ...args].join(' ')} in ${opts.cwd}: ${failure.message}`));
      },
    );
  });

export interface BdCliSourceOptions {
  /** Directory bd runs in; bd finds `.beads/` from there. */
  cwd: string;
  exec?: ExecFn;
  /** The bd executable. Default "bd". */
  command?: string;
  /** Receives reports of entries in bd's output that are not issues (they are skipped). */
  onWarning?: SourceWarning;
  /** The time now (issue 42's snapshot: an issue created after it was filed during the agent run). */
  now?: () => Date;
}

/**
 * `bd ready` shows 10 issues by default; `--limit 0` lifts the limit so that the re-sort below sees
 * every ready issue, not just bd's first ten under its own sort policy.
 */
export const BD_READY_ARGS: readonly string[] = ['ready', '--json', '--limit', '0'];

/** Issues through the beads CLI (`bd`), for repositories where it is installed. */
export class BdCliSource implements IssueSource {
  readonly description = 'bd';
  private readonly cwd: string;
  private readonly exec: ExecFn;
  private readonly command: string;
  private readonly onWarning: SourceWarning;
  private readonly now: () => Date;

  constructor(options: BdCliSourceOptions) {
    this.cwd = options.cwd;
    this.exec = options.exec ?? execFileCommand;
    this.command = options.command ?? 'bd';
    this.onWarning = options.onWarning ?? (() => {});
    this.now = options.now ?? (() => new Date());
  }

  /**
   * `bd ready --json`, re-sorted with `compareIssues` (bd's own filter is kept as it is), less the
   * issues labelled UNTRUSTED_LABEL (issue 42: the agent filed or rewrote them).
   */
  async ready(): Promise<Issue[]> {
    const issues = (await this.readyRecords()).map(beadsRecordToIssue);
    return sortIssues(issues.filter((i) => !i.labels.includes(UNTRUSTED_LABEL)));
  }

  /** Issue 42: the ready issues, whole, before an agent run (for keepTrusted after it). */
  async snapshot(): Promise<Buffer> {
    return Buffer.from(JSON.stringify({ taken: this.now().toISOString(), records: await this.readyRecords() }));
  }

  /**
   * Issue 42: after an agent run, each ready issue the agent added or rewrote through bd (but its
   * cycle's own) labelled UNTRUSTED_LABEL with a comment, so that it is never worked as a person's;
   * one gone from the ready list, told. bd keeps no file to put back: nothing is rewritten.
   */
  async keepTrusted(before: Buffer, cycleIds: readonly string[]): Promise<TrustedFile> {
    const was = JSON.parse(before.toString('utf8')) as { taken: string; records: BeadsRecord[] };
    const untrusted = untrustedReady(was, await this.readyRecords(), cycleIds);
    for (const u of untrusted) {
      if (u.kept !== 'labelled') continue;
      await this.run(['label', 'add', u.id, UNTRUSTED_LABEL]);
      await this.run([
        'comments',
        'add',
        u.id,
        `agent-loop: the agent ${u.what === 'added' ? 'filed' : 'rewrote'} this issue while it worked on ${cycleIds.join(', ')}; ` +
          `it is not worked while labelled ${UNTRUSTED_LABEL}. Remove the label if it is right.`,
      ]);
    }
    return { content: undefined, untrusted, garbled: 0 };
  }

  /** `bd ready --json`'s issues, as bd gives them. */
  private async readyRecords(): Promise<BeadsRecord[]> {
    const args = [...BD_READY_ARGS];
    const output = await this.run(args);
    const value = parseJsonOutput(output, this.commandLine(args));
    if (value === null) return [];
    if (!Array.isArray(value)) {
      throw new Error(
        `${this.commandLine(args)} printed ${describeJson(value)} where a JSON array of issues was expected. Check the bd version (\`bd version\`).`,
      );
    }
    return this.records(value, args);
  }

  /** `bd show <id> --json`: an object or a one-element array. Unknown id (bd says "not found") → undefined. */
  async get(id: string): Promise<Issue | undefined> {
    const args = ['show', id, '--json'];
    const result = await this.exec(this.command, args, { cwd: this.cwd });
    if (result.code !== 0) {
      if (isNotFound(`${result.stderr}\n${result.stdout}`, id)) return undefined;
      throw commandError(this.commandLine(args), result);
    }
    const value = parseJsonOutput(result.stdout, this.commandLine(args));
    if (value === null) return undefined;
    const records = this.records(Array.isArray(value) ? value : [value], args);
    const record = records.find((r) => r.id === id) ?? records[0];
    return record && beadsRecordToIssue(record);
  }

  /** `bd close <id> --reason <reason>`, after checking that the issue exists and is not closed yet. */
  async close(id: string, reason: string): Promise<void> {
    const issue = await this.get(id);
    if (!issue) {
      throw new Error(
        `Cannot close issue ${id}: bd does not know it (\`bd show ${id}\` says not found, cwd ${this.cwd}). Check the id with \`bd list\`.`,
      );
    }
    if (issue.status === 'closed') return;
    await this.run(['close', id, '--reason', reason]);
  }

  /** `bd show`, then `bd update <id> --description <text with the box ticked>` when the box is there unticked. */
  async tickChecklistItem(id: string, item: string): Promise<boolean> {
    const issue = await this.get(id);
    if (!issue)
      throw new Error(`Cannot tick "${item}" in issue ${id}: bd does not know it. Check the id with \`bd list\`.`);
    const body = tickItem(issue.body, item);
    if (body === undefined) return false;
    await this.run(['update', id, '--description', body]);
    return true;
  }

  async markEscalated(id: string, note: string): Promise<void> {
    const issue = await this.get(id);
    if (!issue)
      throw new Error(`Cannot mark issue ${id} escalated: bd does not know it. Check the id with \`bd list\`.`);
    if (!issue.labels.includes(ESCALATED_LABEL)) await this.run(['label', 'add', id, ESCALATED_LABEL]);
    await this.run(['comments', 'add', id, note]);
  }

  /** Work held for a person (issue 42): the issue stays open, labelled, with the note as a comment. */
  async markHeld(id: string, note: string, label: string): Promise<void> {
    const issue = await this.get(id);
    if (!issue)
      throw new Error(`Cannot label issue ${id} ${label}: bd does not know it. Check the id with \`bd list\`.`);
    if (!issue.labels.includes(label)) await this.run(['label', 'add', id, label]);
    await this.run(['comments', 'add', id, note]);
  }

  private async run(args: string[]): Promise<string> {
    const result = await this.exec(this.command, args, { cwd: this.cwd });
    if (result.code !== 0) throw commandError(this.commandLine(args), result);
    return result.stdout;
  }

  private records(values: unknown[], args: string[]): BeadsRecord[] {
    const records: BeadsRecord[] = [];
    values.forEach((value, index) => {
      if (isBeadsRecord(value)) records.push(value);
      else
        this.onWarning(
          `${this.commandLine(args)}: entry ${index} skipped, it is ${describeJson(value)}, not an issue with a string "id"`,
        );
    });
    return records;
  }

  private commandLine(args: readonly string[]): string {
    return [this.command, ...args].map(shellQuote).join(' ');
  }
}

/**
 * Parses a command's JSON output. Tolerates text printed before the JSON (a notice on stdout) by
 * retrying from the first line that starts with "[" or "{". Empty output reads as null.
 */
export function parseJsonOutput(stdout: string, commandLine: string): unknown {
  const text = stdout.trim();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    const start = text.search(/^[[{]/m);
    if (start > 0) {
      try {
        return JSON.parse(text.slice(start));
      } catch {
        // fall through to the error about the whole output
      }
    }
    throw new Error(`${commandLine} printed output that is not JSON (${(error as Error).message}): ${excerpt(text)}`);
  }
}

/**
 * bd's wordings for an unknown id: "Issue X not found", "Error: issue X not found",
 * "no issue found matching \"X\"", "no issues found matching the provided IDs". A "not found" about
 * something else (a missing database, say) is not taken for an unknown issue.
 */
export function isNotFound(output: string, id: string): boolean {
  return output.split(/\r?\n/).some((line) => {
    const lower = line.toLowerCase();
    if (/no issues? found/.test(lower)) return true;
    return lower.includes('not found') && (line.includes(id) || lower.includes('issue'));
  });
}

function commandError(commandLine: string, result: ExecResult): Error {
  const stderr = lastLines(result.stderr, 10) || '(no stderr)';
  return new Error(`${commandLine} failed with exit code ${result.code}:\n${stderr}`);
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split(/\r?\n/).slice(-count).join('\n');
}

function excerpt(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
