/** The `claude` agent: Claude Code in print mode, its stream-json read line by line. */
import { parseReportBlock } from './report.js';
import { ClaudeStreamParser } from './claudeStream.js';
import { runStreamingCli } from './streamingCli.js';
import type { Agent, AgentResult, AgentRunRequest } from './types.js';
import { classifyClaudeOutcome } from './classifyClaude.js';

export interface ClaudeAgentOptions {
  /** The executable; `claude` on PATH by default. */
  command?: string;
  model?: string;
  maxTurns?: number;
  permissionMode: string;
  /** As Claude Code takes it: "Bash Edit Write" or "Bash(npm test),Edit". */
  allowedTools?: string;
  extraArgs?: string[];
  env?: NodeJS.ProcessEnv;
  killGraceMs?: number;
  now?: () => number;
}

export class ClaudeAgent implements Agent {
  readonly displayName = 'Claude';

  constructor(private readonly options: ClaudeAgentOptions) {}

  /** The argument list for one run (the prompt goes on stdin). */
  args(resumeSessionId?: string): string[] {
    const o = this.options;
    return [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      ...(o.model ? ['--model', o.model] : []),
      ...(o.maxTurns !== undefined ? ['--max-turns', String(o.maxTurns)] : []),
      '--permission-mode',
      o.permissionMode,
      ...(o.allowedTools ? ['--allowedTools', o.allowedTools] : []),
      ...(resumeSessionId ? ['--resume', resumeSessionId] : []),
      ...(o.extraArgs ?? []),
    ];
  }

  async run(request: AgentRunRequest): Promise<AgentResult> {
    const first = await this.once(request, request.resumeSessionId);
    // A session that cannot be resumed (expired, another machine) must not cost the iteration.
    if (
      request.resumeSessionId &&
      !first.ok &&
      !request.signal?.aborted &&
      /No conversation found/i.test(first.outputTail)
    ) {
      request.onLine?.(`  ↻ could not resume session ${request.resumeSessionId}; starting a fresh one`, 'stderr');
      const fresh = await this.once(request, undefined);
      return { ...fresh, durationMs: fresh.durationMs + first.durationMs };
    }
    return first;
  }

  private async once(request: AgentRunRequest, resumeSessionId: string | undefined): Promise<AgentResult> {
    const command = this.options.command ?? 'claude';
    const parser = new ClaudeStreamParser(request.cwd, request.mask);
    const { process: proc, shown } = await runStreamingCli({
      command,
      args: this.args(resumeSessionId),
      request,
      parser,
      env: this.options.env,
      killGraceMs: this.options.killGraceMs,
    });
    const state = parser.state;
    const result = state.result;
    const failure = classifyClaudeOutcome({
      state,
      process: proc,
      timeoutMs: request.timeoutMs,
      now: (this.options.now ?? Date.now)(),
      command,
    });
    const text = result?.text ?? '';
    const agentResult: AgentResult = {
      ok: failure === undefined,
      exitCode: proc.exitCode,
      signal: proc.signal,
      durationMs: proc.durationMs,
      outputTail: `${shown}${text && !shown.includes(text) ? `${text}\n` : ''}`,
    };
    if (failure) agentResult.failure = failure;
    const report = !failure || !result?.isError ? parseReportBlock(text, request.mask) : undefined;
    if (report) agentResult.report = report;
    if (result?.costUsd !== undefined) agentResult.costUsd = result.costUsd;
    if (result?.numTurns !== undefined) agentResult.turns = result.numTurns;
    if (result?.usage) agentResult.tokens = result.usage;
    if (result) agentResult.permissionDenials = result.permissionDenials;
    const sessionId = result?.sessionId ?? state.sessionId;
    if (sessionId) agentResult.sessionId = sessionId;
    return agentResult;
  }
}
