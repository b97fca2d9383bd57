/** The `codex` agent: the Codex CLI's non-interactive mode, its JSONL events read line by line. */
import { CodexStreamParser } from './codexStream.js';
import { runProcess } from './process.js';
import { parseReportBlock } from './report.js';
import { StreamLog } from './streamLog.js';
import { TailBuffer } from './tail.js';
import type { Agent, AgentResult, AgentRunRequest } from './types.js';
import { classifyCodexOutcome } from '../failure/classifyCodex.js';

export interface CodexAgentOptions {
  command?: string;
  model?: string;
  sandbox: 'read-only' | 'workspace-write' | 'danger-full-access';
  extraArgs?: string[];
  env?: NodeJS.ProcessEnv;
  killGraceMs?: number;
}

const MAX_LINE_BYTES = 8 * 1024 * 1024;

export class CodexAgent implements Agent {
  readonly displayName = 'Codex';

  constructor(private readonly options: CodexAgentOptions) {}

  /** `codex exec --json … -`: the prompt comes on stdin. */
  args(): string[] {
    const o = this.options;
    return ['exec', '--json', '--skip-git-repo-check', '--sandbox', o.sandbox, ...(o.model ? ['--model', o.model] : []), ...(o.extraArgs ?? []), '-'];
  }

  async run(request: AgentRunRequest): Promise<AgentResult> {
    const command = this.options.command ?? 'codex';
    const parser = new CodexStreamParser(request.cwd);
    const log = new StreamLog(request.logFile);
    const shown = new TailBuffer(16 * 1024);
    const show = (line: string, stream: 'stdout' | 'stderr') => {
      shown.push(`${line}\n`);
      request.onLine?.(line, stream);
    };
    const proc = await runProcess({
      command, args: this.args(), cwd: request.cwd, env: this.options.env, stdin: request.prompt,
      timeoutMs: request.timeoutMs, signal: request.signal, killGraceMs: this.options.killGraceMs, maxLineBytes: MAX_LINE_BYTES,
      onLine: (line, stream) => {
        if (stream === 'stderr') return show(line, 'stderr');
        log.write(line);
        for (const display of parser.push(line)) show(display, 'stdout');
      },
    });
    log.close();
    const state = parser.state;
    const failure = classifyCodexOutcome({ state, process: proc, timeoutMs: request.timeoutMs, command });
    const result: AgentResult = {
      ok: failure === undefined, exitCode: proc.exitCode, signal: proc.signal, durationMs: proc.durationMs,
      outputTail: `${shown.toString()}${state.fatalError ? `${state.fatalError}\n` : ''}`,
      tokens: state.usage, turns: state.turnsCompleted,
    };
    if (failure) result.failure = failure;
    const report = state.lastMessage ? parseReportBlock(state.lastMessage) : undefined;
    if (report) result.report = report;
    if (state.threadId) result.sessionId = state.threadId;
    return result;
  }
}
