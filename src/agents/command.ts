import { classifyCommandOutcome } from './classifyCommand.js';
import { DEFAULT_KILL_GRACE_MS, runProcess, type ProcessResult } from './process.js';
import { parseReportBlock } from './report.js';
import type { Agent, AgentResult, AgentRunRequest } from './types.js';

export interface CommandAgentOptions {
  /** The shell command line (`--agent-command`), run via /bin/sh -c. */
  command: string;
  /** Used in log lines. Default "Command". */
  displayName?: string;
  /** Base environment. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** SIGTERM → SIGKILL grace period. Default 5000 ms. */
  killGraceMs?: number;
  /** Size of the output tail kept. Default 64 KiB. */
  tailBytes?: number;
}

/** The environment the command sees: the base env plus the AGENT_LOOP_* variables. */
export function commandEnv(base: NodeJS.ProcessEnv, request: AgentRunRequest): NodeJS.ProcessEnv {
  return {
    ...base,
    AGENT_LOOP_PROMPT_FILE: request.promptFile,
    AGENT_LOOP_ISSUE_IDS: request.issueIds.join(','),
    AGENT_LOOP_ITERATION: String(request.iteration),
  };
}

/** The AgentResult for a finished run. Pure. */
export function commandResult(result: ProcessResult, timeoutMs?: number): AgentResult {
  const failure = classifyCommandOutcome(result, timeoutMs);
  const out: AgentResult = {
    ok: failure === undefined,
    exitCode: result.exitCode,
    signal: result.signal,
    durationMs: result.durationMs,
    outputTail: result.tail,
  };
  if (failure) out.failure = failure;
  const report = parseReportBlock(result.tail);
  if (report) out.report = report;
  return out;
}

/** `--agent command --agent-command "CMD"`: any command, prompt on stdin and in $AGENT_LOOP_PROMPT_FILE. */
export class CommandAgent implements Agent {
  readonly displayName: string;
  private readonly command: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly killGraceMs: number;
  private readonly tailBytes: number | undefined;

  constructor(options: CommandAgentOptions) {
    this.command = options.command;
    this.displayName = options.displayName ?? 'Command';
    this.env = options.env ?? process.env;
    this.killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.tailBytes = options.tailBytes;
  }

  async run(request: AgentRunRequest): Promise<AgentResult> {
    const result = await runProcess({
      command: this.command,
      shell: true,
      cwd: request.cwd,
      env: commandEnv(this.env, request),
      stdin: request.prompt,
      stdinFile: request.promptFile,
      timeoutMs: request.timeoutMs,
      killGraceMs: this.killGraceMs,
      ...(this.tailBytes !== undefined ? { tailBytes: this.tailBytes } : {}),
      ...(request.onLine ? { onLine: request.onLine } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.onSpawn ? { onSpawn: request.onSpawn } : {}),
      ...(request.mask ? { mask: request.mask } : {}),
    });
    return commandResult(result, request.timeoutMs);
  }
}
