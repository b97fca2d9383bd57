/**
 * Incremental reader of `codex exec --json` (JSONL events): thread.started, turn.started,
 * turn.completed (usage), turn.failed, item.started|updated|completed (agent_message,
 * command_execution, file_change, error, …) and top-level error. Keeps only what the outcome
 * needs; anything else is ignored.
 */
import path from 'node:path';
import { parseEventLine } from './streamingCli.js';

export interface CodexStreamState {
  threadId?: string;
  /** Text of the last agent_message: where the report block is. */
  lastMessage?: string;
  /** turn.failed or a top-level error: the run failed with this message. */
  fatalError?: string;
  /** item.completed of type error: warnings the CLI reports while the run may still succeed. */
  warnings: string[];
  turnsCompleted: number;
  usage: { input: number; output: number };
  commands: number;
  fileChanges: number;
  ignoredLines: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export class CodexStreamParser {
  readonly state: CodexStreamState = {
    warnings: [],
    turnsCompleted: 0,
    usage: { input: 0, output: 0 },
    commands: 0,
    fileChanges: 0,
    ignoredLines: 0,
  };

  /** `mask` masks the decoded events' strings (see parseEventLine). */
  constructor(
    private readonly cwd: string,
    private readonly mask?: (text: string) => string,
  ) {}

  /** Feeds one line of stdout; returns the compact lines to show for it. */
  push(line: string): string[] {
    const event = parseEventLine(line, () => this.state.ignoredLines++, this.mask);
    if (!event) return [];
    const s = this.state;
    switch (event.type) {
      case 'thread.started':
        s.threadId = str(event.thread_id) ?? s.threadId;
        return [];
      case 'turn.completed': {
        s.turnsCompleted++;
        s.fatalError = undefined; // the turn went through after all (errors before it were retried)
        const u = isObject(event.usage) ? event.usage : {};
        s.usage = { input: s.usage.input + num(u.input_tokens), output: s.usage.output + num(u.output_tokens) };
        return [];
      }
      case 'turn.failed':
        s.fatalError = errorText(event.error) ?? 'turn failed';
        return [];
      case 'error': {
        const message = str(event.message) ?? errorText(event.error) ?? 'error';
        // "Reconnecting... 2/5 (…)": the CLI retrying on its own, not the end of the run.
        if (/^Reconnecting\.\.\./.test(message)) {
          s.warnings.push(message);
          return [`  ↻ ${clip(message, 160)}`];
        }
        s.fatalError = message;
        return [];
      }
      case 'item.started':
      case 'item.completed':
        return isObject(event.item) ? this.item(event.item, event.type === 'item.completed') : [];
      default:
        return [];
    }
  }

  private item(item: Json, completed: boolean): string[] {
    const s = this.state;
    switch (item.type) {
      case 'agent_message':
        if (!completed) return [];
        s.lastMessage = str(item.text) ?? s.lastMessage;
        return s.lastMessage ? [`  ✎ ${clip(s.lastMessage.trim().split('\n')[0] ?? '', 160)}`] : [];
      case 'command_execution':
        if (completed) return []; // shown when it starts; the end adds nothing a watcher needs
        s.commands++;
        return [`  ▸ Bash: ${clip(unwrapShell(str(item.command) ?? '').split('\n')[0] ?? '', 120)}`];
      case 'file_change': {
        if (!completed) return [];
        const changes = Array.isArray(item.changes) ? item.changes.filter(isObject) : [];
        s.fileChanges += changes.length;
        return changes.map((c) => `  ▸ ${verb(str(c.kind))}: ${this.rel(str(c.path) ?? '')}`);
      }
      case 'error':
        if (completed && str(item.message)) s.warnings.push(str(item.message) as string);
        return [];
      default:
        return [];
    }
  }

  private rel(p: string): string {
    const r = path.isAbsolute(p) ? path.relative(this.cwd, p) : p;
    return r && !r.startsWith('..') ? r : p;
  }
}

function errorText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isObject(v)) return str(v.message);
  return undefined;
}

function verb(kind: string | undefined): string {
  return kind === 'add' ? 'Write' : kind === 'delete' ? 'Delete' : 'Edit';
}

/** Codex runs every command as `/bin/bash -lc '<command>'`: show the command itself. */
export function unwrapShell(command: string): string {
  const m = /^(?:\/usr)?\/bin\/(?:ba|z)?sh -l?c (['"])([\s\S]*)\1$/.exec(command.trim());
  if (!m) return command;
  return m[1] === "'" ? (m[2] ?? '').replace(/'\\''/g, "'") : (m[2] ?? '').replace(/\\(["\\$`])/g, '$1');
}
