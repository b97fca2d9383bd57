/** The `codex` agent: the Codex CLI's non-interactive mode, its JSONL events read line by line. */
import { CodexStreamParser } from './codexStream.js';
import { parseReportBlock } from './report.js';
import { runStreamingCli } from './streamingCli.js';
import type { Agent, AgentResult, AgentRunRequest } from './types.js';
import { classifyCodexOutcome } from './classifyCodex.js';

export interface CodexAgentOptions {
  command?: string;
  model?: string;
  sandbox: 'read-only' | 'workspace-write' | 'danger-full-access';
  extraArgs?: string[];
  env?: NodeJS.ProcessEnv;
  killGraceMs?: number;
}

export class CodexAgent implements Agent {
  readonly displayName = 'Codex';

  constructor(private readonly options: CodexAgentOptions) {}

  /** `codex exec --json … -`: the prompt comes on stdin. */
  args(): string[] {
    const o = this.options;
    return [
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--sandbox',
      o.sandbox,
      ...(o.model ? ['--model', o.model] : []),
      ...(o.extraArgs ?? []),
      '-',
    ];
  }

  async run(request: AgentRunRequest): Promise<AgentResult> {
    const command = this.options.command ?? 'codex';
    const parser = new CodexStreamParser(request.cwd, request.mask);
    const { process: proc, shown } = await runStreamingCli({
      command,
      args: this.args(),
      request,
      parser,
      env: this.options.env,
      killGraceMs: this.options.killGraceMs,
    });
    const state = parser.state;
    const failure = classifyCodexOutcome({ state, process: proc, timeoutMs: request.timeoutMs, command });
    const result: AgentResult = {
      ok: failure === undefined,
      exitCode: proc.exitCode,
      signal: proc.signal,
      durationMs: proc.durationMs,
      outputTail: `${shown}${state.fatalError ? `${state.fatalError}\n` : ''}`,
      tokens: state.usage,
      turns: state.turnsCompleted,
    };
    if (failure) result.failure = failure;
    const report = state.lastMessage ? parseReportBlock(state.lastMessage, request.mask) : undefined;
    if (report) result.report = report;
    if (state.threadId) result.sessionId = state.threadId;
    return result;
  }
}
